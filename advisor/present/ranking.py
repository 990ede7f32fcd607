"""What order a comparison of systems is in, in the words every surface uses.

The rank is the score (`advise`): the objective over the best, times each fired rule's weight (a
bonus makes it smaller, a penalty larger). So "ranked by cost" alone would be untrue whenever a rule
weighted a system: the sentence says "after the rules' weights", and when they reorder the systems.
"""

from __future__ import annotations

import math
from itertools import pairwise

from advisor.core.decision.recommendation import Candidate, Recommendation

OBJECTIVE_NOUNS = {
    "cost": "cost",
    "time": "time to result",
    "energy": "energy",
    "balanced": "cost and time together",
}
"""What each objective ranks by, as a noun."""
BETTER_ONE = {
    "cost": "a cheaper one",
    "time": "a faster one",
    "energy": "one using less energy",
    "balanced": "one better on cost and time",
}
"""A system better on the objective than the one ranked above it."""


def _ranked(rec: Recommendation) -> list[Candidate]:
    ranked = [c for c in rec.candidates if c.rank is not None and c.score is not None]
    return sorted(ranked, key=lambda c: c.rank or 0)


def weights_reorder(rec: Recommendation) -> bool:
    """Whether a system ranks above one better on the objective (the score divided by its rule weight
    is the objective over the best, so the order of those is the unweighted order)."""
    plain = [(c.score or 0.0) / c.rule_factor for c in _ranked(rec)]
    return any(above > below * (1 + 1e-9) for above, below in pairwise(plain))


def ranking_sentence(rec: Recommendation) -> str:
    """`Ranked by cost after the rules' weights (each system's cost over the best, times its bonuses
    and penalties), so a system can rank above a cheaper one`; `Ranked by cost` when no rule weighted a
    ranked system. No final stop: a surface ends or continues it."""
    noun = OBJECTIVE_NOUNS.get(rec.objective, rec.objective)
    if all(c.rule_factor == 1 for c in _ranked(rec)):
        return f"Ranked by {noun}"
    sentence = (
        f"Ranked by {noun} after the rules' weights (each system's {noun} over the best, times its "
        "bonuses and penalties)"
    )
    if weights_reorder(rec):
        sentence += f", so a system can rank above {BETTER_ONE.get(rec.objective, 'a better one')}"
    return sentence


KEPT_OUT_BY = frozenset({"deadline", "budget", "capacity"})
"""Constraints a system can be let in by relaxing (a bigger budget, a later deadline, a longer wait);
one kept out by another (memory, size, latency) comes after those."""


def closest_first(rec: Recommendation) -> tuple[Candidate, ...]:
    """Every system in the order to read them: the ranked ones by rank, then the others by how close
    they come: those kept out only by the deadline, budget or capacity wait first, each by the score it
    would have (the objective's metric times its rule weights, so the first is the one "what would
    change the answer" says becomes feasible, and the best choice), then the rest; by id among equals."""
    from advisor.core.decision.gaps import objective_metric

    def closeness(c: Candidate) -> tuple[int, float, str]:
        if c.rank is not None:
            return (0, c.rank, c.system)
        blockers = {r.constraint for r in c.reasons if r.kind in ("infeasible", "exclude")}
        est = c.estimate
        if est is None:
            return (3, math.inf, c.system)
        metric = objective_metric(rec.objective, est.time_to_result_hours, est.cost_usd, est.energy_kwh)
        return (1 if blockers and blockers <= KEPT_OUT_BY else 2, metric * c.rule_factor, c.system)

    return tuple(sorted(rec.candidates, key=closeness))
