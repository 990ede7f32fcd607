"""The catalog's schema: systems, model presets, MFU calibration tables and economics.

Every section that holds numbers carries `source` and `as_of`; assumptions say so. The loaders in
`advisor.io` read TOML into these models; nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, model_validator

from advisor.core.model.economics import Economics
from advisor.core.model.maturity import MaturityBasis
from advisor.core.model.released import ReleasedWeights
from advisor.core.model.rental_offer import RentalOffer, check_derived, derive_prices
from advisor.core.model.sourced import (
    Fraction,
    Frozen,
    NonNegative,
    ParamCount,
    Positive,
    PositiveInt,
    Precision,
    Release,
    Sourced,
    with_url_from_source,
)
from advisor.core.model.strong_scaling import StrongScalingFit
from advisor.errors import CatalogError

_Entry = TypeVar("_Entry")

Family = Literal["dense", "moe"]

# --- systems ------------------------------------------------------------------------------------


class Compute(Sourced):
    """Dense (no 2:4 sparsity) tensor peak per GPU, by precision."""

    bf16_dense_tflops: Positive
    fp8_dense_tflops: Positive | None = None
    fp4_dense_tflops: Positive | None = None

    def peak_tflops(self, precision: Precision) -> float | None:
        """Dense peak for `precision`, or None where the hardware lacks it."""
        return {"bf16": self.bf16_dense_tflops, "fp8": self.fp8_dense_tflops, "fp4": self.fp4_dense_tflops}[
            precision
        ]


class Memory(Sourced):
    """HBM per GPU, as published (decimal GB) and its bandwidth."""

    hbm_gb: Positive
    hbm_bandwidth_tbps: Positive


class Interconnect(Sourced):
    """NVLink domain and the unit one buys or rents (an 8-GPU node, a 72-GPU rack)."""

    nvlink_domain_gpus: PositiveInt
    nvlink_gb_per_s_per_gpu: Positive
    gpus_per_node: PositiveInt
    node_name: str = "node"


class Power(Sourced):
    """What makes up the IT power per GPU, before the facility's PUE."""

    gpu_tdp_w: Positive
    host_w_per_gpu: NonNegative = Field(description="Server share beyond the GPU: CPUs, memory, NICs, fans.")
    network_storage_w_per_gpu: NonNegative = Field(description="Cluster network and storage share per GPU.")

    @property
    def it_w_per_gpu(self) -> float:
        """GPU + host share + network/storage share, in watts (before PUE)."""
        return self.gpu_tdp_w + self.host_w_per_gpu + self.network_storage_w_per_gpu


class Capex(Sourced):
    """All-in purchase price of one node or rack: servers, network, storage, installation."""

    all_in_usd_per_node: Positive


class Setup(Sourced):
    """Time from 'start instance' to 'ready to train'."""

    setup_minutes: NonNegative


class Reliability(Sourced):
    """Failure parameters for the goodput model (see `advisor.core.model.goodput`)."""

    mtbf_gpu_hours: Annotated[float, Field(ge=1, le=1e9, allow_inf_nan=False)] = Field(
        description="Mean hours between job interruptions, per GPU (1 to 1e9)."
    )
    restart_minutes: NonNegative = Field(description="Detect, replace or drain, reload, resume.")


class Availability(Sourced):
    """How soon capacity can be had, by pricing route."""

    on_demand_wait_hours: NonNegative
    on_demand_max_gpus: PositiveInt = Field(
        description="The largest cluster rented on demand within that wait; more needs a reservation."
    )
    reserved_lead_days: NonNegative
    purchase_lead_days: NonNegative
    purchase_max_gpus: PositiveInt = Field(
        description="The most GPUs one buyer can have delivered within the purchase lead time."
    )
    reserved_max_gpus: PositiveInt = Field(
        description="The largest cluster rented by reservation (the rentable capacity)."
    )

    @model_validator(mode="after")
    def _on_demand_within_reserved(self) -> Availability:
        if self.on_demand_max_gpus > self.reserved_max_gpus:
            raise ValueError("need on_demand_max_gpus <= reserved_max_gpus")
        return self

    def capacity_gpus(self, pricing: str) -> int:
        """The most GPUs to be had: bought when owning, reserved when renting."""
        return self.purchase_max_gpus if pricing == "own" else self.reserved_max_gpus


