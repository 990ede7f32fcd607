"""Gaps between two systems, in one definition (`gap`: a share of the worse figure), and the words that
state them: the winner's margin on the objective, its lead on the other measure, rule-weight notes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

from advisor.core import fmt
from advisor.core.costing.results import Estimate

LEVEL = 0.0005
"""Two systems whose objective metrics differ by less than this share are level on it (0.0% apart)."""


def gap(better: float, worse: float) -> float:
    """How far `better` is ahead of `worse`, as a share of `worse`: (worse - better) / worse.

    The one definition of every gap shown and judged: "b300 is 5.1% cheaper than gb300-nvl72" ($482.7k
    vs $508.8k: 1 - 482.7 / 508.8), a close call's margin, "12.0% behind the best". Negative when
    `better` is in fact the worse; 0 when `worse` is 0.
    """
    return (worse - better) / worse if worse else 0.0


def objective_metric(objective: str, hours: float, cost: float, kwh: float) -> float:
    """What the ranking minimises: cost, time to result, energy, or for `balanced` sqrt(cost x time)."""
    if objective == "cost":
        return cost
    if objective == "time":
        return hours
    if objective == "energy":
        return kwh
    return math.sqrt(cost * hours)


def metric_text(objective: str, est: Estimate) -> str:
    """The objective's figure for `est` in words: `$2.47M`, `30.1 days`, `1.2 GWh`, `$2.47M in 30.1 days`."""
    if objective == "cost":
        return fmt.money(est.cost_usd)
    if objective == "time":
        return fmt.duration(est.time_to_result_hours)
    if objective == "energy":
        return fmt.energy(est.energy_kwh)
    return f"{fmt.money(est.cost_usd)} in {fmt.duration(est.time_to_result_hours)}"


def weight_notes(ranked: Sequence[tuple[Estimate | None, float]], objective: str) -> list[tuple[str, str]]:
    """(system, why) for each system ranked just above one better on the objective itself (estimates
    and rule factors, best first): `ranks above h200 on the rules' weights (x0.81 against x1.15), though
    h200 is cheaper ($135 against $173)`."""
    notes = []
    for (above, f_above), (below, f_below) in pairwise(ranked):
        if above is None or below is None:
            continue
        metric = [
            objective_metric(objective, e.time_to_result_hours, e.cost_usd, e.energy_kwh)
            for e in (above, below)
        ]
        if metric[1] < metric[0]:
            text = (
                f"ranks above {below.system} on the rules' weights (x{f_above:.2f} against "
                f"x{f_below:.2f}), though {below.system} is {BETTER.get(objective, 'better on balance')} "
                f"({metric_text(objective, below)} against {metric_text(objective, above)})"
            )
            notes.append((above.system, text))
    return notes


BETTER = {"cost": "cheaper", "time": "sooner to result", "energy": "less energy"}
OBJECTIVE_NOUN = {"cost": "cost", "time": "time to result", "energy": "energy", "balanced": "cost x time"}
"""What each objective ranks by, in the verdict's words."""


def lead_on_other(objective: str, win: Estimate, run: Estimate) -> tuple[float | None, str]:
    """The winner's `gap` ahead of the runner-up on the other measure (time to result for cost and
    energy, cost for time), and that lead in words; (None, "") for `balanced`."""
    if objective in ("cost", "energy"):
        diff = run.time_to_result_hours - win.time_to_result_hours
        ahead = gap(win.time_to_result_hours, run.time_to_result_hours)
        return ahead, f"{fmt.duration(diff)} sooner to result than {run.system}"
    if objective == "time":
        ahead = gap(win.cost_usd, run.cost_usd)
        costs = f"{fmt.money(win.cost_usd)} vs {fmt.money(run.cost_usd)}"
        return ahead, f"{fmt.percent(ahead)} cheaper than {run.system} ({costs})"
    return None, ""


def margin_sentence(
    objective: str, metric_win: float, metric_run: float, win: Estimate, run: Estimate
) -> tuple[str, str]:
    """(`5.7% cheaper than b200`, `gb200-nvl72 is 5.7% cheaper than b200 ($2.47M vs $2.62M)`): the
    winner's margin on the objective's own metric, or, when the rules' weights put it first, that."""
    better = BETTER.get(objective, "better on cost x time")
    win_text, run_text = metric_text(objective, win), metric_text(objective, run)
    if abs(metric_win - metric_run) <= LEVEL * max(metric_win, metric_run):
        edge = f"level with {run.system} on {OBJECTIVE_NOUN.get(objective, objective)} ({win_text} each)"
        return edge, f"{win.system} is {edge}"
    if metric_win <= metric_run:
        edge = f"{fmt.percent(gap(metric_win, metric_run))} {better} than {run.system}"
        return edge, f"{win.system} is {edge} ({win_text} vs {run_text})"
    edge = f"first on the rules' weights; {run.system} is {fmt.percent(gap(metric_run, metric_win))} {better}"
    return edge, f"{win.system} ranks {edge} ({run_text} vs {win_text})"
