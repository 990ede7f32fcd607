"""`advise()`: estimate every system, apply constraints and rules, rank, explain. Pure: no I/O.

Ranking: each feasible candidate's objective metric (cost, time to result, energy, or for `balanced`
the geometric mean of cost and time) is divided by the best feasible value, then multiplied by
(1 - w) for each `prefer` and (1 + w) for each `penalize` rule that fired for it. Lowest score wins.
Hard constraints are arithmetic (memory, deadline, budget, capacity wait); rule `exclude`s add to them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate, fit_message
from advisor.core.decision.facts import candidate_facts, workload_facts
from advisor.core.decision.headline import headline_figures, headline_sentence
from advisor.core.decision.recommendation import Candidate, FiredRule, Reason, Recommendation
from advisor.core.decision.rules import Rule, RuleResult, evaluate
from advisor.core.model.catalog import Catalog, System
from advisor.core.model.sourced import as_of_end
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Assumptions, Constraints, Objective, Workload
from advisor.errors import AdvisorError

BASELINE_SYSTEM = "h100"
"""Speed-up and TCO ratios are against this system (SemiAnalysis's comparison)."""
CLOSE_CALL = 0.15
"""A runner-up within this share of the winner's score gets a 'what would change' line."""


def _price_source(workload: Workload, system: System, assumptions: Assumptions) -> str | None:
    """The `as_of` of the price behind the estimate, None when the user set it."""
    if workload.pricing == "rent":
        if assumptions.for_system("price_usd_per_gpu_hour", system.id) is not None:
            return None
        return system.default_rental.as_of
    if assumptions.for_system("capex_usd_per_node", system.id) is not None:
        return None
    return system.capex.as_of


def capacity_assumptions(
    workload: Workload,
    catalog: Catalog,
    constraints: Constraints,
    assumptions: Assumptions,
    systems: Sequence[str],
) -> Assumptions:
    """Guaranteed capacity when renting means a reservation: its lead time replaces the on-demand wait."""
    if not (constraints.guaranteed_capacity and workload.pricing == "rent"):
        return assumptions
    waits = dict(assumptions.wait_hours)
    for sid in systems:
        if sid not in waits:
            waits[sid] = catalog.system(sid).availability.reserved_lead_days * HOURS_PER_DAY
    return assumptions.model_copy(update={"wait_hours": waits})


def objective_metric(objective: str, hours: float, cost: float, kwh: float) -> float:
    """What the ranking minimises: cost, time to result, energy, or for `balanced` sqrt(cost x time)."""
    if objective == "cost":
        return cost
    if objective == "time":
        return hours
    if objective == "energy":
        return kwh
    return math.sqrt(cost * hours)


def _metric(est: Estimate, objective: Objective) -> float:
    return objective_metric(objective, est.time_to_result_hours, est.cost_usd, est.energy_kwh)


def _constraint_reasons(est: Estimate, constraints: Constraints) -> list[Reason]:
    """Hard constraints that are arithmetic, each saying needed vs available."""
    reasons = []
    if not est.memory.fits:
        text = fit_message(est.memory, est.gpus, est.system, est.kind)
        reasons.append(Reason("infeasible", text, constraint="memory"))
    days = est.time_to_result_hours / HOURS_PER_DAY
    if constraints.deadline_days is not None and days > constraints.deadline_days:
        deadline = constraints.deadline_days
        text = f"misses the deadline: {days:.1f} days to result (wait included) > {deadline:g} days"
        reasons.append(Reason("infeasible", text, constraint="deadline"))
    if constraints.budget_usd is not None and est.cost_usd > constraints.budget_usd:
        text = f"over budget: {fmt.money(est.cost_usd)} > {fmt.money(constraints.budget_usd)}"
        reasons.append(Reason("infeasible", text, constraint="budget"))
    wait_days = est.time_breakdown_hours["wait"] / HOURS_PER_DAY
    if constraints.need_within_days is not None and wait_days > constraints.need_within_days:
        text = (
            f"capacity arrives too late: {fmt.duration(wait_days * HOURS_PER_DAY)} wait > "
            f"{constraints.need_within_days:g} days"
        )
        reasons.append(Reason("infeasible", text, constraint="capacity"))
    return reasons


def _rule_reason(result: RuleResult) -> list[Reason]:
    return [
        Reason(e.kind, result.because, result.rule.id, result.rule.source, e.weight or None)
        for e in result.rule.effects
    ]


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
    )


