"""`run_scenario()`: a scenario's whole answer, in one call shared by the CLI, the app and the reports.

It sizes each system to the deadline when the scenario asks for it, advises, and adds the ranges,
robustness and (optionally) break-even points. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from advisor.core.catalog import Catalog
from advisor.core.deadline import GpuCount, gpus_for_deadline_all
from advisor.core.recommendation import Recommendation
from advisor.core.rules import Rule
from advisor.core.scenario import Scenario
from advisor.core.sensitivity import Sensitivity, sensitivity
from advisor.core.workload import Workload


@dataclass(frozen=True)
class ScenarioResult:
    """Everything shown for a scenario: the recommendation, the deadline sizing, the ranges."""

    scenario: Scenario
    workload: Workload
    recommendation: Recommendation
    sensitivity: Sensitivity
    sizing: tuple[GpuCount, ...]
    """Smallest GPU count per system that meets the deadline (empty without a deadline)."""


def run_scenario(
    scenario: Scenario,
    catalog: Catalog,
    rules: Sequence[Rule],
    *,
    today: date | None,
    break_evens: bool = False,
    samples: int = 1000,
    widen: float = 1.0,
) -> ScenarioResult:
    """Advise on `scenario` (ids are checked: an unknown one raises CatalogError listing the valid ones)."""
    scenario.check_ids(catalog)
    workload = scenario.workload.workload(catalog)
    systems = list(scenario.system_ids(catalog))
    deadline = scenario.constraints.deadline_days
    sizing: tuple[GpuCount, ...] = ()
    if deadline is not None:
        sizing = tuple(gpus_for_deadline_all(workload, catalog, deadline, scenario.assumptions, systems))
    sizes = (
        {found.system: found.gpus for found in sizing if found.gpus} if scenario.size_to_deadline else None
    )
    recommendation, sens = sensitivity(
        workload,
        catalog,
        rules,
        constraints=scenario.constraints,
        objective=scenario.objective,
        assumptions=scenario.assumptions,
        systems=systems,
        today=today,
        widen=widen,
        samples=samples,
        with_break_evens=break_evens,
        gpus_by_system=sizes,
    )
    return ScenarioResult(scenario, workload, recommendation, sens, sizing)
