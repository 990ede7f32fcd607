"""Serving speed of one replica: a decode iteration under continuous batching (docs/methodology.md).

A replica is `tp` GPUs holding the weights (bytes per parameter by the weight precision; in the format a
model is released in with only its routed experts in it, as gpt-oss's MXFP4, the other weights at BF16)
and the KV cache of `batch` concurrent requests, each holding on average its prompt plus half its output.
One iteration
generates one token for each of the `batch` requests and, with chunked prefill, processes the prompts of
the `batch / output_tokens` requests that join per iteration. It takes

    memory  = (weights read + KV cache read) / (tp x HBM bandwidth x bandwidth efficiency)
    compute = 2 N_active batch / (tp x peak x decode MFU)
              + (batch / output) x (2 N_active P + 2 layers P^2 hidden) / (tp x peak x prefill MFU)
              + routing: (batch + (batch / output) x P) x experts_per_token x layers x routed_token_ns / tp
    comm    = 2 all-reduces per layer of batch x hidden activations, ring, over NVLink inside the
              scale-up domain and the scale-out network across it, each with a fixed latency
    iteration = (max(memory, compute) + (1 - overlap) x min(memory, compute) + comm) x tp^tp_exponent
                / stack factor

The stack factor is the speed of the system's serving software as a share of the reference stack's
(TensorRT-LLM, on which the other constants are fitted): it scales the whole iteration and the time to
first token, since the published points of the other stack do not separate its compute from its memory time.

A MoE replica reads the shared weights and only the experts the batch's tokens touch: with `experts` per
layer and `experts_per_token` chosen per token, a batch of B touches E (1 - (1 - k/E)^B) of them. Across
more than one GPU it runs attention data parallel with the experts split over the GPUs (TensorRT-LLM's
published MoE configuration, `enable_attention_dp` with `--ep`): every GPU holds and reads its own copy of
the weights outside the routed experts (attention, shared experts, dense layers, embeddings). Each token a
MoE layer sends to one of its chosen experts costs a fixed time (`routed_token_ns`, fitted), spread over the
replica's GPUs: the router, moving the token to its expert and back, the grouped product's work per expert;
a fine-grained MoE (many small experts, several per token) pays it several times per token and layer.

The batch is what fits in memory with each request's KV cache reserved for its whole sequence, prompt plus
all its output (TensorRT-LLM's default scheduler admits a request only when its whole output is sure to
fit), and at least one KV head per GPU of the replica (trtllm-bench sizes the batch so: a model with fewer
KV heads than GPUs has its KV heads copied); an iteration reads what the requests hold on average, the
prompt plus half the output. The
iteration time is the time per output token (TPOT); time to first token (TTFT) is one prompt's prefill
alone on the replica plus one iteration. The efficiencies and the overlap are fitted on published serving
benchmarks (`catalog/evidence/serving/`, `advisor.core.analysis.serving_fit`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.core.model.catalog import ModelSpec
from advisor.core.model.memory import usable_hbm_bytes
from advisor.core.model.sourced import Precision

BYTES_PER_VALUE: dict[str, float] = {"bf16": 2.0, "fp8": 1.0, "fp4": 0.5}
"""Bytes per stored value of each number format (FP4 with its block scales rounded away)."""
WEIGHT_BYTES = BYTES_PER_VALUE
GQA_GROUP = 8
TP_SIZES = (1, 2, 4, 8, 16, 32, 64)
"""Tensor-parallel sizes a replica may take."""


@dataclass(frozen=True, slots=True)
class ServingConstants:
    """The serving model's efficiencies (fitted) and its fixed assumptions."""

    bandwidth_efficiency: float
    """Achieved over peak HBM bandwidth while decoding."""
    decode_mfu: float
    """Achieved over peak compute of the decode GEMMs."""
    prefill_mfu: float
    """Achieved over peak compute of prompt processing, attention included."""
    overlap: float
    """Share of the shorter of memory and compute time hidden under the longer."""
    allreduce_latency_s: float
    """Fixed cost of one tensor-parallel all-reduce."""
    tp_exponent: float
    """Iteration time grows as tp^x beyond the all-reduces (smaller products per GPU, synchronisation)."""
    scale_out_gb_per_s_per_gpu: float
    """Per-GPU bandwidth across scale-up domains (a replica spanning nodes)."""
    max_batch: int
    """Most requests one replica decodes together (the serving engine's limit)."""
    kv_head_dim: int
    """Values per KV head (K or V) of a model that does not declare its own: its KV heads are its `kv_dim` /
    (2 x this)."""
    routed_token_ns: float
    """Time of one token routed to one expert in one MoE layer (ns), spread over the replica's GPUs."""
    early_fp8_factor: float = 1.0
    """Speed of FP8 serving on releases before `early_fp8_before`, as a share of later ones."""
    early_fp8_before: str = "2025-01"
    """The first release month whose FP8 serving kernels reach full speed."""

    stack_factors: tuple[tuple[str, float], ...] = ()
    """Speed of each serving stack other than the reference, as a share of the reference stack's."""

    def stack_factor(self, stack: str | None) -> float:
        """Speed multiplier of the serving stack `stack` (None: the reference stack, 1)."""
        return dict(self.stack_factors).get(stack, 1.0) if stack is not None else 1.0

    def release_factor(self, weights: Precision, software: str | None) -> float:
        """Speed multiplier of the serving software release (None: the latest) for `weights` precision."""
        early = software is not None and software < self.early_fp8_before
        return self.early_fp8_factor if early and weights == "fp8" else 1.0


