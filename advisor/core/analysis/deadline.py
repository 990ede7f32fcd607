"""Given a deadline, the GPU count per system that meets it with a margin, within what can be had.

Sizes are what can be bought or rented: 1, 2 or 4 GPUs inside one node when renting, then whole
nodes or racks (8-GPU HGX nodes, 72-GPU NVL72 racks), up to the system's capacity (the most GPUs one
buyer can have delivered within the lead time, or the largest reserved cluster when renting). Each size
is estimated in full, so the answer includes MFU falling as the cluster grows, goodput at that size,
memory limits, setup and the wait for capacity. Time to result never rises with more GPUs in this
model, so a binary search over whole nodes finds the smallest size.

Every system gets a size, also when none meets the deadline, so no system is compared at a size
nobody chose; `binding` says which constraint set it: the deadline, the capacity, the memory, the
budget or the lead time (the wait for the hardware alone passes the deadline).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import DeadlineBasis, judged_hours
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog, System
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Workload

MAX_GPUS = 131_072
"""Largest cluster considered (Meta's Llama 3 ran on 16,384; xAI and others build ~100k)."""

Binding = Literal["deadline", "capacity", "memory", "budget", "lead time"]
"""The constraint that set a system's size (or kept it from meeting the deadline)."""


@dataclass(frozen=True)
class GpuCount:
    """The size one system is compared at when sized to a deadline, and whether and why it meets it."""

    system: str
    deadline_days: float
    gpus: int | None
    """The size that meets the deadline (None when no size within the capacity does)."""
    estimate: Estimate | None
    """The estimate at `sized_gpus`."""
    reason: str
    sized_gpus: int | None = None
    """The size the system is compared at: `gpus`, else the closest attempt (the capacity, or the size
    that would meet the deadline with the hardware on hand)."""
    binding: Binding = "deadline"
    margin: float = 0.0
    """The share of the deadline kept as slack."""
    on_hand: Estimate | None = None
    """When the lead time alone passes the deadline: the run sized as if the hardware were on hand."""
    rental: Estimate | None = None
    """When buying misses the deadline: the same system rented, sized the same way (None if it cannot)."""
    quantile: float | None = None
    """The quantile of the time to result it was sized at (the team's risk appetite); None: expected."""


@dataclass(frozen=True)
class _Sizer:
    """One system's sizing: the workload, the catalog and the limits it is sized within."""

    workload: Workload
    system: System
    catalog: Catalog
    assumptions: Assumptions | None
    deadline_days: float
    margin: float
    max_gpus: int
    basis: DeadlineBasis | None = None
    """What a size's time to result is judged at: the risk appetite's quantile, else the expected."""

    @property
    def node(self) -> int:
        return self.system.interconnect.gpus_per_node

    @property
    def target_days(self) -> float:
        """What a size must finish within: the deadline less the margin's share of it."""
        return self.deadline_days * (1 - self.margin)

    @property
    def owned(self) -> int:
        """GPUs of the system already owned (`owned_gpus`; 0 when renting)."""
        if self.assumptions is None or self.workload.pricing != "own":
            return 0
        return self.assumptions.owned_gpus.get(self.system.id, 0)

    @property
    def top_units(self) -> int:
        """The most whole nodes or racks that can be had (at least one)."""
        capacity = self.system.availability.capacity_gpus(self.workload.pricing) + self.owned
        capacity = min(self.max_gpus, capacity)
        return max(1, capacity // self.node)

    def run(self, gpus: int) -> Estimate:
        sized = self.workload.model_copy(update={"gpus": gpus})
        return estimate(sized, self.system.id, self.catalog, self.assumptions)

    def hours(self, est: Estimate) -> float:
        """`est`'s time to result as the deadline judges it (at the appetite's quantile)."""
        return judged_hours(est, self.basis)

    def meets(self, est: Estimate, days: float) -> bool:
        return est.memory.fits and self.hours(est) <= days * HOURS_PER_DAY

    def days_words(self, est: Estimate) -> str:
        """`27.0 days`, or at a quantile `27.0 days (29.4 at P90)`."""
        at = f" ({self.hours(est) / HOURS_PER_DAY:.1f} at {self.basis.label})" if self.basis else ""
        return _days(est.time_to_result_hours) + at

    def smallest(self, days: float) -> Estimate | None:
        """The smallest size that meets `days` (small sizes inside a node first when renting)."""
        small = [g for g in (1, 2, 4) if g < self.node] if self.workload.pricing == "rent" else []
        for gpus in small:
            if self.meets(est := self.run(gpus), days):
                return est
        top = self.run(self.top_units * self.node)
        if not self.meets(top, days):
            return None

        def meeting(units: int) -> Estimate | None:
            est = self.run(units * self.node)
            return est if self.meets(est, days) else None

        return fewest(meeting, self.top_units, top)[1]


_Found = TypeVar("_Found")


def fewest(found_at: Callable[[int], _Found | None], top: int, at_top: _Found) -> tuple[int, _Found]:
    """The smallest count in [1, `top`] for which `found_at` finds something, and what it finds, by
    bisection: `found_at(top)` found `at_top`, and a count that finds keeps finding at every larger one
    (more GPUs or nodes never take longer, in whole nodes)."""
    low, high, best = 1, top, at_top
    while low < high:
        mid = (low + high) // 2
        if (found := found_at(mid)) is not None:
            high, best = mid, found
        else:
            low = mid + 1
    return high, best


def _days(hours: float) -> str:
    return f"{hours / HOURS_PER_DAY:.1f} days"


def _size_words(sizer: _Sizer, gpus: int) -> str:
    node, unit = sizer.node, sizer.system.interconnect.node_name
    if gpus < node:
        return f"{gpus} GPU(s) inside one {node}-GPU {unit}"
    return f"{gpus // node:,} x {node}-GPU {unit}(s)"


def _met(sizer: _Sizer, est: Estimate, budget_usd: float | None) -> GpuCount:
    """The smallest size that meets the deadline with the margin: what bound it, memory or the deadline."""
    gpus, target = est.gpus, sizer.target_days
    binding: Binding = "deadline"
    if gpus > sizer.node and (est.memory.min_gpus or 0) > gpus - sizer.node:
        smaller = sizer.run(gpus - sizer.node)
        if not smaller.memory.fits and sizer.hours(smaller) <= target * HOURS_PER_DAY:
            binding = "memory"
    why = f"{_size_words(sizer, gpus)}: {sizer.days_words(est)} to result"
    why += ", sized by the memory the run needs" if binding == "memory" else ""
    if budget_usd is not None and est.cost_usd > budget_usd:
        binding, why = "budget", why + f"; over the {fmt.money(budget_usd)} budget"
    return GpuCount(sizer.system.id, sizer.deadline_days, gpus, est, why, gpus, binding, sizer.margin)


def _on_hand(sizer: _Sizer, top: Estimate) -> GpuCount:
    """The wait for the hardware alone passes the deadline: size it as if it were on hand, and say so."""
    wait = top.time_breakdown_hours["wait"]
    own = sizer.workload.pricing == "own"
    waits = dict(sizer.assumptions.wait_hours) if sizer.assumptions else {}
    base = sizer.assumptions or Assumptions()
    on_hand = replace(
        sizer, assumptions=base.model_copy(update={"wait_hours": {**waits, sizer.system.id: 0.0}})
    )
    found = on_hand.smallest(sizer.target_days)
    gpus = found.gpus if found else sizer.top_units * sizer.node
    deadline = sizer.deadline_days
    route = "buying takes" if own else "a reservation takes"
    left = deadline * HOURS_PER_DAY - wait
    within = (
        f"past the {deadline:g}-day deadline"
        if left < 0
        else f"leaving only {_days(left)} of the {deadline:g}-day deadline"
        if left > 0
        else f"leaving no time within the {deadline:g}-day deadline"
    )
    why = f"{route} {_days(wait)} before the hardware is running, {within}"
    est = sizer.run(gpus)
    rent = None
    if found:
        size, days = _size_words(sizer, gpus), on_hand.days_words(found)
        why += f"; with the hardware on hand, {size} would finish in {days}"
        why += f", and {'bought' if own else 'reserved'} now in {_days(est.time_to_result_hours)}"
        if own:
            rent = _renting(sizer)
            why += _renting_words(sizer, rent)
    return GpuCount(
        sizer.system.id, sizer.deadline_days, None, est, why, gpus, "lead time", sizer.margin, found, rent
    )


def _renting_words(sizer: _Sizer, rent: Estimate | None) -> str:
    """What renting would do instead: its size, time and cost, or why even the most it offers misses."""
    renter = _renter(sizer)
    if rent is not None:
        size = _size_words(renter, rent.gpus)
        finish = _days(rent.time_to_result_hours)
        return f"; renting, {size} would finish in {finish} for {fmt.money(rent.cost_usd)}"
    top = renter.run(renter.top_units * renter.node)
    most = f"the most that can be rented, {_size_words(renter, top.gpus)},"
    if not top.memory.fits:
        return f"; renting cannot meet it either: {most} cannot hold the run"
    wait = top.time_breakdown_hours["wait"]
    waiting = f" ({fmt.duration(wait)} of it waiting for capacity)" if wait > 0 else ""
    deadline = f"{sizer.deadline_days:g}-day deadline"
    target = _days(sizer.target_days * HOURS_PER_DAY)
    allowed = (
        f"the {target} the {deadline} allows with its {sizer.margin:.0%} margin"
        if sizer.margin
        else f"the {deadline}"
    )
    took = f"takes {renter.days_words(top)} to result{waiting}"
    return f"; renting cannot meet it either: {most} {took}, over {allowed}"


def _renter(sizer: _Sizer) -> _Sizer:
    """The same sizing, rented."""
    return replace(sizer, workload=rent_workload(sizer.workload))


def rent_workload(workload: Workload) -> Workload:
    """The same workload rented."""
    return workload.model_copy(update={"pricing": "rent"})


def _renting(sizer: _Sizer) -> Estimate | None:
    """Buying misses the deadline: whether renting meets it (sized the same way), and at what cost."""
    return _renter(sizer).smallest(sizer.target_days)


def _short(sizer: _Sizer, top: Estimate) -> GpuCount:
    """No size within the capacity meets the deadline with the margin: the capacity, and why."""
    capacity = top.gpus
    have = "bought" if sizer.workload.pricing == "own" else "rented"
    days = sizer.hours(top) / HOURS_PER_DAY
    at = f" at {sizer.basis.label}" if sizer.basis else ""
    if sizer.meets(top, sizer.deadline_days):
        why = (
            f"the {capacity:,} GPUs that can be {have} finish in {days:.1f} days{at}: within the deadline, "
            f"short of its {sizer.margin:.0%} margin"
        )
        return GpuCount(
            sizer.system.id, sizer.deadline_days, capacity, top, why, capacity, "capacity", sizer.margin
        )
    binding: Binding
    if not top.memory.fits:
        why, binding = f"even the {capacity:,} GPUs that can be {have} cannot hold the run", "memory"
    else:
        took = f"take {days:.1f} days{at} > {sizer.deadline_days:g}"
        why = f"even the {capacity:,} GPUs that can be {have} {took}"
        binding = "capacity"
    return GpuCount(sizer.system.id, sizer.deadline_days, None, top, why, capacity, binding, sizer.margin)


def gpus_for_deadline(
    workload: Workload,
    system_id: str,
    catalog: Catalog,
    deadline_days: float,
    assumptions: Assumptions | None = None,
    max_gpus: int = MAX_GPUS,
    *,
    margin: float = 0.0,
    budget_usd: float | None = None,
    basis: DeadlineBasis | None = None,
) -> GpuCount:
    """The smallest size on `system_id` whose time to result (wait included; at `basis`'s quantile, when
    given) is within `deadline_days` less the `margin` share, up to what can be had; else the size it is
    compared at and why."""
    sizer = _Sizer(
        workload, catalog.system(system_id), catalog, assumptions, deadline_days, margin, max_gpus, basis
    )
    found = _sized(sizer, budget_usd)
    return replace(found, quantile=basis.quantile) if basis is not None else found


def _sized(sizer: _Sizer, budget_usd: float | None) -> GpuCount:
    """`gpus_for_deadline` once its sizer is set up."""
    max_gpus, deadline_days = sizer.max_gpus, sizer.deadline_days
    if sizer.owned >= sizer.node:  # GPUs already owned need no lead time: size within them first
        within = replace(sizer, max_gpus=min(max_gpus, sizer.owned))
        on_owned = within.smallest(sizer.target_days)
        if on_owned is not None:
            met = _met(sizer, on_owned, budget_usd)
            return replace(met, reason=f"{met.reason}, on GPUs already owned")
    found = sizer.smallest(sizer.target_days)
    if found is not None:
        return _met(sizer, found, budget_usd)
    top = sizer.run(sizer.top_units * sizer.node)
    fixed_hours = top.time_breakdown_hours["wait"] + top.time_breakdown_hours["setup"]
    if not sizer.meets(top, deadline_days) and fixed_hours >= deadline_days * HOURS_PER_DAY:
        return _on_hand(sizer, top)
    return _short(sizer, top)


def gpus_for_deadline_all(
    workload: Workload,
    catalog: Catalog,
    deadline_days: float,
    assumptions: Assumptions | None = None,
    systems: list[str] | None = None,
    *,
    margin: float = 0.0,
    budget_usd: float | None = None,
    basis: DeadlineBasis | None = None,
) -> list[GpuCount]:
    """`gpus_for_deadline` for every system (or those named)."""
    return [
        gpus_for_deadline(
            workload,
            sid,
            catalog,
            deadline_days,
            assumptions,
            margin=margin,
            budget_usd=budget_usd,
            basis=basis,
        )
        for sid in systems or catalog.systems
    ]
