"""The verdict: a clear winner, a close call, or nothing feasible, with one sentence saying why.

A close call is a winner less than `CLOSE_MARGIN` ahead of the runner-up on the objective or on the
score (the objective times the rule weights; every gap is `gap`, a share of the worse figure), or a
runner-up better on the objective with the rules putting the winner first, or a winner that holds in
fewer than `ROBUST_SHARE` of the sampled inputs (set by the analysis, `with_robustness`). Its
tie-breakers compare the two on what the objective leaves out: maturity, schedule slack, lead time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from advisor.core import fmt
from advisor.core.costing.results import Estimate, served_after_deadline
from advisor.core.decision.gaps import OBJECTIVE_NOUN, gap, lead_on_other, margin_sentence
from advisor.core.model.maturity import MATURITY_LEVELS

VerdictKind = Literal["clear", "close_call", "none_feasible"]
CLOSE_MARGIN = 0.05
"""A winner less than this `gap` ahead of the runner-up on the objective or the score makes a close call."""
ROBUST_SHARE = 0.6
"""A winner that wins fewer than this share of the sampled inputs makes a close call."""
UNSETTLED_SHARE = 0.5
"""A winner that wins fewer than this share of the sampled inputs leaves the choice unsettled: the
answer names the systems sharing the wins (`analysis.contest`)."""
MATURITY_ORDER: dict[str, int] = {level: rank for rank, level in enumerate(MATURITY_LEVELS)}
"""Maturity, most proven first (the catalog's `maturity` levels)."""
MIN_SLACK_HOURS = 12.0
"""A difference in time to result or lead time below this does not break a tie."""
DEADLINE_SURE = 0.9
"""A winner meeting the deadline in fewer than this share of the samples gets a deadline risk."""


@dataclass(frozen=True)
class TieBreaker:
    """What separates a close call's two systems beyond the objective, and which one it favours."""

    name: Literal["maturity", "slack", "lead_time", "cost"]
    favours: str
    text: str


@dataclass(frozen=True)
class Verdict:
    """How decisive the recommendation is, and one sentence on why the winner wins."""

    kind: VerdictKind
    why: str
    winner: str | None = None
    runner_up: str | None = None
    margin: float | None = None
    """The winner's `gap` ahead of the runner-up on score (0.054: the winner's score is 5.4% lower)."""
    robustness: float | None = None
    """Share of the sampled inputs in which the winner still wins (None until analysed)."""
    tie_breakers: tuple[TieBreaker, ...] = ()
    """Between the winner and the runner-up, in the order they count: maturity, slack, lead time."""
    edge: str = ""
    """`why` in a few words, without figures: `5.7% cheaper than b200` (the app's one line)."""
    metric_margin: float | None = None
    """The winner's `gap` ahead of the runner-up on the objective's metric, before rule weights
    (negative: the runner-up is better on the objective itself and the rules put the winner first)."""
    objective: str = "cost"
    trade_off: str = ""
    """Owning: GPUs already owned against a purchase, in words (also the end of `why`), else empty."""
    also: str = ""
    """The winner's lead over the runner-up on what the objective leaves out (time to result for cost
    and energy, cost for time) when it is at least `CLOSE_MARGIN`: `2.2 years sooner to result than
    mi325x`. Such a winner dominates, so an uncertain objective alone does not make a close call."""
    deadline_share: float | None = None
    """Share of the sampled inputs in which the winner meets the deadline (None without one)."""
    deadline_days: float | None = None
    conservative: bool = False
    """The team is conservative: a deadline risk is worded as a warning."""
    held_to: str = ""
    """The deadline met at the risk appetite's quantile, in words (then no deadline risk is added)."""
    caveat: str = ""
    """A run beyond the turnover horizon, and the GPUs that bring it within (`analysis.horizon`)."""
    owned: str = ""
    """Owning GPUs already owned: what an hour of them costs and whether the answer runs on them (a line
    of its own under the headline on every surface, `owned.owned_when_owning`), else empty."""
    contenders: tuple[tuple[str, float], ...] = ()
    """When the winner wins under `UNSETTLED_SHARE` of the samples: the systems sharing the wins and
    their shares, most first (set by the analysis, `with_robustness`); else empty."""

    def deadline_risk(self) -> str:
        """`meets the 60-day deadline in about 50% of samples`, when that is below `DEADLINE_SURE`."""
        share, days = self.deadline_share, self.deadline_days
        if share is None or days is None or share >= DEADLINE_SURE or self.winner is None or self.held_to:
            return ""
        text = (
            f"{self.winner} meets the {days:g}-day deadline in only about {fmt.percent(share, 0)} of samples"
        )
        if self.conservative:
            text += (
                ": too uncertain for a conservative team; size up (a larger sizing margin) or pick a "
                "system with more slack"
            )
        return text

    @property
    def favoured(self) -> str | None:
        """The system the first tie-breaker favours (None when none separates the two)."""
        return self.tie_breakers[0].favours if self.tie_breakers else None

    @property
    def label(self) -> str:
        """`clear`, `close call` or `none feasible`, as the surfaces print it."""
        return self.kind.replace("_", " ")

    def close_call_reason(self) -> str:
        """Why it is a close call: the margin on the objective or on the score, the robustness."""
        parts = []
        metric = self.metric_margin
        noun = OBJECTIVE_NOUN.get(self.objective, self.objective)
        if metric is not None and metric < 0:
            parts.append(f"{self.runner_up} is better on {noun} itself")
        elif metric is not None and metric < CLOSE_MARGIN:
            # the why states the gap itself ("0.9% cheaper than b300"): say what makes it close
            parts.append(f"{self.winner}'s lead on {noun} is under {CLOSE_MARGIN:.0%}")
        elif self.margin is not None and self.margin < CLOSE_MARGIN:
            within = fmt.percent(self.margin)
            parts.append(
                f"{self.winner} leads {self.runner_up} by only {within} on score ({noun} x rule weights)"
            )
        if self.robustness is not None and self.robustness < ROBUST_SHARE:
            parts.append(self._share_words())
        return " and ".join(parts)

    def _share_words(self) -> str:
        """`gb300-nvl72 wins only 55% of sampled inputs`, or under half, that none wins half of them
        (`no system wins half the sampled inputs: gb300-nvl72 35%, b300 27%, mi355x 20%`)."""
        share = fmt.percent(self.robustness or 0.0, 0)
        if not self.contenders:
            return f"{self.winner} wins only {share} of sampled inputs"
        return f"{split_words(self.contenders)}: the choice is not settled"

    def sampled_words(self) -> str:
        """What the sampled inputs say when they do not bear the winner out (empty when they do), for the
        headline: `mi300x wins 73% of sampled inputs`, `no system wins half the sampled inputs`, or
        `wins only 55% of sampled inputs`."""
        share = self.robustness
        if share is None or share >= ROBUST_SHARE or self.winner is None:
            return ""
        leader, most = max(self.contenders, key=lambda item: item[1], default=("", 0.0))
        if self.contenders and leader != self.winner and most >= UNSETTLED_SHARE:
            return f"{leader} wins {fmt.percent(most, 0)} of sampled inputs"
        if self.contenders:
            return "no system wins half the sampled inputs"
        return f"wins only {fmt.percent(share, 0)} of sampled inputs"

    def _uncertain_but_ahead(self) -> str:
        """A clear winner in few samples: it leads on the other measure too."""
        if self.robustness is None or self.robustness >= ROBUST_SHARE or not self.also:
            return ""
        share = fmt.percent(self.robustness, 0)
        return f"; {self.winner} wins only {share} of sampled inputs on {self.objective}, but is {self.also}"

    def tie_breaker_text(self) -> str:
        """`what else separates them: maturity favours h100 (h100 is mature, b200 new)`, or that nothing
        does. These are for the buyer to weigh: the pick stays the one the score ranks first."""
        if not self.tie_breakers:
            return f"nothing else separates them (same maturity, slack and lead time as {self.runner_up})"
        first, *rest = self.tie_breakers
        text = (
            f"what else separates them: {first.name.replace('_', ' ')} favours {first.favours} ({first.text})"
        )
        return text + "".join(f"; {t.name.replace('_', ' ')} favours {t.favours} ({t.text})" for t in rest)

    def sentence(self) -> str:
        """The verdict in one line: `Clear: ...`, `Close call: ...; what else separates them: ...`, `None
        feasible`."""
        risk = "".join(f"; {t}" for t in (self.deadline_risk() or self.held_to, self.caveat) if t)
        if self.kind == "close_call":
            return f"Close call: {self.why}; {self.close_call_reason()}; {self.tie_breaker_text()}{risk}."
        return f"{self.label.capitalize()}: {self.why}{self._uncertain_but_ahead()}{risk}."

    def short_sentence(self) -> str:
        """`Close call: 0.6% cheaper than h100; wins 55% of samples; what else separates them: maturity
        favours h100` (one line)."""
        head = f"{self.label.capitalize()}: {self.edge or self.why}"
        text = "; ".join(t for t in (head, self.held_to, self.caveat) if t)
        if self.deadline_share is not None and self.deadline_risk():
            text += f"; meets the deadline in {fmt.percent(self.deadline_share, 0)} of samples"
        if self.kind != "close_call":
            return text + (
                f"; wins only {fmt.percent(self.robustness or 0, 0)} of samples, but is {self.also}"
                if self._uncertain_but_ahead()
                else ""
            )
        if self.contenders:  # under half: the systems sharing the wins, as the full sentence names them
            text += f"; {self._share_words()}"
        elif self.robustness is not None and self.robustness < ROBUST_SHARE:
            text += f"; wins {fmt.percent(self.robustness, 0)} of samples"
        if not self.tie_breakers:
            return text + "; nothing else separates them"
        first = self.tie_breakers[0]
        return text + f"; what else separates them: {first.name.replace('_', ' ')} favours {first.favours}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.kind,
            "why": self.why,
            "verdict_detail": {
                "sentence": self.sentence(),
                "winner": self.winner,
                "runner_up": self.runner_up,
                "margin": self.margin,
                "metric_margin": self.metric_margin,
                "robustness": self.robustness,
                "favoured": self.favoured,
                "trade_off": self.trade_off or None,
                "owned": self.owned or None,
                "deadline_share": self.deadline_share,
                "deadline_risk": self.deadline_risk() or None,
                "tie_breakers": [
                    {"name": t.name, "favours": t.favours, "text": t.text} for t in self.tie_breakers
                ],
            },
        }


