"""The number format a model's weights are published in (its checkpoint as released)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from advisor.core.model.sourced import Positive, Precision, Sourced

ReleasedLayers = Literal["all", "experts"]


class ReleasedWeights(Sourced):
    """The released checkpoint's weight format: every weight in it, or only the routed experts' (the rest
    BF16, as gpt-oss publishes its MXFP4 MoE projections)."""

    precision: Precision = Field(description="Number format of the released weights (FP4 for MXFP4).")
    format_name: str = Field("", description="The format as its publisher names it, e.g. 'MXFP4'.")
    layers: ReleasedLayers = Field(
        "all", description="Which weights are in that format: all, or the routed experts' (the rest BF16)."
    )
    checkpoint_gib: Positive | None = Field(
        None, description="The published checkpoint's size, GiB (a check on the bytes the model counts)."
    )

    @property
    def label(self) -> str:
        """`FP4 (MXFP4)`, `FP8`: the precision with the publisher's name for it where that differs."""
        name, precision = self.format_name, self.precision.upper()
        return precision + (f" ({name})" if name and name.upper() != precision else "")