@dataclass(frozen=True, slots=True)
class Hardware:
    """What the serving model needs to know of a GPU and its scale-up domain."""

    peak_tflops: float
    hbm_gb: float
    hbm_bandwidth_tbps: float
    usable_hbm_fraction: float
    nvlink_domain_gpus: int
    nvlink_gb_per_s_per_gpu: float


@dataclass(frozen=True, slots=True)
class Precisions:
    """Number formats of the weights, the KV cache and the activations (compute)."""

    weights: Precision
    kv_cache: Precision
    activations: Precision


@dataclass(frozen=True, slots=True)
class Iteration:
    """One decode iteration of a replica, and what it is made of (seconds)."""

    tp: int
    batch: int
    memory_s: float
    compute_s: float
    comm_s: float
    prefill_s: float
    """Compute time of the prompts joining per iteration (part of `compute_s`)."""
    seconds: float
    ttft_s: float

    prompt_tokens_per_iteration: float = 0.0
    """Prompt tokens processed per iteration (of the requests joining)."""

    @property
    def tokens_per_second(self) -> float:
        """Generated tokens per second of the replica."""
        return self.batch / self.seconds

    @property
    def bound(self) -> str:
        """What dominates the iteration: memory, compute or communication."""
        parts = {"memory": self.memory_s, "compute": self.compute_s, "communication": self.comm_s}
        return max(parts, key=lambda name: parts[name])


def _kv_dim(model: ModelSpec) -> float:
    """Values cached per token per layer: the model's `kv_dim`, else grouped-query attention's share."""
    return model.kv_dim if model.kv_dim is not None else 2 * model.hidden / GQA_GROUP


def kv_cache_bytes_per_token(model: ModelSpec, kv_precision: Precision = "bf16") -> float:
    """Bytes of KV cache per token: every layer's cached values (`kv_dim`) at the cache's precision."""
    return model.layers * _kv_dim(model) * BYTES_PER_VALUE[kv_precision]


def bytes_per_weight(model: ModelSpec, precision: Precision) -> tuple[float, float]:
    """Bytes per weight outside the routed experts and per routed-expert weight at `precision`: the released
    checkpoint's layout when `precision` is its format and only its experts are in it (the rest BF16, as
    gpt-oss publishes MXFP4 MoE projections), else `precision` throughout."""
    low, released = BYTES_PER_VALUE[precision], model.released_weights
    if released is not None and released.layers == "experts" and released.precision == precision:
        return BYTES_PER_VALUE["bf16"], low
    return low, low


def weight_bytes(model: ModelSpec, precision: Precision) -> float:
    """Bytes of all the weights at `precision` (the released layout where it is the released format)."""
    return _weights_bytes(model, precision, model.params_total)


