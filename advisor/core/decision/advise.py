"""`advise()`: estimate every system, apply constraints and rules, rank, explain. Pure: no I/O.

Ranking: each feasible candidate's objective metric (cost, time to result, energy, or for `balanced`
the geometric mean of cost and time) is divided by the best feasible value, then multiplied by
(1 - w) for each `prefer` and (1 + w) for each `penalize` rule that fired for it. Lowest score wins.
Hard constraints are arithmetic (memory, deadline, budget, capacity wait); rule `exclude`s add to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.decision import owned as owned_gpus
from advisor.core.decision.constraints import constraint_reasons, judged_hours, past_horizon
from advisor.core.decision.evidence_age import dated_because
from advisor.core.decision.facts import candidate_facts, workload_facts
from advisor.core.decision.gaps import OBJECTIVE_NOUN, gap, objective_metric, weight_notes
from advisor.core.decision.headline import headline_figures, headline_sentence
from advisor.core.decision.price_facts import price_facts, price_source
from advisor.core.decision.recommendation import (
    Candidate,
    FiredRule,
    PriceToWin,
    Reason,
    Recommendation,
)
from advisor.core.decision.request import AdviceRequest
from advisor.core.decision.rules import Rule, RuleResult, evaluate
from advisor.core.decision.speed_facts import speed_facts
from advisor.core.decision.verdict import NONE_FEASIBLE, Ranked, Verdict, judge_verdict
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.sourced import as_of_end
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Objective
from advisor.errors import AdvisorError

CLOSE_CALL = 0.15
"""A runner-up within this share of the winner's score gets a 'what would change' line."""


def _metric(est: Estimate, objective: Objective) -> float:
    return objective_metric(objective, est.time_to_result_hours, est.cost_usd, est.energy_kwh)


def _rule_reason(result: RuleResult, request: AdviceRequest) -> list[Reason]:
    rule, text = (
        result.rule,
        dated_because(result.rule, result.because, request.today, request.stale_after_days),
    )
    return [Reason(e.kind, text, rule.id, rule.source, e.weight or None) for e in rule.effects]


def _fired(result: RuleResult) -> FiredRule:
    rule: Rule = result.rule
    return FiredRule(
        rule.id,
        rule.title,
        result.because,
        rule.effect_names,
        rule.source,
        rule.file,
        result.system,
        tuple(c.describe() for c in result.conditions),
        rule.url,
    )


@dataclass
class _Judgement:
    """One system's estimate, the reasons against or for it, and its rule factor."""

    estimate: Estimate | None
    reasons: list[Reason] = field(default_factory=list)
    factor: float = 1.0
    """Product of (1 - w) per `prefer` and (1 + w) per `penalize` rule that fired."""
    excluded: bool = False
    """A rule excluded it, or it could not be estimated."""

    @property
    def feasible(self) -> bool:
        return not self.excluded and not any(r.kind == "infeasible" for r in self.reasons)


@dataclass
class _Trace:
    """Every rule checked and fired, in order, and the warnings they raised."""

    checked: list[RuleResult] = field(default_factory=list)
    fired: list[FiredRule] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    summarised: dict[str, list[str]] = field(default_factory=dict)
    """A `summary` rule's sentence and the systems it fired on (one warning for them all)."""

    def record(self, result: RuleResult) -> bool:
        """Note a checked rule; True when it fired."""
        self.checked.append(result)
        if result.fired:
            self.fired.append(_fired(result))
        return result.fired


@dataclass(frozen=True)
class _Ranking:
    """Feasible systems best first, their scores, and the best raw metric the scores divide by."""

    ranked: list[str]
    scores: dict[str, float]
    best: float | None

    @property
    def winner(self) -> str | None:
        return self.ranked[0] if self.ranked else None


def _estimate_all(
    request: AdviceRequest, system_ids: Sequence[str], assumptions: Assumptions
) -> dict[str, _Judgement]:
    """Each system estimated at its size; one that cannot be is infeasible with the reason why."""
    judged: dict[str, _Judgement] = {}
    for sid in system_ids:
        request.catalog.system(sid)
        try:
            judged[sid] = _Judgement(estimate(request.sized_workload(sid), sid, request.catalog, assumptions))
        except AdvisorError as exc:
            judged[sid] = _Judgement(
                None, [Reason("infeasible", str(exc), constraint="estimate")], excluded=True
            )
    return judged


