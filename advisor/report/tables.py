"""The tables every human-readable format shows, as plain text cells: one definition, so Markdown,
HTML and the comparison carry the same numbers, formatted the same way by `advisor.core.fmt`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from advisor.core import fmt
from advisor.core.catalog import ModelSpec
from advisor.core.recommendation import Candidate
from advisor.core.results import Estimate
from advisor.core.scenario import Scenario, WorkloadSpec
from advisor.core.uncertainty import Range
from advisor.report.assumptions import AssumptionUsed, Value
from advisor.report.data import ReportData

DASH = "—"


@dataclass(frozen=True)
class Column:
    """A comparison column: its heading, the raw value (as in the JSON report) and its text."""

    heading: str
    raw: Callable[[Estimate], float]
    text: Callable[[float], str]
    json_key: str
    """The estimate key the raw value comes from (for the same-numbers test and the README)."""


def price_per_gpu_hour(usd: float) -> str:
    """$2.22 per GPU-hour, as the CLI shows it."""
    return f"${usd:.2f}"


COLUMNS: tuple[Column, ...] = (
    Column("Time to train", lambda e: e.time_to_train_hours, fmt.duration, "time_to_train_hours"),
    Column("Time to result", lambda e: e.time_to_result_hours, fmt.duration, "time_to_result_hours"),
    Column("Cost", lambda e: e.cost_usd, fmt.money, "cost_usd"),
    Column("$/GPU-hour", lambda e: e.price_usd_per_gpu_hour, price_per_gpu_hour, "price_usd_per_gpu_hour"),
    Column(
        "Per 1M tokens",
        lambda e: e.cost_per_million_tokens_usd,
        fmt.cents_or_dollars,
        "cost_per_million_tokens_usd",
    ),
    Column("Energy", lambda e: e.energy_kwh, fmt.energy, "energy_kwh"),
    Column("MFU", lambda e: e.mfu, fmt.percent, "mfu"),
    Column("Goodput", lambda e: e.goodput, fmt.percent, "goodput"),
)
"""Per-system figures in the comparison table (and the compare command's per-system tables)."""


@dataclass(frozen=True)
class Breakdown:
    """A breakdown of one total across its parts, for every system (a table and a chart)."""

    title: str
    key: str
    """The estimate's breakdown attribute, e.g. `cost_breakdown_usd` (also the JSON key)."""
    total: Callable[[Estimate], float]
    text: Callable[[float], str]
    blurb: str


BREAKDOWNS: tuple[Breakdown, ...] = (
    Breakdown(
        "Cost (TCO)",
        "cost_breakdown_usd",
        lambda e: e.cost_usd,
        fmt.money,
        "What the run costs, by part: the rental price, or for owned systems capex amortisation, cost of "
        "capital, maintenance, hosting and power.",
    ),
    Breakdown(
        "Time to result",
        "time_breakdown_hours",
        lambda e: e.time_to_result_hours,
        fmt.duration,
        "Waiting for capacity, setting up, computing, and downtime from failures and checkpoints.",
    ),
    Breakdown(
        "Energy",
        "energy_breakdown_kwh",
        lambda e: e.energy_kwh,
        fmt.energy,
        "Energy at the facility meter, by consumer: GPUs, host share, network and storage, and cooling "
        "and power losses (PUE).",
    ),
)


def part_label(key: str) -> str:
    """`capex_amortisation` as `capex amortisation`."""
    return key.replace("_", " ")


def breakdown_parts(breakdown: Breakdown, estimates: Sequence[Estimate]) -> list[str]:
    """Every part of `breakdown` across `estimates`, in first-seen order."""
    parts: dict[str, None] = {}
    for est in estimates:
        parts.update(dict.fromkeys(getattr(est, breakdown.key)))
    return list(parts)


def breakdown_rows(
    breakdown: Breakdown, candidates: Sequence[Candidate]
) -> tuple[list[str], list[list[str]]]:
    """Header and one row per system: each part, then the total."""
    estimates = [c.estimate for c in candidates if c.estimate is not None]
    parts = breakdown_parts(breakdown, estimates)
    header = ["System", *(part_label(p) for p in parts), "Total"]
    rows = []
    for est in estimates:
        values = getattr(est, breakdown.key)
        cells = [breakdown.text(values[p]) if p in values else DASH for p in parts]
        rows.append([est.system, *cells, breakdown.text(breakdown.total(est))])
    return header, rows


def status(candidate: Candidate, winner: str | None) -> str:
    """`recommended`, `rank 2`, or `infeasible` / `excluded`."""
    if candidate.system == winner:
        return "recommended"
    if candidate.feasible:
        return f"rank {candidate.rank}"
    if any(r.kind == "exclude" for r in candidate.reasons) and not any(
        r.kind == "infeasible" for r in candidate.reasons
    ):
        return "excluded"
    return "infeasible"


def comparison_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """The comparison of all systems: status, then every column (a dash where there is no estimate)."""
    header = ["System", "Status", *(c.heading for c in COLUMNS)]
    rows = []
    for cand in report.recommendation.candidates:
        est = cand.estimate
        cells = [c.text(c.raw(est)) if est is not None else DASH for c in COLUMNS]
        rows.append([cand.system, status(cand, report.recommendation.winner), *cells])
    return header, rows


RANGE_COLUMNS: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("Time to result", "time_to_result_hours", fmt.duration),
    ("Cost", "cost_usd", fmt.money),
    ("Per 1M tokens", "cost_per_million_tokens_usd", fmt.cents_or_dollars),
    ("Energy", "energy_kwh", fmt.energy),
)
"""Figures with a range: heading, the `EstimateRange` attribute, formatter."""
RANGE_BLURB = (
    "Each system's figures as its uncertain inputs (MFU, goodput, prices or capex, PUE, electricity) vary "
    "over their ranges: expected value, then the 10th to 90th percentile of the samples."
)