def advise(
    workload: Workload,
    catalog: Catalog,
    rules: Sequence[Rule],
    *,
    constraints: Constraints | None = None,
    objective: Objective = "cost",
    assumptions: Assumptions | None = None,
    systems: Sequence[str] | None = None,
    baseline: str = BASELINE_SYSTEM,
    today: date | None = None,
    gpus_by_system: Mapping[str, int] | None = None,
) -> Recommendation:
    """Recommend a system for `workload`. `today` dates price ages (the shell passes the real date).

    `gpus_by_system` sizes each system separately (e.g. the smallest count that meets a deadline);
    by default every system runs the workload's GPU count.
    """
    constraints = constraints or Constraints()
    system_ids = list(systems) if systems else list(catalog.systems)
    assumptions = capacity_assumptions(
        workload, catalog, constraints, assumptions or Assumptions(), system_ids
    )
    sized = {
        sid: workload.model_copy(update={"gpus": gpus_by_system[sid]})
        if gpus_by_system and gpus_by_system.get(sid)
        else workload
        for sid in system_ids
    }

    estimates: dict[str, Estimate | None] = {}
    errors: dict[str, str] = {}
    for sid in system_ids:
        catalog.system(sid)
        try:
            estimates[sid] = estimate(sized[sid], sid, catalog, assumptions)
        except AdvisorError as exc:
            estimates[sid], errors[sid] = None, str(exc)
    base_est = estimates.get(baseline)
    if base_est is None and baseline in catalog.systems and baseline not in errors:
        base_est = estimate(workload, baseline, catalog, assumptions)

    wl_facts = workload_facts(workload, constraints, objective)
    checked: list[RuleResult] = []
    fired: list[FiredRule] = []
    warnings: list[str] = []
    for rule in rules:
        if rule.scope == "workload":
            result = evaluate(rule, wl_facts, None)
            checked.append(result)
            if result.fired:
                fired.append(_fired(result))
                warnings.extend(result.because for e in rule.effects if e.kind == "warn")

    reasons: dict[str, list[Reason]] = {sid: [] for sid in system_ids}
    factors: dict[str, float] = dict.fromkeys(system_ids, 1.0)
    excluded: set[str] = set()
    for sid in system_ids:
        est = estimates[sid]
        if est is None:
            reasons[sid].append(Reason("infeasible", errors[sid], constraint="estimate"))
            excluded.add(sid)
            continue
        reasons[sid].extend(_constraint_reasons(est, constraints))
        system = catalog.system(sid)
        as_of = _price_source(workload, system, assumptions)
        age = (today - as_of_end(as_of)).days if (today and as_of) else None
        facts = {
            **(wl_facts if sized[sid] is workload else workload_facts(sized[sid], constraints, objective)),
            **candidate_facts(est, system, base_est, constraints, age, as_of or "set by you"),
        }
        for rule in rules:
            if rule.scope != "candidate":
                continue
            result = evaluate(rule, facts, sid)
            checked.append(result)
            if not result.fired:
                continue
            fired.append(_fired(result))
            reasons[sid].extend(_rule_reason(result))
            for effect in rule.effects:
                if effect.kind == "exclude":
                    excluded.add(sid)
                elif effect.kind == "prefer":
                    factors[sid] *= 1 - effect.weight
                elif effect.kind == "penalize":
                    factors[sid] *= 1 + effect.weight

    feasible = [
        sid
        for sid in system_ids
        if sid not in excluded and not any(r.kind == "infeasible" for r in reasons[sid])
    ]
    metrics = {sid: _metric(est, objective) for sid in feasible if (est := estimates[sid]) is not None}
    best = min(metrics.values(), default=None)
    scores = {sid: metrics[sid] / best * factors[sid] for sid in metrics} if best else {}
    ranked = sorted(feasible, key=lambda sid: (scores[sid], sid))
    winner = ranked[0] if ranked else None

    candidates = tuple(
        Candidate(
            system=sid,
            system_name=catalog.system(sid).name,
            feasible=sid in scores,
            score=scores.get(sid),
            rule_factor=factors[sid],
            rank=ranked.index(sid) + 1 if sid in scores else None,
            estimate=estimates[sid],
            reasons=tuple(reasons[sid]),
        )
        for sid in sorted(system_ids, key=lambda s: (ranked.index(s) if s in scores else len(ranked), s))
    )
    if winner is not None:
        win_est = estimates[winner]
        assert win_est is not None
        warnings.extend(win_est.warnings)
        warnings.extend(r.text for r in reasons[winner] if r.kind == "warn")
    changes = _what_would_change(
        winner, ranked, scores, estimates, reasons, objective, workload, constraints, factors, best
    )
    return Recommendation(
        winner=winner,
        objective=objective,
        candidates=candidates,
        rules_fired=tuple(fired),
        rules_checked=tuple(checked),
        warnings=tuple(dict.fromkeys(warnings)),
        what_would_change=tuple(changes),
        headline=_headline(winner, candidates, workload, objective),
        baseline=baseline if base_est is not None else None,
        constraints=constraints,
    )


