"""GPUs the team already owns against buying more: whether the owned GPUs alone can do the run (a fact
the rules test), and the trade-off the answer states when the choice is between them and a purchase.

The ranking compares a purchase by the run's share of its capex (the fleet view: the hardware serves
runs for its depreciation life) with owned GPUs at their opportunity cost. That is fair across a
fleet, but it hides what the team commits to now: the money up front and the later result. The
trade-off sentence says both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import constraint_reasons
from advisor.core.decision.recommendation import Recommendation
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.workload import Constraints
from advisor.errors import AdvisorError


def on_owned_gpus(est: Estimate) -> bool:
    """The run uses GPUs already owned and buys none."""
    return est.purchase is not None and est.purchase.gpus_owned > 0 and est.purchase.gpus_bought == 0


def needs_purchase(est: Estimate) -> bool:
    """The run buys GPUs (when owning)."""
    return est.purchase is not None and est.purchase.gpus_bought > 0


def owned_fleet_fits(estimates: Iterable[Estimate | None], constraints: Constraints) -> bool:
    """Some system's owned GPUs alone run the job within every arithmetic constraint (memory, size,
    deadline, budget, capacity wait)."""
    owned = [est for est in estimates if est is not None and on_owned_gpus(est)]
    return any(not constraint_reasons(est, constraints) for est in owned)


def _owned_figures(est: Estimate) -> str:
    """`$5.36M, 184.9 days to result, $0 up front`."""
    return f"{fmt.money(est.cost_usd)}, {fmt.duration(est.time_to_result_hours)} to result, $0 up front"


def _owned_text(est: Estimate) -> str:
    owned = est.purchase.gpus_owned if est.purchase else 0
    return f"the {owned:,} {est.system} you own: {_owned_figures(est)}"


def _purchase_text(bought: Estimate, owned: Estimate) -> str:
    """`buying gb300-nvl72 saves $1.21M on this run but needs $65.2M up front and arrives 91.8 days later`."""
    saving = owned.cost_usd - bought.cost_usd
    money = f"saves {fmt.money(saving)}" if saving > 0 else f"costs {fmt.money(-saving)} more"
    later = bought.time_to_result_hours - owned.time_to_result_hours
    if abs(later) < 24:
        when = "finishes about when they do"
    elif later > 0:
        when = f"arrives {fmt.duration(later)} later"
    else:
        when = f"arrives {fmt.duration(-later)} sooner"
    outlay = fmt.money(bought.purchase_usd or 0.0)
    return f"buying {bought.system} {money} on this run but needs {outlay} up front and {when}"


def owned_trade_off(ranked: Sequence[Estimate]) -> str:
    """When the choice is between GPUs already owned and a purchase (feasible systems, best first), the
    trade-off in words; empty when one side is missing or the purchase is worse on cost and time."""
    owned = next((e for e in ranked if on_owned_gpus(e)), None)
    bought = next((e for e in ranked if needs_purchase(e)), None)
    if owned is None or bought is None:
        return ""
    if ranked[0] is bought:
        return f"using {_owned_text(owned)} instead; {_purchase_text(bought, owned)}"
    cheaper = bought.cost_usd < owned.cost_usd
    sooner = bought.time_to_result_hours < owned.time_to_result_hours
    if ranked[0] is owned and (cheaper or sooner):
        return f"using {_owned_text(owned)}; {_purchase_text(bought, owned)}"
    return ""


def _on_owned_alone(request: AdviceRequest, assumptions: Assumptions, sid: str, n: int) -> Estimate | str:
    """The job owned on the `n` GPUs of `sid` the team owns and nothing else, or why they cannot run it."""
    workload = request.workload.model_copy(update={"pricing": "own", "gpus": n})
    try:
        return estimate(workload, sid, request.catalog, assumptions)
    except AdvisorError as exc:
        return f"the {n:,} {sid} cannot run it ({exc})"


def _hour_text(owned: Estimate, new: Estimate) -> str:
    """`$1.18 a GPU-hour (maintenance, hosting, power and $0.58 of opportunity cost: the rent it could
    earn) against $1.41 bought new`: an owned GPU-hour (no capital) against a new one's TCO."""
    opportunity = owned.price_breakdown_usd_per_gpu_hour.get("opportunity_cost", 0.0)
    return (
        f"${owned.price_usd_per_gpu_hour:.2f} a GPU-hour (maintenance, hosting, power and "
        f"${opportunity:.2f} of opportunity cost: the rent it could earn) against "
        f"${new.price_usd_per_gpu_hour:.2f} bought new"
    )