def _baseline_estimate(
    request: AdviceRequest, judged: Mapping[str, _Judgement], assumptions: Assumptions
) -> Estimate | None:
    """The baseline system's estimate (made if it is not a candidate), for the speed-up and TCO ratios."""
    baseline, catalog = request.baseline, request.catalog
    if baseline in judged:
        return judged[baseline].estimate
    if baseline in catalog.systems:
        return estimate(request.workload, baseline, catalog, assumptions)
    return None


def _workload_rules(request: AdviceRequest, wl_facts: Mapping[str, Any], trace: _Trace) -> None:
    """Rules about the workload alone: recorded, and their warnings raised."""
    for rule in request.rules:
        if rule.scope == "workload" and trace.record(result := evaluate(rule, wl_facts, None)):
            trace.warnings.extend(result.because for e in rule.effects if e.kind == "warn")


def _candidate_facts(
    request: AdviceRequest,
    sid: str,
    est: Estimate,
    base_est: Estimate | None,
    assumptions: Assumptions,
    wl_facts: Mapping[str, Any],
) -> dict[str, Any]:
    """The facts a candidate rule sees: the (sized) workload's and the system's, with the price's age."""
    workload, constraints, today = request.workload, request.constraints, request.today
    sized = request.sized_workload(sid)
    system = request.catalog.system(sid)
    as_of = price_source(workload, system, assumptions, est)
    age = (today - as_of_end(as_of)).days if (today and as_of) else None
    fits, horizon = wl_facts["owned_fleet_fits"], request.catalog.economics.turnover.horizon_days
    return {
        **(wl_facts if sized is workload else workload_facts(sized, constraints, request.objective, fits)),
        **candidate_facts(est, system, base_est, constraints, age, as_of or "set by you", horizon),
        **price_facts(workload, system, assumptions, est),
        **speed_facts(request.catalog, system, workload.model.family, sized.gpus),
    }


def _judge(
    request: AdviceRequest, sid: str, judgement: _Judgement, facts: Mapping[str, Any], trace: _Trace
) -> None:
    """Apply the hard constraints and the candidate rules to one estimated system."""
    assert judgement.estimate is not None
    judgement.reasons.extend(
        constraint_reasons(judgement.estimate, request.constraints, request.deadline_basis)
    )
    if request.sizing_notes and sid in request.sizing_notes:
        how = f"sized to the deadline {request.sizing_allowance}"
        judgement.reasons.append(Reason("note", f"{how}: {request.sizing_notes[sid]}"))
    for rule in request.rules:
        if rule.scope != "candidate" or not trace.record(result := evaluate(rule, facts, sid)):
            continue
        if rule.summary:
            trace.summarised.setdefault(rule.summary, []).append(sid)
            continue
        judgement.reasons.extend(_rule_reason(result, request))
        for effect in rule.effects:
            if effect.kind == "exclude":
                judgement.excluded = True
            elif effect.kind == "prefer":
                judgement.factor *= 1 - effect.weight
            elif effect.kind == "penalize":
                judgement.factor *= 1 + effect.weight


def _rank(judged: Mapping[str, _Judgement], objective: Objective) -> _Ranking:
    """Score = objective metric / best feasible metric x rule factor; lowest first, ties by id."""
    metrics = {
        sid: _metric(j.estimate, objective)
        for sid, j in judged.items()
        if j.feasible and j.estimate is not None
    }
    best = min(metrics.values(), default=None)
    scores = {sid: metrics[sid] / best * judged[sid].factor for sid in metrics} if best else {}
    feasible = [sid for sid, j in judged.items() if j.feasible]
    # Level scores (h100 and h200 train at the same speed) are ordered by the other measure: time to
    # result, or cost when time is the objective; only then by id.
    other: Objective = "cost" if objective == "time" else "time"
    second = {sid: _metric(j.estimate, other) for sid, j in judged.items() if sid in metrics and j.estimate}
    return _Ranking(sorted(feasible, key=lambda sid: (scores[sid], second[sid], sid)), scores, best)


