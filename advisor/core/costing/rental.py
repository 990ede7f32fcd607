"""Which rental offer a run pays: the user's price, the offer named, a reservation, or on demand.

A team renting more GPUs than a provider rents on demand (`availability.on_demand_max_gpus`) signs a
reservation, and so does a team whose run costs less on a reservation than on demand: both pay the
system's `default_reserved` offer. A reservation's term is paid in full, used or not.
"""

from __future__ import annotations

from dataclasses import replace

from advisor.core import fmt
from advisor.core.costing.results import PriceOffer
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import RentalOffer, System
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Workload


def rental_choice(system: System, gpus: int, assumptions: Assumptions, run_hours: float | None) -> PriceOffer:
    """The price a rental of `gpus` for `run_hours` (None: duration not known) pays, and why.

    In order: the user's price (on the term of the offer it replaces); the offer named in
    `assumptions.rental_offer` where the system lists it; the user's imported default; the reserved
    offer beyond on-demand capacity, or within it when its whole term costs less than the run on demand
    (what a team would sign: the choice never makes a longer run cheaper); else the default on-demand
    offer.
    """
    offer = _catalog_choice(system, gpus, assumptions, run_hours)
    price = assumptions.for_system("price_usd_per_gpu_hour", system.id)
    if price is None:
        return offer
    why = "your price (assumptions.price_usd_per_gpu_hour)"
    if offer.reserved:
        why += f", on the reservation's {offer.term_days:g}-day term ({offer.why})"
    return replace(offer, offer=None, price_usd_per_gpu_hour=price, why=why)


def _catalog_choice(
    system: System, gpus: int, assumptions: Assumptions, run_hours: float | None
) -> PriceOffer:
    """The catalog offer `rental_choice` takes when the user sets no price."""
    named = next((o for o in system.rental if o.offer == assumptions.rental_offer), None)
    if named is not None:
        return _chosen(named, f"the offer you chose (rental_offer = {named.offer!r})")
    default, reserved = system.default_rental, system.reserved_rental
    if default.imported_from:
        return _chosen(default, f"your imported price (from {default.imported_from})")
    capacity = system.availability.on_demand_max_gpus
    if reserved is None:
        return _chosen(default, "on-demand price: the catalog lists no reserved offer")
    if gpus > capacity:
        return _chosen(
            reserved, f"{_term(reserved)} price: {gpus:,} GPUs is beyond the {capacity:,} rented on demand"
        )
    if run_hours is None:
        return _chosen(default, f"on-demand price: {gpus:,} GPUs is within the {capacity:,} rented on demand")
    term = f"the {reserved.term_days:g}-day term at ${reserved.price_usd_per_gpu_hour:.2f}"
    on_demand = f"on demand at ${default.price_usd_per_gpu_hour:.2f}"
    run = fmt.duration(run_hours)  # "for 30.4 days": a training run or a serving job alike
    if _run_cost(reserved, run_hours) < _run_cost(default, run_hours):
        return _chosen(reserved, f"{_term(reserved)} price: for {run}, {term} costs less than {on_demand}")
    return _chosen(
        default,
        f"on-demand price: {gpus:,} GPUs is within the {capacity:,} rented on demand, and for {run} "
        f"{on_demand} costs less than {term}",
    )


def _run_cost(offer: RentalOffer, run_hours: float) -> float:
    """Dollars per GPU for a run of `run_hours` at `offer`: a reservation pays at least its whole term."""
    return offer.price_usd_per_gpu_hour * _billed(offer.term_days, run_hours)


def owned_rental_usd_per_gpu_hour(system: System, assumptions: Assumptions) -> float:
    """What a GPU already owned could rent for: the user's price, else the offer named or the on-demand
    default (spare hours are rented out by the hour)."""
    price = assumptions.for_system("price_usd_per_gpu_hour", system.id)
    if price is not None:
        return price
    return system.rental_offer(assumptions.rental_offer).price_usd_per_gpu_hour


def billed_rental_hours(choice: PriceOffer, run_hours: float) -> float:
    """Hours paid for: the run's, or a reservation's whole term when the run is shorter."""
    return _billed(choice.term_days, run_hours)


def _billed(term_days: float, run_hours: float) -> float:
    return max(run_hours, term_days * HOURS_PER_DAY)


def offer_label(choice: PriceOffer) -> str:
    """The price and the offer's name: "$2.72/GPU-h, offer 'reserved, 30-day (Hyperstack, Aug 2026)'"."""
    return f"${choice.price_usd_per_gpu_hour:.2f}/GPU-h, offer {choice.offer!r}"


def needs_reservation(workload: Workload, system: System) -> bool:
    """Renting more GPUs than a provider rents on demand: the capacity must be reserved ahead."""
    return workload.pricing == "rent" and workload.gpus > system.availability.on_demand_max_gpus


def reservation_warnings(
    workload: Workload,
    system: System,
    assumptions: Assumptions,
    choice: PriceOffer | None,
    run_hours: float,
) -> list[str]:
    """Beyond on-demand capacity: a reservation is needed, its lead time and its price; a reserved price
    for a long run, and why; a term that outlasts the run, paid for unused."""
    notes = []
    reserved = choice is not None and choice.reserved
    priced = f", at {offer_label(choice)}" if choice is not None and reserved else ""
    beyond = needs_reservation(workload, system)
    if beyond and assumptions.for_system("wait_hours", system.id) is None:
        cap = system.availability
        notes.append(
            f"{workload.gpus:,} {system.id} GPUs is more than the {cap.on_demand_max_gpus} rented on "
            f"demand: it needs a reservation, about {cap.reserved_lead_days:g} days ahead{priced}"
        )
    if choice is None or not reserved:
        return notes
    if not beyond:
        notes.append(f"{choice.why} ({offer_label(choice)})")
    if _billed(choice.term_days, run_hours) > run_hours:
        notes.append(
            f"the reservation's {choice.term_days:g}-day term is paid in full: the run uses "
            f"{fmt.duration(run_hours)} of it on {fmt.gpus(workload.gpus)}"
        )
    return notes


def _chosen(offer: RentalOffer, why: str) -> PriceOffer:
    return PriceOffer(offer.offer, offer.price_usd_per_gpu_hour, offer.reserved, offer.term_days, why)


def _term(offer: RentalOffer) -> str:
    """'reserved 30-day' or 'reserved 1-year': the term in the unit a price page uses."""
    days = offer.term_days
    if days >= 365 and days % 365 == 0:
        return f"reserved {days / 365:g}-year"
    return f"reserved {days:g}-day"