def owned_when_owning(
    request: AdviceRequest, assumptions: Assumptions, winner: Estimate | None, trade_off: str
) -> str:
    """Owning with GPUs already owned: what an hour of them costs, and whether the answer runs on them
    or, when no trade-off says it, what they would do alone (`You own 1,024 h100: no capex (sunk), no
    lead time; $1.18 a GPU-hour ...`), the line every surface shows under the headline.
    Empty when renting or owning none."""
    if request.workload.pricing != "own":
        return ""
    lines = []
    for sid, n in assumptions.owned_gpus.items():
        if sid not in request.catalog.systems or n <= 0:
            continue
        alone = _on_owned_alone(request, assumptions, sid, n)
        if isinstance(alone, str):
            lines.append(f"You own {n:,} {sid}, but {alone}")
            continue
        new = _on_owned_alone(request, assumptions.model_copy(update={"owned_gpus": {}}), sid, n)
        hour = _hour_text(alone, new) if isinstance(new, Estimate) else ""
        text = f"You own {n:,} {sid}: no capex (sunk), no lead time" + (f"; {hour}" if hour else "")
        purchase = winner.purchase if winner is not None and winner.system == sid else None
        if purchase is not None and purchase.gpus_owned:
            text += f"; the answer runs on {purchase.gpus_owned:,} of them"
        elif trade_off and winner is not None:
            text += f". The answer buys {winner.system} instead (the verdict weighs the two)"
        elif not trade_off:
            misses = constraint_reasons(alone, request.constraints)
            unused = "The answer does not use them; on" if winner is not None else "On"
            text += f". {unused} them alone: {_owned_figures(alone)}"
            text += f" ({misses[0].text})" if misses else ""
        lines.append(text)
    return ". ".join(lines)


def with_owned(rec: Recommendation, request: AdviceRequest) -> Recommendation:
    """`rec` with its verdict's `owned` line (`owned_when_owning`). Applied to the answer shown, not
    inside `advise()`, which break-even searches call many times: the line estimates each owned fleet
    twice and never changes the ranking."""
    winner = rec.winner_candidate.estimate if rec.winner_candidate is not None else None
    owned = owned_when_owning(request, request.capacity_assumptions(), winner, rec.verdict.trade_off)
    return replace(rec, verdict=replace(rec.verdict, owned=owned)) if owned else rec


def owned_when_renting(request: AdviceRequest, assumptions: Assumptions) -> str:
    """Renting with GPUs already owned: a note that they count only when owning, with what they would
    do owned (the same job on each owned system's GPUs alone), so the two answers can be compared."""
    if request.workload.pricing != "rent" or not request.assumptions.owned_gpus:
        return ""
    owned = ", ".join(f"{n:,} {sid}" for sid, n in request.assumptions.owned_gpus.items())
    text = f"the GPUs you own ({owned}) count only when owning (pricing own): this rental answer ignores them"
    runs = []
    for sid, n in request.assumptions.owned_gpus.items():
        if sid not in request.catalog.systems or n <= 0:
            continue
        workload = request.workload.model_copy(update={"pricing": "own", "gpus": n})
        try:
            est = estimate(workload, sid, request.catalog, assumptions)
        except AdvisorError as exc:
            runs.append(f"the {n:,} {sid} cannot run it ({exc})")
            continue
        misses = constraint_reasons(est, request.constraints)
        runs.append(_owned_text(est) + (f" ({misses[0].text})" if misses else ""))
    return text + ("; owned, " + "; ".join(runs) if runs else "")
