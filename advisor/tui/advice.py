"""What the app computes for a scenario, in two steps so the answer appears at once:

1. `compute_advice`: the deadline sizing and `advise()` (a few milliseconds), and the assumptions used;
2. `compute_analysis`: the core's `run_scenario()` with ranges, robustness and break-evens (about
   0.1 s), for the ranges in the headline and the Sensitivity tab.

Pure (no Textual, no files): the main screen runs both in a thread worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from advisor.core.analysis.deadline import GpuCount
from advisor.core.decision.recommendation import Candidate, Recommendation
from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.run import ScenarioAdvice, advise_scenario, analyse_advice
from advisor.core.scenario import Scenario
from advisor.report.assumptions import AssumptionUsed, assumptions_used

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult


@dataclass(frozen=True)
class Advice:
    """The recommendation for one scenario, the deadline sizing (if any) and the assumptions used."""

    scenario: Scenario
    recommendation: Recommendation
    sizing: tuple[GpuCount, ...]
    """Smallest GPU count per system that meets `constraints.deadline_days`; empty without a deadline."""
    assumptions: tuple[AssumptionUsed, ...]
    """Every figure behind the recommendation, with its source and date (as the reports list them)."""
    computed: ScenarioAdvice
    """The core's answer behind it (the workload and GPU counts), which the ranges start from."""

    @property
    def winner(self) -> Candidate | None:
        return self.recommendation.winner_candidate

    def candidate(self, system: str | None) -> Candidate | None:
        """The candidate for `system`, else the winner (None when nothing is feasible)."""
        if system is not None:
            found = next((c for c in self.recommendation.candidates if c.system == system), None)
            if found is not None:
                return found
        return self.winner


def compute_advice(scenario: Scenario, catalog: Catalog, rules: Sequence[Rule], today: date) -> Advice:
    """Size to the deadline (if asked) and advise (`advise_scenario`), and list the assumptions used.

    Raises AdvisorError or ValidationError on a scenario the core rejects.
    """
    advice = advise_scenario(scenario, catalog, rules, today=today)
    workload, recommendation, sizing = advice.workload, advice.recommendation, advice.sizing
    used = assumptions_used(scenario, workload, catalog, recommendation, today, rules)
    return Advice(scenario, recommendation, sizing, used, advice)


def compute_analysis(advice: Advice) -> ScenarioResult:
    """The ranges, robustness, tornado and break-even points of `advice` (not advised again)."""
    return analyse_advice(advice.computed, break_evens=True)