def _candidates(
    request: AdviceRequest, judged: Mapping[str, _Judgement], ranking: _Ranking
) -> tuple[Candidate, ...]:
    """Every system as a candidate: the ranked ones first, then the rest by id."""
    ranked, scores = ranking.ranked, ranking.scores
    return tuple(
        Candidate(
            system=sid,
            system_name=request.catalog.system(sid).name,
            feasible=sid in scores,
            score=scores.get(sid),
            rule_factor=judged[sid].factor,
            rank=ranked.index(sid) + 1 if sid in scores else None,
            estimate=judged[sid].estimate,
            reasons=tuple(judged[sid].reasons),
        )
        for sid in sorted(judged, key=lambda s: (ranked.index(s) if s in scores else len(ranked), s))
    )


def advise(request: AdviceRequest) -> Recommendation:
    """Recommend a system for the request's workload: estimate each, constrain, apply rules, rank, explain."""
    assumptions = request.capacity_assumptions()
    judged = _estimate_all(request, request.system_ids(), assumptions)
    base_est = _baseline_estimate(request, judged, assumptions)
    owning = request.workload.pricing == "own"
    fits = owning and owned_gpus.owned_fleet_fits((j.estimate for j in judged.values()), request.constraints)
    wl_facts = workload_facts(request.workload, request.constraints, request.objective, fits)
    trace = _Trace()
    if renting_owned := owned_gpus.owned_when_renting(request, assumptions):
        trace.warnings.append(renting_owned)
    _workload_rules(request, wl_facts, trace)
    for sid, judgement in judged.items():
        if judgement.estimate is not None:
            facts = _candidate_facts(request, sid, judgement.estimate, base_est, assumptions, wl_facts)
            _judge(request, sid, judgement, facts, trace)
    trace.warnings.extend(text.format(systems=", ".join(ids)) for text, ids in trace.summarised.items())
    ranking = _rank(judged, request.objective)
    for sid, text in weight_notes(
        [(judged[s].estimate, judged[s].factor) for s in ranking.ranked], request.objective
    ):
        judged[sid].reasons.append(Reason("note", text))
    candidates = _candidates(request, judged, ranking)
    winner = ranking.winner
    if winner is not None:
        win_est = judged[winner].estimate
        assert win_est is not None
        trace.warnings.extend(w if w.startswith(winner) else f"{winner}: {w}" for w in win_est.warnings)
        trace.warnings.extend(r.text for r in judged[winner].reasons if r.kind == "warn")
    close_lines, price_to_win = _close_call(request, judged, ranking)
    changes = (*_blocked_lines(request, judged, ranking), *close_lines)
    win_est = judged[winner].estimate if winner is not None else None
    best = win_est is None or _best(win_est, candidates, request.objective)
    return Recommendation(
        winner=winner,
        objective=request.objective,
        candidates=candidates,
        rules_fired=tuple(trace.fired),
        rules_checked=tuple(trace.checked),
        warnings=tuple(dict.fromkeys(trace.warnings)),
        what_would_change=changes,
        headline=_headline(winner, candidates, request, best),
        ranked_best=best,
        verdict=_verdict(request, candidates, changes),
        baseline=request.baseline if base_est is not None else None,
        constraints=request.constraints,
        price_to_win=price_to_win,
    )


def _verdict(request: AdviceRequest, candidates: Sequence[Candidate], changes: Sequence[str]) -> Verdict:
    """Clear or a close call (from the scores; the analysis adds robustness), or nothing feasible."""
    ranked = [
        Ranked(c.estimate, _metric(c.estimate, request.objective), c.score, c.rule_factor)
        for c in candidates
        if c.score is not None and c.estimate is not None
    ]
    if not ranked:
        return Verdict(NONE_FEASIBLE.kind, "; ".join([NONE_FEASIBLE.why, *changes[:1]]))
    maturity = {c.system: request.catalog.system(c.system).maturity.level for c in candidates}
    deadline = request.constraints.deadline_days
    verdict = judge_verdict(ranked, request.objective, maturity, deadline, len(candidates))
    owning = request.workload.pricing == "own"
    trade_off = owned_gpus.owned_trade_off([r.estimate for r in ranked]) if owning else ""
    why = f"{verdict.why}; {trade_off}" if trade_off else verdict.why
    return replace(verdict, why=why, trade_off=trade_off, held_to=request.held_to(ranked[0].estimate))


def _headline(winner: str | None, candidates: Sequence[Candidate], request: AdviceRequest, best: bool) -> str:
    if winner is None:
        return "No system is feasible for this workload as constrained; see each system's reasons."
    est = next(c for c in candidates if c.system == winner).estimate
    assert est is not None
    figures, basis = headline_figures(est, request.workload.pricing), request.deadline_basis
    if basis is not None and request.constraints.deadline_days is not None:
        figures = replace(figures, at_quantile=f"{fmt.duration(basis.hours(est))} at {basis.label}")
    return headline_sentence(figures, request.objective, best)


