"""What a report holds (`ReportData`) and how it is built: the scenario, the advice, the assumptions used.

`build_report` is the one place a report's numbers come from; every renderer only formats them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from advisor.core.analysis.deadline import GpuCount
from advisor.core.analysis.sensitivity import Sensitivity
from advisor.core.costing.results import Estimate
from advisor.core.decision.recommendation import Candidate, Recommendation
from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog, ModelSpec
from advisor.core.run import ScenarioResult, run_scenario
from advisor.core.scenario import Scenario
from advisor.report.assumptions import AssumptionUsed, assumptions_used

REPORT_FORMAT_VERSION = 1
"""Version of the report layout (JSON and TOML `report.format`); bumped when keys change meaning."""


def generated_line(today: date, version: str, scenario_schema: int | None = None) -> str:
    """`Generated 2026-12-01 by advisor 1.0 (scenario schema 1, report format 1)`: a report's origin."""
    schema = "" if scenario_schema is None else f"scenario schema {scenario_schema}, "
    return (
        f"Generated {today.isoformat()} by advisor {version} ({schema}report format {REPORT_FORMAT_VERSION})"
    )


@dataclass(frozen=True)
class ReportData:
    """Everything a report shows: inputs, the recommendation, the assumptions behind it, provenance."""

    scenario: Scenario
    model: ModelSpec
    """The model as run (the preset with the scenario's sequence length, or the custom model)."""
    recommendation: Recommendation
    sensitivity: Sensitivity
    """Ranges (P10-P90) per system, the winner's robustness, and the break-even points."""
    sizing: tuple[GpuCount, ...]
    """Smallest GPU count per system that meets the deadline (empty without a deadline)."""
    assumptions: tuple[AssumptionUsed, ...]
    today: date
    """The report's date; price ages are measured from it."""
    version: str
    """The advisor version that made the report."""

    @property
    def title(self) -> str:
        """The scenario's name."""
        return self.scenario.name

    @property
    def estimated(self) -> tuple[Candidate, ...]:
        """Candidates with an estimate (a system whose estimate failed has none), best first."""
        return tuple(c for c in self.recommendation.candidates if c.estimate is not None)

    @property
    def winner_estimate(self) -> Estimate | None:
        """The recommended system's estimate, if a system is recommended."""
        candidate = self.recommendation.winner_candidate
        return candidate.estimate if candidate is not None else None

    @property
    def stale_prices(self) -> tuple[AssumptionUsed, ...]:
        """Prices dated more than a year before the report."""
        return tuple(a for a in self.assumptions if a.stale)


def build_report(
    scenario: Scenario, catalog: Catalog, rules: Sequence[Rule], *, today: date, version: str
) -> ReportData:
    """Run `scenario` (advice, ranges, break-evens, deadline sizing) and collect what the report shows.

    Raises AdvisorError (e.g. CatalogError for an unknown system or model id).
    """
    result = run_scenario(scenario, catalog, rules, today=today, break_evens=True)
    used = assumptions_used(scenario, result.workload, catalog, result.recommendation, today, rules)
    return report_from_result(result, used, today=today, version=version)


def report_from_result(
    result: ScenarioResult, assumptions: Sequence[AssumptionUsed], *, today: date, version: str
) -> ReportData:
    """The report of a scenario already run (with break-evens) and the assumptions it used."""
    return ReportData(
        scenario=result.scenario,
        model=result.workload.model,
        recommendation=result.recommendation,
        sensitivity=result.sensitivity,
        sizing=result.sizing,
        assumptions=tuple(assumptions),
        today=today,
        version=version,
    )
