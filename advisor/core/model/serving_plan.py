"""Latency-aware serving layout: the tensor-parallel size and batch that meet the targets on one system.

For each tensor-parallel size a replica takes the largest batch that its memory, the engine's batch limit,
the time-per-output-token limit (one iteration) and the time-to-first-token limit allow. The layout
chosen is the one needing the fewest GPUs for the traffic target (or, with no target, the most tokens per
second per GPU), and the limit that set its batch is said. See docs/methodology.md, "Inference".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from advisor.core.model.catalog import ModelSpec, System
from advisor.core.model.copying import from_attributes
from advisor.core.model.economics import Economics, ServingDefaults
from advisor.core.model.inference import (
    TP_SIZES,
    Hardware,
    Iteration,
    Precisions,
    Replica,
    ServingConstants,
    iteration,
    kv_reserved_bytes,
    max_batch_in_memory,
    prefill_flops,
    replica_weight_bytes,
)
from advisor.core.model.released import ReleasedWeights
from advisor.core.model.sourced import Precision
from advisor.core.model.workload import Workload, WorkloadInputs


def serving_hardware(system: System, usable_hbm_fraction: float, activations: Precision) -> Hardware:
    """The serving model's view of `system` computing at `activations` (BF16 where it lacks that)."""
    peak = system.compute.peak_tflops(activations)
    while peak is None:
        activations = "fp8" if activations == "fp4" else "bf16"
        peak = system.compute.peak_tflops(activations)
    return Hardware(
        peak_tflops=peak,
        hbm_gb=system.memory.hbm_gb,
        hbm_bandwidth_tbps=system.memory.hbm_bandwidth_tbps,
        usable_hbm_fraction=usable_hbm_fraction,
        nvlink_domain_gpus=system.interconnect.nvlink_domain_gpus,
        nvlink_gb_per_s_per_gpu=system.interconnect.nvlink_gb_per_s_per_gpu,
    )


def compute_precision(system: System, precisions: Precisions, fp4_weight_only: Precision) -> Precision:
    """The precision `system` runs the matrix products at: the activations', except that FP4 weights on a GPU
    without FP4 matrix units are dequantised in the kernel and multiplied at `fp4_weight_only` (weight-only
    quantisation: TensorRT-LLM serves MXFP4 gpt-oss on Hopper with BF16 activations); other activations the
    GPU lacks run at the next wider format it has."""
    if precisions.weights == "fp4" and system.compute.peak_tflops("fp4") is None:
        return fp4_weight_only
    computed = precisions.activations
    while system.compute.peak_tflops(computed) is None:  # e.g. FP8 weights on A100: multiplied at BF16
        computed = "fp8" if computed == "fp4" else "bf16"
    return computed


def replica_hardware(system: System, economics: Economics, precisions: Precisions) -> Hardware:
    """`serving_hardware` at the precision the products run at (`compute_precision`)."""
    computed = compute_precision(system, precisions, economics.inference.fp4_weight_only_precision)
    return serving_hardware(system, economics.memory.usable_hbm_fraction, computed)


def serving_precisions(
    weights: Precision, kv_cache: Precision | None, activations: Precision | None
) -> Precisions:
    """The three precisions, unset ones following the weights (FP8 for FP4 weights, as served today)."""
    follow: Precision = "fp8" if weights == "fp4" else weights
    return Precisions(weights, kv_cache or follow, activations or follow)


WeightsBasis = Literal["given", "released", "run"]
"""Where the served weights' format comes from: `weight_precision`, the model's release, the run precision."""


def as_released(model: ModelSpec, inputs: WorkloadInputs) -> ReleasedWeights | None:
    """The model's released weights when a serving job serves them so, else None: no weight precision and
    no precision given (`model_fields_set`: a value typed equal to the default counts as given), and a
    stack that runs the format (FP8 or FP4 needs `fp8_stack`)."""
    released = model.released_weights
    if released is None or inputs.kind != "inference" or inputs.weight_precision is not None:
        return None
    if "precision" in inputs.model_fields_set or (released.precision != "bf16" and not inputs.fp8_stack):
        return None
    return released


def served_weights(workload: Workload, run_precision: Precision) -> tuple[Precision, WeightsBasis]:
    """The weights' number format and where it comes from: `weight_precision` when given; else the format
    the model is released in (`as_released`); else the run precision, except that FP4 asked for keeps FP4
    weights (served weight-only on a GPU without FP4 units)."""
    if workload.weight_precision is not None:
        return workload.weight_precision, "given"
    if (released := as_released(workload.model, workload)) is not None:
        return released.precision, "released"
    return ("fp4" if workload.precision == "fp4" and workload.fp8_stack else run_precision), "run"


