"""Given a deadline, the smallest GPU count per system that meets it.

Sizes are what can be bought or rented: 1, 2 or 4 GPUs inside one node when renting, then whole
nodes or racks (8-GPU HGX nodes, 72-GPU NVL72 racks). Each size is estimated in full, so the answer
includes MFU falling as the cluster grows, goodput at that size, memory limits, setup and the wait
for capacity. Time to result never rises with more GPUs in this model, so a binary search over whole
nodes finds the smallest size.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.model.catalog import Catalog
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Assumptions, Workload

MAX_GPUS = 131_072
"""Largest cluster considered (Meta's Llama 3 ran on 16,384; xAI and others build ~100k)."""


@dataclass(frozen=True)
class GpuCount:
    """The smallest purchasable size that meets the deadline on one system, or why none does."""

    system: str
    deadline_days: float
    gpus: int | None
    estimate: Estimate | None
    reason: str


def _fits_in_time(est: Estimate, deadline_days: float) -> bool:
    return est.memory.fits and est.time_to_result_hours <= deadline_days * HOURS_PER_DAY


def gpus_for_deadline(
    workload: Workload,
    system_id: str,
    catalog: Catalog,
    deadline_days: float,
    assumptions: Assumptions | None = None,
    max_gpus: int = MAX_GPUS,
) -> GpuCount:
    """Smallest GPU count on `system_id` whose time to result (wait included) meets `deadline_days`."""
    system = catalog.system(system_id)
    node = system.interconnect.gpus_per_node

    def run(gpus: int) -> Estimate:
        return estimate(workload.model_copy(update={"gpus": gpus}), system_id, catalog, assumptions)

    small = [g for g in (1, 2, 4) if g < node] if workload.pricing == "rent" else []
    for gpus in small:
        est = run(gpus)
        if _fits_in_time(est, deadline_days):
            return GpuCount(system_id, deadline_days, gpus, est, f"{gpus} GPU(s) inside one {node}-GPU node")
    high_units = max(1, max_gpus // node)
    top = run(high_units * node)
    fixed_days = (top.time_breakdown_hours["wait"] + top.time_breakdown_hours["setup"]) / HOURS_PER_DAY
    if fixed_days > deadline_days:
        return GpuCount(
            system_id,
            deadline_days,
            None,
            None,
            f"waiting for capacity and setup alone take {fixed_days:.1f} days > {deadline_days:g} days",
        )
    if not _fits_in_time(top, deadline_days):
        return GpuCount(
            system_id,
            deadline_days,
            None,
            top,
            f"even {high_units * node:,} GPUs take {top.time_to_result_hours / HOURS_PER_DAY:.1f} days "
            f"> {deadline_days:g} days",
        )
    low, high = 1, high_units  # the answer, in whole nodes, lies in [low, high]
    best = top
    while low < high:
        mid = (low + high) // 2
        est = run(mid * node)
        if _fits_in_time(est, deadline_days):
            high, best = mid, est
        else:
            low = mid + 1
    if best.gpus != high * node:
        best = run(high * node)
    unit = system.interconnect.node_name
    return GpuCount(system_id, deadline_days, high * node, best, f"{high} x {node}-GPU {unit}(s)")


def gpus_for_deadline_all(
    workload: Workload,
    catalog: Catalog,
    deadline_days: float,
    assumptions: Assumptions | None = None,
    systems: list[str] | None = None,
) -> list[GpuCount]:
    """`gpus_for_deadline` for every system (or those named)."""
    return [
        gpus_for_deadline(workload, sid, catalog, deadline_days, assumptions)
        for sid in systems or catalog.systems
    ]
