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

from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import UsageError
from advisor.present import numbers
from advisor.report.data import REPORT_FORMAT_VERSION, ReportData, build_report
from advisor.report.inputs import value_text
from advisor.report.tables import COLUMNS, DASH, Column
from advisor.schemas import SCHEMA_VERSION

MIN_SCENARIOS, MAX_SCENARIOS = 2, 8
_NOT_DIFFED = frozenset({"schema", "name", "notes"})


@dataclass(frozen=True)
class Difference:
    """One input that is not the same in every scenario: its key path and each scenario's value."""

    key: str
    values: tuple[Any, ...]
    """Per scenario; None where the scenario does not set it."""


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


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, f"{path}."))
        elif not (isinstance(value, dict) and not value):
            flat[path] = tuple(value) if isinstance(value, list) else value
    return flat


def differences(scenarios: Sequence[Scenario]) -> tuple[Difference, ...]:
    """Every input key path whose value is not the same in all scenarios (name and notes aside)."""
    flats = [_flatten(s.to_data()) for s in scenarios]
    keys = list(dict.fromkeys(k for flat in flats for k in flat if k.split(".")[0] not in _NOT_DIFFED))
    found = []
    for key in keys:
        values = tuple(flat.get(key) for flat in flats)
        if len(set(values)) > 1:
            found.append(Difference(key, values))
    return tuple(found)


def input_text(key: str, value: Any) -> str:
    """A scenario value as text: money in dollars, large counts as 15T, `not set` for a missing key."""
    if value is None:
        return "not set"
    if isinstance(value, tuple):
        return ", ".join(input_text(key, v) for v in value) or "none"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if key.endswith("_usd"):
            return numbers.money(value)
        if abs(value) >= 1e6:
            return numbers.count(value)
    return value_text(value)


def change_text(value: float, base: float) -> str:
    """How `value` moved from `base`: +12.5%, -40.0%, or ×3.2 / ÷3.2 past a factor of two."""
    if base <= 0 or value <= 0:
        return ""
    ratio = value / base
    if ratio >= 2:
        return f"×{ratio:.3g}"
    if ratio <= 0.5:
        return f"÷{1 / ratio:.3g}"
    return f"{'+' if ratio >= 1 else ''}{numbers.percent(ratio - 1)}"


MATRIX_COLUMNS: tuple[Column, ...] = tuple(
    next(c for c in COLUMNS if c.json_key == key)
    for key in ("cost_usd", "time_to_result_hours", "energy_kwh")
)
"""Figures shown for every system in every scenario."""

OUTCOME_COLUMNS: tuple[Column, ...] = (
    *COLUMNS[:6],
    Column("CO2", lambda e: e.co2_tonnes, lambda t: f"{t:,.3g} t", "co2_tonnes"),
)
"""Figures of each scenario's recommended system, as rows of the outcome table."""


def outcome_rows(comp: ComparisonData) -> tuple[list[str], list[list[str]]]:
    """Recommended system and its figures per scenario, each with its change from the first scenario."""
    header = ["", *comp.labels]
    rows = [["Recommended", *(r.recommendation.winner or "none feasible" for r in comp.reports)]]
    rows.append(["Pricing", *(r.scenario.workload.pricing for r in comp.reports)])
    base = comp.reports[0].winner_estimate
    for column in OUTCOME_COLUMNS:
        row = [column.heading]
        for index, report in enumerate(comp.reports):
            est = report.winner_estimate
            if est is None:
                row.append(DASH)
                continue
            text = column.text(column.raw(est))
            if index and base is not None:
                change = change_text(column.raw(est), column.raw(base))
                text += f" ({change})" if change else ""
            row.append(text)
        rows.append(row)
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
    """The inputs that differ, one row each."""
    return ["Input", *comp.labels], [
        [d.key, *(input_text(d.key, v) for v in d.values)] for d in comp.differences
    ]


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
                **({col.json_key: col.raw(c.estimate) for col in OUTCOME_COLUMNS} if c.estimate else {}),
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
                "winner_figures": {col.json_key: col.raw(est) for col in OUTCOME_COLUMNS} if est else None,
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
        "scenarios": scenarios,
    }


def render_comparison_json(comp: ComparisonData) -> str:
    """The comparison as JSON text."""
    from advisor.report.json_report import dumps

    return dumps(comparison_json(comp))
