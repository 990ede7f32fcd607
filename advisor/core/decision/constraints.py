"""The hard constraints that are arithmetic (memory, purchasable or rentable size, serving latency,
deadline, budget, capacity wait), each as a reason
saying what is needed against what is available."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from advisor.core import fmt
from advisor.core.costing.results import Estimate, capacity_message, fit_message, served_after_deadline
from advisor.core.decision.recommendation import Reason
from advisor.core.model.catalog import Catalog
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Constraints


@dataclass(frozen=True)
class DeadlineBasis:
    """What a deadline is judged against when not the expected estimate: a quantile of the time to
    result (the team's risk appetite, `analysis.time_quantile`)."""

    quantile: float
    share: Fraction
    """`quantile` as runs in so many: 9/10."""
    hours: Callable[[Estimate], float]
    """An estimate's time to result at `quantile`."""

    @property
    def label(self) -> str:
        """`P90`."""
        return f"P{self.quantile * 100:g}"

    @property
    def runs(self) -> str:
        """`9 runs in 10`."""
        return f"{self.share.numerator} runs in {self.share.denominator}"


def judged_hours(est: Estimate, basis: DeadlineBasis | None) -> float:
    """The time to result a deadline is judged against: at the basis's quantile, else the expected."""
    return est.time_to_result_hours if basis is None else basis.hours(est)


def sizing_margin(constraints: Constraints, basis: DeadlineBasis | None) -> float:
    """The share of the deadline that sizing keeps as slack: the sizing margin when the deadline is
    judged at the expected time to result, none at a quantile. The quantile is the risk allowance
    itself; a margin on top of it would count the same risk twice."""
    return constraints.sizing_margin if basis is None else 0.0


def sizing_allowance(constraints: Constraints, quantile: float | None) -> str:
    """The one risk allowance sizing to the deadline used, in words: `so its P90 time to result meets
    it` (a quantile), or `with a 10% margin (to finish within 27.0 of its 30 days)`."""
    if quantile is not None:
        return f"so its P{quantile * 100:g} time to result meets it"
    margin, deadline = constraints.sizing_margin, constraints.deadline_days
    if margin <= 0 or deadline is None:
        return "with no margin: its expected time to result meets it"
    within = f"{deadline * (1 - margin):.1f} of its {deadline:g} days"
    return f"with a {margin:.0%} margin (to finish within {within})"


def margin_not_added(constraints: Constraints, quantile: float | None) -> str:
    """`no 10% sizing margin on top of the P90`, when a quantile replaced a margin that was set (else
    empty): what the sizing left out, so the margin is not thought to be in it."""
    if quantile is None or constraints.sizing_margin <= 0:
        return ""
    return f"no {constraints.sizing_margin:.0%} sizing margin on top of the P{quantile * 100:g}"


def past_horizon(est: Estimate, catalog: Catalog, basis: DeadlineBasis | None) -> bool:
    """Whether `est`'s run, as a deadline judges it, ends past the turnover horizon (`[turnover]`): "what
    would change the answer" does not offer "if the run may take 866.8 days instead of 60", which is
    not a plan (more GPUs are)."""
    return judged_hours(est, basis) > catalog.economics.turnover.horizon_days * HOURS_PER_DAY


def constraint_reasons(
    est: Estimate, constraints: Constraints, basis: DeadlineBasis | None = None
) -> list[Reason]:
    """Hard constraints that are arithmetic, each saying needed vs available (the deadline judged
    against `basis`: a quantile of the time to result, else the expected one)."""
    reasons = []
    if not est.memory.fits:
        text = fit_message(est.memory, est.gpus, est.system, est.kind)
        reasons.append(Reason("infeasible", text, constraint="memory"))
    if (beyond := capacity_message(est)) is not None:
        reasons.append(Reason("infeasible", beyond, constraint="size"))
    if est.serving is not None and not est.serving.meets_limits:
        reasons.append(Reason("infeasible", _latency_message(est), constraint="latency"))
    if (late := _deadline_message(est, constraints.deadline_days, basis)) is not None:
        reasons.append(Reason("infeasible", late, constraint="deadline"))
    if constraints.budget_usd is not None and est.cost_usd > constraints.budget_usd:
        a_month = " a month" if est.serves_a_rate else ""
        text = f"over budget: {fmt.money(est.cost_usd)}{a_month} > {fmt.money(constraints.budget_usd)}"
        reasons.append(Reason("infeasible", text, constraint="budget"))
    wait_days = est.time_breakdown_hours["wait"] / HOURS_PER_DAY
    if constraints.need_within_days is not None and wait_days > constraints.need_within_days:
        text = (
            f"capacity arrives too late: {fmt.duration(wait_days * HOURS_PER_DAY)} wait > "
            f"{constraints.need_within_days:g} days"
        )
        why = next((w for w in est.warnings if "needs a reservation" in w), None)
        if why:
            text += f" ({why})"
        reasons.append(Reason("infeasible", text, constraint="capacity"))
    return reasons


def _deadline_message(est: Estimate, deadline: float | None, basis: DeadlineBasis | None) -> str | None:
    """Why `est` misses the deadline (serving at a target rate: it starts too late), or None."""
    if deadline is None:
        return None
    # Durations as everywhere else (`125.1 years`, not `45664.1 days`); the deadline stays in days.
    if est.serves_a_rate:
        hours = est.time_to_result_hours - served_after_deadline(est)
        text = f"misses the deadline: serving starts after {fmt.duration(hours)} > {deadline:g} days"
    elif basis is None:
        hours = est.time_to_result_hours
        text = f"misses the deadline: {fmt.duration(hours)} to result (wait included) > {deadline:g} days"
    else:
        hours = basis.hours(est)
        expected = fmt.duration(est.time_to_result_hours)
        text = (
            f"misses the deadline at {basis.label} ({basis.runs} must finish by it): {fmt.duration(hours)}"
            f" to result (wait included; {expected} expected) > {deadline:g} days"
        )
    return text if hours / HOURS_PER_DAY > deadline else None


def _latency_message(est: Estimate) -> str:
    """Why no serving layout on the system meets the latency limits (from the estimate's warning)."""
    why = next((w for w in est.warnings if w.endswith("shown without the latency limits")), "")
    found = why.partition(": ")[2].removesuffix("; shown without the latency limits")
    assert est.serving is not None
    limit = est.serving.tpot_limit_ms
    tpot = f"; without them {est.serving.tpot_ms:,.0f} ms per output token" + (
        f" > {limit:,.4g} ms" if limit is not None else ""
    )
    return f"misses the latency limits: {found or 'no layout meets them'}{tpot}"