NONE_FEASIBLE = Verdict("none_feasible", "no system meets every constraint")


def _slack_breaker(win: Estimate, run: Estimate, deadline_days: float | None) -> TieBreaker | None:
    diff = run.time_to_result_hours - win.time_to_result_hours
    if abs(diff) < MIN_SLACK_HOURS:
        return None
    favours, other = (win, run) if diff > 0 else (run, win)
    days = fmt.duration(abs(diff))
    if deadline_days is not None:
        text = f"{days} more slack before the {deadline_days:g}-day deadline than {other.system}"
    else:
        text = f"results {days} sooner than {other.system}"
    return TieBreaker("slack", favours.system, text)


def _lead_breaker(win: Estimate, run: Estimate) -> TieBreaker | None:
    wait_win, wait_run = win.time_breakdown_hours["wait"], run.time_breakdown_hours["wait"]
    if abs(wait_win - wait_run) < MIN_SLACK_HOURS:
        return None
    favours, other = (win, run) if wait_win < wait_run else (run, win)
    text = (
        f"available after {fmt.duration(min(wait_win, wait_run))}, "
        f"{other.system} after {fmt.duration(max(wait_win, wait_run))}"
    )
    return TieBreaker("lead_time", favours.system, text)


def _cost_breaker(win: Estimate, run: Estimate) -> TieBreaker | None:
    low, high = sorted((win, run), key=lambda e: e.cost_usd)
    if gap(low.cost_usd, high.cost_usd) < CLOSE_MARGIN:
        return None
    text = f"{fmt.money(low.cost_usd)} against {fmt.money(high.cost_usd)} for {high.system}"
    return TieBreaker("cost", low.system, text)


