"""The tables every human-readable format shows, as plain text cells: one definition, so Markdown,
HTML and the comparison carry the same numbers, formatted the same way by `advisor.present.numbers`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from advisor.core.analysis.uncertainty import Range
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import margin_not_added, sizing_allowance
from advisor.core.decision.recommendation import Candidate, Recommendation
from advisor.present import numbers, ranges
from advisor.present.purchase import up_front
from advisor.present.ranking import ranking_sentence
from advisor.present.reasons import reason_lines as present_reason_lines
from advisor.present.reasons import reason_plain
from advisor.present.serving import (
    ACQUIRE,
    FULL_LOAD_INPUT,
    FULL_LOAD_OUTPUT,
    PER_MILLION_NOTE,
    PER_MILLION_OUTPUT,
    SERVING_HEADINGS,
    TRAINING_ONLY,
    headroom_note,
    job_gpus_note,
    rate_text,
    serving_target,
)
from advisor.report.data import ReportData

DASH = "—"


@dataclass(frozen=True)
class Column:
    """A comparison column: its heading, the raw value (as in the JSON report) and its text."""

    heading: str
    raw: Callable[[Estimate], float]
    text: Callable[[float], str]
    json_key: str
    """The estimate key the raw value comes from (for the same-numbers test and docs/json.md)."""


COLUMNS: tuple[Column, ...] = (
    Column("Time to train", lambda e: e.time_to_train_hours, numbers.duration, "time_to_train_hours"),
    Column("Time to result", lambda e: e.time_to_result_hours, numbers.duration, "time_to_result_hours"),
    Column("Cost", lambda e: e.cost_usd, numbers.money, "cost_usd"),
    Column(
        "Price $/GPU-hour",
        lambda e: e.price_usd_per_gpu_hour,
        numbers.price_per_gpu_hour,
        "price_usd_per_gpu_hour",
    ),
    Column(
        "Effective $/GPU-hour",
        lambda e: e.effective_price_usd_per_gpu_hour,
        numbers.price_per_gpu_hour,
        "effective_price_usd_per_gpu_hour",
    ),
    Column(
        "Per 1M tokens",
        lambda e: e.cost_per_million_tokens_usd,
        numbers.cents_or_dollars,
        "cost_per_million_tokens_usd",
    ),
    Column("Energy", lambda e: e.energy_kwh, numbers.energy, "energy_kwh"),
    Column("MFU", lambda e: e.mfu_effective, numbers.percent, "mfu_effective"),
    Column("Goodput", lambda e: e.goodput, numbers.percent, "goodput"),
)
"""Per-system figures in the comparison table (and the compare command's per-system tables)."""


def heading_for(column: Column, kind: str, efficiency: str = "reference") -> str:
    """The column's heading for a job of `kind`; the MFU's says which the time works at, `MFU
    (production)` (a production run's overhead included) or `MFU (reference)`."""
    if kind == "inference":
        return SERVING_HEADINGS.get(column.json_key, column.heading)
    return f"{column.heading} ({efficiency})" if column.json_key == "mfu_effective" else column.heading


def columns_for(kind: str, efficiency: str = "reference") -> tuple[Column, ...]:
    """The comparison's columns for a job of `kind` at `efficiency`, each under the heading for it."""
    shown = (c for c in COLUMNS if kind != "inference" or c.json_key not in TRAINING_ONLY)
    return tuple(replace(c, heading=heading_for(c, kind, efficiency)) for c in shown)


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
    workload = report.scenario.workload
    columns = columns_for(workload.kind, workload.efficiency)
    header = ["System", "Status", *(c.heading for c in columns)]
    rows = []
    for cand in report.recommendation.candidates:
        est = cand.estimate
        cells = [c.text(c.raw(est)) if est is not None else DASH for c in columns]
        rows.append([cand.system, status(cand, report.recommendation.winner), *cells])
    return header, rows


SERVING_BLURB = (
    "Each system's serving layout (docs/methodology.md, Inference): GPUs per replica (tensor parallel), "
    "requests decoded together and the limit that set that batch, the latencies at it, the GPUs the "
    "target rate needs and their use, what they cost a month and per 1M output tokens. "
    f"{PER_MILLION_NOTE[0].upper()}{PER_MILLION_NOTE[1:]}."
)


PRICE_BLURB = (
    "Price $/GPU-hour is the rental offer's (renting) or the cost of ownership's (owning); Effective "
    "$/GPU-hour is the cost over the GPU-hours the job runs, above the price when a reservation's term or "
    "GPUs bought are paid for but idle."
)
"""Which of the two prices per GPU-hour is which: a buyer compares quotes with the first."""


def comparison_blurb(rec: Recommendation) -> str:
    """What the comparison ranks by and which price is which; for a serving job with a target rate, what
    its GPUs are."""
    blurb = f"{ranking_sentence(rec)}; a dash where a system could not be estimated. {PRICE_BLURB}"
    job_gpus = job_gpus_note(rec, "the GPUs for target in the Serving section")
    return blurb if job_gpus is None else f"{blurb} {job_gpus}."


def serving_blurb(rec: Recommendation) -> str:
    """The serving section's blurb, and what its GPU counts and $/month are for."""
    target = serving_target(rec)
    if target is None:
        return (
            f"{SERVING_BLURB} No target rate was given: $/month is the cluster given; a target rate "
            "(tokens or requests per second) sizes the fleet for it."
        )
    est, rate = target
    headroom = headroom_note(rec)
    return (
        f"{SERVING_BLURB} GPUs for target (Replicas for target × Replica GPUs) are the GPUs to "
        f"{ACQUIRE.get(est.pricing, 'get')} for {rate_text(rate)}, and $/month is theirs."
        + (f" {headroom[0].upper()}{headroom[1:]}." if headroom else "")
    )


def serving_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """The report's serving table (see `serving_table`)."""
    return serving_table(report.recommendation)


def serving_table(rec: Recommendation) -> tuple[list[str], list[list[str]]]:
    """Per system with a serving estimate: replica, batch, binding limit, latencies, fleet and prices."""
    header = [
        "System",
        "Replica GPUs",
        "Batch",
        "Limit",
        "TTFT",
        "TPOT",
        "Replicas for target",
        "GPUs for target",
        "Utilisation",
        "$/month",
        PER_MILLION_OUTPUT,
        FULL_LOAD_INPUT,
        FULL_LOAD_OUTPUT,
    ]
    rows = []
    for cand in rec.candidates:
        est = cand.estimate
        s = est.serving if est is not None else None
        if est is None or s is None:
            continue
        rows.append(
            [
                cand.system,
                f"{s.replica_gpus}",
                f"{s.batch:,}",
                s.binding_limit,
                numbers.ttft(s.ttft_ms),
                numbers.tpot(s.tpot_ms),
                f"{s.gpus_for_target // s.replica_gpus:,}" if s.gpus_for_target is not None else DASH,
                f"{s.gpus_for_target:,}" if s.gpus_for_target is not None else DASH,
                numbers.percent(s.utilisation),
                numbers.money(s.usd_per_month),
                numbers.cents_or_dollars(est.cost_per_million_tokens_usd),
                numbers.cents_or_dollars(s.usd_per_million_input_tokens_at_full_load),
                numbers.cents_or_dollars(s.usd_per_million_output_tokens_at_full_load),
            ]
        )
    return header, rows


RANGE_COLUMNS: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("Time to result", "time_to_result_hours", numbers.duration),
    ("Cost", "cost_usd", numbers.money),
    ("Per 1M tokens", "cost_per_million_tokens_usd", numbers.cents_or_dollars),
    ("Energy", "energy_kwh", numbers.energy),
)
"""Figures with a range: heading, the `EstimateRange` attribute, formatter."""


