"""The owner's finance inputs as uncertain inputs: depreciation life, cost of capital, maintenance,
fleet utilisation and colocation rent, each over the low..high range the catalog gives it.

Each is shared by every system (one value per joint draw) and scales the owner's fixed costs, which
`uncertainty` scales by cost driver: capital (the purchase repaid as an annuity, `capital_recovery_factor`)
and maintenance make up the `capex` driver, colocation the `hosting` one, and utilisation divides both
(fixed costs spread over the hours used). Power and the opportunity cost of owned GPUs stay as they are.
Every ratio here is monotone in its input, so the interval bounds still bound every combination: a
longer life, a higher utilisation lower the cost; a higher rate, maintenance share or rent raise it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple, Protocol

from advisor.core.costing.cost import CostPart, capital_recovery_factor
from advisor.core.costing.owned import CAPITAL_PARTS
from advisor.core.costing.results import Estimate
from advisor.core.model.catalog import Catalog
from advisor.core.model.economics import Economics
from advisor.core.model.sourced import Sourced


class Expected(Protocol):
    """An uncertain input's expected value (`uncertainty.Spread`)."""

    @property
    def expected(self) -> float: ...


class OwnerInput(NamedTuple):
    """One finance input: its spread's name, the catalog section and field, its unit, which way helps."""

    name: str
    section: str
    field: str
    unit: str
    helps: bool
    """True when a higher value lowers the cost (a longer life, a higher utilisation)."""


OWNER_INPUTS = (
    OwnerInput("depreciation", "finance", "depreciation_years", "years", True),
    OwnerInput("cost_of_capital", "finance", "cost_of_capital", "per year", False),
    OwnerInput("maintenance", "maintenance", "fraction_of_capex_per_year", "share of capex per year", False),
    OwnerInput("utilization", "utilization", "owned_fleet_fraction", "share of hours used", True),
    OwnerInput("colocation", "colocation", "usd_per_kw_month", "USD per kW-month", False),
)
"""The finance inputs, in the order the catalog lists them."""
HELPS = frozenset(i.name for i in OWNER_INPUTS if i.helps)
"""Finance inputs whose higher end is the favourable one."""


class OwnerRange(NamedTuple):
    """One finance input's catalog value, its low..high range and the section's source."""

    value: float
    low: float
    high: float
    source: str


def owner_range(economics: Economics, spec: OwnerInput) -> OwnerRange | None:
    """The catalog's range of one finance input, None where it gives none or a point (low = high)."""
    section: Sourced = getattr(economics, spec.section)
    value = getattr(section, spec.field)
    low = getattr(section, f"{spec.field}_low")
    high = getattr(section, f"{spec.field}_high")
    low, high = (value if low is None else low), (value if high is None else high)
    if high <= low:
        return None
    return OwnerRange(value, low, high, section.source)


def owner_ranges(est: Estimate, catalog: Catalog) -> list[tuple[OwnerInput, OwnerRange]]:
    """The finance inputs that move `est`'s cost, with their ranges: owning only, and the depreciation
    life and cost of capital only where GPUs are bought (an owned GPU's capital is sunk). The life and
    the rate come as a pair (the capital cost depends on both): one without a range is a point."""
    if est.pricing != "own":
        return []
    economics = catalog.economics
    found = {spec.name: owner_range(economics, spec) for spec in OWNER_INPUTS}
    if capital_usd_share(est.cost_parts) == 0:
        found["depreciation"] = found["cost_of_capital"] = None
    elif found["depreciation"] or found["cost_of_capital"]:
        for spec in OWNER_INPUTS[:2]:
            value = getattr(economics.finance, spec.field)
            found[spec.name] = found[spec.name] or OwnerRange(value, value, value, economics.finance.source)
    return [(spec, found[spec.name]) for spec in OWNER_INPUTS if found[spec.name] is not None]  # type: ignore[misc]


def capital_usd_share(parts: Iterable[CostPart], usd_by_part: Mapping[str, float] | None = None) -> float:
    """Capital (amortisation and interest) over the `capex` driver's dollars (capital and maintenance);
    per GPU-hour when `usd_by_part` is not given. 0 when nothing is bought."""
    usd = usd_by_part or {part.name: part.usd_per_gpu_hour for part in parts}
    in_driver = [part.name for part in parts if part.driver == "capex"]
    capital = sum(usd[name] for name in in_driver if name in CAPITAL_PARTS)
    driver = sum(usd[name] for name in in_driver)
    return capital / driver if driver > 0 else 0.0


def owner_factors(
    capital_share: float, spreads: Mapping[str, Expected], values: Mapping[str, float]
) -> tuple[float, float]:
    """(capex driver factor, hosting driver factor) with the finance inputs at `values`.

    Capital scales with the capital recovery factor at the drawn life and rate, maintenance with its
    share, colocation with its rent, and every fixed cost with 1 / utilisation. An input without a
    spread stays at its expected value.
    """

    def ratio(name: str) -> float:
        return values[name] / spreads[name].expected if name in spreads else 1.0

    capital = 1.0
    if "depreciation" in spreads:
        life, rate = spreads["depreciation"], spreads["cost_of_capital"]
        expected = capital_recovery_factor(rate.expected, life.expected)
        capital = capital_recovery_factor(values["cost_of_capital"], values["depreciation"]) / expected
    fixed = 1.0 / ratio("utilization")
    capex = (capital_share * capital + (1 - capital_share) * ratio("maintenance")) * fixed
    return capex, ratio("colocation") * fixed