def tie_breakers(
    win: Estimate,
    run: Estimate,
    maturity: Mapping[str, str],
    deadline_days: float | None,
    objective: str = "cost",
) -> tuple[TieBreaker, ...]:
    """What separates the winner and the runner-up beyond the objective: maturity, slack (or, when the
    objective is time itself, cost), lead time."""
    found: list[TieBreaker] = []
    m_win, m_run = maturity.get(win.system, "new"), maturity.get(run.system, "new")
    if MATURITY_ORDER.get(m_win, 9) != MATURITY_ORDER.get(m_run, 9):
        fav, other = (win, run) if MATURITY_ORDER.get(m_win, 9) < MATURITY_ORDER.get(m_run, 9) else (run, win)
        text = f"{fav.system} is {maturity.get(fav.system)}, {other.system} {maturity.get(other.system)}"
        found.append(TieBreaker("maturity", fav.system, text))
    second = _cost_breaker(win, run) if objective == "time" else _slack_breaker(win, run, deadline_days)
    for breaker in (second, _lead_breaker(win, run)):
        if breaker is not None:
            found.append(breaker)
    return tuple(found)


@dataclass(frozen=True)
class Ranked:
    """One feasible system as ranked: its estimate, its objective metric and its score."""

    estimate: Estimate
    metric: float
    score: float
    rule_factor: float = 1.0


