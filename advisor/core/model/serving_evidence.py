"""Published serving benchmarks the serving model is fitted on and checked against.

They live in `catalog/evidence/serving/`, one TOML file each.

A point names the model preset, the system, the replica (GPUs and tensor-parallel size), the precisions
of weights, KV cache and activations, the request shape (prompt and output tokens), the load (a fixed
concurrency, or 0 for an offline maximum-throughput run) and one published throughput with its source.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from advisor.core.model.evidence import Published
from advisor.core.model.sourced import Frozen, Positive, PositiveInt, Precision, check_release

ServingQuantity = Literal["output_tokens_per_s", "output_tokens_per_s_per_gpu"]
"""Generated tokens per second of the whole replica, or per GPU of it."""


class ServingPublished(Published):
    """The published serving figure, and the latencies measured with it where given."""

    quantity: ServingQuantity  # type: ignore[assignment]
    ttft_ms: Positive | None = Field(None, description="Mean time to first token, where published.")
    tpot_ms: Positive | None = Field(None, description="Mean time per output token, where published.")


class ServingPoint(Frozen):
    """One published serving benchmark: a replica, a request shape and its generated tokens per second."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    title: str
    model: str = Field(description="A model preset id.")
    system: str
    gpu_variant: str = ""
    tp: PositiveInt = Field(description="Tensor-parallel size: the GPUs of one replica.")
    weight_precision: Precision
    kv_precision: Precision
    activation_precision: Precision
    precision_assumed: bool = Field(
        False, description="The source does not state the KV cache or activation precision; it is assumed."
    )
    prompt_tokens: PositiveInt
    output_tokens: PositiveInt
    concurrency: int = Field(0, ge=0, description="Requests in flight; 0: offline, as many as fit.")
    software: str = Field(description="Month of the serving software, YYYY-MM.")
    stack: str = ""
    note: str = Field("", description="How the point was read into this schema: assumptions, conversions.")
    published: ServingPublished

    @field_validator("software")
    @classmethod
    def _check_software(cls, value: str) -> str:
        return check_release(value)

    @property
    def tokens_per_second_per_gpu(self) -> float:
        """The published throughput per GPU of the replica."""
        value = self.published.value
        return value if self.published.quantity == "output_tokens_per_s_per_gpu" else value / self.tp