def _expert_split(model: ModelSpec) -> tuple[float, float] | None:
    """Parameters outside the routed experts, and per routed expert; None for a model without routing."""
    experts, chosen = model.experts, model.experts_per_token
    if model.family != "moe" or not experts or not chosen or chosen >= experts:
        return None
    per_expert = (model.params_total - model.params_active) / (experts - chosen)
    return model.params_active - chosen * per_expert, per_expert


def attention_data_parallel(model: ModelSpec, tp: int) -> bool:
    """True when a `tp`-GPU replica of `model` runs attention data parallel with the experts split (MoE)."""
    return tp > 1 and _expert_split(model) is not None


def replicated_params(model: ModelSpec, tp: int) -> float:
    """Parameters a `tp`-GPU replica holds beyond one copy of the weights: the copies of the weights outside
    the routed experts that attention data parallelism puts on every GPU (0 for tensor parallelism)."""
    split = _expert_split(model)
    return (tp - 1) * split[0] if split is not None and tp > 1 else 0.0


def replica_weight_bytes(model: ModelSpec, precision: Precision, tp: int) -> float:
    """Bytes of weights a `tp`-GPU replica holds, the copies attention data parallelism makes included."""
    return _weights_bytes(model, precision, model.params_total, tp)


def _weights_bytes(model: ModelSpec, precision: Precision, params: float, tp: int = 1) -> float:
    """Bytes of `params` weights of which all those outside the routed experts are among them (one copy of
    the model, or what a decode step reads), plus the copies a `tp`-GPU replica makes of those."""
    shared_bytes, expert_bytes = bytes_per_weight(model, precision)
    split = _expert_split(model)
    shared = split[0] if split is not None else params
    return (shared + replicated_params(model, tp)) * shared_bytes + (params - shared) * expert_bytes


def kv_copies(model: ModelSpec, tp: int, head_dim: int) -> float:
    """How many times a `tp`-GPU replica stores each KV value: at least one KV head per GPU. The model's
    own head size (`kv_head_dim`, from its config) when it declares one, else `head_dim` (an assumption)."""
    size = model.kv_head_dim if model.kv_head_dim is not None else head_dim
    return max(1.0, tp / (_kv_dim(model) / (2 * size)))


def params_read_per_step(model: ModelSpec, batch: int) -> float:
    """Parameters one decode step reads: all for a dense model; shared ones plus touched experts for MoE."""
    split = _expert_split(model)
    if split is None or not model.experts or not model.experts_per_token:
        return model.params_total
    shared, per_expert = split
    experts, chosen = model.experts, model.experts_per_token
    touched = experts * (1 - (1 - chosen / experts) ** batch)
    return shared + per_expert * touched


def routed_tokens(model: ModelSpec, tokens: float) -> float:
    """Token-expert pairs `tokens` tokens make across the layers: experts_per_token per token and layer for
    a model with routed experts, else 0."""
    if _expert_split(model) is None or not model.experts_per_token:
        return 0.0
    return tokens * model.experts_per_token * model.layers


def prefill_flops(model: ModelSpec, prompt_tokens: int) -> float:
    """FLOPs of one prompt's forward pass: the weights' 2 N_active per token plus causal attention."""
    return 2 * model.params_active * prompt_tokens + 2 * model.layers * prompt_tokens**2 * model.hidden


@dataclass(frozen=True, slots=True)
class Replica:
    """A `tp`-GPU replica serving `model` on `hw` to requests of `prompt_tokens` in, `output_tokens` out:
    everything one decode iteration depends on but the batch."""

    model: ModelSpec
    tp: int
    hw: Hardware
    precisions: Precisions
    prompt_tokens: int
    output_tokens: int
    c: ServingConstants
    software: str | None = None
    stack: str | None = None
    """The system's serving stack (None: the reference stack)."""


def kv_reserved_bytes(
    model: ModelSpec, tp: int, kv_precision: Precision, shape: tuple[int, int], head_dim: int
) -> float:
    """KV cache one request reserves on a `tp`-GPU replica: its whole sequence (prompt plus all the output,
    `shape`), with at least one KV head per GPU (`head_dim`: see `kv_copies`)."""
    per_token = kv_cache_bytes_per_token(model, kv_precision) * kv_copies(model, tp, head_dim)
    return per_token * (shape[0] + shape[1])


