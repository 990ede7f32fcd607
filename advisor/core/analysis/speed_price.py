"""Speed for price: how much faster a dearer system must be to win per dollar, and whether it is.

Per GPU-hour, the bar is the price ratio. A rental that pays a reservation's whole term, longer than
its run, pays the term however fast it runs: there the price per term decides the cost, speed buys
nothing until a run outlasts its term, and the sentence says so, with the run size at which the order
of the two costs flips (`cost_crossover`).
"""

from __future__ import annotations

from itertools import pairwise

from advisor.core import fmt
from advisor.core.costing.results import Estimate
from advisor.core.decision.facts import JOB_NOUNS
from advisor.core.decision.recommendation import Recommendation
from advisor.core.model.units import HOURS_PER_DAY

FAR = 1e6
"""The largest run, in multiples of this one, the crossover is looked for within."""


def pays_idle_term(est: Estimate) -> bool:
    """A rental paying a reservation's whole term, longer than its run."""
    return est.term_hours > est.time_to_train_hours


def scaled_cost_usd(est: Estimate, scale: float) -> float:
    """The cost of a run of `scale` times the tokens: the setup stays, the rest of the run scales, and a
    reservation still pays at least its term."""
    term = est.term_hours
    return est.cost_usd * max(term, _run_hours(est, scale)) / max(term, est.time_to_train_hours)


def _kinks(est: Estimate) -> list[float]:
    """The run scale at which `est`'s run fills its reservation's term (none without one)."""
    setup = est.time_breakdown_hours.get("setup", 0.0)
    varying = est.time_to_train_hours - setup
    term = est.term_hours
    return [(term - setup) / varying] if term > setup and varying > 0 else []


def cost_crossover(a: Estimate, b: Estimate) -> tuple[float | None, float | None]:
    """The run scales (multiples of these tokens) nearest 1, below and above, at which `a` and `b` cost
    the same and their order flips (None: none in 1/FAR..FAR). Each cost is piecewise linear in the
    scale (a kink where a run fills its term), so the roots are found segment by segment."""

    def gap(scale: float) -> float:
        return scaled_cost_usd(a, scale) - scaled_cost_usd(b, scale)

    points = sorted({1 / FAR, 1.0, FAR, *(k for k in _kinks(a) + _kinks(b) if 1 / FAR < k < FAR)})
    roots = []
    for lo, hi in pairwise(points):
        g_lo, g_hi = gap(lo), gap(hi)
        if g_lo * g_hi < 0:
            roots.append(lo + (hi - lo) * g_lo / (g_lo - g_hi))
    below = max((r for r in roots if r < 1), default=None)
    above = min((r for r in roots if r > 1), default=None)
    return below, above


def _term(est: Estimate) -> str:
    """'30-day' or '1-year': the reservation's term as a price page names it."""
    days = est.term_hours / HOURS_PER_DAY
    return f"{days / 365:g}-year" if days >= 365 and days % 365 == 0 else f"{days:g}-day"


def _run_hours(est: Estimate, scale: float) -> float:
    """The run's hours at `scale` times the tokens: the setup stays, the rest scales."""
    setup = est.time_breakdown_hours.get("setup", 0.0)
    return setup + scale * (est.time_to_train_hours - setup)


def _job(est: Estimate) -> str:
    """The job as the rules' `{run}` fact words it: the run, the fine-tune, the serving job."""
    return JOB_NOUNS[est.kind]


def _payments(dear: Estimate, cheap: Estimate) -> str:
    """'a100 and mi300x each pay a 30-day reservation in full, longer than the run on each (...)', or each
    system's payment when they differ."""
    if pays_idle_term(dear) and pays_idle_term(cheap) and _term(dear) == _term(cheap):
        runs = (
            f"{cheap.system} {fmt.duration(cheap.time_to_train_hours)}, "
            f"{dear.system} {fmt.duration(dear.time_to_train_hours)}"
        )
        return (
            f"{cheap.system} and {dear.system} each pay a {_term(dear)} reservation in full, longer than "
            f"{_job(dear)} on each ({runs})"
        )

    def payment(est: Estimate) -> str:
        run = f"{_job(est)} of {fmt.duration(est.time_to_train_hours)}"
        if pays_idle_term(est):
            return f"{est.system} pays a {_term(est)} reservation in full for {run}"
        return f"{est.system} pays by the hour for {run}"

    return f"{payment(cheap)} and {payment(dear)}"


def _crossover_clause(dear: Estimate, cheap: Estimate) -> str:
    """Where the dearer system for this run becomes the cheaper, or that no run size makes it so."""
    below, above = cost_crossover(dear, cheap)
    said = [
        f"{dear.system} costs less {side} about {scale:.2g}x these tokens ({fmt.count(dear.tokens * scale)}: "
        f"{cheap.system} {fmt.duration(_run_hours(cheap, scale))}, {dear.system} "
        f"{fmt.duration(_run_hours(dear, scale))})"
        for side, scale in (("below", below), ("from", above))
        if scale is not None
    ]
    if said:
        return "; " + " and ".join(said)
    price = dear.price_usd_per_gpu_hour / cheap.price_usd_per_gpu_hour
    speed = dear.tokens_per_second_per_gpu / cheap.tokens_per_second_per_gpu
    return (
        f"; no size of {_job(dear)} makes {dear.system} the cheaper (per GPU-hour it costs {price:.2f}x "
        f"{cheap.system} and runs {speed:.2f}x as fast)"
    )