def weights_note(workload: Workload, weights: Precision, basis: WeightsBasis) -> str:
    """Why the weights are served in their format, for the estimate's notes ("" when the user set it, or
    the model states no release format)."""
    released = workload.model.released_weights
    if released is None or basis == "given":
        return ""
    if basis == "released":
        which = "the MoE experts' weights, the rest BF16" if released.layers == "experts" else "all weights"
        return (
            f"weights as released: {released.label} ({which}); no precision given, "
            "a weight precision or a precision sets another"
        )
    if "precision" not in workload.model_fields_set:  # released low, to a stack without FP8
        return f"weights {weights.upper()}, not as released ({released.label}): the stack runs no FP8"
    return f"weights {weights.upper()} as the precision given, not as released ({released.label})"


def serving_constants(economics: Economics) -> ServingConstants:
    """The shipped serving constants (`[inference]` in catalog/economics.toml)."""
    i = economics.inference
    return from_attributes(
        ServingConstants,
        i,
        allreduce_latency_s=i.allreduce_latency_us * 1e-6,
        stack_factors=tuple(sorted(i.stack_factor.items())),
    )


def stack_note(system: System, economics: Economics) -> str:
    """What the system's serving stack does to its speed, and on what evidence ("" for the reference)."""
    stack, i = system.serving_stack, economics.inference
    if stack is None:
        return ""
    fitted_on = i.stack_systems.get(stack, [])
    evidence = f"fitted on published {', '.join(fitted_on)} serving points" if fitted_on else "assumed"
    note = f"serving stack {stack} at x{i.stack_factor[stack]:g} {i.reference_stack}'s speed, {evidence}"
    if fitted_on and system.id not in fitted_on:
        note += f"; assumed the same on {system.id}, which has no published serving point"
    return note


@dataclass(frozen=True, slots=True)
class Targets:
    """What the deployment is held to; None where there is no such limit."""

    tokens_per_second: float | None = None
    ttft_s: float | None = None
    tpot_s: float | None = None
    batch_limit: int | None = None
    """The most requests per replica the user allows (None: as many as the other limits allow)."""
    tpot_default: bool = False
    """True when `tpot_s` is the default a serving job at a target rate gets, not one the user set."""
    headroom: float = 0.0
    """Share of the fleet's capacity kept spare at the target rate: it is sized to rate / (1 - headroom)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """One replica layout and batch on one system, and the fleet for the target."""

    step: Iteration
    binding: str
    """What set the batch: `memory`, `TPOT`, `TTFT`, `batch limit` or `throughput` (the target needs less)."""
    replicas: int
    utilisation: float
    """Target rate over the replicas' capacity (1 without a target; at most 1 - headroom plus one
    replica's share)."""

    @property
    def gpus(self) -> int:
        """GPUs of all the replicas."""
        return self.replicas * self.step.tp


@dataclass(frozen=True, slots=True)
class NoLayout:
    """Why no layout meets the targets on the system."""

    reason: str


def _largest(ok: Callable[[int], bool], high: int) -> int:
    """The largest batch in 1..high for which `ok` holds (monotone: true up to a point), or 0."""
    if high < 1 or not ok(1):
        return 0
    low = 1
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if ok(mid) else (low, mid - 1)
    return low


def _replica(
    model: ModelSpec,
    tp: int,
    hw: Hardware,
    precisions: Precisions,
    shape: tuple[int, int],
    c: ServingConstants,
    targets: Targets,
    software: str | None,
    stack: str | None = None,
) -> tuple[Iteration, str] | str:
    """The largest batch a `tp`-GPU replica may run and the limit that sets it, or why none."""

    replica = Replica(model, tp, hw, precisions, *shape, c, software, stack)

    def step(batch: int) -> Iteration:
        return iteration(replica, batch)

    limits = {"memory": max_batch_in_memory(replica), "batch limit": c.max_batch}
    if targets.batch_limit is not None:
        limits["batch limit"] = min(c.max_batch, targets.batch_limit)
    if limits["memory"] < 1:
        return "memory"
    high = min(limits.values())
    tpot, ttft = targets.tpot_s, targets.ttft_s
    if tpot is not None:
        limits["TPOT"] = _largest(lambda b: step(b).seconds <= tpot, high)
    if ttft is not None:
        limits["TTFT"] = _largest(lambda b: step(b).ttft_s <= ttft, high)
    binding = min(limits, key=lambda name: limits[name])
    if limits[binding] < 1:
        return binding
    return step(limits[binding]), binding


_CHOSEN: dict[tuple[object, ...], tuple[ModelSpec, System, Economics, Layout | NoLayout]] = {}
"""Layouts already chosen, by the identity of the model, system and economics and the other inputs: an
estimate sizes the fleet and then prices it, and the app asks again on every edit."""
_CHOSEN_MAX = 512