def range_blurb(report: ReportData) -> str:
    """What the ranges table shows: the uncertain inputs the ranges were drawn from (every system's, in
    the order `uncertainty.input_spreads` gives them), by their names for people."""
    serving = report.scenario.workload.kind == "inference"
    names = dict.fromkeys(name for rng in report.sensitivity.ranges.values() for name in rng.inputs)
    speed = "serving speed" if serving else "production efficiency"
    shown = [speed if name == "efficiency" else numbers.input_label(name) for name in names]
    blurb = (
        f"Each system's figures as its uncertain inputs ({', '.join(shown)}) vary over their ranges: "
        "expected value, then the 10th to 90th percentile of the samples."
    )
    note = ranges.outside_note(report.sensitivity.ranges)
    return f"{blurb} {note}" if note else blurb


def range_text(rng: Range, text: Callable[[float], str]) -> str:
    """`$2.48M ($2.31M to $2.69M)`: expected, then P10 to P90; `30.9 days (no spread)` when all three read
    the same (a serving month's time), not `30.9 days (30.9 days to 30.9 days)`."""
    expected, low, high = text(rng.expected), text(rng.p10), text(rng.p90)
    if low == high:
        return f"{expected} (no spread)" if low == expected else f"{expected} ({low} at both P10 and P90)"
    return f"{expected} ({low} to {high})"


def range_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """Expected value and P10 to P90 of each ranged figure, per system with a range."""
    kind = report.scenario.workload.kind
    headings = [
        SERVING_HEADINGS.get(key, heading) if kind == "inference" else heading
        for heading, key, _ in RANGE_COLUMNS
    ]
    header = ["System", *(f"{heading} (P10 to P90)" for heading in headings)]
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
    robust = [sens.robustness.verdict] if sens.robustness is not None else []
    return robust + ranges.break_even_lines(sens, report.recommendation)


