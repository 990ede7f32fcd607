"""Published runs the model is checked against (`catalog/evidence/`): one end-to-end run or benchmark each.

A run names what was trained (a preset id or its architecture), on what, at what scale and precision,
with which software month, and one published figure with its source. `advisor validate` predicts that
figure and reports the error; the production-efficiency constants are fitted on these runs.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from advisor.core.model.catalog import ModelSpec
from advisor.core.model.sourced import (
    Fraction,
    Frozen,
    Positive,
    PositiveInt,
    Precision,
    Release,
    with_url_from_source,
)

RunKind = Literal["production", "benchmark"]
"""`production`: a team's end-to-end run; `benchmark`: a vendor recipe, throughput table or MLPerf."""

Quantity = Literal["gpu_hours", "days", "tokens_per_s_per_gpu", "tflops_per_gpu", "mfu"]
"""What was published. Times are per run; throughputs per GPU."""

SPEED_LIKE: frozenset[str] = frozenset({"tokens_per_s_per_gpu", "tflops_per_gpu", "mfu"})
"""Quantities that grow with speed (the others, GPU-hours and days, shrink with it)."""


class Published(Frozen):
    """The published figure and where it was read."""

    source: str = Field(min_length=3, description="Title and publisher of the original publication.")
    as_of: str = Field(
        pattern=r"^(accessed )?[0-9]{4}(-[0-9]{2}){0,2}$",
        description="Publication date (YYYY[-MM[-DD]]), or 'accessed YYYY-MM-DD' for an undated page.",
    )
    note: str = ""
    quantity: Quantity
    value: Positive
    url: str = Field(
        pattern=r"^(https?://\S+)?$", description="Where the figure can be read: the URL in `source`."
    )
    quote: str = Field("", description="The words or numbers read there, short.")

    url_from_source = model_validator(mode="before")(with_url_from_source)


class EvidenceRun(Frozen):
    """One published training run or benchmark, with the figure the model must reproduce."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    title: str
    kind: RunKind
    model: str | None = Field(None, description="A model preset id (or give `model_spec`).")
    model_spec: ModelSpec | None = Field(
        None,
        description="A model that is not a preset, from its config.json or paper; `model_source` for its "
        "source, `experts = 0` for none.",
    )
    system: str
    gpu_variant: str = ""
    gpus: PositiveInt
    gpus_assumed: bool = Field(False, description="The source gives no GPU count; `gpus` is an assumption.")
    precision: Precision
    tokens: Positive | None = Field(None, description="Tokens trained (needed for GPU-hours and days).")
    seq_len: PositiveInt | None = None
    global_batch: PositiveInt | None = Field(
        None,
        le=10_000_000,
        description="Sequences per optimizer step, where the publication states it (None: not stated).",
    )
    lora_trainable_fraction: Fraction | None = Field(
        None,
        description="A LoRA fine-tune: trainable parameters as a share of the model's (its training state, "
        "and so the GPUs of one replica, is the frozen weights and the adapters').",
    )
    software: Release = Field(description="Month of the software used, YYYY-MM.")
    stack: str = ""
    published: Published

    @model_validator(mode="before")
    @classmethod
    def _spec_from_evidence_keys(cls, data: Any) -> Any:
        """`[model_spec]` as evidence files write it: the run's id, `model_source`, `experts = 0`."""
        if not isinstance(data, dict) or not isinstance(data.get("model_spec"), dict):
            return data
        spec = dict(data["model_spec"])
        if isinstance(data.get("id"), str):
            spec.setdefault("id", data["id"])
        if "model_source" in spec:
            spec["source"] = spec.pop("model_source")
        if spec.get("experts") == 0:
            del spec["experts"]
        return {**data, "model_spec": spec}

    @model_validator(mode="after")
    def _check(self) -> EvidenceRun:
        if (self.model is None) == (self.model_spec is None):
            raise ValueError("give exactly one of model (a preset id) or [model_spec]")
        if self.published.quantity in ("gpu_hours", "days") and self.tokens is None:
            raise ValueError(f"a published {self.published.quantity} figure needs `tokens`")
        return self

    def architecture(self, presets: dict[str, ModelSpec]) -> ModelSpec:
        """The model as the cost model sees it, at the run's sequence length."""
        if self.model is not None:
            if self.model not in presets:
                raise ValueError(f"{self.id}: unknown model preset {self.model!r}")
            spec = presets[self.model]
        else:
            assert self.model_spec is not None
            spec = self.model_spec
        return spec.model_copy(update={"seq_len": self.seq_len}) if self.seq_len else spec