def choose_layout(
    model: ModelSpec,
    system: System,
    economics: Economics,
    precisions: Precisions,
    shape: tuple[int, int],
    targets: Targets,
    *,
    software: str | None = None,
    gpus: int | None = None,
) -> Layout | NoLayout:
    """The layout meeting `targets` with the fewest GPUs (or, without a rate target, the most tokens/s per
    GPU on replicas of at most `gpus` GPUs); `shape` is (prompt, output) tokens per request."""
    rate = targets.tokens_per_second
    cluster = gpus if rate is None else None  # a rate's layout ignores the cluster
    key = (id(model), id(system), id(economics), precisions, shape, targets, software, cluster)
    chosen = _CHOSEN.get(key)
    if chosen is not None and chosen[0] is model and chosen[1] is system and chosen[2] is economics:
        return chosen[3]
    if len(_CHOSEN) >= _CHOSEN_MAX:
        _CHOSEN.clear()
    hw = replica_hardware(system, economics, precisions)
    c = serving_constants(economics)
    found: list[Layout] = []
    failures: dict[str, int] = {}
    for tp in TP_SIZES:
        if cluster is not None and tp > cluster:
            break
        replica = _replica(model, tp, hw, precisions, shape, c, targets, software, system.serving_stack)
        if isinstance(replica, str):
            failures.setdefault(replica, tp)
            continue
        step, binding = replica
        if rate is None:
            count = max(1, (cluster or tp) // tp)
            found.append(Layout(step, binding, count, 1.0))
            continue
        sized = rate / (1 - targets.headroom)  # the capacity the fleet needs
        count = math.ceil(sized / step.tokens_per_second)
        if count == 1 and sized < step.tokens_per_second:
            binding = "throughput"
        found.append(Layout(step, binding, count, rate / (count * step.tokens_per_second)))
    layout: Layout | NoLayout
    if not found:
        layout = NoLayout(_why_none(failures))
    elif rate is None:
        layout = max(found, key=lambda one: (one.step.tokens_per_second / one.step.tp, -one.step.tp))
    else:
        layout = min(found, key=lambda one: (one.gpus, one.step.tp))
    _CHOSEN[key] = (model, system, economics, layout)
    return layout


def _why_none(failures: dict[str, int]) -> str:
    """A sentence saying which limit no replica size met."""
    if set(failures) == {"memory"}:
        return f"the weights and one request's KV cache fit no replica of up to {TP_SIZES[-1]} GPUs"
    limits = ", ".join(name for name in failures if name != "memory")
    return f"no replica of up to {TP_SIZES[-1]} GPUs meets the {limits} limit even with one request"


def serving_targets(workload: Workload, defaults: ServingDefaults) -> Targets:
    """The workload's rate target (tokens/s, else requests/s x output tokens), latency limits and headroom;
    serving at a target rate without a TPOT limit is held to the default limit (interactive use), and
    without a headroom keeps the default share of the fleet spare (`[serving]` in catalog/economics.toml)."""
    rate, headroom = workload.serving_rate, workload.serving_headroom
    tpot_ms, default = workload.tpot_limit_ms, False
    if tpot_ms is None and rate is not None:
        tpot_ms, default = defaults.default_tpot_limit_ms, True
    return Targets(
        tokens_per_second=rate,
        ttft_s=workload.ttft_limit_ms / 1e3 if workload.ttft_limit_ms is not None else None,
        tpot_s=tpot_ms / 1e3 if tpot_ms is not None else None,
        batch_limit=workload.serving_batch,
        tpot_default=default,
        headroom=defaults.default_headroom if headroom is None else headroom,
    )


def serving_flops_per_token(model: ModelSpec, prompt_tokens: int, output_tokens: int) -> float:
    """FLOPs per generated token: its own 2 N_active plus its share of the prompt's prefill."""
    return 2 * model.params_active + prefill_flops(model, prompt_tokens) / output_tokens


def kv_bytes(
    model: ModelSpec, step: Iteration, precisions: Precisions, shape: tuple[int, int], head_dim: int
) -> float:
    """KV cache the replica's batch reserves, as its batch is sized: each request's whole sequence, with at
    least one KV head per GPU (`head_dim`: the serving constants' `kv_head_dim`)."""
    return step.batch * kv_reserved_bytes(model, step.tp, precisions.kv_cache, shape, head_dim)


def serving_memory_bytes(
    model: ModelSpec, step: Iteration, precisions: Precisions, shape: tuple[int, int], head_dim: int
) -> float:
    """Weights (with the copies attention data parallelism makes) plus the batch's KV cache of one replica."""
    weights = replica_weight_bytes(model, precisions.weights, step.tp)
    return weights + kv_bytes(model, step, precisions, shape, head_dim)