def range_text(rng: Range, text: Callable[[float], str]) -> str:
    """`$2.48M ($2.31M to $2.69M)`: expected, then P10 to P90."""
    return f"{text(rng.expected)} ({text(rng.p10)} to {text(rng.p90)})"


def range_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """Expected value and P10 to P90 of each ranged figure, per system with a range."""
    header = ["System", *(f"{heading} (P10 to P90)" for heading, _, _ in RANGE_COLUMNS)]
    rows = []
    for cand in report.recommendation.candidates:
        rng = report.sensitivity.ranges.get(cand.system)
        if rng is not None:
            rows.append(
                [cand.system, *(range_text(getattr(rng, key), text) for _, key, text in RANGE_COLUMNS)]
            )
    return header, rows


def certainty_lines(report: ReportData) -> list[str]:
    """How sure the answer is: robustness across the ranges, then each break-even point."""
    sens = report.sensitivity
    lines = [sens.robustness.verdict] if sens.robustness is not None else []
    lines += [b.sentence for b in sens.break_evens]
    lines += list(sens.speed_for_price)
    return lines


def sizing_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """Smallest GPU count per system that meets the deadline, and why."""
    header = ["System", "Why", "GPUs to meet the deadline", "Time to result", "Cost"]
    rows = []
    for found in report.sizing:
        est = found.estimate
        rows.append(
            [
                found.system,
                found.reason,
                f"{found.gpus:,}" if found.gpus else "none",
                fmt.duration(est.time_to_result_hours) if est else DASH,
                fmt.money(est.cost_usd) if est else DASH,
            ]
        )
    return header, rows


