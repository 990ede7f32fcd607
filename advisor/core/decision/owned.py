"""GPUs the team already owns against buying more: whether the owned GPUs alone can do the run (a fact
the rules test), and the trade-off the answer states when the choice is between them and a purchase.

The ranking compares a purchase by the run's share of its capex (the fleet view: the hardware serves
runs for its depreciation life) with owned GPUs at their opportunity cost. That is fair across a
fleet, but it hides what the team commits to now: the money up front and the later result. The
trade-off sentence says both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import constraint_reasons
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


def _owned_text(est: Estimate) -> str:
    owned = est.purchase.gpus_owned if est.purchase else 0
    return (
        f"the {owned:,} {est.system} you own: {fmt.money(est.cost_usd)}, "
        f"{fmt.duration(est.time_to_result_hours)} to result, $0 up front"
    )


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
