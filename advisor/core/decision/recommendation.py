"""What `advise()` returns: the winner, every candidate with its reasons, the rules trace."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from advisor.core import fmt
from advisor.core.costing.results import Estimate, JsonFields
from advisor.core.decision.gaps import gap
from advisor.core.decision.rules import RuleResult
from advisor.core.decision.verdict import NONE_FEASIBLE, Verdict
from advisor.core.model.workload import Constraints, Objective


@dataclass(frozen=True)
class Reason:
    """One reason about a candidate: a failed constraint or a rule effect, in plain words."""

    kind: str  # infeasible | exclude | prefer | penalize | warn | note
    text: str
    rule: str | None = None
    source: str | None = None
    weight: float | None = None
    constraint: str | None = None
    """For an infeasible reason: memory, deadline, budget, capacity, size (beyond what can be bought or
    rented), latency (no serving layout meets the TTFT/TPOT limits), or estimate (when it failed)."""


@dataclass(frozen=True)
class Candidate:
    """One system as considered for the workload."""

    system: str
    system_name: str
    feasible: bool
    score: float | None
    rule_factor: float
    """Product of the fired prefer (1 - w) and penalize (1 + w) weights; the score's second factor."""
    rank: int | None
    estimate: Estimate | None
    reasons: tuple[Reason, ...]

    def to_dict(self) -> dict[str, Any]:
        estimate = self.estimate.to_dict() if self.estimate else None
        return {
            "system": self.system,
            "system_name": self.system_name,
            "feasible": self.feasible,
            "score": self.score,
            "rule_factor": self.rule_factor,
            "rank": self.rank,
            # What a buyer's script reads first, lifted from the estimate (the same values).
            "purchase": estimate["purchase"] if estimate else None,
            "effective_price_usd_per_gpu_hour": (
                estimate["effective_price_usd_per_gpu_hour"] if estimate else None
            ),
            "estimate": estimate,
            "reasons": [asdict(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class FiredRule(JsonFields):
    """A rule that fired: for the workload (system None) or for one candidate."""

    id: str
    title: str
    because: str
    effect: str
    source: str
    file: str
    system: str | None
    conditions: tuple[str, ...]
    url: str = ""
    """Where the rule's source can be read; empty for a rule resting on an assumption."""


@dataclass(frozen=True)
class CheaperOption(JsonFields):
    """Another size (or system) that meets every hard constraint for less than the recommendation."""

    system: str
    gpus: int
    cost_usd: float
    time_to_result_hours: float
    saving: float
    """The share of the recommendation's cost it saves (0.32: 32% less)."""
    sentence: str


@dataclass(frozen=True)
class PriceToWin:
    """The runner-up's price per GPU-hour below which it overtakes the winner, all else as it is (its rule
    weights included): the score is cost times weights, so the price divides by the score ratio. Computed
    once, in `advise`; the close-call line and the break-even point both say it."""

    system: str
    winner: str
    pricing: str
    """rent: the rental price; own: the owner's TCO per GPU-hour."""
    current_usd_per_gpu_hour: float
    score_ratio: float
    """The runner-up's score over the winner's (1.018: the winner leads by `gap` 1.8%)."""

    @property
    def threshold_usd_per_gpu_hour(self) -> float:
        return self.current_usd_per_gpu_hour / self.score_ratio

    @property
    def sentence(self) -> str:
        """What would change the answer: "mi300x wins if it rented below $1.66/GPU-hour instead of ..."."""
        condition = "it rented" if self.pricing == "rent" else "its owner's TCO were"
        return (
            f"{self.system} wins if {condition} below ${self.threshold_usd_per_gpu_hour:.2f}/GPU-hour "
            f"instead of ${self.current_usd_per_gpu_hour:.2f} ({self.winner} leads it by "
            f"{fmt.percent(gap(1.0, self.score_ratio))} on score: cost x rule weights)"
        )


@dataclass(frozen=True)
class Recommendation:
    """What `advise` returns: the winner, every candidate, the rules trace, caveats."""

    winner: str | None
    objective: Objective
    candidates: tuple[Candidate, ...]
    rules_fired: tuple[FiredRule, ...]
    rules_checked: tuple[RuleResult, ...]
    warnings: tuple[str, ...]
    what_would_change: tuple[str, ...]
    headline: str
    baseline: str | None = None
    ranked_best: bool = True
    """No feasible system beats the winner on the objective itself (the headline's `best on cost`; else
    the rules' weights put it first)."""
    constraints: Constraints = field(default_factory=Constraints)
    verdict: Verdict = NONE_FEASIBLE
    """Clear winner, close call or nothing feasible, and why (`advise` from the scores; the analysis
    adds the robustness)."""
    cheaper_option: CheaperOption | None = None
    """A cheaper size or system that meets every hard constraint (found by the analysis), if any."""
    price_to_win: PriceToWin | None = None
    """On cost, a runner-up within `CLOSE_CALL` of the winner: the price at which it would win."""

    @property
    def winner_candidate(self) -> Candidate | None:
        return next((c for c in self.candidates if c.system == self.winner), None)

    def candidate(self, system: str) -> Candidate:
        return next(c for c in self.candidates if c.system == system)

    def to_dict(self) -> dict[str, Any]:
        """The `recommend --json` object."""
        return {
            "winner": self.winner,
            "objective": self.objective,
            "headline": self.headline,
            **self.verdict.to_dict(),
            "cheaper_option": self.cheaper_option.to_dict() if self.cheaper_option else None,
            "candidates": [c.to_dict() for c in self.candidates],
            "rules_fired": [r.to_dict() for r in self.rules_fired],
            "warnings": list(self.warnings),
            "what_would_change": list(self.what_would_change),
            "baseline": self.baseline,
            "constraints": self.constraints.model_dump(mode="json"),
            "rules_checked": len(self.rules_checked),
        }