def _headline(winner: str | None, candidates: Sequence[Candidate], workload: Workload, objective: str) -> str:
    if winner is None:
        return "No system is feasible for this workload as constrained; see each system's reasons."
    est = next(c for c in candidates if c.system == winner).estimate
    assert est is not None
    return headline_sentence(headline_figures(est, workload.pricing), objective)


def _relaxations(est: Estimate, blockers: set[str | None], constraints: Constraints) -> list[str]:
    """The constraint values under which `est` would be feasible, in words."""
    parts = []
    if "deadline" in blockers and constraints.deadline_days is not None:
        parts.append(
            f"the run may take {est.time_to_result_hours / HOURS_PER_DAY:.1f} days instead of "
            f"{constraints.deadline_days:g}"
        )
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


def _what_would_change(
    winner: str | None,
    ranked: list[str],
    scores: dict[str, float],
    estimates: dict[str, Estimate | None],
    reasons: dict[str, list[Reason]],
    objective: Objective,
    workload: Workload,
    constraints: Constraints,
    factors: dict[str, float],
    best: float | None,
) -> list[str]:
    """One line per near alternative: the constraint or price that would flip the answer."""
    lines: list[str] = []
    win_est = estimates.get(winner) if winner else None
    win_score = scores.get(winner) if winner else None
    blocked: list[tuple[float, str, list[str]]] = []
    for sid, est in estimates.items():
        if est is None or sid == winner or sid in scores:
            continue
        blockers = {r.constraint for r in reasons[sid] if r.kind in ("infeasible", "exclude")}
        if blockers and blockers <= {"deadline", "budget", "capacity"}:
            blocked.append(
                (_metric(est, objective) * factors[sid], sid, _relaxations(est, blockers, constraints))
            )
    blocked.sort()
    if winner is not None and best is not None and win_score is not None:
        better = [(score, sid, parts) for score, sid, parts in blocked if score / best < win_score]
        if better:
            _, sid, parts = better[0]
            lines.append(f"{sid} wins if " + " and ".join(parts))
    elif blocked:
        for index, (_, sid, parts) in enumerate(blocked[:3]):
            role = "becomes feasible, and the best choice," if index == 0 else "becomes feasible"
            lines.append(f"{sid} {role} if " + " and ".join(parts))
    if winner is not None and len(ranked) > 1 and win_est is not None:
        runner = ranked[1]
        ratio = scores[runner] / scores[winner]
        run_est = estimates[runner]
        assert run_est is not None
        if ratio < 1 + CLOSE_CALL:
            if objective == "cost":
                price = run_est.price_usd_per_gpu_hour / ratio
                condition = "it rented" if workload.pricing == "rent" else "its owner's TCO were"
                lines.append(
                    f"{runner} wins if {condition} below ${price:.2f}/GPU-hour instead of "
                    f"${run_est.price_usd_per_gpu_hour:.2f} (it is {fmt.percent(ratio - 1)} behind {winner})"
                )
            else:
                lines.append(f"{runner} is within {fmt.percent(ratio - 1)} of {winner} on {objective}")
    return lines
