"""Economics in the catalog: facility, finance, societal constants, memory and serving assumptions."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Self

from pydantic import Field, model_validator

from advisor.core.model.sourced import (
    Fraction,
    Frozen,
    NonNegative,
    Positive,
    PositiveInt,
    Precision,
    Sourced,
)


class Electricity(Sourced):
    usd_per_kwh: Positive
    usd_per_kwh_low: Positive | None = Field(None, description="Low end of the published range.")
    usd_per_kwh_high: Positive | None = Field(None, description="High end of the published range.")


class Facility(Sourced):
    pue: Annotated[float, Field(ge=1, le=3)]
    pue_low: Annotated[float, Field(ge=1, le=3)] | None = Field(None, description="Low end of the range.")
    pue_high: Annotated[float, Field(ge=1, le=3)] | None = Field(None, description="High end of the range.")


FamilyShare = Annotated[float, Field(ge=0, lt=1)] | None
"""An MFU ± share for one model family, or None: the pooled share applies."""


class Uncertainty(Sourced):
    """Spreads of the uncertain inputs that the catalog does not give per item (see `core.uncertainty`)."""

    failure_overhead_low: Annotated[float, Field(gt=0, le=1)] = Field(
        description="Multiplier on the failure and checkpoint overhead at the favourable end."
    )
    failure_overhead_high: Annotated[float, Field(ge=1, le=20)] = Field(
        description="Multiplier on the failure and checkpoint overhead at the unfavourable end."
    )
    capex_relative: Annotated[float, Field(ge=0, lt=1)] = Field(description="Capex ± this share.")
    mfu_exact: Annotated[float, Field(ge=0, lt=1)] = Field(
        description="MFU ± this share at a published point."
    )
    mfu_interpolated: Annotated[float, Field(ge=0, lt=1)] = Field(
        description="MFU ± this share between points."
    )
    mfu_transferred: Annotated[float, Field(ge=0, lt=1)] = Field(
        description="MFU ± this share when borrowed from another system, precision or model family."
    )
    mfu_scaled: Annotated[float, Field(ge=0, lt=1)] = Field(
        description="MFU ± this share for a published configuration at another cluster size."
    )
    mfu_other_release: Annotated[float, Field(ge=0, lt=1)] = Field(
        description="MFU ± this share at a published configuration measured in another software release."
    )
    # Per model family (dense, MoE): where a class has enough cases of one family, its own share; a
    # family without one takes the pooled share above (advisor validate fits both, leave-one-out).
    mfu_exact_dense: FamilyShare = Field(None, description="`mfu_exact` for dense models.")
    mfu_exact_moe: FamilyShare = Field(None, description="`mfu_exact` for MoE models.")
    mfu_interpolated_dense: FamilyShare = Field(None, description="`mfu_interpolated` for dense models.")
    mfu_interpolated_moe: FamilyShare = Field(None, description="`mfu_interpolated` for MoE models.")
    mfu_transferred_dense: FamilyShare = Field(None, description="`mfu_transferred` for dense models.")
    mfu_transferred_moe: FamilyShare = Field(None, description="`mfu_transferred` for MoE models.")
    mfu_scaled_dense: FamilyShare = Field(None, description="`mfu_scaled` for dense models.")
    mfu_scaled_moe: FamilyShare = Field(None, description="`mfu_scaled` for MoE models.")
    mfu_other_release_dense: FamilyShare = Field(None, description="`mfu_other_release` for dense models.")
    mfu_other_release_moe: FamilyShare = Field(None, description="`mfu_other_release` for MoE models.")

    def mfu_share(self, spread_class: str, family: str) -> float:
        """MFU ± share for a spread class (`exact`, `scaled`, ...) and model family: the family's own
        share where one is fitted, else the class's pooled share."""
        own: float | None = getattr(self, f"mfu_{spread_class}_{family}", None)
        return own if own is not None else float(getattr(self, f"mfu_{spread_class}"))


class RiskAppetite(Sourced):
    """What each risk appetite judges a deadline against (see `analysis.time_quantile`)."""

    deadline_quantile: dict[str, Annotated[float, Field(ge=0.5, lt=1)] | Literal["expected"]] = Field(
        description="Per risk appetite: the quantile of the time to result that must meet a deadline, "
        "or `expected` for the expected estimate."
    )


class Turnover(Sourced):
    """How long a run may take before the hardware and models it was chosen for are superseded."""

    horizon_days: Annotated[float, Field(gt=0, le=3650)] = Field(
        description="A run longer than this outlives the hardware and models it was chosen for."
    )


class Ranged(Sourced):
    """A section whose `RANGED` values may carry a low/high range (`<value>_low`, `<value>_high`): where
    given, the range must hold the value."""

    RANGED: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="after")
    def _check_ranges(self) -> Self:
        for value in self.RANGED:
            low, high = getattr(self, f"{value}_low"), getattr(self, f"{value}_high")
            expected = getattr(self, value)
            if (low is not None and low > expected) or (high is not None and high < expected):
                raise ValueError(
                    f"{value} = {expected:g} must lie within {value}_low..{value}_high ({low} to {high})"
                )
        return self


