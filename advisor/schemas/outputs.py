"""Pydantic models describing `recommend --json`, report JSON and comparison JSON.

They describe the output only (built by `advisor/core/decision/recommendation.py`,
`advisor/report/json_report.py` and `advisor/report/compare.py`); the keys are in docs/json.md.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from advisor.core.decision import recommendation
from advisor.schemas.estimate_out import EstimateCore, Number, Out, PurchaseOut, RangeOut, mirrored


class Reason(Out):
    """Why a candidate ranks where it does."""

    kind: Literal["infeasible", "exclude", "prefer", "penalize", "warn", "note"]
    text: str
    rule: str | None
    source: str | None
    weight: Number | None
    constraint: Literal["memory", "deadline", "budget", "capacity", "size", "latency", "estimate"] | None


class Candidate(Out):
    """One system, in rank order."""

    system: str
    system_name: str
    feasible: bool
    score: Number | None
    rule_factor: Number
    rank: int | None
    purchase: PurchaseOut | None
    effective_price_usd_per_gpu_hour: Number | None
    estimate: EstimateCore | None
    reasons: list[Reason]


class FiredRule(Out):
    """A rule that fired, with its conditions and their actual values."""

    __annotations__ = mirrored(recommendation.FiredRule)


class ConstraintsOut(Out):
    """The constraints used."""

    deadline_days: Number | None
    sizing_margin: Number
    budget_usd: Number | None
    need_within_days: Number | None
    guaranteed_capacity: bool
    risk: Literal["conservative", "balanced", "early-adopter"]
    iteration_speed_matters: bool


class Robustness(Out):
    """How often the winner still wins when every uncertain input varies at once."""

    winner: str
    share: Number
    samples: int
    shares: dict[str, Number]
    verdict: str
    deadline_share: Number | None


class TieBreakerOut(Out):
    """What separates a close call's two systems beyond the objective."""

    name: Literal["maturity", "slack", "lead_time", "cost"]
    favours: str
    text: str


class VerdictDetail(Out):
    """The verdict's figures: margins, robustness, tie-breakers."""

    sentence: str
    winner: str | None
    runner_up: str | None
    margin: Number | None
    metric_margin: Number | None
    robustness: Number | None
    favoured: str | None
    tie_breakers: list[TieBreakerOut]
    trade_off: str | None
    owned: str | None
    deadline_share: Number | None
    deadline_risk: str | None


class CheaperOptionOut(Out):
    """A cheaper configuration that also meets every constraint."""

    __annotations__ = mirrored(recommendation.CheaperOption)


class BreakEven(Out):
    """The value of one input at which the answer flips."""

    input: str
    system: str
    current: Number
    threshold: Number | None
    sentence: str


class RecommendationFields(Out):
    """The keys `recommend --json` and the report share."""

    winner: str | None
    verdict: Literal["clear", "close_call", "none_feasible"]
    why: str
    verdict_detail: VerdictDetail
    cheaper_option: CheaperOptionOut | None
    objective: Literal["cost", "time", "energy", "balanced"]
    headline: str
    candidates: list[Candidate]
    rules_fired: list[FiredRule]
    warnings: list[str]
    what_would_change: list[str]
    baseline: str
    constraints: ConstraintsOut
    rules_checked: int
    ranges: dict[str, RangeOut]
    robustness: Robustness | None
    break_evens: list[BreakEven]
    speed_for_price: list[str]


class RecommendOutput(RecommendationFields):
    """`advisor recommend --json`."""

    schema_version: Literal[1]


class ReportHeader(Out):
    """Provenance of a report."""

    format: int
    advisor_version: str
    generated: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    title: str


class SizingOut(Out):
    """With a deadline: the smallest GPU count that meets it on one system."""

    system: str
    deadline_days: Number
    margin: Number
    gpus: int | None
    sized_gpus: int | None
    binding: Literal["deadline", "capacity", "memory", "budget", "lead time"]
    reason: str


class AssumptionOut(Out):
    """A value the answer rests on, with its source."""

    subject: str
    topic: str
    values: dict[str, Any]
    source: str
    as_of: str
    note: str
    urls: list[str]
    assumption: bool
    set_by_user: bool
    stale: bool
    user_price: bool


class ReportOutput(RecommendationFields):
    """`advisor report ... -o r.json`: the recommendation plus the report's own keys."""

    schema_version: Literal[1]
    report: ReportHeader
    scenario: dict[str, Any] = Field(description="The scenario as its TOML file holds it (scenario schema).")
    sizing: list[SizingOut]
    breakdowns: dict[str, dict[str, dict[str, Number]]]
    assumptions: list[AssumptionOut]


class ComparisonHeader(Out):
    """Provenance of a comparison."""

    format: int
    advisor_version: str
    generated: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")


class Difference(Out):
    """One input that differs between the scenarios."""

    key: str
    values: list[Any]


class ComparedScenario(Out):
    """One scenario of a comparison, with its answer."""

    label: str
    source: str
    scenario: dict[str, Any]
    winner: str | None
    headline: str
    warnings: list[str]
    what_would_change: list[str]
    verdict: Literal["clear", "close_call", "none_feasible"]
    why: str
    winner_figures: dict[str, Number | None] | None
    systems: dict[str, dict[str, Any]]
    breakdowns: dict[str, dict[str, dict[str, Number]]]


class CompareOutput(Out):
    """`advisor compare ... -o c.json`."""

    schema_version: Literal[1]
    comparison: ComparisonHeader
    differences: list[Difference]
    work_differs: bool = Field(
        description="the scenarios' work (tokens, requests) differs: changes are per 1M tokens, not totals"
    )
    scenarios: list[ComparedScenario]