def input_rows(report: ReportData) -> list[tuple[str, str]]:
    """The scenario's inputs as (label, value) rows, in the order a reader asks about them."""
    s: Scenario = report.scenario
    w = s.workload
    model = report.model
    rows = [
        ("Scenario", s.name),
        ("Objective", s.objective),
        ("Model", f"{model.name} ({model.id})" if w.model else f"{model.name} ({_custom_note(model)})"),
        ("Parameters", _params(model.params_total, model.params_active)),
        ("Sequence length", f"{model.seq_len:,}"),
        ("Tokens", fmt.count(w.tokens)),
        ("GPUs", f"{w.gpus:,}"),
        ("Precision", w.precision.upper() + ("" if w.fp8_stack else " (software stack without FP8)")),
        ("Job", _job(w)),
        ("Pricing", "rent by the GPU-hour" if w.pricing == "rent" else "own (total cost of ownership)"),
        ("Software release", w.software or "latest published"),
        ("Systems considered", ", ".join(s.systems) if s.systems else "every catalogued system"),
    ]
    if w.kind == "inference":
        serving = f"{w.prompt_tokens:,} prompt + {w.output_tokens:,} output tokens, batch {w.serving_batch}"
        if w.target_tokens_per_second is not None:
            serving += f", target {w.target_tokens_per_second:,.0f} tokens/s"
        rows.append(("Serving", serving))
    c = s.constraints
    deadline = f"{c.deadline_days:g} days" if c.deadline_days is not None else "none"
    rows += [
        ("Deadline", deadline + (", each system sized to meet it" if s.size_to_deadline else "")),
        ("Budget", fmt.money(c.budget_usd) if c.budget_usd is not None else "none"),
        (
            "Capacity needed within",
            f"{c.need_within_days:g} days" if c.need_within_days is not None else "any time",
        ),
        ("Guaranteed capacity", "yes" if c.guaranteed_capacity else "no"),
        ("Risk appetite", c.risk),
        ("Iteration speed matters", "yes" if c.iteration_speed_matters else "no"),
    ]
    overrides = [a for a in report.assumptions if a.set_by_user and a.subject != "model"]
    rows.append(("Assumption overrides", "; ".join(override_text(a) for a in overrides) or "none"))
    return rows


def override_text(row: AssumptionUsed) -> str:
    """`pue = 1.2 (all systems)`."""
    return f"{values_text(row.values)} ({row.subject})"


INPUT_FIELDS = {
    "scenario": ("schema_", "name", "notes", "objective", "systems", "size_to_deadline"),
    "workload": (
        "model",
        "custom",
        "seq_len",
        "tokens",
        "gpus",
        "precision",
        "kind",
        "pricing",
        "software",
        "fp8_stack",
        "finetune_method",
        "lora_trainable_fraction",
        "prompt_tokens",
        "output_tokens",
        "serving_batch",
        "target_tokens_per_second",
    ),
}
"""Scenario and workload fields `input_rows` shows (a test fails when the schema gains one it lacks)."""


def _job(w: WorkloadSpec) -> str:
    if w.kind != "finetune":
        return w.kind
    if w.finetune_method == "lora":
        return f"finetune, LoRA training {fmt.percent(w.lora_trainable_fraction)} of the parameters"
    return "finetune, full"


def _custom_note(model: ModelSpec) -> str:
    return "given by size, architecture inferred" if model.inferred else "given by size and shape"


def _params(total: float, active: float) -> str:
    return fmt.count(total) if total == active else f"{fmt.count(total)} total, {fmt.count(active)} active"


def value_text(value: Value) -> str:
    """A catalog value as written: 45,565; 0.0862; 2.1; true; text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() and abs(value) < 1e15 else f"{value:,.6g}"
    return str(value)


def values_text(values: Sequence[tuple[str, Value]]) -> str:
    """`gpu_tdp_w = 700, host_w_per_gpu = 575`."""
    return ", ".join(f"{key} = {value_text(value)}" for key, value in values)


def assumption_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """The assumptions table: subject, topic, values, source, date and flags."""
    header = ["Subject", "Topic", "Values", "Source", "As of", "Flags"]
    rows = []
    for a in report.assumptions:
        flags = [
            flag
            for flag, on in (
                ("set in scenario", a.set_by_user),
                ("assumption", a.assumption),
                ("price over a year old", a.stale),
            )
            if on
        ]
        rows.append([a.subject, a.topic, values_text(a.values), a.source, a.as_of or DASH, ", ".join(flags)])
    return header, rows


def reason_lines(candidate: Candidate) -> list[str]:
    """`kind: text` for each of a candidate's reasons."""
    return [f"{r.kind}: {r.text}" for r in candidate.reasons]
