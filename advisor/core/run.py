"""`run_scenario()`: a scenario's whole answer, in one call shared by the CLI, the app and the reports.

`advise_scenario` sizes each system to the deadline when the scenario asks for it and advises (fast,
for live updates); `run_scenario` adds the ranges, robustness and (optionally) break-even points.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from advisor.core import fmt
from advisor.core.analysis import SAMPLES
from advisor.core.analysis.deadline import GpuCount, gpus_for_deadline_all
from advisor.core.analysis.horizon import with_horizon
from advisor.core.analysis.sensitivity import Sensitivity, analyse, settled
from advisor.core.analysis.shortfall import owned_shortfalls
from advisor.core.analysis.time_quantile import deadline_basis
from advisor.core.decision.advise import advise
from advisor.core.decision.owned import with_owned
from advisor.core.decision.recommendation import Recommendation
from advisor.core.decision.request import AdviceRequest
from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.model.workload import Workload
from advisor.core.scenario import Scenario


@dataclass(frozen=True)
class ScenarioAdvice:
    """A scenario's recommendation and deadline sizing, without the ranges (milliseconds, not 0.1 s)."""

    scenario: Scenario
    workload: Workload
    recommendation: Recommendation
    sizing: tuple[GpuCount, ...]
    """Smallest GPU count per system that meets the deadline (empty without a deadline)."""
    sizes: Mapping[str, int] | None
    """The GPU counts the recommendation used per system, when the scenario sizes to its deadline."""
    request: AdviceRequest
    """What `advise()` was asked (the analysis varies it)."""


@dataclass(frozen=True)
class ScenarioResult:
    """Everything shown for a scenario: the recommendation, the deadline sizing, the ranges."""

    scenario: Scenario
    workload: Workload
    recommendation: Recommendation
    sensitivity: Sensitivity
    sizing: tuple[GpuCount, ...]
    """Smallest GPU count per system that meets the deadline (empty without a deadline)."""


def advise_scenario(
    scenario: Scenario, catalog: Catalog, rules: Sequence[Rule], *, today: date | None
) -> ScenarioAdvice:
    """Size each system to the deadline (with the same capacity waits `advise` applies) and advise.

    Ids are checked first: an unknown one raises CatalogError listing the valid ones.
    """
    scenario.check_ids(catalog)
    request = AdviceRequest(
        workload=scenario.workload.workload(catalog),
        catalog=catalog,
        rules=rules,
        constraints=scenario.constraints,
        objective=scenario.objective,
        assumptions=scenario.assumptions,
        systems=scenario.system_ids(catalog),
        today=today,
    )
    deadline = scenario.constraints.deadline_days
    if deadline is not None:
        basis = deadline_basis(catalog, request.workload, request.assumptions, scenario.constraints.risk)
        request = replace(request, deadline_basis=basis)
    sizing: tuple[GpuCount, ...] = ()
    # Serving at a target rate is sized to the rate (a month of it), never to the deadline.
    if deadline is not None and request.workload.serving_rate is None:
        waits = request.capacity_assumptions()
        constraints = scenario.constraints
        sizing = tuple(
            gpus_for_deadline_all(
                request.workload,
                catalog,
                deadline,
                waits,
                request.system_ids(),
                margin=request.sizing_margin,
                budget_usd=constraints.budget_usd,
                basis=request.deadline_basis,
            )
        )
    sizes = None
    if scenario.size_to_deadline:
        sizes = {found.system: found.sized_gpus for found in sizing if found.sized_gpus}
        notes = {found.system: found.reason for found in sizing}
        request = replace(request, gpus_by_system=sizes, sizing_notes=notes)
    rec = with_owned(with_horizon(with_buying_options(advise(request), sizing, request), request), request)
    return ScenarioAdvice(scenario, request.workload, rec, sizing, sizes, request)


def with_buying_options(
    rec: Recommendation, sizing: Sequence[GpuCount], request: AdviceRequest
) -> Recommendation:
    """Nothing feasible because buying takes longer than the deadline: say first what would make it
    work, each with the system it suits best (rule weights count: hardware on hand, renting; a later
    deadline is among the other changes already). The verdict names both ways out: a team that has no
    hardware on hand needs the rental in its one-line answer. Owned GPUs that alone miss the deadline:
    that they are too few, and the options, with the shortfall rented beside them (`owned_shortfalls`)."""
    if request.workload.pricing != "own":
        return rec
    short = owned_shortfalls(sizing, request)
    if short:
        rec = replace(rec, what_would_change=(*(s.sentence for s in short), *rec.what_would_change))
    if rec.winner is not None:
        return rec
    factor = {c.system: c.rule_factor for c in rec.candidates}
    on_hand = [s.on_hand for s in sizing if s.on_hand is not None]
    rented = [s.rental for s in sizing if s.rental is not None]
    lines = []
    if on_hand:
        best = min(on_hand, key=lambda e: e.cost_usd * factor.get(e.system, 1.0))
        lines.append(
            "buying works with the hardware on hand (hardware in 0 days, or GPUs already owned): "
            f"{best.system}, {best.gpus:,} GPUs, finishes in {fmt.duration(best.time_to_result_hours)} for "
            f"{fmt.money(best.cost_usd)} of the hardware's cost of ownership"
            + (f" ({fmt.money(best.purchase_usd)} up front)" if best.purchase_usd else "")
        )
    if rented:
        best = min(rented, key=lambda e: e.cost_usd * factor.get(e.system, 1.0))
        lines.append(
            f"renting meets the deadline: {best.system}, {best.gpus:,} GPUs, finishes in "
            f"{fmt.duration(best.time_to_result_hours)} for {fmt.money(best.cost_usd)}"
        )
    if not lines:
        return rec
    changes = (*lines, *rec.what_would_change)
    verdict = replace(rec.verdict, why="; ".join([rec.verdict.why, *lines]))
    return replace(rec, what_would_change=changes, verdict=verdict)


def run_scenario(
    scenario: Scenario,
    catalog: Catalog,
    rules: Sequence[Rule],
    *,
    today: date | None,
    break_evens: bool = False,
    samples: int = SAMPLES,
    widen: float = 1.0,
) -> ScenarioResult:
    """`advise_scenario` plus the ranges, robustness and (optionally) break-even points."""
    advice = advise_scenario(scenario, catalog, rules, today=today)
    return analyse_advice(advice, break_evens=break_evens, samples=samples, widen=widen)


def analyse_advice(
    advice: ScenarioAdvice,
    *,
    break_evens: bool = False,
    samples: int = SAMPLES,
    widen: float = 1.0,
) -> ScenarioResult:
    """The ranges, robustness and (optionally) break-even points of advice already computed."""
    analysis = analyse(
        advice.recommendation, advice.request, widen=widen, samples=samples, with_break_evens=break_evens
    )
    rec = settled(advice.recommendation, analysis)
    return ScenarioResult(advice.scenario, advice.workload, rec, analysis, advice.sizing)
