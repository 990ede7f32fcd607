"""What the user wants to run (`Workload`), the limits on it (`Constraints`) and assumption overrides."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from advisor.core.model.catalog import Fraction, Frozen, ModelSpec, Positive, PositiveInt, Precision
from advisor.core.model.sourced import check_release
from advisor.core.model.units import human_number

Kind = Literal["pretrain", "finetune", "inference"]
Pricing = Literal["rent", "own"]
Risk = Literal["conservative", "balanced", "early-adopter"]
Objective = Literal["cost", "time", "energy", "balanced"]
FinetuneMethod = Literal["full", "lora"]
Efficiency = Literal["reference", "production"]

ALL_SYSTEMS = "*"
PER_SYSTEM = ("mfu", "goodput", "price_usd_per_gpu_hour", "capex_usd_per_node", "wait_hours")
"""Assumptions that may be set per system (a map of system id or '*' to value)."""


class Workload(Frozen):
    """A training, fine-tuning or inference job: model, tokens, precision, scale and pricing."""

    model: ModelSpec
    tokens: Positive = Field(description="Tokens trained (or generated, for inference).")
    gpus: PositiveInt = Field(8, le=1_000_000, description="GPUs in the cluster.")
    precision: Precision = "bf16"
    kind: Kind = "pretrain"
    pricing: Pricing = "rent"
    software: str | None = Field(None, description="Software release month YYYY-MM; None = latest.")
    fp8_stack: bool = Field(True, description="Whether the team's software stack supports FP8.")
    finetune_method: FinetuneMethod = "full"
    efficiency: Efficiency = Field(
        "production",
        description="reference: a vendor-tuned recipe, as benchmarks report; production: a team's "
        "end-to-end run (evaluations, checkpoints, data stalls, restarts).",
    )
    lora_trainable_fraction: Annotated[float, Field(gt=0, le=1)] = Field(
        0.01, description="LoRA: trainable parameters as a fraction of the model's."
    )
    prompt_tokens: Annotated[int, Field(gt=0, le=10_000_000)] = Field(
        500, description="Inference: prompt tokens per request (default: a chat turn, an assumption)."
    )
    output_tokens: Annotated[int, Field(gt=0, le=10_000_000)] = Field(
        500, description="Inference: generated tokens per request."
    )
    serving_batch: Annotated[int, Field(gt=0, le=100_000)] = Field(
        32, description="Inference: requests decoded together per replica."
    )
    target_tokens_per_second: Positive | None = Field(
        None, description="Inference: generated tokens per second to sustain (sizes the fleet)."
    )

    @field_validator("software")
    @classmethod
    def _check_software(cls, value: str | None) -> str | None:
        return None if value is None else check_release(value)

    @field_validator("tokens")
    @classmethod
    def _check_tokens(cls, value: float) -> float:
        if value < 1 or not math.isfinite(value):
            raise ValueError("tokens must be at least 1")
        return value


HumanPositive = Annotated[float, BeforeValidator(human_number), Field(gt=0, allow_inf_nan=False)]
"""A positive number that may be written "250k", "$2.10", "15T" in a scenario file."""
HumanNonNegative = Annotated[float, BeforeValidator(human_number), Field(ge=0, allow_inf_nan=False)]


class Constraints(Frozen):
    """Limits and preferences that decide between systems (used by `advise`)."""

    deadline_days: HumanPositive | None = None
    budget_usd: HumanPositive | None = None
    need_within_days: HumanNonNegative | None = None
    guaranteed_capacity: bool = False
    risk: Risk = "balanced"
    iteration_speed_matters: bool = False


def _every_system(value: Any) -> Any:
    """`mfu = 0.4` means the same value for every system: {"*": 0.4}."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return {ALL_SYSTEMS: value}
    return value


PerSystem = Annotated[dict[str, HumanPositive], BeforeValidator(_every_system)]


class Assumptions(Frozen):
    """User overrides of catalog values. Keys of the per-system maps are system ids or '*' (all)."""

    mfu: Annotated[dict[str, Fraction], BeforeValidator(_every_system)] = Field(default_factory=dict)
    goodput: Fraction | dict[str, Fraction] | None = None
    price_usd_per_gpu_hour: PerSystem = Field(default_factory=dict)
    capex_usd_per_node: PerSystem = Field(default_factory=dict)
    pue: Annotated[float, BeforeValidator(human_number), Field(ge=1, le=3)] | None = None
    electricity_usd_per_kwh: HumanPositive | None = None
    rental_offer: str | None = Field(
        None,
        min_length=1,
        description="Rent at the [[rental]] offer of this name where a system lists it; else the default.",
    )
    wait_hours: Annotated[dict[str, Annotated[float, Field(ge=0)]], BeforeValidator(_every_system)] = Field(
        default_factory=dict
    )

    @model_validator(mode="after")
    def _check_keys(self) -> Assumptions:
        for name in PER_SYSTEM:
            for key in getattr(self, name) if name != "goodput" or isinstance(self.goodput, dict) else ():
                if not key or not (key == ALL_SYSTEMS or key.replace("-", "").isalnum()):
                    raise ValueError(f"{name}: key {key!r} must be a system id or '*'")
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
