"""Money: the owner's TCO per GPU-hour, or the rental price, and the run's cost with its breakdown.

A GPU-hour's cost is a tuple of typed `CostPart`s, each saying which input it scales with and which
GPUs pay it. `run_cost_usd` is the one place that turns parts, billed hours and GPU counts into
dollars: `estimate()` reports them, and the ranges scale them by driver (`scaled_cost_usd`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Literal, NamedTuple

from advisor.core.model.units import HOURS_PER_MONTH, HOURS_PER_YEAR

CostDriver = Literal["capex", "hosting", "energy", "rental"]
"""The input a cost part is proportional to: capex, colocation per kW, PUE x electricity, rental price."""
GpusPaying = Literal["paid", "running"]
"""Which GPUs pay a part: every GPU paid for (whole nodes or racks when buying), or only those running."""


class CostPart(NamedTuple):
    """One share of a GPU-hour's cost: what it pays for, what it scales with, which GPUs pay it."""

    name: str
    """The key in `price_breakdown_usd_per_gpu_hour` and `cost_breakdown_usd`."""
    usd_per_gpu_hour: float
    driver: CostDriver
    """The input this part is proportional to."""
    paid_by: GpusPaying
    """The GPUs it is paid on."""


class HourlyCost(NamedTuple):
    """Cost of one GPU-hour, split by what it pays for (USD)."""

    parts: tuple[CostPart, ...]
    total: float
    """USD per GPU-hour, all parts."""
    usd_by_part: tuple[tuple[str, float], ...]
    """(part name, USD per GPU-hour) pairs."""

    @classmethod
    def of(cls, *parts: CostPart) -> HourlyCost:
        """The parts with their total."""
        total = sum([part.usd_per_gpu_hour for part in parts])
        return cls(parts, total, tuple((part.name, part.usd_per_gpu_hour) for part in parts))

    def usd_per_gpu_hour(self) -> dict[str, float]:
        """USD per GPU-hour by part name, a fresh dict (the `price_breakdown_usd_per_gpu_hour` object)."""
        return dict(self.usd_by_part)


def run_cost_usd(
    parts: Iterable[CostPart], billed_hours: float, gpus_running: int, gpus_paid: int
) -> dict[str, float]:
    """Dollars per part: USD per GPU-hour x billed hours x the GPUs that pay it.

    An owner pays capex, maintenance and hosting on whole nodes or racks (`gpus_paid`) but powers only
    the GPUs running; a renter is billed per GPU running.
    """
    return {
        part.name: part.usd_per_gpu_hour
        * billed_hours
        * (gpus_paid if part.paid_by == "paid" else gpus_running)
        for part in parts
    }


class DriverCost(NamedTuple):
    """The run's dollars summed by the input each part scales with (one field per `CostDriver`)."""

    capex: float = 0.0
    hosting: float = 0.0
    energy: float = 0.0
    rental: float = 0.0


def cost_by_driver(parts: Iterable[CostPart], usd_by_part: Mapping[str, float]) -> DriverCost:
    """`run_cost_usd`'s dollars summed by driver."""
    totals = dict.fromkeys(DriverCost._fields, 0.0)
    for part in parts:
        totals[part.driver] += usd_by_part[part.name]
    return DriverCost(**totals)


def scaled_cost_usd(
    cost: DriverCost,
    hours_ratio: float,
    *,
    capex: float = 1.0,
    hosting: float = 1.0,
    energy: float = 1.0,
    rental: float = 1.0,
) -> float:
    """The run's cost with billed hours x `hours_ratio` and each driver's input x its ratio.

    Exact, because every part is proportional to the billed hours and to its driver.
    """
    return (
        cost.capex * capex + cost.hosting * hosting + cost.energy * energy + cost.rental * rental
    ) * hours_ratio


def capital_recovery_factor(rate: float, years: float) -> float:
    """Annual payment per dollar of capex that repays it with interest `rate` over `years` (an annuity)."""
    if rate == 0:
        return 1.0 / years
    return rate / (1.0 - (1.0 + rate) ** -years)


@lru_cache(maxsize=1024)
def ownership_cost_per_gpu_hour(
    *,
    capex_usd_per_gpu: float,
    depreciation_years: float,
    cost_of_capital: float,
    maintenance_fraction_per_year: float,
    utilization: float,
    it_kw_per_gpu: float,
    pue: float,
    electricity_usd_per_kwh: float,
    colocation_usd_per_kw_month: float,
) -> HourlyCost:
    """The owner's TCO per used GPU-hour (no rental margin), as in SemiAnalysis's cost tables.

    Capex is repaid as an annuity over the depreciation life at the cost of capital: the straight-line
    share is `capex_amortisation`, the rest `cost_of_capital`. Maintenance is a yearly share of capex.
    Colocation is rented per kW of IT load all year; electricity is paid per hour used, at the PUE.
    Fixed yearly costs are spread over the hours the fleet is in use (`utilization`). Cached: the
    result is immutable, and estimates of one system share it.
    """
    used_hours_per_year = HOURS_PER_YEAR * utilization
    annual_capital = capex_usd_per_gpu * capital_recovery_factor(cost_of_capital, depreciation_years)
    straight_line = capex_usd_per_gpu / depreciation_years
    return HourlyCost.of(
        CostPart("capex_amortisation", straight_line / used_hours_per_year, "capex", "paid"),
        CostPart("cost_of_capital", (annual_capital - straight_line) / used_hours_per_year, "capex", "paid"),
        CostPart(
            "maintenance",
            capex_usd_per_gpu * maintenance_fraction_per_year / used_hours_per_year,
            "capex",
            "paid",
        ),
        CostPart(
            "hosting",
            it_kw_per_gpu * colocation_usd_per_kw_month / HOURS_PER_MONTH / utilization,
            "hosting",
            "paid",
        ),
        CostPart("power", it_kw_per_gpu * pue * electricity_usd_per_kwh, "energy", "running"),
    )


@lru_cache(maxsize=1024)
def rental_cost_per_gpu_hour(price_usd_per_gpu_hour: float) -> HourlyCost:
    """Renting: the provider's price covers hardware, power and hosting."""
    return HourlyCost.of(CostPart("rental", price_usd_per_gpu_hour, "rental", "running"))
