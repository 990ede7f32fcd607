"""`AdviceRequest`: everything `advise()` needs, in one frozen value.

Break-even points and sensitivity vary one field of it with `dataclasses.replace` instead of repeating
a ten-keyword call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from advisor.core import fmt
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import DeadlineBasis, margin_not_added, sizing_allowance, sizing_margin
from advisor.core.decision.evidence_age import stale_after_days
from advisor.core.decision.rules import Rule
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Constraints, Objective, Workload

BASELINE_SYSTEM = "h100"
"""Speed-up and TCO ratios are against this system (SemiAnalysis's comparison)."""


@dataclass(frozen=True)
class AdviceRequest:
    """A workload, the catalog and rules to judge it by, and how to choose among the systems."""

    workload: Workload
    catalog: Catalog
    rules: Sequence[Rule]
    """The loaded rule set, applied in order."""
    constraints: Constraints = field(default_factory=Constraints)
    """Hard limits (deadline, budget, capacity wait) and preferences the rules read (risk, speed)."""
    objective: Objective = "cost"
    """What the ranking minimises: cost, time, energy or balanced."""
    assumptions: Assumptions = field(default_factory=Assumptions)
    """The user's overrides (prices, MFU, goodput, PUE ...); catalog values apply where unset."""
    systems: Sequence[str] | None = None
    """The candidate system ids; None means every system in the catalog."""
    baseline: str = BASELINE_SYSTEM
    """The system speed-up and TCO ratios are measured against."""
    today: date | None = None
    """Dates price ages (the shell passes the real date); None leaves them undated."""
    gpus_by_system: Mapping[str, int] | None = None
    """GPU count per system (e.g. the smallest that meets a deadline); by default the workload's."""
    sizing_notes: Mapping[str, str] | None = None
    """Per system, how it was sized to the deadline and what binds (shown among its reasons)."""
    deadline_basis: DeadlineBasis | None = None
    """What the deadline is judged against: the risk appetite's quantile of the time to result
    (`analysis.time_quantile.deadline_basis`); None: the expected estimate."""

    @cached_property
    def stale_after_days(self) -> float | None:
        """The rules' price-age limit in days (evidence older than it is dated in reasons), found once."""
        return stale_after_days(self.rules)

    def system_ids(self) -> list[str]:
        """The candidate system ids, in order."""
        return list(self.systems) if self.systems else list(self.catalog.systems)

    def sized_workload(self, system_id: str) -> Workload:
        """The workload at the GPU count `system_id` runs it with."""
        gpus = self.gpus_by_system.get(system_id) if self.gpus_by_system else None
        return self.workload.model_copy(update={"gpus": gpus}) if gpus else self.workload

    @property
    def sizing_margin(self) -> float:
        """The share of the deadline sizing keeps as slack (`constraints.sizing_margin`): none when the
        deadline is judged at a quantile, which is the risk allowance itself."""
        return sizing_margin(self.constraints, self.deadline_basis)

    @property
    def sizing_allowance(self) -> str:
        """How sizing to the deadline allowed for risk: `so its P90 time to result meets it`, or `with a
        10% margin (to finish within 27.0 of its 30 days)`."""
        basis = self.deadline_basis
        return sizing_allowance(self.constraints, basis.quantile if basis is not None else None)

    def held_to(self, win: Estimate) -> str:
        """The winner meets the deadline at the risk appetite's quantile: how it was sized, in words
        (when sized, that no sizing margin was added on top)."""
        basis, deadline = self.deadline_basis, self.constraints.deadline_days
        if basis is None or deadline is None:
            return ""
        how = "sized so that" if self.gpus_by_system else f"{self.constraints.risk}:"
        at = f"{basis.label} {fmt.duration(basis.hours(win))}"
        if self.gpus_by_system and (left_out := margin_not_added(self.constraints, basis.quantile)):
            at += f"; {left_out}"
        return f"{how} {basis.runs} finish within the {deadline:g}-day deadline ({at})"

    def capacity_assumptions(self) -> Assumptions:
        """The assumptions with guaranteed capacity applied: when renting, a reservation's lead time
        replaces the on-demand wait."""
        if not (self.constraints.guaranteed_capacity and self.workload.pricing == "rent"):
            return self.assumptions
        waits = dict(self.assumptions.wait_hours)
        for sid in self.system_ids():
            if sid not in waits:
                waits[sid] = self.catalog.system(sid).availability.reserved_lead_days * HOURS_PER_DAY
        return self.assumptions.model_copy(update={"wait_hours": waits})
