"""A rental offer in the catalog: a dated price per GPU-hour, on demand or reserved, published or
assumed, or derived from another offer by an assumed discount (`check_derived` holds it to that)."""

from __future__ import annotations

from typing import Annotated

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
        0, description="A reservation's shortest term, paid in full if unused; 0 on demand (paid by use)."
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
        if self.default_reserved and not self.term_days:
            raise ValueError("default_reserved needs term_days > 0 (a reservation has a term)")
        return self

    @property
    def reserved(self) -> bool:
        """A reservation: a term is committed to, not paid by use."""
        return self.term_days > 0


def check_derived(offer: RentalOffer, base: RentalOffer | None, offers: tuple[RentalOffer, ...]) -> None:
    """A derived price names another listed offer (`base`, found by the system) and is that offer's price
    less the discount, to the cent; `offers` are the system's, named when `base` is missing."""
    assert offer.discount is not None
    if base is None or base is offer:
        names = ", ".join(repr(o.offer) for o in offers if o is not offer)
        raise ValueError(
            f"rental offer {offer.offer!r}: discount_from = {offer.discount_from!r} is not another offer "
            f"listed ({names})"
        )
    derived = base.price_usd_per_gpu_hour * (1 - offer.discount)
    if abs(derived - offer.price_usd_per_gpu_hour) > 0.005 + 1e-9:
        raise ValueError(
            f"rental offer {offer.offer!r}: price_usd_per_gpu_hour = {offer.price_usd_per_gpu_hour:g} is not "
            f"{offer.discount_from!r} (${base.price_usd_per_gpu_hour:g}) less {offer.discount:.0%} "
            f"(${derived:.2f})"
        )
