"""Comparisons: two to eight scenarios side by side, what differs between them and how the answer moves.

`build_comparison` reports on each scenario (`build_report`); the tables here are shared by the
Markdown, HTML and JSON renderings, so all three carry the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath
from typing import Any

from advisor.core.costing.results import Estimate
from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import UsageError
from advisor.present import numbers
from advisor.report.compare_inputs import Difference, differences, input_text, unused_note
from advisor.report.data import REPORT_FORMAT_VERSION, ReportData, build_report
from advisor.report.outline import TableSection
from advisor.report.tables import COLUMNS, DASH, Column, heading_for
from advisor.schemas import SCHEMA_VERSION

MIN_SCENARIOS, MAX_SCENARIOS = 2, 8


@dataclass(frozen=True)
class ComparisonData:
    """The scenarios' reports, their labels, and the inputs that differ between them."""

    reports: tuple[ReportData, ...]
    labels: tuple[str, ...]
    sources: tuple[str, ...]
    """Where each scenario came from (a file name), or empty."""
    differences: tuple[Difference, ...]
    today: date
    version: str


def build_comparison(
    scenarios: Sequence[Scenario],
    catalog: Catalog,
    rules: Sequence[Rule],
    *,
    today: date,
    version: str,
    sources: Sequence[str] = (),
) -> ComparisonData:
    """Report on each scenario and find what differs (2 to 8 scenarios; `sources` name their files)."""
    check_count(len(scenarios))
    sources = tuple(sources) or ("",) * len(scenarios)
    reports = tuple(build_report(s, catalog, rules, today=today, version=version) for s in scenarios)
    return ComparisonData(
        reports=reports,
        labels=_labels(scenarios, sources),
        sources=sources,
        differences=differences(scenarios),
        today=today,
        version=version,
    )


def check_count(count: int) -> None:
    """Raise UsageError unless 2 to 8 scenarios are given."""
    if not MIN_SCENARIOS <= count <= MAX_SCENARIOS:
        raise UsageError(f"compare takes {MIN_SCENARIOS} to {MAX_SCENARIOS} scenarios; {count} given")


def _labels(scenarios: Sequence[Scenario], sources: Sequence[str]) -> tuple[str, ...]:
    """Each scenario's name; a repeated name gets its file name (or its position) added."""
    names = [s.name for s in scenarios]
    labels = []
    for index, (name, source) in enumerate(zip(names, sources, strict=True)):
        if names.count(name) == 1:
            labels.append(name)
        else:
            labels.append(f"{name} ({PurePath(source).name})" if source else f"{name} #{index + 1}")
    if len(set(labels)) < len(labels):
        labels = [f"{label} #{i + 1}" for i, label in enumerate(labels)]
    return tuple(labels)


def shown_source(label: str, source: str) -> str:
    """The file to name after a scenario's heading: its source, unless its label already names that
    file (a repeated scenario name is told apart by its file name)."""
    if not source or f"({PurePath(source).name})" in label:
        return ""
    return source


def change_text(value: float, base: float) -> str:
    """How `value` moved from `base`, always as a multiple: 1.10x (10% more), 0.25x, 49.9x, 1,024x."""
    if base <= 0 or value <= 0:
        return ""
    ratio = value / base
    if ratio >= 1000:
        return f"{ratio:,.0f}x"
    return f"{ratio:.2f}x" if ratio < 10 else f"{ratio:.3g}x"


def _small_energy(kwh: float) -> str:
    """`32.2 Wh` below a kWh, else as `numbers.energy` writes it."""
    return f"{kwh * 1000:,.3g} Wh" if kwh < 1 else numbers.energy(kwh)


def _co2_grams(tonnes: float) -> str:
    return f"{tonnes * 1e6:,.3g} g"


