"""Money: the owner's TCO per GPU-hour, or the rental price, and the run's cost with its breakdown."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.model.units import HOURS_PER_MONTH, HOURS_PER_YEAR


@dataclass(frozen=True)
class HourlyCost:
    """Cost of one GPU-hour, split by what it pays for (USD)."""

    parts: dict[str, float]

    @property
    def total(self) -> float:
        return sum(self.parts.values())


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
        {
            "capex_amortisation": straight_line / used_hours_per_year,
            "cost_of_capital": (annual_capital - straight_line) / used_hours_per_year,
            "maintenance": capex_usd_per_gpu * maintenance_fraction_per_year / used_hours_per_year,
            "hosting": it_kw_per_gpu * colocation_usd_per_kw_month / HOURS_PER_MONTH / utilization,
            "power": it_kw_per_gpu * pue * electricity_usd_per_kwh,
        }
    )


def rental_cost_per_gpu_hour(price_usd_per_gpu_hour: float) -> HourlyCost:
    """Renting: the provider's price covers hardware, power and hosting."""
    return HourlyCost({"rental": price_usd_per_gpu_hour})
