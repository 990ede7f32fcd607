"""A run longer than the turnover horizon (`catalog/economics.toml [turnover]`): the verdict says so,
with the GPU count that brings it within the horizon, found by the deadline sizing."""

from __future__ import annotations

from dataclasses import replace

from advisor.core import fmt
from advisor.core.analysis.deadline import gpus_for_deadline
from advisor.core.decision.recommendation import Recommendation
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.units import HOURS_PER_DAY


def horizon_caveat(rec: Recommendation, request: AdviceRequest) -> str:
    """`h100 takes 14.3 years to result, beyond the 365-day horizon in which GPUs and models turn
    over; 148 x 8-GPU node(s) finish in 330.2 days for $4.1M`, or empty within the horizon."""
    if rec.winner is None:
        return ""
    est = rec.candidate(rec.winner).estimate
    horizon = request.catalog.economics.turnover.horizon_days
    if est is None or est.time_to_result_hours <= horizon * HOURS_PER_DAY:
        return ""
    text = (
        f"{rec.winner} takes {fmt.duration(est.time_to_result_hours)} to result on {est.gpus:,} GPUs, beyond "
        f"the {horizon:g}-day horizon in which GPUs and models turn over"
    )
    sized = gpus_for_deadline(
        request.workload,
        rec.winner,
        request.catalog,
        horizon,
        request.capacity_assumptions(),
        margin=request.sizing_margin,
        basis=request.deadline_basis,
    )
    if sized.gpus is None or sized.estimate is None:
        return f"{text}; {sized.reason}"
    days = fmt.duration(sized.estimate.time_to_result_hours)
    return f"{text}; {sized.gpus:,} GPUs finish in {days} for {fmt.money(sized.estimate.cost_usd)}"


def with_horizon(rec: Recommendation, request: AdviceRequest) -> Recommendation:
    """`rec` with its verdict's caveat when the winner's run outlasts the turnover horizon."""
    caveat = horizon_caveat(rec, request)
    return replace(rec, verdict=replace(rec.verdict, caveat=caveat)) if caveat else rec
