"""Sensitivity: which inputs move the answer, and the values at which it flips.

- `robustness`: joint samples of every candidate's inputs (shared PUE and electricity drawn once per
  sample); the share of samples in which the expected winner still wins.
- `tornado`: the winner's cost and time with each input at the low and high end of its range, the
  others at their expected values, largest swing first.
- `break_evens`: for the winner and the runner-up, the value of each input (price or capex, MFU,
  goodput, electricity, PUE) at which the runner-up takes over, found by bisection on `advise()`
  itself, so rules and constraints count exactly as in the recommendation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from advisor.core import fmt
from advisor.core.analysis import SAMPLES
from advisor.core.analysis.breakeven import BreakEven, break_evens
from advisor.core.analysis.cheaper import cheaper_option
from advisor.core.analysis.contest import contenders, settlers, unsettled_sentence
from advisor.core.analysis.speed_price import speed_for_price
from advisor.core.analysis.uncertainty import (
    EstimateRange,
    Spread,
    input_spreads,
    range_of,
    sample_inputs,
    sampled_outputs,
)
from advisor.core.costing.results import served_after_deadline
from advisor.core.decision.advise import advise
from advisor.core.decision.gaps import objective_metric
from advisor.core.decision.headline import settled_headline
from advisor.core.decision.owned import with_owned
from advisor.core.decision.recommendation import CheaperOption, Recommendation
from advisor.core.decision.request import AdviceRequest
from advisor.core.decision.verdict import ROBUST_SHARE, UNSETTLED_SHARE, with_robustness

ROBUST = 0.9
LIKELY = ROBUST_SHARE


@dataclass(frozen=True)
class Robustness:
    winner: str
    share: float
    samples: int
    shares: dict[str, float]
    verdict: str
    deadline_share: float | None = None
    """Share of the samples in which the winner meets the deadline (None without one)."""
    contenders: tuple[tuple[str, float], ...] = ()
    """When no system wins half the samples: the systems sharing the wins and their shares, most first
    (`contest.contenders`); else empty."""


@dataclass(frozen=True)
class Bar:
    """One tornado bar: an input's range and the winner's cost and time at its two ends."""

    input: str
    low: float
    high: float
    cost_at_low: float
    cost_at_high: float
    hours_at_low: float
    hours_at_high: float

    @property
    def cost_swing(self) -> float:
        return abs(self.cost_at_high - self.cost_at_low)


@dataclass(frozen=True)
class Sensitivity:
    winner: str | None
    runner_up: str | None
    ranges: dict[str, EstimateRange]
    robustness: Robustness | None
    tornado: tuple[Bar, ...]
    break_evens: tuple[BreakEven, ...]
    speed_for_price: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())
    cheaper_option: CheaperOption | None = None
    """A cheaper configuration meeting every hard constraint (`cheaper.cheaper_option`), if any."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "runner_up": self.runner_up,
            "ranges": {sid: r.to_dict() for sid, r in self.ranges.items()},
            "robustness": None
            if self.robustness is None
            else {
                "winner": self.robustness.winner,
                "share": self.robustness.share,
                "samples": self.robustness.samples,
                "shares": self.robustness.shares,
                "verdict": self.robustness.verdict,
                "deadline_share": self.robustness.deadline_share,
            },
            "tornado": [{**bar.__dict__, "cost_swing": bar.cost_swing} for bar in self.tornado],
            "break_evens": [b.__dict__ for b in self.break_evens],
            "speed_for_price": list(self.speed_for_price),
            "notes": list(self.notes),
        }


