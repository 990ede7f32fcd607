"""Serving throughput: compute-bound prefill, memory-bandwidth-bound decode.

Model (documented in docs/methodology.md, "Inference"): a replica is the fewest GPUs (a power of two) whose
usable HBM holds the weights (2 bytes per parameter in BF16, 1 in FP8, 0.5 in FP4) plus the KV cache
of `batch` sequences at full context. Each decode step reads every weight once and the whole KV cache,
so it takes max(bytes / (GPUs x HBM bandwidth x efficiency), 2·N_active·batch / (GPUs x peak x MFU)).
Prefill of each request's prompt is compute-bound at the prefill MFU. Throughput per GPU is generated
tokens over GPU-seconds, counting both.

KV cache per token = layers x `kv_dim` (the values cached per token per layer, K and V together, from
the model's attention: 2 x 8 KV heads x 128 = 2,048 for Llama 3; 2 x hidden for multi-head attention;
576 for DeepSeek-V3's latent attention) x 2 bytes (BF16 cache). A custom model without it is assumed to
use grouped-query attention with 8 query heads per KV head: 2 x hidden / 8. Efficiencies are catalog
assumptions (`[inference]`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.core.model.catalog import ModelSpec

WEIGHT_BYTES = {"bf16": 2.0, "fp8": 1.0, "fp4": 0.5}
KV_BYTES = 2.0
GQA_GROUP = 8


@dataclass(frozen=True)
class Serving:
    """Throughput of one replica and what it is made of."""

    replica_gpus: int
    tokens_per_second_per_gpu: float
    flops_per_token: float
    achieved_mfu: float
    decode_step_seconds: float
    decode_bound: str  # "memory" or "compute"
    weight_bytes: float
    kv_bytes: float


def kv_cache_bytes_per_token(model: ModelSpec) -> float:
    """Bytes of KV cache per token: every layer's cached values (`kv_dim`), at 2 bytes each."""
    kv_dim = model.kv_dim if model.kv_dim is not None else 2 * model.hidden / GQA_GROUP
    return model.layers * kv_dim * KV_BYTES


def serving_throughput(
    model: ModelSpec,
    precision: str,
    *,
    peak_tflops: float,
    hbm_gb: float,
    hbm_bandwidth_tbps: float,
    usable_hbm_fraction: float,
    batch: int,
    prompt_tokens: int,
    output_tokens: int,
    bandwidth_efficiency: float,
    decode_mfu: float,
    prefill_mfu: float,
) -> Serving:
    """Generated tokens per second per GPU for `batch` concurrent requests of the given shape."""
    weights = model.params_total * WEIGHT_BYTES[precision]
    context = prompt_tokens + output_tokens
    kv = kv_cache_bytes_per_token(model) * context * batch
    usable = hbm_gb * 1e9 * usable_hbm_fraction
    need = math.ceil((weights + kv) / usable)
    replica = 1 << max(0, math.ceil(math.log2(max(need, 1))))
    average_kv = kv * (prompt_tokens + output_tokens / 2) / context  # the cache grows during decode
    memory_s = (weights + average_kv) / (replica * hbm_bandwidth_tbps * 1e12 * bandwidth_efficiency)
    decode_flops = 2 * model.params_active * batch
    compute_s = decode_flops / (replica * peak_tflops * 1e12 * decode_mfu)
    step = max(memory_s, compute_s)
    prefill_flops_per_request = 2 * model.params_active * prompt_tokens
    prefill_s_per_request = prefill_flops_per_request / (replica * peak_tflops * 1e12 * prefill_mfu)
    gpu_seconds_per_token = replica * (step / batch + prefill_s_per_request / output_tokens)
    flops_per_token = 2 * model.params_active * (1 + prompt_tokens / output_tokens)
    per_gpu = 1 / gpu_seconds_per_token
    return Serving(
        replica_gpus=replica,
        tokens_per_second_per_gpu=per_gpu,
        flops_per_token=flops_per_token,
        achieved_mfu=min(1.0, per_gpu * flops_per_token / (peak_tflops * 1e12)),
        decode_step_seconds=step,
        decode_bound="memory" if memory_s >= compute_s else "compute",
        weight_bytes=weights,
        kv_bytes=kv,
    )