class System(Frozen):
    """One catalogued accelerator system, e.g. an 8x H100 HGX node or a GB200 NVL72 rack."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str
    maturity: MaturityBasis = Field(
        description="How proven it is for training at scale, and its evidence (advisor.core.model.maturity)."
    )
    mfu_proxy_system: str | None = Field(
        None, description="System whose MFU calibration applies where this one has no published figure."
    )
    serving_stack: str | None = Field(
        None,
        pattern=r"^[a-z0-9][a-z0-9-]*$",
        description="The software its published serving figures come from, a key of economics "
        "[inference] stack_factor (None: the reference stack, [inference] reference_stack).",
    )
    compute: Compute
    memory: Memory
    interconnect: Interconnect
    power: Power
    capex: Capex
    rental: tuple[RentalOffer, ...] = Field(min_length=1)
    setup: Setup
    reliability: Reliability
    availability: Availability

    @model_validator(mode="before")
    @classmethod
    def _derive_prices(cls, data: Any) -> Any:
        """A derived rental offer's figures left out of the file are computed from the offer it names."""
        if isinstance(data, dict) and isinstance(data.get("rental"), list):
            return {**data, "rental": derive_prices(data["rental"])}
        return data

    @model_validator(mode="after")
    def _one_default_offer(self) -> System:
        defaults = [offer for offer in self.rental if offer.default]
        if len(defaults) > 1:
            raise ValueError("rental: at most one offer may set default = true")
        if sum(offer.default_reserved for offer in self.rental) > 1:
            raise ValueError("rental: at most one offer may set default_reserved = true")
        for offer in self.rental:
            if offer.discount_from is not None:  # with `discount` (the offer checks they go together)
                check_derived(offer, self.derived_from(offer), self.rental)
        return self

    def derived_from(self, offer: RentalOffer) -> RentalOffer | None:
        """The offer `offer`'s price is derived from by an assumed discount, None for a price as listed."""
        return next((o for o in self.rental if o.offer == offer.discount_from), None)

    @property
    def default_rental(self) -> RentalOffer:
        """The offer marked `default`, else the first one listed."""
        return next((offer for offer in self.rental if offer.default), self.rental[0])

    @property
    def reserved_rental(self) -> RentalOffer | None:
        """The offer marked `default_reserved`: what a rental beyond on-demand capacity pays, if listed."""
        return next((offer for offer in self.rental if offer.default_reserved), None)

    def rental_offer(self, name: str | None) -> RentalOffer:
        """The offer called `name` where this system lists one, else the default offer."""
        return next((offer for offer in self.rental if offer.offer == name), self.default_rental)


# --- model presets -------------------------------------------------------------------------------


