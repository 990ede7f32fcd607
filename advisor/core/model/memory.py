"""Training memory: does the state fit in the cluster's HBM, and how many GPUs does it need.

Memory is counted in GiB (2^30 bytes) everywhere. A GPU's HBM is sold as "GB" but built of binary
DRAM: an "80 GB" A100 reports 81,920 MiB (80 GiB) and an H100 81,559 MiB (79.6 GiB, 85.5 x 10^9
bytes) in `nvidia-smi` (modal-labs/modal-client#2797, Jan 2025), so the catalog's `hbm_gb` is read as
GiB. `usable_hbm_bytes` is the one usable-memory figure: training here, serving in `inference.py`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.core.model.catalog import ModelSpec
from advisor.core.model.units import BYTES_PER_GIB


@dataclass(frozen=True)
class MemoryCheck:
    """Training state against HBM. Sizes in bytes; `min_gpus` rounded up to whole nodes."""

    state_bytes: float
    activation_bytes_per_gpu: float
    required_bytes: float
    available_bytes: float
    usable_bytes_per_gpu: float
    min_gpus: int | None
    """None when one sequence's activations alone exceed a GPU's usable HBM."""
    fits: bool

    @property
    def required_gib(self) -> float:
        return self.required_bytes / BYTES_PER_GIB

    @property
    def available_gib(self) -> float:
        return self.available_bytes / BYTES_PER_GIB


def usable_hbm_bytes(hbm_gb: float, usable_fraction: float) -> float:
    """Bytes of one GPU's HBM a job may use: its capacity (the catalog's `hbm_gb`, binary GB) less what
    the runtime, the allocator's fragmentation and the communication buffers take (`usable_fraction`)."""
    return hbm_gb * BYTES_PER_GIB * usable_fraction


def activation_bytes_per_gpu(model: ModelSpec, bytes_per_token_hidden_layer: float, shard: int) -> float:
    """One micro-batch sequence of activations with full recomputation, sharded over `shard` GPUs.

    With activation checkpointing each layer keeps its input (2 bytes per token × hidden) and one layer
    is recomputed at a time (about 34 bytes per token × hidden, Korthikanti et al. 2022, Table 2), so
    the per-layer cost `bytes_per_token_hidden_layer` is applied to every layer.
    """
    return bytes_per_token_hidden_layer * model.seq_len * model.hidden * model.layers / shard


def check_memory(
    model: ModelSpec,
    gpus: int,
    hbm_gb: float,
    *,
    bytes_per_param: float,
    usable_fraction: float,
    bytes_per_token_hidden_layer: float,
    nvlink_domain_gpus: int,
    gpus_per_node: int,
    trainable_params: float | None = None,
) -> MemoryCheck:
    """Sharded training state (weights, gradients, Adam moments; ZeRO-3/FSDP) plus activations vs HBM.

    `bytes_per_param` covers mixed-precision Adam: 2 (BF16 weights) + 2 (gradients) + 4 (FP32 master)
    + 8 (two FP32 moments) = 16 bytes (Rajbhandari et al. 2020, ZeRO §3). With `trainable_params` (LoRA)
    only those carry gradients and optimizer state; frozen weights take 2 bytes each.
    """
    if trainable_params is None:
        state = bytes_per_param * model.params_total
    else:
        state = 2.0 * model.params_total + bytes_per_param * trainable_params
    shard = min(nvlink_domain_gpus, 8, gpus)
    activations = activation_bytes_per_gpu(model, bytes_per_token_hidden_layer, shard)
    usable = usable_hbm_bytes(hbm_gb, usable_fraction)
    required = state + activations * gpus
    room = usable - activations
    min_gpus: int | None = None
    if room > 0:
        need = max(1, math.ceil(state / room))
        min_gpus = need if need <= gpus_per_node else math.ceil(need / gpus_per_node) * gpus_per_node
    return MemoryCheck(
        state_bytes=state,
        activation_bytes_per_gpu=activations,
        required_bytes=required,
        available_bytes=usable * gpus,
        usable_bytes_per_gpu=usable,
        min_gpus=min_gpus,
        fits=required <= usable * gpus,
    )
