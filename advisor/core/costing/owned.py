"""Hardware the team already owns: its capex is sunk and it is running today.

A run on owned GPUs pays maintenance, hosting and power, and the opportunity cost of the hours: what
they could earn rented out, a share of the system's market rental price (`[opportunity]` in
`catalog/economics.toml`), never more than the capital cost of buying the same GPU-hour new. GPUs
beyond those owned are bought as usual, in whole nodes or racks, and wait the purchase lead time.
"""

from __future__ import annotations

from typing import NamedTuple

from advisor.core.costing.cost import CostPart, HourlyCost

CAPITAL_PARTS = ("capex_amortisation", "cost_of_capital")
"""The parts of an owner's GPU-hour that repay the purchase: sunk for GPUs already owned."""


class Fleet(NamedTuple):
    """The GPUs a run uses when owning: those already owned, and those bought for the rest."""

    gpus_owned: int
    """Owned GPUs the run uses (at most the cluster)."""
    gpus_to_buy: int
    """Running GPUs beyond those owned."""
    gpus_bought: int
    """GPUs bought for them: whole nodes or racks (0 when the owned GPUs suffice)."""

    @property
    def gpus_paid(self) -> int:
        """GPUs the run pays for: owned ones used, and every GPU bought."""
        return self.gpus_owned + self.gpus_bought

    @property
    def gpus_running(self) -> int:
        """GPUs the run runs on."""
        return self.gpus_owned + self.gpus_to_buy


def fleet(gpus: int, gpus_owned: int, gpus_per_unit: int) -> Fleet:
    """A cluster of `gpus` on up to `gpus_owned` owned GPUs, the rest bought in units of `gpus_per_unit`.

    The bought units run before owned GPUs do: 10 GPUs with 4 owned buy one 8-GPU node and run 2 owned
    GPUs beside it, rather than leave 2 of the node idle (a GPU bought is paid for whether it runs or not).
    """
    beyond = max(gpus - gpus_owned, 0)
    bought = -(-beyond // gpus_per_unit) * gpus_per_unit
    used = max(gpus - bought, 0)
    return Fleet(used, gpus - used, bought)


def owned_cost_per_gpu_hour(
    bought: HourlyCost, rental_usd_per_gpu_hour: float, rental_price_fraction: float
) -> HourlyCost:
    """An owned GPU-hour: the owner's TCO without the sunk capital, plus the hour's opportunity cost.

    The opportunity cost is `rental_price_fraction` of the market rental price, capped at the capital
    cost of a new GPU-hour (`bought`'s capital parts): a GPU is worth no more than replacing it, so an
    owned GPU-hour never costs more than a bought one.
    """
    capital = sum(part.usd_per_gpu_hour for part in bought.parts if part.name in CAPITAL_PARTS)
    kept = [part for part in bought.parts if part.name not in CAPITAL_PARTS]
    opportunity = min(rental_price_fraction * rental_usd_per_gpu_hour, capital)
    return HourlyCost.of(*kept, CostPart("opportunity_cost", opportunity, "rental", "running"))


def blended_cost_per_gpu_hour(owned: HourlyCost, bought: HourlyCost, gpus: Fleet) -> HourlyCost:
    """One GPU-hour's parts over a fleet of owned and bought GPUs, per GPU that pays each part.

    Each part is its dollars an hour (owned GPUs at `owned`, bought ones at `bought`) over the GPUs it
    is paid on in `run_cost_usd`: every GPU paid for, or only those running. A part neither kind pays
    (capital when nothing is bought, the opportunity cost when nothing owned is used) is left out.
    """
    by_name_owned = {part.name: part for part in owned.parts}
    by_name_bought = {part.name: part for part in bought.parts}
    names = dict.fromkeys([*by_name_bought, *by_name_owned])
    parts = []
    for name in names:
        on_owned = by_name_owned.get(name) if gpus.gpus_owned else None
        on_bought = by_name_bought.get(name) if gpus.gpus_to_buy else None
        shape = on_bought or on_owned
        if shape is None:
            continue
        paid = shape.paid_by == "paid"
        bought_paying = gpus.gpus_bought if paid else gpus.gpus_to_buy
        usd_per_hour = (on_owned.usd_per_gpu_hour * gpus.gpus_owned if on_owned else 0.0) + (
            on_bought.usd_per_gpu_hour * bought_paying if on_bought else 0.0
        )
        base = gpus.gpus_paid if paid else gpus.gpus_running
        parts.append(CostPart(name, usd_per_hour / base, shape.driver, shape.paid_by))
    return HourlyCost.of(*parts)
