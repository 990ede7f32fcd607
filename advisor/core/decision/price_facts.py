"""Where the price behind an estimate came from, as rule facts: its date, and whether it is a published
quote, an assumption, or a published quote less an assumed discount (a reserved price derived from the
on-demand one)."""

from __future__ import annotations

from typing import Any

from advisor.core.costing.results import Estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import RentalOffer, System
from advisor.core.model.workload import Workload


def rental_offer(est: Estimate, system: System) -> RentalOffer | None:
    """The catalog offer the estimate rents at, None when the user set the price."""
    chosen = est.price_offer
    return system.rental_offer(chosen.offer) if chosen and chosen.offer is not None else None


def price_source(workload: Workload, system: System, assumptions: Assumptions, est: Estimate) -> str | None:
    """The `as_of` of the price behind the estimate, None when the user set it."""
    if workload.pricing == "rent":
        offer = rental_offer(est, system)
        return offer.as_of if offer else None
    if assumptions.for_system("capex_usd_per_node", system.id) is not None:
        return None
    return system.capex.as_of


def price_facts(
    workload: Workload, system: System, assumptions: Assumptions, est: Estimate
) -> dict[str, Any]:
    """`price_is_assumption`, `price_discount` and `price_derived_from` for the price behind `est`.

    A price derived from another offer by an assumed discount rests on that offer: it is an assumption
    when that offer is one; when that offer is a published quote, the discount is the assumed part.
    """
    if workload.pricing != "rent":
        assumed = assumptions.for_system("capex_usd_per_node", system.id) is None and system.capex.assumption
        return {"price_is_assumption": assumed, "price_discount": None, "price_derived_from": None}
    offer = rental_offer(est, system)
    base = system.derived_from(offer) if offer else None
    if offer is None or base is None:
        assumed = offer.assumption if offer else False
        return {"price_is_assumption": assumed, "price_discount": None, "price_derived_from": None}
    return {
        "price_is_assumption": base.assumption,
        "price_discount": offer.discount,
        "price_derived_from": f"{base.offer!r} price, ${base.price_usd_per_gpu_hour:.2f}/GPU-hour,",
    }