def sample_winners(
    rec: Recommendation, sampled: Mapping[str, Sequence[tuple[float, float, float]]]
) -> list[str | None]:
    """Each joint sample's winner among the feasible systems (None: none meets the deadline and budget
    in it). `sampled` holds each estimated system's (time, cost, kWh) per draw (`sampled_outputs`)."""
    feasible = {c.system for c in rec.candidates if c.feasible and c.estimate is not None}
    outputs = {sid: rows for sid, rows in sampled.items() if sid in feasible}
    factors = {c.system: c.rule_factor for c in rec.candidates if c.system in feasible}
    samples = len(next(iter(sampled.values()))) if sampled else 0
    budget = rec.constraints.budget_usd
    late = _late(rec)
    winners: list[str | None] = []
    for i in range(samples):
        best, best_score = None, float("inf")
        for sid, rows in outputs.items():
            hours, cost, kwh = rows[i]
            if late(sid, hours) or (budget is not None and cost > budget):
                continue
            score = objective_metric(rec.objective, hours, cost, kwh) * factors[sid]
            if score < best_score:
                best, best_score = sid, score
        winners.append(best)
    return winners


def _late(rec: Recommendation) -> Callable[[str, float], bool]:
    """Whether a system's sampled time to result misses the deadline, judged as its constraint is
    (serving at a target rate: when serving starts, the month served not counted)."""
    deadline = rec.constraints.deadline_days
    after = {c.system: served_after_deadline(c.estimate) for c in rec.candidates if c.estimate is not None}
    if deadline is None:
        return lambda system, hours: False
    return lambda system, hours: hours - after.get(system, 0.0) > deadline * 24


def robustness(
    rec: Recommendation,
    sampled: Mapping[str, Sequence[tuple[float, float, float]]],
    winners: Sequence[str | None] | None = None,
) -> Robustness | None:
    """The share of joint samples in which the expected winner still wins.

    `sampled` holds each estimated system's (time, cost, kWh) per joint draw (`sampled_outputs`);
    `winners` each sample's winner, when already found (`sample_winners`).
    """
    if rec.winner is None:
        return None
    if winners is None:
        winners = sample_winners(rec, sampled)
    samples = len(winners)
    deadline = rec.constraints.deadline_days
    wins: dict[str, int] = dict.fromkeys(
        (c.system for c in rec.candidates if c.feasible and c.estimate is not None), 0
    )
    for best in winners:
        if best is not None:
            wins[best] += 1
    shares = {sid: n / samples if samples else 0.0 for sid, n in wins.items()}
    share = shares.get(rec.winner, 0.0)
    on_time = None
    if deadline is not None and samples and rec.winner in wins and rec.winner in sampled:
        late = _late(rec)
        on_time = sum(not late(rec.winner, row[0]) for row in sampled[rec.winner]) / samples
    if share >= ROBUST:
        verdict = f"{rec.winner} wins across the range ({fmt.percent(share, 0)} of {samples:,} samples)"
    elif share >= LIKELY:
        verdict = f"{rec.winner} wins in most cases ({fmt.percent(share, 0)} of samples), not all"
    else:
        share_text = fmt.percent(share, 0)
        # no label here: the verdict (decision.verdict.with_robustness) says whether that makes a close
        # call, since a winner that also leads on the other measure stays clear
        near = f"only near the expected values ({share_text} of samples)"
        verdict = f"{rec.winner} wins on {rec.objective} {near}"
    return Robustness(rec.winner, share, samples, shares, verdict, on_time)


def _unsettled(
    robust: Robustness,
    rec: Recommendation,
    request: AdviceRequest,
    winners: Sequence[str | None],
    draws: Mapping[str, Sequence[Mapping[str, float]]],
    spreads: Mapping[str, Mapping[str, Spread]],
) -> Robustness:
    """The winner wins under half the samples: its robustness names the systems sharing the wins and
    what would settle the choice among them (`contest`)."""
    named = contenders(robust.shares, robust.winner)
    shared = {name: spread.shared for by_name in spreads.values() for name, spread in by_name.items()}
    found = settlers(winners, draws, shared, [sid for sid, _ in named])
    estimates = {c.system: c.estimate for c in rec.candidates if c.estimate is not None}
    leading = max(robust.shares.values(), default=0.0)
    verdict = unsettled_sentence(
        robust.winner, rec.objective, named, found, leading, request.catalog, estimates
    )
    return replace(robust, verdict=verdict, contenders=named)