def sizing_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """The GPU count per system that meets the deadline with the margin, what binds it, and why; the
    count each system is compared at only when the comparison is sized to the deadline (else it is the
    scenario's, and the time and cost are said to be at the size found)."""
    compared = report.scenario.size_to_deadline
    header = ["System", "Why", "GPUs to meet the deadline", "Compared at", "Binds", "Time to result", "Cost"]
    if not compared:
        header[3:] = ["Binds", "Time to result at that size", "Cost at that size"]
    rows = []
    for found in report.sizing:
        est = found.estimate
        sized = [f"{found.sized_gpus:,}" if found.sized_gpus else DASH] if compared else []
        rows.append(
            [
                found.system,
                found.reason,
                f"{found.gpus:,}" if found.gpus else "none",
                *sized,
                found.binding,
                numbers.duration(est.time_to_result_hours) if est else DASH,
                numbers.money(est.cost_usd) if est else DASH,
            ]
        )
    return header, rows


def sizing_note(report: ReportData) -> str:
    """Said after the sizing table's blurb when the comparison is not sized to the deadline: the sizes
    here are not the ones compared above."""
    if report.scenario.size_to_deadline:
        return ""
    gpus = report.scenario.workload.gpus
    at = f"the scenario's {numbers.gpus(gpus)}" if gpus else "the scenario's GPU count"
    return (
        f" The comparison above is at {at}; size_to_deadline (--size-to-deadline) compares each system at "
        "its size here."
    )


PURCHASE_HEADER = [
    "System",
    "Buy",
    "GPUs bought",
    "Up front",
    "To own, a month",
    "The run's share",
    "Runs a year",
    "Per run, fleet busy",
    "Effective $/GPU-hour",
]
"""What buying means per system: the units, the outlay, owning them, the run's share, the fleet view."""

PURCHASE_BLURB = (
    "Buying is in whole nodes or racks: GPUs bought but not running are paid for, so the effective price "
    "per running GPU-hour is above the TCO price. A month of owning repays the capital with interest and "
    "pays maintenance, hosting and power at the fleet's utilisation; the run pays its share of the "
    "depreciation life, and the same purchase does the runs a year shown ('Per run, fleet busy': a year of "
    "owning over those runs, in cash). GPUs already owned cost no capex and no lead time: the run pays "
    "their maintenance, hosting, power and opportunity cost (what their hours could earn rented out)."
)


def sizing_blurb(report: ReportData) -> str:
    """What the sizing table shows: the deadline, its margin, and the capacity it is sized within."""
    constraints = report.scenario.constraints
    quantile = next((found.quantile for found in report.sizing if found.quantile is not None), None)
    left_out = margin_not_added(constraints, quantile)
    why = f" (the team's risk appetite{'; ' + left_out if left_out else ''})" if quantile else ""
    return (
        f"The smallest GPU count per system that meets the {constraints.deadline_days:g}-day deadline, sized "
        f"{sizing_allowance(constraints, quantile)}{why}, within what can be bought or rented; "
        "'Binds' names the constraint that set it (deadline, capacity, memory, budget or lead time)."
    )


def purchase_cells(est: Estimate) -> list[str] | None:
    """One system's purchase row (None when renting)."""
    bought = est.purchase
    if bought is None:
        return None
    idle = f" ({bought.gpus_idle:,} idle)" if bought.gpus_idle else ""
    units = f"{bought.units:,} {bought.unit}{'s' if bought.units != 1 else ''}"
    if bought.gpus_owned:
        owned = f"{bought.gpus_owned:,} GPUs already owned"
        units = f"{units} + {owned}" if bought.units else f"nothing: {owned}"
    return [
        est.system,
        units,
        f"{bought.gpus_bought:,}{idle}",
        up_front(bought),
        numbers.money(bought.monthly_usd),
        f"{numbers.money(est.cost_usd)} ({numbers.percent(bought.run_share)} of its life)",
        numbers.runs_per_year(bought.runs_per_year),
        numbers.money(bought.cost_per_run_usd),
        numbers.price_per_gpu_hour(est.effective_price_usd_per_gpu_hour),
    ]


def purchase_rows(estimates: Sequence[Estimate]) -> list[list[str]]:
    """The purchase rows of the estimates that buy (empty when renting)."""
    return [cells for est in estimates if (cells := purchase_cells(est)) is not None]


def reason_lines(candidate: Candidate) -> list[str]:
    """`kind: text` for each of a candidate's reason lines (a rule's effects on one line)."""
    return [reason_plain(line) for line in present_reason_lines(candidate.reasons)]
