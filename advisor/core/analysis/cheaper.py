"""A cheaper configuration that also meets every hard constraint: each system at whole-node GPU counts
(powers of two from the fewest that hold the job up to twice the count considered; renting, also 1, 2
and 4 GPUs of an 8-GPU node, as clouds rent them), estimated with the recommendation's assumptions
and checked against memory, deadline, budget and capacity wait. Only systems the rules weigh no worse
than the recommendation are searched: a system the rules penalise more (a conservative team's unproven
rack, a purchase the team should not commit to) is not an option the buyer can take, however cheap.
Configurations already ranked are not repeated; without a deadline, one taking over `MAX_SLOWDOWN`
times as long to result, or ending past the turnover horizon, is a different plan, not a cheaper option.

Here rather than in `advise()`, which break-even searches call many times: the search estimates about
a hundred configurations.
"""

from __future__ import annotations

import math

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import constraint_reasons
from advisor.core.decision.gaps import gap
from advisor.core.decision.recommendation import Candidate, CheaperOption, Recommendation
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.units import HOURS_PER_DAY
from advisor.errors import AdvisorError

MIN_SAVING = 0.02
"""A configuration must cost at least this share less than the recommendation to be worth naming."""
MAX_STEPS = 15
"""Powers of two tried per system (1 GPU x 2^14 = 16,384)."""
MAX_SLOWDOWN = 2.0
"""Without a deadline, an option may take at most this many times the recommendation's time to result."""
PARTIAL_NODE = 8
"""Renting, a node of this many GPUs may be rented in part (1, 2 or 4 GPUs); racks may not."""


def gpu_counts(unit: int, fewest: int, most: int) -> list[int]:
    """`unit` x 2^k (from 1 GPU when `unit` is 1), from the first holding `fewest` GPUs up to `most`."""
    counts, gpus = [], unit
    for _ in range(MAX_STEPS):
        if gpus > most:
            break
        if gpus >= fewest:
            counts.append(gpus)
        gpus *= 2
    return counts


def _options(request: AdviceRequest, cand: Candidate, longest_hours: float) -> list[Estimate]:
    """`cand`'s system at each GPU count tried that meets every hard constraint."""
    est = cand.estimate
    if est is None or any(r.kind == "exclude" for r in cand.reasons):
        return []
    unit = request.catalog.system(cand.system).interconnect.gpus_per_node
    if unit == PARTIAL_NODE and request.workload.pricing == "rent":
        unit = 1
    found = []
    for gpus in gpu_counts(unit, est.memory.min_gpus or unit, 2 * est.gpus):
        if gpus == est.gpus:
            continue
        workload = request.sized_workload(cand.system).model_copy(update={"gpus": gpus})
        try:
            option = estimate(workload, cand.system, request.catalog, request.capacity_assumptions())
        except AdvisorError:
            continue
        if option.time_to_result_hours <= longest_hours and not constraint_reasons(
            option, request.constraints, request.deadline_basis
        ):
            found.append(option)
    return found


def _longest_without_deadline(chosen_hours: float, request: AdviceRequest) -> float:
    """How long a cheaper option may take without a deadline: `MAX_SLOWDOWN` times the recommendation,
    but never past the turnover horizon (`[turnover]`) unless the recommendation already is, and then
    no longer than it: a cheaper run that ends after the next GPU generation is not a saving."""
    horizon = request.catalog.economics.turnover.horizon_days * HOURS_PER_DAY
    return min(chosen_hours * MAX_SLOWDOWN, max(horizon, chosen_hours))


def cheaper_option(rec: Recommendation, request: AdviceRequest) -> CheaperOption | None:
    """The cheapest configuration meeting every hard constraint, when it saves `MIN_SAVING` or more
    against the recommendation (training and fine-tuning; serving sizes itself to its target)."""
    winner = rec.winner_candidate
    if winner is None or winner.estimate is None or request.workload.kind == "inference":
        return None
    chosen = winner.estimate
    longest = math.inf
    if request.constraints.deadline_days is None:
        longest = _longest_without_deadline(chosen.time_to_result_hours, request)
    allowed = [cand for cand in rec.candidates if cand.rule_factor <= winner.rule_factor]
    options = [option for cand in allowed for option in _options(request, cand, longest)]
    best = min(options, key=lambda e: (e.cost_usd, e.system, e.gpus), default=None)
    if best is None or best.cost_usd > chosen.cost_usd * (1 - MIN_SAVING):
        return None
    saving = gap(best.cost_usd, chosen.cost_usd)
    sentence = (
        f"a cheaper option that also meets every constraint: {best.gpus:,}x {best.system} for "
        f"{fmt.money(best.cost_usd)} ({fmt.percent(saving)} less than {chosen.gpus:,}x {chosen.system} at "
        f"{fmt.money(chosen.cost_usd)}), {fmt.duration(best.time_to_result_hours)} to result instead of "
        f"{fmt.duration(chosen.time_to_result_hours)}"
    )
    return CheaperOption(best.system, best.gpus, best.cost_usd, best.time_to_result_hours, saving, sentence)