def max_batch_in_memory(r: Replica) -> int:
    """Most concurrent requests whose KV cache, reserved for the whole sequence (prompt plus all the output)
    with at least one KV head per GPU, fits beside the replica's weights."""
    model, hw, precisions = r.model, r.hw, r.precisions
    free = r.tp * usable_hbm_bytes(hw.hbm_gb, hw.usable_hbm_fraction) - replica_weight_bytes(
        model, precisions.weights, r.tp
    )
    shape = (r.prompt_tokens, r.output_tokens)
    per_request = kv_reserved_bytes(model, r.tp, precisions.kv_cache, shape, r.c.kv_head_dim)
    return max(0, math.floor(free / per_request))


def _allreduce_s(values: float, tp: int, hw: Hardware, c: ServingConstants, act_bytes: float) -> float:
    """Bandwidth time of one ring all-reduce of `values` activations across `tp` GPUs."""
    if tp <= 1:
        return 0.0
    link = hw.nvlink_gb_per_s_per_gpu / 2 if tp <= hw.nvlink_domain_gpus else c.scale_out_gb_per_s_per_gpu
    return 2 * (tp - 1) / tp * values * act_bytes / (link * 1e9)


def iteration(r: Replica, batch: int) -> Iteration:
    """One decode iteration of `batch` requests on the replica, joining prompts included."""
    model, tp, hw, precisions, c = r.model, r.tp, r.hw, r.precisions, r.c
    prompt_tokens, output_tokens = r.prompt_tokens, r.output_tokens
    bandwidth = tp * hw.hbm_bandwidth_tbps * 1e12 * c.bandwidth_efficiency
    kv_read = (
        batch * kv_cache_bytes_per_token(model, precisions.kv_cache) * (prompt_tokens + output_tokens / 2)
    )
    weights_read = _weights_bytes(model, precisions.weights, params_read_per_step(model, batch), tp)
    memory_s = (weights_read + kv_read) / bandwidth
    peak = tp * hw.peak_tflops * 1e12
    joining = batch / output_tokens
    routed_s = c.routed_token_ns * 1e-9 / tp
    prefill_s = prefill_flops(model, prompt_tokens) / (peak * c.prefill_mfu)
    prefill_s += routed_tokens(model, prompt_tokens) * routed_s
    decode_s = (
        2 * model.params_active * batch / (peak * c.decode_mfu) + routed_tokens(model, batch) * routed_s
    )
    compute_s = decode_s + joining * prefill_s
    act_bytes = BYTES_PER_VALUE[precisions.activations] if precisions.activations != "fp4" else 1.0
    layers = 2 * model.layers
    comm_s = layers * (
        (c.allreduce_latency_s if tp > 1 else 0.0)
        + _allreduce_s(batch * model.hidden, tp, hw, c, act_bytes)
        + joining * _allreduce_s(prompt_tokens * model.hidden, tp, hw, c, act_bytes)
    )
    seconds = max(memory_s, compute_s) + (1 - c.overlap) * min(memory_s, compute_s) + comm_s
    stack = c.stack_factor(r.stack)
    seconds *= tp**c.tp_exponent / (c.release_factor(precisions.weights, r.software) * stack)
    prompt_comm = layers * (
        (c.allreduce_latency_s if tp > 1 else 0.0)
        + _allreduce_s(prompt_tokens * model.hidden, tp, hw, c, act_bytes)
    )
    return Iteration(
        tp=tp,
        batch=batch,
        memory_s=memory_s,
        compute_s=compute_s,
        comm_s=comm_s,
        prefill_s=joining * prefill_s,
        prompt_tokens_per_iteration=joining * prompt_tokens,
        seconds=seconds,
        ttft_s=(prefill_s + prompt_comm) / stack + seconds,
    )


def saturated(r: Replica) -> Iteration | None:
    """The replica at its largest batch (memory or the engine's limit); None if it does not fit."""
    batch = min(r.c.max_batch, max_batch_in_memory(r))
    if batch < 1:
        return None
    return iteration(r, batch)