CO2 = Column("CO2", lambda e: e.co2_tonnes, numbers.tonnes, "co2_tonnes")
PER_TOKEN = Column(
    "Cost per 1M tokens",
    lambda e: e.cost_per_million_tokens_usd,
    numbers.cents_or_dollars,
    "cost_per_million_tokens_usd",
)
ENERGY_PER_TOKEN = Column(
    "Energy per 1M tokens",
    lambda e: e.energy_kwh / e.tokens * 1e6,
    _small_energy,
    "energy_kwh_per_million_tokens",
)
CO2_PER_TOKEN = Column(
    "CO2 per 1M tokens", lambda e: e.co2_tonnes / e.tokens * 1e6, _co2_grams, "co2_tonnes_per_million_tokens"
)
TOTALS = frozenset({"time_to_train_hours", "time_to_result_hours", "cost_usd", "energy_kwh", "co2_tonnes"})
"""Figures that grow with the work: their changes mean nothing when the scenarios' work differs."""
PER_SYSTEM_ONLY = frozenset({"price_usd_per_gpu_hour", "mfu_effective", "goodput"})
MATRIX_COLUMNS: tuple[Column, ...] = tuple(
    next(c for c in COLUMNS if c.json_key == key)
    for key in ("cost_usd", "time_to_result_hours", "energy_kwh")
)
"""Figures shown for every system in every scenario (per 1M tokens instead when the work differs)."""
PER_TOKEN_MATRIX_COLUMNS: tuple[Column, ...] = (PER_TOKEN, MATRIX_COLUMNS[1], ENERGY_PER_TOKEN)
OUTCOME_COLUMNS: tuple[Column, ...] = (*(c for c in COLUMNS if c.json_key not in PER_SYSTEM_ONLY), CO2)
"""Figures of each scenario's recommended system, as rows of the outcome table."""
PER_WORK_COLUMNS: tuple[Column, ...] = (ENERGY_PER_TOKEN, CO2_PER_TOKEN)
"""Rows added when the scenarios' work differs, so that energy and CO2 compare per token too."""


def work_tokens(comp: ComparisonData) -> tuple[float | None, ...]:
    """Each scenario's work: the tokens its recommended run trains on or generates (None if none)."""
    return tuple(est.tokens if (est := r.winner_estimate) else None for r in comp.reports)


def work_differs(comp: ComparisonData) -> bool:
    """Whether the scenarios' recommended runs do different amounts of work (tokens)."""
    return len({t for t in work_tokens(comp) if t is not None}) > 1


def serving(comp: ComparisonData) -> bool:
    """Whether every scenario serves (inference): then the work is also counted in requests."""
    return all(r.scenario.workload.kind == "inference" for r in comp.reports)


def matrix_columns(comp: ComparisonData) -> tuple[Column, ...]:
    """Cost, time to result and energy of every system, per 1M tokens when the work differs."""
    return PER_TOKEN_MATRIX_COLUMNS if work_differs(comp) else MATRIX_COLUMNS


def outcome_blurb(comp: ComparisonData) -> str:
    """What the outcome table's changes are measured against, and how they are written."""
    text = "The recommended system in each scenario; changes are multiples of the first scenario's value"
    if not work_differs(comp):
        return text + " (1.10x: 10% more)."
    unit = "token and request" if serving(comp) else "token"
    return (
        f"{text}. The scenarios' work differs, so totals are shown without a change and the runs "
        f"compare per {unit} and per GPU-hour."
    )


def per_request(est: Estimate, report: ReportData) -> float:
    """Cost of 1,000 requests of the scenario's output tokens each (serving)."""
    return est.cost_per_million_tokens_usd * report.scenario.workload.output_tokens / 1000


def _work_rows(comp: ComparisonData) -> list[list[str]]:
    """The work of each scenario: tokens, and for serving the requests they make."""
    tokens = ["Work", *(f"{numbers.count(t)} tokens" if t else DASH for t in work_tokens(comp))]
    if not serving(comp):
        return [tokens]
    outputs = [r.scenario.workload.output_tokens for r in comp.reports]
    requests = [
        "Requests",
        *(numbers.count(t / o) if t else DASH for t, o in zip(work_tokens(comp), outputs, strict=True)),
    ]
    return [tokens, requests]


def _figure_row(comp: ComparisonData, heading: str, value: Any, text: Any, changed: bool) -> list[str]:
    """One row of the outcome table: each scenario's figure, with its change from the first's."""
    row = [heading]
    base = comp.reports[0].winner_estimate
    for index, report in enumerate(comp.reports):
        est = report.winner_estimate
        if est is None:
            row.append(DASH)
            continue
        cell = text(value(est, report))
        if index and changed and base is not None:
            change = change_text(value(est, report), value(base, comp.reports[0]))
            cell += f" ({change})" if change else ""
        row.append(cell)
    return row


def outcome_rows(comp: ComparisonData) -> tuple[list[str], list[list[str]]]:
    """Recommended system and its figures per scenario, each with its change from the first scenario;
    when the work differs, totals without a change and figures per token (and request) with one."""
    header = ["", *comp.labels]
    rows = [["Recommended", *(r.recommendation.winner or "none feasible" for r in comp.reports)]]
    rows.append(["Pricing", *(r.scenario.workload.pricing for r in comp.reports)])
    differs = work_differs(comp)
    if differs:
        rows.extend(_work_rows(comp))
    extra = PER_WORK_COLUMNS if differs else ()
    kind = "inference" if serving(comp) else ""
    for column in (*OUTCOME_COLUMNS, *extra):
        changed = not (differs and column.json_key in TOTALS)
        heading = heading_for(column, kind)
        rows.append(_figure_row(comp, heading, lambda e, _, c=column: c.raw(e), column.text, changed))
    if differs and serving(comp):
        rows.append(_figure_row(comp, "Per 1k requests", per_request, numbers.cents_or_dollars, True))
    return header, rows


