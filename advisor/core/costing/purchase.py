"""Buying: what is bought (whole nodes or racks), the outlay, the monthly cost of owning it, the run's share.

The owner's TCO per GPU-hour (`cost.ownership_cost_per_gpu_hour`) spreads a year's capital, maintenance
and hosting over the hours the fleet is used; a month of ownership is that rate over a month's used hours
on every GPU bought (GPUs already owned pay no capital). The run's share is its billed hours over the
used hours of the depreciation life; the fleet view is the runs like it the GPUs do in a year.
"""

from __future__ import annotations

import math

from advisor.core.costing.cost import HourlyCost
from advisor.core.costing.owned import Fleet
from advisor.core.costing.results import Purchase
from advisor.core.model.catalog import System
from advisor.core.model.economics import Economics
from advisor.core.model.units import HOURS_PER_MONTH, HOURS_PER_YEAR


def gpus_bought(gpus: int, gpus_per_unit: int) -> int:
    """GPUs bought for a cluster of `gpus`: whole nodes or racks."""
    return math.ceil(gpus / gpus_per_unit) * gpus_per_unit


def _cash_usd_per_hour(hourly: HourlyCost) -> float:
    """An owned GPU-hour's cash cost: every part but the opportunity cost (money not earned, not spent)."""
    return sum(part.usd_per_gpu_hour for part in hourly.parts if part.name != "opportunity_cost")


def purchase(
    gpus: Fleet,
    system: System,
    capex_usd_per_unit: float,
    costs: tuple[HourlyCost, HourlyCost],
    economics: Economics,
    billed_hours: float,
) -> Purchase:
    """The purchase behind a run on `gpus` of `system` for `billed_hours`.

    `costs` are a GPU-hour bought (the owner's TCO) and one already owned (no capital, an opportunity
    cost). A month of owning is cash: capital (bought GPUs only), maintenance, hosting and power.
    """
    per_unit = system.interconnect.gpus_per_node
    bought, owned = costs
    used_hours_per_year = HOURS_PER_YEAR * economics.utilization.owned_fleet_fraction
    life_hours = used_hours_per_year * economics.finance.depreciation_years
    usd_per_hour = bought.total * gpus.gpus_bought + _cash_usd_per_hour(owned) * gpus.gpus_owned
    runs_per_year = used_hours_per_year / billed_hours
    return Purchase(
        unit=system.interconnect.node_name,
        units=gpus.gpus_bought // per_unit,
        gpus_bought=gpus.gpus_bought,
        gpus_idle=gpus.gpus_bought - gpus.gpus_to_buy,
        capex_usd=capex_usd_per_unit * gpus.gpus_bought / per_unit,
        monthly_usd=usd_per_hour * HOURS_PER_MONTH * economics.utilization.owned_fleet_fraction,
        run_share=billed_hours / life_hours,
        runs_per_year=runs_per_year,
        gpus_owned=gpus.gpus_owned,
        cost_per_run_usd=usd_per_hour * used_hours_per_year / runs_per_year,
    )