class ModelSpec(Frozen):
    """A model's size and shape: enough for FLOPs, memory and MFU lookup."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    name: str
    family: Family = "dense"
    params_total: ParamCount
    params_active: ParamCount
    layers: PositiveInt
    hidden: PositiveInt
    seq_len: PositiveInt
    vocab: PositiveInt | None = None
    experts: PositiveInt | None = None
    experts_per_token: PositiveInt | None = Field(
        None, description="MoE: routed experts each token uses per layer (serving reads the touched ones)."
    )
    kv_dim: PositiveInt | None = Field(
        None, description="Values the KV cache holds per token per layer (K and V together)."
    )
    kv_head_dim: PositiveInt | None = Field(
        None, description="Values per KV head, config.json head_dim (None: the serving model's assumption)."
    )
    released_weights: ReleasedWeights | None = Field(
        None, description="The format the weights are published in (None: unstated, served at the run's)."
    )
    source: str = ""
    url: str = Field("", pattern=r"^(https?://\S+)?$")
    as_of: str = ""
    note: str = ""
    inferred: bool = Field(False, description="Architecture inferred from the parameter count.")

    url_from_source = model_validator(mode="before")(with_url_from_source)

    @model_validator(mode="after")
    def _check_active(self) -> ModelSpec:
        if self.params_active > self.params_total:
            raise ValueError("params_active must not exceed params_total")
        if self.family == "dense" and self.params_active != self.params_total:
            raise ValueError("a dense model has params_active == params_total (set family = 'moe')")
        released = self.released_weights
        routed = self.experts and self.experts_per_token
        if released is not None and released.layers == "experts" and not routed:
            raise ValueError("released_weights.layers = 'experts' needs experts and experts_per_token")
        return self


# --- MFU calibration -----------------------------------------------------------------------------


class MfuPoint(Frozen):
    """One published measurement: system × precision × model × GPU count × software release.

    Give `mfu` where the source publishes MFU, else `tokens_per_s_per_gpu` (MFU is then derived with
    this tool's FLOPs-per-token convention, so the published throughput is reproduced exactly).
    """

    system: str
    precision: Precision
    model: str
    gpus: PositiveInt
    seq_len: PositiveInt | None = None
    software: Release = Field(description="Release month, YYYY-MM.")
    stack: str = Field(description="Software stack and release as published, e.g. 'NeMo 24.07'.")
    mfu: Fraction | None = None
    tokens_per_s_per_gpu: Positive | None = None
    model_tflops_per_gpu: Positive | None = Field(None, description="As published; kept for reference.")
    note: str = ""

    @model_validator(mode="after")
    def _one_measure(self) -> MfuPoint:
        if (self.mfu is None) == (self.tokens_per_s_per_gpu is None):
            raise ValueError("give exactly one of mfu or tokens_per_s_per_gpu")
        return self


class MfuTable(Sourced):
    """A published table of calibration points."""

    id: str
    title: str
    points: tuple[MfuPoint, ...] = Field(min_length=1)


class ProductionEfficiency(Frozen):
    """A team's end-to-end throughput as a share of the reference (benchmark) throughput, and its spread.

    Fitted on published end-to-end runs (`catalog/evidence/training`) by
    `advisor.core.analysis.validation`: the share is `throughput_factor` × (total parameters /
    `reference_params`)^`size_exponent`; `spread_low`/`spread_high` multiply it at the ends of the
    triangular distribution whose 10th/90th percentiles match the leave-one-out ratios.
    """

    throughput_factor: Annotated[float, Field(gt=0, le=1.5)]
    size_exponent: Annotated[float, Field(ge=-1, le=1)]
    reference_params: Positive
    spread_low: Annotated[float, Field(gt=0, le=1)]
    spread_high: Annotated[float, Field(ge=1, le=3)]
    runs: PositiveInt = Field(description="Published runs the values were fitted on.")

    def factor_for(self, params_total: float) -> float:
        """Share of reference throughput a production run of a model this size achieves (at most all of it:
        overhead is never negative)."""
        return min(1.0, self.throughput_factor * (params_total / self.reference_params) ** self.size_exponent)


class MfuScaling(Sourced):
    """How MFU moves away from a published point (see `advisor.core.model.mfu`)."""

    production: ProductionEfficiency
    small_model_exponent: dict[Family, Annotated[float, Field(ge=0, le=2)]] = Field(
        description="Below the smallest published model of a family, MFU scales as (size ratio)^this."
    )

    loss_per_doubling: dict[Precision, Annotated[float, Field(ge=0, lt=1)]]
    loss_growth: Annotated[float, Field(ge=0, le=2)] = Field(
        0.0,
        description="Above 2,048 GPUs a doubling loses as (GPUs / 2,048)^this doublings do (0: the same "
        "at any scale; see mfu_points.effective_doublings).",
    )
    precision_ratio_to_fp8: dict[Precision, Positive]
    moe_per_dense: Fraction
    seq_window: Annotated[float, Field(ge=1)]
    max_age_months: Annotated[int, Field(ge=0)]
    scale_up_ratio: dict[str, Positive] = Field(
        default_factory=dict,
        description="MFU on a smaller NVLink domain ÷ on a larger one, per family and the two domain sizes "
        "(`moe_8_per_72`), for a system carried from a proxy with another domain size.",
    )
    strong_scaling: StrongScalingFit = Field(
        default_factory=StrongScalingFit,
        description="Throughput × min(1, sequences per replica per step)^exponent (see strong_scaling).",
    )


# --- the catalog --------------------------------------------------------------------------------


class Catalog(Frozen):
    """Everything the cost model needs, as loaded from `catalog/` (plus any user overrides)."""

    systems: dict[str, System]
    models: dict[str, ModelSpec]
    mfu_tables: dict[str, MfuTable]
    mfu_scaling: MfuScaling
    economics: Economics
    load_warnings: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _check_references(self) -> Catalog:
        for table in self.mfu_tables.values():
            for point in table.points:
                where = f"MFU table {table.id!r}, point {point.system}/{point.precision}/{point.model}"
                if point.system not in self.systems:
                    raise ValueError(f"{where}: unknown system {point.system!r}")
                if point.model not in self.models:
                    raise ValueError(f"{where}: unknown model {point.model!r}")
                if self.systems[point.system].compute.peak_tflops(point.precision) is None:
                    raise ValueError(f"{where}: {point.system} has no {point.precision} peak")
        for system in self.systems.values():
            proxy = system.mfu_proxy_system
            if proxy is not None and (proxy not in self.systems or proxy == system.id):
                raise ValueError(f"system {system.id!r}: mfu_proxy_system {proxy!r} is not another system")
            stacks = self.economics.inference.stack_factor
            if system.serving_stack is not None and system.serving_stack not in stacks:
                known = ", ".join(sorted(stacks)) or "none"
                raise ValueError(
                    f"system {system.id!r}: serving_stack {system.serving_stack!r} has no stack_factor in "
                    f"economics [inference] (known: {known}; omit it for the reference stack)"
                )
        return self

    def system(self, system_id: str) -> System:
        """The system with this id; the error lists the valid ids."""
        return _entry(self.systems, system_id, "system")

    def model(self, model_id: str) -> ModelSpec:
        """The model preset with this id; the error lists the valid ids."""
        return _entry(self.models, model_id, "model")

    def rebuilt(self, **fields: object) -> Catalog:
        """This catalog with some fields replaced, its derived indexes dropped (model_copy would keep
        them). The values are already checked: nothing is validated again."""
        current = {name: getattr(self, name) for name in type(self).model_fields}
        return type(self).model_construct(**(current | fields))

    @cached_property
    def derived(self) -> dict[str, object]:
        """Indexes other modules build from this catalog once (e.g. the MFU index), keyed by name."""
        return {}


def _entry(entries: Mapping[str, _Entry], key: str, what: str) -> _Entry:
    """`entries[key]`, or a CatalogError naming the valid keys."""
    try:
        return entries[key]
    except KeyError:
        raise CatalogError(f"unknown {what} {key!r}; valid: {', '.join(sorted(entries))}") from None
