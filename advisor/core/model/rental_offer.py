"""A rental offer in the catalog: a dated price per GPU-hour, on demand or reserved, published or
assumed, or derived from another offer by an assumed discount. A derived offer's figures are computed
from the offer it names (`derive_prices`, when a catalog file leaves them out) and held to it
(`check_derived`, when they are written, as in a cached catalog)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field, model_validator

from advisor.core.model.sourced import NonNegative, Positive, Sourced


class RentalOffer(Sourced):
    """A dated rental price per GPU-hour, with its published range where there is one."""

    offer: str
    price_usd_per_gpu_hour: Positive
    low_usd_per_gpu_hour: Positive | None = None
    high_usd_per_gpu_hour: Positive | None = None
    default: bool = False
    term_days: NonNegative = Field(
        0.0, description="A reservation's shortest term, paid in full if unused; 0 on demand (paid by use)."
    )
    default_reserved: bool = Field(
        False,
        description="The reserved offer a rental takes beyond on-demand capacity or when it costs less.",
    )
    imported_from: str = Field(
        "",
        description="The file the user imported this offer from (`advisor prices import`); empty if shipped.",
    )
    discount_from: str | None = Field(
        None,
        description="The offer (by name) this price is derived from by an assumed `discount`; unset for a "
        "price as published, or assumed outright.",
    )
    discount: Annotated[float, Field(gt=0, lt=1)] | None = Field(
        None, description="The assumed share taken off `discount_from`'s price (0.15: 15% off)."
    )
    deepest_discount: Annotated[float, Field(gt=0, lt=1)] | None = Field(
        None,
        description="With `discount_from`: the deepest share off it the range allows; the low end is "
        "`discount_from`'s low end less it (unset: the range's low end is the price).",
    )

    @model_validator(mode="after")
    def _check_range(self) -> RentalOffer:
        low = self.low_usd_per_gpu_hour or self.price_usd_per_gpu_hour
        high = self.high_usd_per_gpu_hour or self.price_usd_per_gpu_hour
        if not low <= self.price_usd_per_gpu_hour <= high:
            raise ValueError("need low_usd_per_gpu_hour <= price_usd_per_gpu_hour <= high_usd_per_gpu_hour")
        if (self.discount_from is None) != (self.discount is None):
            raise ValueError(
                "discount_from and discount go together: the offer derived from, and the share off"
            )
        if self.deepest_discount is not None and self.discount_from is None:
            raise ValueError("deepest_discount needs discount_from: the offer it is taken off")
        if self.default_reserved and not self.term_days:
            raise ValueError("default_reserved needs term_days > 0 (a reservation has a term)")
        return self

    @property
    def reserved(self) -> bool:
        """A reservation: a term is committed to, not paid by use."""
        return self.term_days > 0


def _cents(usd: float) -> float:
    """A derived price as a provider quotes one: to the cent, half a cent up (float products such as
    2.50 x 0.85 = 2.1249999… round as the exact 2.125 does)."""
    cents = usd * 100
    return math.floor(cents + 0.5 + 1e-9) / 100 if math.isfinite(cents) else usd


def _derived(base: Mapping[str, Any], discount: float, deepest: float | None) -> dict[str, float]:
    """A derived offer's price and range from its base offer's (fields as in a catalog file): the price
    less `discount`; at worst no discount (the base price); at best `deepest` off the base's low end."""
    price = float(base["price_usd_per_gpu_hour"])
    low = float(base.get("low_usd_per_gpu_hour") or price)
    figures = {"price_usd_per_gpu_hour": _cents(price * (1 - discount)), "high_usd_per_gpu_hour": price}
    if deepest is not None:
        figures["low_usd_per_gpu_hour"] = _cents(low * (1 - deepest))
    return figures


def _missing(offer: Mapping[str, Any], offers: list[Mapping[str, Any]]) -> str:
    names = ", ".join(repr(o.get("offer")) for o in offers if o is not offer)
    return (
        f"rental offer {offer.get('offer')!r}: discount_from = {offer.get('discount_from')!r} is not "
        f"another offer listed ({names})"
    )


def _finite(value: object) -> bool:
    """A figure a derived price can be computed from: a finite number, or text pydantic reads as one
    (`"3.90"`); the offers' own validation names the rest."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    try:
        return math.isfinite(float(value))
    except ValueError:
        return False


def derive_prices(offers: list[Any]) -> list[Any]:
    """Offers as read from a catalog file, with each derived offer's figures that the file leaves out
    computed from the offer it names (the rest are checked by `check_derived` once validated)."""
    by_name = {o.get("offer"): o for o in offers if isinstance(o, Mapping)}
    filled: list[Any] = []
    for offer in offers:
        if not isinstance(offer, Mapping) or offer.get("discount_from") is None:
            filled.append(offer)
            continue
        base = by_name.get(offer["discount_from"])
        if base is None or base is offer:
            raise ValueError(_missing(offer, [o for o in offers if isinstance(o, Mapping)]))
        read = (
            base.get("price_usd_per_gpu_hour"),
            base.get("low_usd_per_gpu_hour", 1.0),
            offer.get("discount"),
        )
        if not all(map(_finite, (*read, offer.get("deepest_discount", 0.5)))):
            filled.append(offer)  # the offers' own validation names what is wrong
            continue
        figures = _derived(base, offer["discount"], offer.get("deepest_discount"))
        filled.append({**{k: v for k, v in figures.items() if k not in offer}, **offer})
    return filled


def check_derived(offer: RentalOffer, base: RentalOffer | None, offers: tuple[RentalOffer, ...]) -> None:
    """A derived offer names another listed offer (`base`, found by the system), and its price and range
    are what that offer's less the discounts give, to the cent; `offers` are the system's, named when
    `base` is missing."""
    assert offer.discount is not None
    if base is None or base is offer:
        raise ValueError(_missing(offer.model_dump(), [o.model_dump() for o in offers]))
    derived = _derived(base.model_dump(), offer.discount, offer.deepest_discount)
    for field, usd in derived.items():
        written = getattr(offer, field)
        if written is not None and abs(written - usd) > 0.005 + 1e-9:
            raise ValueError(
                f"rental offer {offer.offer!r}: {field} = {written:g} is not what {offer.discount_from!r} "
                f"(${base.price_usd_per_gpu_hour:g}) gives {_rule(field, offer)} (${usd:.2f}); leave it "
                "out and it is computed"
            )


def _rule(field: str, offer: RentalOffer) -> str:
    if field == "price_usd_per_gpu_hour":
        return f"less {offer.discount:.0%}"
    if field == "high_usd_per_gpu_hour":
        return "at no discount"
    return f"at its low end less {offer.deepest_discount:.0%}"