class Colocation(Ranged):
    RANGED = ("usd_per_kw_month",)

    usd_per_kw_month: NonNegative
    usd_per_kw_month_low: NonNegative | None = Field(None, description="Low end of the range.")
    usd_per_kw_month_high: NonNegative | None = Field(None, description="High end of the range.")


Years = Annotated[float, Field(ge=0.5, le=20)]
Rate = Annotated[float, Field(ge=0, lt=1)]


class Finance(Ranged):
    RANGED = (
        "depreciation_years",
        "cost_of_capital",
    )

    depreciation_years: Years
    depreciation_years_low: Years | None = Field(None, description="Shortest life in the range.")
    depreciation_years_high: Years | None = Field(None, description="Longest life in the range.")
    cost_of_capital: Rate
    cost_of_capital_low: Rate | None = Field(None, description="Low end of the range.")
    cost_of_capital_high: Rate | None = Field(None, description="High end of the range.")


class Maintenance(Ranged):
    RANGED = ("fraction_of_capex_per_year",)

    fraction_of_capex_per_year: Rate
    fraction_of_capex_per_year_low: Rate | None = Field(None, description="Low end of the range.")
    fraction_of_capex_per_year_high: Rate | None = Field(None, description="High end of the range.")


class Utilization(Ranged):
    RANGED = ("owned_fleet_fraction",)

    owned_fleet_fraction: Fraction
    owned_fleet_fraction_low: Fraction | None = Field(None, description="Low end of the range.")
    owned_fleet_fraction_high: Fraction | None = Field(None, description="High end of the range.")


class Opportunity(Sourced):
    """What an hour of a GPU already owned could earn elsewhere (the run's opportunity cost)."""

    rental_price_fraction: Fraction = Field(
        description="Share of the system's rental price an owner realises renting spare GPUs out."
    )


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
    """Serving efficiencies (see `advisor.core.model.inference`)."""

    bandwidth_efficiency: Fraction = Field(description="Achieved over peak HBM bandwidth in decode.")
    decode_mfu: Fraction = Field(description="MFU when decode is compute-bound (large batches).")
    prefill_mfu: Fraction = Field(description="MFU of prompt processing (compute-bound).")
    overlap: Fraction = Field(description="Share of the shorter of decode memory and compute time hidden.")
    allreduce_latency_us: Positive = Field(description="Fixed latency of one tensor-parallel all-reduce.")
    tp_exponent: float = Field(ge=0, le=1, description="Iteration time grows as tp^x beyond the all-reduces.")
    scale_out_gb_per_s_per_gpu: Positive = Field(description="Per-GPU bandwidth between scale-up domains.")
    max_batch: PositiveInt = Field(description="Most requests one replica decodes together.")
    kv_head_dim: PositiveInt = Field(description="Values per KV head: kv_dim / (2 x it) KV heads.")
    early_fp8_factor: Fraction = Field(description="FP8 serving speed on releases before `early_fp8_before`.")
    routed_token_ns: NonNegative = Field(
        description="Time of one token routed to one expert in one MoE layer (ns), over the replica's GPUs."
    )
    fp4_weight_only_precision: Precision = Field(
        description="The precision FP4 weights are multiplied at on a GPU without FP4 matrix units."
    )
    early_fp8_before: str = Field(
        pattern=r"^[0-9]{4}-[0-9]{2}$", description="First release with full FP8 speed."
    )
    reference_stack: str = Field(
        "the reference stack",
        description="Serving software the efficiencies are fitted on (others: a system's `serving_stack`).",
    )
    stack_factor: dict[str, Positive] = Field(
        default_factory=dict,
        description="Serving speed of each other stack, as a share of the reference stack's (fitted).",
    )
    stack_systems: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Per stack, the systems whose published serving points its factor is fitted on "
        "(on its other systems the factor is an assumption).",
    )
    fit_points: int = Field(0, ge=0, description="Published serving points the efficiencies were fitted on.")
    spread_low: Positive = Field(
        1.0, description="Low end of published ÷ modelled serving speed (triangular)."
    )
    spread_high: Positive = Field(
        1.0, description="High end of published ÷ modelled serving speed (triangular)."
    )


class ServingDefaults(Sourced):
    """What a serving job at a target rate is held to when it sets no limit."""

    default_tpot_limit_ms: Positive = Field(
        description="Time per output token a chat user reads without waiting, applied when none is set."
    )
    default_headroom: float = Field(
        ge=0,
        le=0.9,
        description="Share of a target-rate fleet's capacity kept spare for bursts, when none is set.",
    )


class Economics(Frozen):
    """Facility, finance and societal constants, each with its source."""

    electricity: Electricity
    facility: Facility
    colocation: Colocation
    finance: Finance
    maintenance: Maintenance
    utilization: Utilization
    opportunity: Opportunity
    carbon: Carbon
    household: Household
    checkpointing: Checkpointing
    memory: MemoryModel
    inference: InferenceModel
    serving: ServingDefaults
    uncertainty: Uncertainty
    risk: RiskAppetite
    turnover: Turnover
