"""Buying: what is bought (whole nodes or racks), the outlay, the monthly cost of owning it, the run's share.

The owner's TCO per GPU-hour (`cost.ownership_cost_per_gpu_hour`) spreads a year's capital, maintenance
and hosting over the hours the fleet is used; a month of ownership is that rate over a month's used hours
on every GPU bought. The run's share is its billed hours over the used hours of the depreciation life.
"""

from __future__ import annotations

import math

from advisor.core.costing.cost import HourlyCost
from advisor.core.costing.results import Purchase
from advisor.core.model.catalog import System
from advisor.core.model.economics import Economics
from advisor.core.model.units import HOURS_PER_MONTH, HOURS_PER_YEAR


def gpus_bought(gpus: int, gpus_per_unit: int) -> int:
    """GPUs bought for a cluster of `gpus`: whole nodes or racks."""
    return math.ceil(gpus / gpus_per_unit) * gpus_per_unit


def purchase(
    gpus: int,
    system: System,
    capex_usd_per_unit: float,
    hourly: HourlyCost,
    economics: Economics,
    billed_hours: float,
) -> Purchase:
    """The purchase behind a run of `gpus` on `system` for `billed_hours`, at the owner's TCO `hourly`."""
    per_unit = system.interconnect.gpus_per_node
    bought = gpus_bought(gpus, per_unit)
    used_hours_per_year = HOURS_PER_YEAR * economics.utilization.owned_fleet_fraction
    life_hours = used_hours_per_year * economics.finance.depreciation_years
    return Purchase(
        unit=system.interconnect.node_name,
        units=bought // per_unit,
        gpus_bought=bought,
        gpus_idle=bought - gpus,
        capex_usd=capex_usd_per_unit * bought / per_unit,
        monthly_usd=hourly.total * bought * HOURS_PER_MONTH * economics.utilization.owned_fleet_fraction,
        run_share=billed_hours / life_hours,
        runs_per_year=used_hours_per_year / billed_hours,
    )
