"""User overrides of catalog values (`Assumptions`): per-system maps and the facility settings."""

from __future__ import annotations

from typing import Annotated, TypeVar

from pydantic import BeforeValidator, Field, field_validator, model_validator

from advisor.core.model.catalog import Frozen
from advisor.core.model.input_types import Days, HumanCount, HumanPositive
from advisor.core.model.inputs import ALL_SYSTEMS, Input, read_signs, system_pairs
from advisor.core.model.units import human_number

PER_SYSTEM = ("mfu", "goodput", "price_usd_per_gpu_hour", "capex_usd_per_node", "wait_hours", "owned_gpus")
"""Assumptions that may be set per system (a map of system id or '*' to value)."""


_Value = TypeVar("_Value")
PerSystem = Annotated[dict[str, _Value], BeforeValidator(system_pairs)]
"""A per-system map (`h100=1.5, b200=3.9`, or one value for every system), read from text by pairs."""
PricePerGpuHour = Annotated[HumanPositive, Field(ge=0.001, le=1000)]
"""A rental price, USD per GPU-hour (a tenth of a cent to $1,000)."""
SetEfficiency = Annotated[float, Field(ge=0.001, le=1, allow_inf_nan=False)]
"""An MFU or goodput the user sets: from 0.1% (below it a run never ends) to 100%."""
CapexUsdPerNode = Annotated[HumanPositive, Field(le=1e9)]
"""The purchase price of one node or rack, USD (up to $1B)."""
WaitHours = Annotated[float, Field(ge=0, le=100_000, allow_inf_nan=False)]
"""Hours to wait for capacity (up to 100,000, over eleven years)."""
OwnedGpus = Annotated[HumanCount, Field(ge=0, le=1_000_000)]
"""GPUs of one system the team already owns (capex sunk), up to a million."""
ElectricityUsdPerKwh = Annotated[HumanPositive, Field(le=10)]
"""An electricity price, USD per kWh (the scenario's assumption and the app's setting)."""
PueRatio = Annotated[float, BeforeValidator(human_number), Field(ge=1, le=3, allow_inf_nan=False)]
"""Facility power over IT power (the scenario's assumption and the app's setting)."""


class Assumptions(Frozen):
    """User overrides of catalog values. Keys of the per-system maps are system ids or '*' (all)."""

    _signs = field_validator("*", mode="before")(read_signs)

    mfu: Annotated[
        PerSystem[SetEfficiency],
        Input(
            "MFU",
            "Training: the MFU to assume instead of the catalog's, 0.4 for every system or h100=0.45",
            blank="catalog",
            applies=("training",),
        ),
    ] = Field(default_factory=dict)
    goodput: SetEfficiency | dict[str, SetEfficiency] | None = None
    price_usd_per_gpu_hour: Annotated[
        PerSystem[PricePerGpuHour],
        Input(
            "Rent price",
            "Renting: the price instead of the catalog's, $2.10 for every system or h100=2.1, b200=3.9",
            "USD/GPU-hour",
            "--price-per-gpu-hour",
            blank="catalog",
            applies=("rent",),
        ),
    ] = Field(default_factory=dict)
    capex_usd_per_node: Annotated[
        PerSystem[CapexUsdPerNode],
        Input(
            "Capex/node",
            "Owning: the price of a node or rack instead of the catalog's, $250k for every system "
            "or h100=250k",
            "USD",
            blank="catalog",
            applies=("own",),
        ),
    ] = Field(default_factory=dict)
    pue: Annotated[
        PueRatio | None,
        Input("PUE", "Facility power over IT power; default: the catalog's (see Assumptions)"),
    ] = None
    electricity_usd_per_kwh: Annotated[
        ElectricityUsdPerKwh | None,
        Input(
            "Electricity",
            "USD per kWh; default: the catalog's (see Assumptions)",
            "USD/kWh",
            applies=("own",),
        ),
    ] = None
    rental_offer: Annotated[
        str | None,
        Field(min_length=1, max_length=200),
        Input(
            "Rental offer",
            "Rent at the catalog offer of this name where a system lists it, e.g. 'field test (2024)'; "
            "else each system's default",
            asked_in_app=False,
            applies=("rent",),
        ),
    ] = None
    wait_hours: Annotated[
        PerSystem[WaitHours],
        Input(
            "Wait for capacity",
            "Hours until the GPUs are yours, instead of the catalog's, 48 for every system or h100=48",
            "hours",
            blank="catalog",
        ),
    ] = Field(default_factory=dict)
    hardware_in_days: Annotated[
        Annotated[Days, Field(ge=0)] | None,
        Input(
            "Hardware in",
            "Owning: days until the hardware is running, 0 = we already have it (the deadline counts from "
            "today); default: each system's purchase lead time",
            "days",
            blank="lead time",
            applies=("own", "no_wait"),
        ),
    ] = None

    owned_gpus: Annotated[
        PerSystem[OwnedGpus],
        Field(
            description="Owning: GPUs of each system already owned (capex sunk, no lead time), by system id."
        ),
        Input(
            "GPUs already owned",
            "Owning: GPUs you have bought already; the run pays their power and hosting, not their "
            "price, e.g. h100=1024, a100=256",
            "GPUs",
            "--owned",
            blank="none",
            every_system=False,
            applies=("own",),
        ),
    ] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check_keys(self) -> Assumptions:
        for name in PER_SYSTEM:
            for key in getattr(self, name) if name != "goodput" or isinstance(self.goodput, dict) else ():
                if not key or not (key == ALL_SYSTEMS or key.replace("-", "").isalnum()):
                    raise ValueError(f"{name}: key {key!r} must be a system id or '*'")
        if ALL_SYSTEMS in self.owned_gpus:
            raise ValueError("owned_gpus: name the system owned (e.g. h100 = 1024), not '*'")
        return self

    def goodput_for(self, system_id: str) -> float | None:
        """The goodput set for `system_id` (a single value applies to every system)."""
        if isinstance(self.goodput, dict):
            return self.goodput.get(system_id, self.goodput.get(ALL_SYSTEMS))
        return self.goodput

    def for_system(self, name: str, system_id: str) -> float | None:
        """The override of per-system map `name` for `system_id` (exact id first, then '*')."""
        mapping: dict[str, float] = getattr(self, name)
        return mapping.get(system_id, mapping.get(ALL_SYSTEMS))