def _term_line(a: Estimate, b: Estimate) -> tuple[str, Estimate]:
    """The line when either of two rentals pays a term longer than its run, and the cheaper of them."""
    dear, cheap = (a, b) if a.cost_usd >= b.cost_usd else (b, a)
    if pays_idle_term(dear) and pays_idle_term(cheap):
        decides = (
            f"the price per term decides the cost and speed buys nothing until {_job(dear)} outlasts the term"
        )
    else:
        idle = dear if pays_idle_term(dear) else cheap
        decides = f"{idle.system}'s speed buys nothing until {_job(idle)} on it outlasts the term"
    ratio = dear.cost_usd / cheap.cost_usd
    line = (
        f"{_payments(dear, cheap)}, so {decides}: {dear.system} costs {ratio:.2f}x "
        f"{cheap.system} ({fmt.money(dear.cost_usd)} vs {fmt.money(cheap.cost_usd)})"
    )
    return line + _crossover_clause(dear, cheap), cheap


def _hourly_line(dear: Estimate, cheap: Estimate) -> tuple[str, Estimate]:
    """The line for two systems paying by the hour, and the one ahead per dollar of compute."""
    needed = dear.effective_price_usd_per_gpu_hour / cheap.effective_price_usd_per_gpu_hour
    has = dear.tokens_per_second_per_gpu / cheap.tokens_per_second_per_gpu
    dollar = "rental dollar" if dear.pricing == "rent" else "TCO dollar"
    wins = has >= needed
    verdict = f"so it {'wins' if wins else 'loses'} per {dollar} of compute"
    line = (
        f"{dear.system} costs {needed:.2f}x {cheap.system} per GPU-hour, so it needs at least {needed:.2f}x "
        f"its per-GPU speed to win per {dollar}; here it has {has:.2f}x, {verdict}"
    )
    return line, dear if wins else cheap


def speed_line(a: Estimate, b: Estimate, rec: Recommendation) -> str:
    """How much faster the dearer of two systems must be to win per dollar, whether it is, and, when the
    ranking says otherwise, why; for rentals paying a term longer than the run, what decides instead."""
    if pays_idle_term(a) or pays_idle_term(b):
        line, ahead = _term_line(a, b)
    else:
        dear_first = a.effective_price_usd_per_gpu_hour >= b.effective_price_usd_per_gpu_hour
        line, ahead = _hourly_line(*((a, b) if dear_first else (b, a)))
        cheaper = a if a.cost_usd <= b.cost_usd else b
        if cheaper is not ahead:
            line += _fixed_hours_clause(cheaper, b if cheaper is a else a)
            ahead = cheaper
    if rec.winner in (a.system, b.system) and rec.winner != ahead.system:
        other = b.system if rec.winner == a.system else a.system
        why = (
            rec.verdict.why
            if rec.verdict.runner_up == other
            else f"first on {rec.objective} after the rules' weights"
        )
        line += f"; {rec.winner} is still recommended: {why}"
    return line


def _fixed_hours_clause(cheaper: Estimate, dearer: Estimate) -> str:
    """Why the system behind per dollar of compute still costs less for this run: its fixed setup (and
    less time lost to failures) weighs on a short run."""

    def hours(est: Estimate) -> str:
        setup = fmt.duration(est.time_breakdown_hours.get("setup", 0.0))
        return f"{setup} of its {fmt.duration(est.time_to_train_hours)}"

    costs = f"{fmt.money(cheaper.cost_usd)} vs {fmt.money(dearer.cost_usd)}"
    return (
        f"; for {_job(cheaper)}, {cheaper.system} costs less all the same ({costs}): the fixed setup takes "
        f"{hours(dearer)} on {dearer.system}, {hours(cheaper)} on {cheaper.system}"
    )


def speed_for_price(rec: Recommendation) -> tuple[str, ...]:
    """'gb200 needs ≥ 1.57x h100's per-GPU speed to win per dollar; here it has 2.6x': for the top two,
    and for the winner against the baseline system."""
    ranked = [c.estimate for c in rec.candidates if c.feasible and c.estimate is not None]
    pairs = []
    if len(ranked) >= 2:
        pairs.append((ranked[0], ranked[1]))
    baseline = next((c.estimate for c in rec.candidates if c.system == rec.baseline and c.estimate), None)
    if (
        ranked
        and baseline is not None
        and ranked[0].system != baseline.system
        and (not pairs or baseline.system != pairs[0][1].system)
    ):
        pairs.append((ranked[0], baseline))
    return tuple(speed_line(a, b, rec) for a, b in pairs)
