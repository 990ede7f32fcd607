"""Pydantic models describing `estimate --json` (one system's estimate and its ranges).

They describe the output only: the estimate is built by `to_dict()` in `advisor/core/costing/results.py`
and the ranges in `advisor/core/analysis/uncertainty.py`; the keys are documented in docs/json.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Number = float
"""A JSON number (integers included)."""


class Out(BaseModel):
    """An output object: every key documented, no other key allowed."""

    model_config = ConfigDict(extra="forbid")


class ModelOut(Out):
    """The model the estimate is for."""

    id: str
    name: str
    family: Literal["dense", "moe"]
    params_total: Number
    params_active: Number
    seq_len: int
    layers: int
    hidden: int
    inferred: bool = Field(description="Architecture inferred from the parameter count.")


class MfuBasis(Out):
    """How the MFU was chosen."""

    exact: bool
    basis: str
    sources: list[str]
    overridden: bool
    transferred: bool
    other_release: bool
    same_model: bool


class GoodputDetail(Out):
    """What set the goodput."""

    interruptions_per_day: Number
    checkpoint_interval_minutes: Number | None
    overridden: bool


class MemoryOut(Out):
    """Whether the job fits, and what it needs."""

    required_gib: Number
    available_gib: Number
    min_gpus: int | None
    fits: bool
    state_gib: Number
    activation_gib_per_gpu: Number


class ServingOut(Out):
    """Inference only: the serving layout and its rates."""

    replica_gpus: int
    replicas: int
    tokens_per_second: Number
    decode_bound: Literal["memory", "compute", "communication"]
    target_tokens_per_second: Number | None
    gpus_for_target: int | None
    batch: int
    binding_limit: str
    ttft_ms: Number
    tpot_ms: Number
    weight_precision: str
    kv_cache_precision: str
    activation_precision: str
    utilisation: Number
    usd_per_million_input_tokens: Number
    usd_per_million_output_tokens: Number
    usd_per_month: Number
    meets_limits: bool


class PriceOfferOut(Out):
    """When renting: the catalog offer the price is (null: the user's own price), and why it applies."""

    offer: str | None
    price_usd_per_gpu_hour: Number
    reserved: bool
    term_days: Number
    why: str


class PurchaseOut(Out):
    """When buying: the nodes or racks bought and what owning them costs."""

    unit: Literal["node", "rack"]
    units: int
    gpus_bought: int
    gpus_idle: int
    capex_usd: Number
    monthly_usd: Number
    run_share: Number
    runs_per_year: Number | None
    gpus_owned: int
    cost_per_run_usd: Number | None


class Spread(Out):
    """One output's range: expected, every input at the end of its range, and sampled P10-P90."""

    expected: Number
    low: Number
    high: Number
    p10: Number
    p90: Number


class UncertainInput(Out):
    """One uncertain input and its range."""

    low: Number
    expected: Number
    high: Number
    unit: str
    source: str


class RangeOut(Out):
    """One system's ranges."""

    system: str
    time_to_result_hours: Spread
    cost_usd: Spread
    cost_per_million_tokens_usd: Spread
    energy_kwh: Spread
    inputs: dict[str, UncertainInput]


class EstimateCore(Out):
    """One system's estimate: time, cost and energy (the keys of docs/json.md, "estimate --json")."""

    system: str
    system_name: str
    gpus: int
    precision: str
    precision_requested: str
    pricing: Literal["rent", "own"]
    kind: Literal["pretrain", "finetune", "inference"]
    software: str | None
    efficiency: Literal["reference", "production"]
    model: ModelOut
    tokens: Number
    flops_per_token: Number
    total_flops: Number
    mfu: Number
    mfu_basis: MfuBasis
    tokens_per_second_per_gpu: Number
    goodput: Number
    goodput_detail: GoodputDetail
    time_to_train_hours: Number
    time_to_result_hours: Number
    time_breakdown_hours: dict[str, Number]
    gpu_hours: Number
    gpus_paid: int
    capacity_gpus: int | None
    purchase_usd: Number | None
    purchase: PurchaseOut | None
    price_usd_per_gpu_hour: Number
    effective_price_usd_per_gpu_hour: Number
    price_offer: PriceOfferOut | None
    price_breakdown_usd_per_gpu_hour: dict[str, Number]
    cost_usd: Number
    cost_per_million_tokens_usd: Number
    cost_breakdown_usd: dict[str, Number]
    power_w_per_gpu_all_in: Number
    power_breakdown_w: dict[str, Number]
    energy_kwh: Number
    energy_breakdown_kwh: dict[str, Number]
    joules_per_token: Number
    household_years: Number
    co2_tonnes: Number
    memory: MemoryOut
    warnings: list[str]
    serving: ServingOut | None


class EstimateItem(EstimateCore):
    """One system's estimate with its ranges (an entry of `estimate --json --system all`)."""

    range: RangeOut


class EstimateOne(EstimateItem):
    """`estimate --json --system ID`."""

    schema_version: Literal[1]


class EstimateAll(Out):
    """`estimate --json` for every system (`--system all`)."""

    schema_version: Literal[1]
    estimates: list[EstimateItem]
