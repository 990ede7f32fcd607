"""Strong scaling: a global batch too small for the cluster splits each sequence over more GPUs.

Published scaling tables (NVIDIA's, SemiAnalysis's) grow the global batch with the cluster, so every
model replica (the fewest GPUs that hold one copy of the training state) gets at least one sequence per
step. A run that keeps a small batch on many GPUs (MLPerf's Llama 2 70B LoRA: 8 to 128 sequences on 8 to
1,024 GPUs) must split each sequence over more GPUs than memory requires (context or tensor
parallelism), and each GPU's matrices shrink and its share of communication grows. The loss is fitted on
published runs (`advisor validate`, `benchmarks/refit.py`): throughput × min(1, s)^exponent, where s is
the sequences per replica per step.
"""

from __future__ import annotations

from typing import Annotated, NamedTuple

from pydantic import Field

from advisor.core.model.sourced import Frozen


class StrongScalingFit(Frozen):
    """The fitted loss (`catalog/mfu/scaling.toml` `[strong_scaling]`): its exponent, and the ± share of
    throughput that the P10-P90 of an estimate it applies to carries (from the runs it was fitted on)."""

    exponent: Annotated[float, Field(ge=0, le=2)] = 0.0
    spread: Annotated[float, Field(ge=0, lt=1)] = Field(
        0.0, description="Throughput ± this share where the loss applies (its leave-one-out residuals)."
    )
    runs: Annotated[int, Field(ge=0)] = Field(0, description="Published runs the values were fitted on.")


class StrongScaling(NamedTuple):
    """The strong-scaling loss of one training run."""

    global_batch: int
    sequences_per_replica: float
    """Sequences per model replica per step: global batch × replica GPUs ÷ GPUs."""
    replica_gpus: int
    factor: float
    """Throughput per GPU × this (1 with at least one sequence per replica)."""

    def note(self, gpus: int, exponent: float) -> str:
        """What the loss does, for an estimate's MFU basis."""
        return (
            f"; × {self.factor:.3f} at a global batch of {self.global_batch:,} sequences on {gpus:,} GPUs "
            f"({self.sequences_per_replica:.3g} per replica of {self.replica_gpus} GPUs, the fewest that "
            f"hold the training state; strong-scaling exponent {exponent:g})"
        )


def strong_scaling_factor(sequences_per_replica: float, exponent: float) -> float:
    """Throughput per GPU relative to one sequence or more per replica per step: min(1, s)^exponent."""
    return min(1.0, sequences_per_replica) ** exponent


def strong_scaling(
    global_batch: int | None, gpus: int, replica_gpus: int | None, exponent: float
) -> StrongScaling | None:
    """The loss of a run of `global_batch` sequences per step on `gpus` GPUs whose training state needs
    `replica_gpus` GPUs; None without a batch (grown with the cluster) or when no replica fits."""
    if global_batch is None or replica_gpus is None:
        return None
    sequences = global_batch * replica_gpus / gpus
    return StrongScaling(global_batch, sequences, replica_gpus, strong_scaling_factor(sequences, exponent))
