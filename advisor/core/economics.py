"""Economics in the catalog: facility, finance, societal constants, memory and serving assumptions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from advisor.core.sourced import Fraction, Frozen, NonNegative, Positive, Sourced


class Electricity(Sourced):
    usd_per_kwh: Positive


class Facility(Sourced):
    pue: Annotated[float, Field(ge=1, le=3)]


class Colocation(Sourced):
    usd_per_kw_month: NonNegative


class Finance(Sourced):
    depreciation_years: Annotated[float, Field(gt=0, le=20)]
    cost_of_capital: Annotated[float, Field(ge=0, lt=1)]


class Maintenance(Sourced):
    fraction_of_capex_per_year: Annotated[float, Field(ge=0, lt=1)]


class Utilization(Sourced):
    owned_fleet_fraction: Fraction


class Carbon(Sourced):
    grid_gco2_per_kwh: NonNegative


class Household(Sourced):
    kwh_per_year: Positive


class Checkpointing(Sourced):
    stall_seconds: Positive = Field(description="Time a checkpoint blocks training.")


class MemoryModel(Sourced):
    training_bytes_per_param: Positive
    usable_hbm_fraction: Fraction
    activation_bytes_per_token_hidden_layer: NonNegative


class InferenceModel(Sourced):
    """Serving efficiencies (see `advisor.core.inference`)."""

    bandwidth_efficiency: Fraction = Field(description="Achieved over peak HBM bandwidth in decode.")
    decode_mfu: Fraction = Field(description="MFU when decode is compute-bound (large batches).")
    prefill_mfu: Fraction = Field(description="MFU of prompt processing (compute-bound).")


class Economics(Frozen):
    """Facility, finance and societal constants, each with its source."""

    electricity: Electricity
    facility: Facility
    colocation: Colocation
    finance: Finance
    maintenance: Maintenance
    utilization: Utilization
    carbon: Carbon
    household: Household
    checkpointing: Checkpointing
    memory: MemoryModel
    inference: InferenceModel