def _best(est: Estimate, candidates: Sequence[Candidate], objective: Objective) -> bool:
    """No feasible system beats `est` on the objective itself (the rules' weights aside)."""
    metrics = [_metric(c.estimate, objective) for c in candidates if c.score and c.estimate]
    return _metric(est, objective) <= min(metrics)


def _relaxations(est: Estimate, blockers: set[str | None], request: AdviceRequest) -> list[str]:
    """The constraint values under which `est` would be feasible, in words (a deadline at the risk
    appetite's quantile of the time to result, as it is judged)."""
    parts, constraints, basis = [], request.constraints, request.deadline_basis
    if "deadline" in blockers and constraints.deadline_days is not None:
        serving = est.serves_a_rate
        days = est.time_to_result_hours - est.time_to_train_hours if serving else judged_hours(est, basis)
        what = "serving may start after" if serving else "the run may take"
        at = f" at {basis.label}" if basis is not None and not serving else ""
        parts.append(f"{what} {days / HOURS_PER_DAY:.1f} days{at} instead of {constraints.deadline_days:g}")
    if "budget" in blockers and constraints.budget_usd is not None:
        parts.append(
            f"the budget were {fmt.money(est.cost_usd)} instead of {fmt.money(constraints.budget_usd)}"
        )
    if "capacity" in blockers and constraints.need_within_days is not None:
        wait_days = est.time_breakdown_hours["wait"] / HOURS_PER_DAY
        parts.append(
            f"capacity may arrive in {wait_days:.0f} days instead of {constraints.need_within_days:g}"
        )
    return parts


def _blocked_lines(request: AdviceRequest, judged: Mapping[str, _Judgement], ranking: _Ranking) -> list[str]:
    """Systems kept out only by the deadline, budget or capacity wait, and the values that let them in."""
    winner, scores, best = ranking.winner, ranking.scores, ranking.best
    blocked: list[tuple[float, str, list[str]]] = []
    for sid, judgement in judged.items():
        est = judgement.estimate
        if est is None or sid == winner or sid in scores:
            continue
        blockers = {r.constraint for r in judgement.reasons if r.kind in ("infeasible", "exclude")}
        hopeless = "deadline" in blockers and past_horizon(est, request.catalog, request.deadline_basis)
        if blockers and blockers <= {"deadline", "budget", "capacity"} and not hopeless:
            score = _metric(est, request.objective) * judgement.factor
            blocked.append((score, sid, _relaxations(est, blockers, request)))
    blocked.sort()
    win_score = scores.get(winner) if winner else None
    if winner is not None and best is not None and win_score is not None:
        better = [(score, sid, parts) for score, sid, parts in blocked if score / best < win_score]
        if better:
            _, sid, parts = better[0]
            return [f"{sid} wins if " + " and ".join(parts)]
        return []
    lines = []
    for index, (_, sid, parts) in enumerate(blocked[:3]):
        role = "becomes feasible, and the best choice," if index == 0 else "becomes feasible"
        lines.append(f"{sid} {role} if " + " and ".join(parts))
    return lines


def _close_call(
    request: AdviceRequest, judged: Mapping[str, _Judgement], ranking: _Ranking
) -> tuple[list[str], PriceToWin | None]:
    """The runner-up, when it is within `CLOSE_CALL` of the winner: how near, and on cost the price at
    which it would win."""
    winner, ranked, scores = ranking.winner, ranking.ranked, ranking.scores
    if winner is None or len(ranked) < 2 or judged[winner].estimate is None:
        return [], None
    runner = ranked[1]
    ratio = scores[runner] / scores[winner]
    run_est = judged[runner].estimate
    assert run_est is not None
    behind = gap(scores[winner], scores[runner])
    if behind >= CLOSE_CALL:
        return [], None
    if request.objective != "cost":
        noun = f"{OBJECTIVE_NOUN.get(request.objective, request.objective)} x rule weights"
        return [f"{runner} is only {fmt.percent(behind)} behind {winner} on score ({noun})"], None
    price = PriceToWin(runner, winner, request.workload.pricing, run_est.price_usd_per_gpu_hour, ratio)
    return [price.sentence], price
