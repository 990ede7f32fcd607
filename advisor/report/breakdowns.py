"""The cost, time and energy breakdowns every human-readable report shows: each total by its parts, per
system (a table and a chart), titled and described for the job (a rental's cost, a serving job's time)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from advisor.core.costing.results import Estimate
from advisor.core.decision.recommendation import Candidate
from advisor.present import numbers
from advisor.present.parts import overhead_note, part_label, time_part_text
from advisor.present.serving import SERVING_TIME_BLURB, SERVING_TIME_TITLE, shown_parts
from advisor.report.tables import DASH


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
        numbers.money,
        "What the run costs, by part: the rental price, or for owned systems capex amortisation, cost of "
        "capital, maintenance, hosting and power.",
    ),
    Breakdown(
        "Time to result",
        "time_breakdown_hours",
        lambda e: e.time_to_result_hours,
        numbers.duration,
        "Waiting for capacity, setting up, computing, the production overhead (what an end-to-end run adds "
        "to a benchmark's speed) and downtime from failures and restarts.",
    ),
    Breakdown(
        "Energy",
        "energy_breakdown_kwh",
        lambda e: e.energy_kwh,
        numbers.energy,
        "Energy at the facility meter, by consumer: GPUs, host share, network and storage, and cooling "
        "and power losses (PUE).",
    ),
)


def breakdown_title(breakdown: Breakdown, pricing: str, kind: str = "") -> str:
    """The breakdown's title for the pricing and job: the cost of a rented run is its rental, not a TCO;
    a serving job's time is serving."""
    if breakdown.key == "cost_breakdown_usd" and pricing == "rent":
        return "Cost (rental)"
    if breakdown.key == "time_breakdown_hours" and kind == "inference":
        return SERVING_TIME_TITLE
    return breakdown.title


def breakdown_blurb(breakdown: Breakdown, kind: str, estimates: Sequence[Estimate] = ()) -> str:
    """What the breakdown's parts are; a serving job's time is the wait, the setup and the serving; a
    training run's time says why its production overhead is none where the fitted line adds none."""
    if breakdown.key == "cost_breakdown_usd" and kind == "inference":
        return breakdown.blurb.replace("What the run costs", "What serving the tokens costs", 1)
    if breakdown.key != "time_breakdown_hours":
        return breakdown.blurb
    if kind == "inference":
        return SERVING_TIME_BLURB
    note = overhead_note(estimates)
    return breakdown.blurb if note is None else f"{breakdown.blurb} {note[:1].upper()}{note[1:]}."


def breakdown_parts(breakdown: Breakdown, estimates: Sequence[Estimate]) -> list[str]:
    """Every part of `breakdown` across `estimates`, in first-seen order."""
    parts: dict[str, None] = {}
    for est in estimates:
        parts.update(dict.fromkeys(shown_parts(getattr(est, breakdown.key), est.kind)))
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
        cells = [_cell(breakdown, p, values[p], est) if p in values else DASH for p in parts]
        rows.append([est.system, *cells, breakdown.text(breakdown.total(est))])
    return header, rows


def _cell(breakdown: Breakdown, part: str, value: float, est: Estimate) -> str:
    """A part's value as shown (a time part in the words every surface uses for it)."""
    if breakdown.key == "time_breakdown_hours":
        return time_part_text(part, value, est)
    return breakdown.text(value)