def tornado(est_range: EstimateRange, winner_est: Any) -> tuple[Bar, ...]:
    """The winner's cost and time with each input alone at the ends of its range; an input that moves
    neither (a renter's PUE: the price covers power) has no bar."""
    spreads = est_range.inputs
    expected = {name: s.expected for name, s in spreads.items()}
    bars = []
    for name, spread in spreads.items():
        at_low = sampled_outputs(winner_est, spreads, [{**expected, name: spread.low}])[0]
        at_high = sampled_outputs(winner_est, spreads, [{**expected, name: spread.high}])[0]
        if at_low[:2] == at_high[:2]:
            continue
        bars.append(Bar(name, spread.low, spread.high, at_low[1], at_high[1], at_low[0], at_high[0]))
    return tuple(sorted(bars, key=lambda b: b.cost_swing, reverse=True))


def settled(rec: Recommendation, sens: Sensitivity) -> Recommendation:
    """`rec` with its verdict settled by the robustness: a winner in fewer than 60% of samples is a
    close call."""
    robust = sens.robustness
    share, on_time = (robust.share, robust.deadline_share) if robust is not None else (None, None)
    deadline, conservative = rec.constraints.deadline_days, rec.constraints.risk == "conservative"
    named = robust.contenders if robust is not None else ()
    verdict = with_robustness(rec.verdict, share, on_time, deadline, conservative, named)
    headline = settled_headline(rec.headline, rec.objective, rec.ranked_best, verdict.sampled_words())
    return replace(rec, headline=headline, verdict=verdict, cheaper_option=sens.cheaper_option)


def recommendation_data(rec: Recommendation, sens: Sensitivity) -> dict[str, Any]:
    """The `recommend --json` object: the recommendation with each system's ranges, the robustness and
    the break-even points (empty when the analysis ran without them)."""
    analysis = sens.to_dict()
    kept = ("ranges", "robustness", "break_evens", "speed_for_price")
    return {**settled(rec, sens).to_dict(), **{key: analysis[key] for key in kept}}


def analyse(
    rec: Recommendation,
    request: AdviceRequest,
    *,
    widen: float = 1.0,
    samples: int = SAMPLES,
    with_break_evens: bool = True,
) -> Sensitivity:
    """Ranges, robustness, tornado and (optionally) break-even points of `rec`, the answer to `request`."""
    estimated = {c.system: c.estimate for c in rec.candidates if c.estimate is not None}
    spreads = {
        sid: input_spreads(est, request.workload, request.catalog, request.assumptions, widen)
        for sid, est in estimated.items()
    }
    draws = sample_inputs(spreads, n=samples)  # one joint draw per sample: PUE and electricity shared
    sampled = {sid: sampled_outputs(est, spreads[sid], draws[sid]) for sid, est in estimated.items()}
    ranges = {sid: range_of(est, spreads[sid], sampled[sid]) for sid, est in estimated.items()}
    winners = sample_winners(rec, sampled)
    robust = robustness(rec, sampled, winners)
    if robust is not None and robust.share < UNSETTLED_SHARE:
        robust = _unsettled(robust, rec, request, winners, draws, spreads)
    bars: tuple[Bar, ...] = ()
    if rec.winner is not None and rec.winner in ranges:
        bars = tornado(ranges[rec.winner], rec.candidate(rec.winner).estimate)
    runner: str | None = None
    evens: list[BreakEven] = []
    if with_break_evens:
        runner, evens = break_evens(rec, request)
    cheaper = cheaper_option(rec, request)
    return Sensitivity(
        rec.winner, runner, ranges, robust, bars, tuple(evens), speed_for_price(rec), (), cheaper
    )


def sensitivity(
    request: AdviceRequest, *, widen: float = 1.0, samples: int = SAMPLES, with_break_evens: bool = True
) -> tuple[Recommendation, Sensitivity]:
    """`advise()` plus `analyse()`: the recommendation with its ranges and what flips it."""
    rec = with_owned(advise(request), request)
    sens = analyse(rec, request, widen=widen, samples=samples, with_break_evens=with_break_evens)
    return settled(rec, sens), sens