def judge_verdict(
    ranked: Sequence[Ranked],
    objective: str,
    maturity: Mapping[str, str],
    deadline_days: float | None,
    systems_considered: int,
) -> Verdict:
    """The verdict from the ranking alone (best first); `with_robustness` adds the sampled share."""
    if not ranked:
        return NONE_FEASIBLE
    win = ranked[0]
    if len(ranked) == 1:
        others = (
            f"the only one of {systems_considered} systems" if systems_considered > 1 else "the only system"
        )
        why = f"{win.estimate.system} is {others} considered, and it meets every constraint"
        return Verdict("clear", why, win.estimate.system, edge="the only system meeting every constraint")
    run = ranked[1]
    edge, why = margin_sentence(objective, win.metric, run.metric, win.estimate, run.estimate)
    if deadline_days is not None:
        start = "start serving " if served_after_deadline(win.estimate) else ""
        why += f", both {start}within the {deadline_days:g}-day deadline"
    if abs(run.rule_factor - win.rule_factor) > 1e-9:
        weights = (
            f"{run.estimate.system} x{run.rule_factor:.2f}, {win.estimate.system} x{win.rule_factor:.2f}"
        )
        why += f" (rule weights: {weights})"
    margin = gap(win.score, run.score)
    metric_margin = gap(win.metric, run.metric)
    breakers = tie_breakers(win.estimate, run.estimate, maturity, deadline_days, objective)
    close = min(margin, metric_margin) < CLOSE_MARGIN
    kind: VerdictKind = "close_call" if close else "clear"
    other, also = lead_on_other(objective, win.estimate, run.estimate)
    return Verdict(
        kind,
        why,
        win.estimate.system,
        run.estimate.system,
        margin,
        None,
        breakers,
        edge,
        metric_margin,
        objective,
        also=also if other is not None and other >= CLOSE_MARGIN and not close else "",
    )


def split_words(contenders: Sequence[tuple[str, float]]) -> str:
    """How the sampled inputs' wins split when the expected winner takes under half of them: `no system
    wins half the sampled inputs (gb300-nvl72 35%, b300 27%, mi355x 20%)`, or, when another system takes
    half or more, `mi300x wins most of the sampled inputs (mi300x 73%, a100 21%)`."""
    named = ", ".join(f"{sid} {fmt.percent(share, 0)}" for sid, share in contenders)
    leader, share = max(contenders, key=lambda item: item[1], default=("", 0.0))
    if share >= UNSETTLED_SHARE:
        return f"{leader} wins most of the sampled inputs ({named})"
    return f"no system wins half the sampled inputs ({named})"


def with_robustness(
    verdict: Verdict,
    share: float | None,
    deadline_share: float | None = None,
    deadline_days: float | None = None,
    conservative: bool = False,
    contenders: tuple[tuple[str, float], ...] = (),
) -> Verdict:
    """The verdict once the winner's share of sampled inputs is known: below `ROBUST_SHARE` a close call,
    unless the winner also leads by `CLOSE_MARGIN` on the other measure (`also`: it dominates); the
    share of samples in which it meets the deadline; and, below `UNSETTLED_SHARE`, the systems sharing
    the wins (`contenders`)."""
    if verdict.kind == "none_feasible" or share is None:
        return verdict
    shaky = share < ROBUST_SHARE and verdict.runner_up is not None and not verdict.also
    close = verdict.kind == "close_call" or shaky
    return replace(
        verdict,
        robustness=share,
        kind="close_call" if close else "clear",
        deadline_share=deadline_share if deadline_days is not None else None,
        deadline_days=deadline_days,
        conservative=conservative,
        contenders=contenders if share < UNSETTLED_SHARE else (),
    )
