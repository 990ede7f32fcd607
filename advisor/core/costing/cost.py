"""Money: the owner's TCO per GPU-hour, or the rental price, and the run's cost with its breakdown.

A GPU-hour's cost is a tuple of typed `CostPart`s, each saying which input it scales with and which
GPUs pay it. `run_cost_usd` is the one place that turns parts, billed hours and GPU counts into
dollars: `estimate()` uses it at the expected inputs, the ranges with inputs scaled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from advisor.core.model.units import HOURS_PER_MONTH, HOURS_PER_YEAR

CostDriver = Literal["capex", "hosting", "energy", "rental"]
"""The input a cost part is proportional to: capex, colocation per kW, PUE x electricity, rental price."""
GpusPaying = Literal["paid", "running"]
"""Which GPUs pay a part: every GPU paid for (whole nodes or racks when buying), or only those running."""


@dataclass(frozen=True, slots=True)
class CostPart:
    """One share of a GPU-hour's cost: what it pays for, what it scales with, which GPUs pay it."""

    name: str
    usd_per_gpu_hour: float
    driver: CostDriver
    paid_by: GpusPaying


@dataclass(frozen=True)
class HourlyCost:
    """Cost of one GPU-hour, split by what it pays for (USD)."""

    parts: tuple[CostPart, ...]

    @property
    def total(self) -> float:
        """USD per GPU-hour, all parts."""
        return sum(part.usd_per_gpu_hour for part in self.parts)

    def usd_per_gpu_hour(self) -> dict[str, float]:
        """USD per GPU-hour by part name (the `price_breakdown_usd_per_gpu_hour` object)."""
        return {part.name: part.usd_per_gpu_hour for part in self.parts}


def run_cost_usd(
    parts: Iterable[CostPart],
    billed_hours: float,
    gpus_running: int,
    gpus_paid: int,
    scale: Mapping[CostDriver, float] | None = None,
) -> dict[str, float]:
    """Dollars per part: USD per GPU-hour x its driver's `scale` (1 by default) x billed hours x its GPUs.

    An owner pays capex, maintenance and hosting on whole nodes or racks (`gpus_paid`) but powers only
    the GPUs running; a renter is billed per GPU running.
    """
    by_driver = scale or {}
    return {
        part.name: part.usd_per_gpu_hour
        * by_driver.get(part.driver, 1.0)
        * billed_hours
        * (gpus_paid if part.paid_by == "paid" else gpus_running)
        for part in parts
    }


def capital_recovery_factor(rate: float, years: float) -> float:
    """Annual payment per dollar of capex that repays it with interest `rate` over `years` (an annuity)."""
    if rate == 0:
        return 1.0 / years
    return rate / (1.0 - (1.0 + rate) ** -years)


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
    Fixed yearly costs are spread over the hours the fleet is in use (`utilization`).
    """
    used_hours_per_year = HOURS_PER_YEAR * utilization
    annual_capital = capex_usd_per_gpu * capital_recovery_factor(cost_of_capital, depreciation_years)
    straight_line = capex_usd_per_gpu / depreciation_years
    return HourlyCost(
        (
            CostPart("capex_amortisation", straight_line / used_hours_per_year, "capex", "paid"),
            CostPart(
                "cost_of_capital", (annual_capital - straight_line) / used_hours_per_year, "capex", "paid"
            ),
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
    )


def rental_cost_per_gpu_hour(price_usd_per_gpu_hour: float) -> HourlyCost:
    """Renting: the provider's price covers hardware, power and hosting."""
    return HourlyCost((CostPart("rental", price_usd_per_gpu_hour, "rental", "running"),))