def system_matrix(comp: ComparisonData, column: Column) -> tuple[list[str], list[list[str]]]:
    """One figure for every system in every scenario, each scenario's recommendation marked."""
    systems = list(dict.fromkeys(c.system for r in comp.reports for c in r.recommendation.candidates))
    rows = []
    for sid in systems:
        row = [sid]
        for report in comp.reports:
            cand = next((c for c in report.recommendation.candidates if c.system == sid), None)
            if cand is None or cand.estimate is None:
                row.append(DASH)
                continue
            if sid == report.recommendation.winner:
                mark = " (recommended)"
            else:
                mark = "" if cand.feasible else " (infeasible)"
            row.append(column.text(column.raw(cand.estimate)) + mark)
        rows.append(row)
    return ["System", *comp.labels], rows


def difference_rows(comp: ComparisonData) -> tuple[list[str], list[list[str]]]:
    """The inputs that differ, one row each; a value its scenario leaves unused is noted so, as the
    report's inputs are."""
    return ["Input", *comp.labels], [
        [
            d.key,
            *(
                input_text(d.key, v) + unused_note(why)
                for v, why in zip(d.values, d.unused or ("",) * len(d.values), strict=True)
            ),
        ]
        for d in comp.differences
    ]


def _figures(est: Estimate, report: ReportData) -> dict[str, float]:
    """The outcome figures of one estimate, per token (and per 1k requests when serving) too."""
    figures = {col.json_key: col.raw(est) for col in (*OUTCOME_COLUMNS, *PER_WORK_COLUMNS)}
    if report.scenario.workload.kind == "inference":
        figures["cost_per_thousand_requests_usd"] = per_request(est, report)
    return figures


def comparison_json(comp: ComparisonData) -> dict[str, Any]:
    """The comparison as JSON-ready data (raw numbers)."""
    from advisor.report.json_report import breakdowns

    scenarios = []
    for label, source, report in zip(comp.labels, comp.sources, comp.reports, strict=True):
        rec = report.recommendation
        est = report.winner_estimate
        systems = {
            c.system: {
                "feasible": c.feasible,
                "rank": c.rank,
                **(_figures(c.estimate, report) if c.estimate else {}),
            }
            for c in rec.candidates
        }
        scenarios.append(
            {
                "label": label,
                "source": source,
                "scenario": report.scenario.to_data(),
                "winner": rec.winner,
                "headline": rec.headline,
                "warnings": list(rec.warnings),
                "what_would_change": list(rec.what_would_change),
                "verdict": rec.verdict.kind,
                "why": rec.verdict.why,
                "winner_figures": _figures(est, report) if est else None,
                "systems": systems,
                "breakdowns": breakdowns(report),
            }
        )
    return {
        "schema_version": SCHEMA_VERSION,
        "comparison": {
            "format": REPORT_FORMAT_VERSION,
            "advisor_version": comp.version,
            "generated": comp.today.isoformat(),
        },
        "differences": [{"key": d.key, "values": list(d.values)} for d in comp.differences],
        "work_differs": work_differs(comp),
        "scenarios": scenarios,
    }


def render_comparison_json(comp: ComparisonData) -> str:
    """The comparison as JSON text."""
    from advisor.report.json_report import dumps

    return dumps(comparison_json(comp))


def table_sections(comp: ComparisonData) -> list[TableSection]:
    """The comparison's tables in order: what differs, how the answer moves, then every system by
    each figure."""
    header, rows = difference_rows(comp)
    sections = [
        TableSection(
            "differences",
            "What differs",
            "",
            header,
            rows,
            len(header),
            "The inputs are the same.",
            stacks_on_phone=True,
        )
    ]
    header, rows = outcome_rows(comp)
    sections.append(TableSection("outcome", "How the answer moves", outcome_blurb(comp), header, rows))
    marked = "Each scenario's recommendation is marked."
    for column in matrix_columns(comp):
        header, rows = system_matrix(comp, column)
        sections.append(
            TableSection(column.json_key, f"{column.heading} of every system", marked, header, rows)
        )
    return sections
