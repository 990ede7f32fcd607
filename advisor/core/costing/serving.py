"""How fast a serving deployment goes on a system: the layout that meets the rate and latency targets,
its memory, and the `serving` summary with prices. Training is `advisor.core.costing.throughput`."""

from __future__ import annotations

from dataclasses import replace

from advisor.core.costing.results import MemorySummary, MfuBasis, ServingSummary
from advisor.core.costing.throughput import SpeedInputs, Throughput
from advisor.core.model.catalog import Catalog, Precision, System
from advisor.core.model.goodput import fixed_goodput
from advisor.core.model.inference import (
    TP_SIZES,
    Iteration,
    Precisions,
    Replica,
    attention_data_parallel,
    iteration,
    replica_weight_bytes,
)
from advisor.core.model.memory import usable_hbm_bytes
from advisor.core.model.serving_plan import (
    Layout,
    Targets,
    choose_layout,
    compute_precision,
    kv_bytes,
    replica_hardware,
    served_weights,
    serving_constants,
    serving_flops_per_token,
    serving_memory_bytes,
    serving_precisions,
    serving_targets,
    stack_note,
    weights_note,
)
from advisor.core.model.units import BYTES_PER_GIB, HOURS_PER_MONTH, SECONDS_PER_HOUR
from advisor.core.model.workload import Workload


def _parallelism(workload: Workload, tp: int) -> str:
    """How a replica of `tp` GPUs splits the model, as the serving model has it."""
    if attention_data_parallel(workload.model, tp):
        return "attention data parallel, experts split"
    return "tensor-parallel"


def serving_throughput(inputs: SpeedInputs, price_usd_per_gpu_hour: float) -> Throughput:
    """Serving speed of the layout that meets the rate and latency targets; memory from weights and KV."""
    workload, system, catalog, _, precision, peak_tflops, warnings, _ = inputs
    econ = catalog.economics
    precisions = _precisions(workload, precision, system, econ.inference.fp4_weight_only_precision)
    computed = compute_precision(system, precisions, econ.inference.fp4_weight_only_precision)
    warnings.extend(_fp4_warnings(workload, system, precisions, computed))
    peak_tflops = system.compute.peak_tflops(computed) or peak_tflops
    shape = (workload.prompt_tokens, workload.output_tokens)
    targets = serving_targets(workload, econ.serving)
    layout, meets = _serving_layout(workload, system, catalog, precisions, targets, warnings)
    step = layout.step
    replicas = workload.gpus // step.tp
    warnings.extend(_idle_replica_warnings(workload.gpus, replicas, step.tp))
    per_gpu = _delivered_per_gpu(workload, step, replicas)
    per_token = serving_flops_per_token(workload.model, *shape)
    basis = (
        f"serving model: replicas of {step.tp} GPU(s) ({_parallelism(workload, step.tp)}), "
        f"batch {step.batch} set by {layout.binding}, {step.seconds * 1e3:.1f} ms per output token, "
        f"{step.bound}-bound"
    )
    basis += f"; {note}" if (note := stack_note(system, econ)) else ""
    weights_basis = served_weights(workload, precision)[1]
    basis += f"; {note}" if (note := weights_note(workload, precisions.weights, weights_basis)) else ""
    usable_gib = usable_hbm_bytes(system.memory.hbm_gb, econ.memory.usable_hbm_fraction) / BYTES_PER_GIB
    head_dim = econ.inference.kv_head_dim
    return Throughput(
        flops_per_token=per_token,
        tokens_per_s_per_gpu=per_gpu,
        working_gpus=max(replicas, 1) * step.tp,
        mfu=min(1.0, per_gpu * per_token / (peak_tflops * 1e12)),
        mfu_basis=MfuBasis(exact=False, basis=basis, sources=(econ.inference.source,), overridden=False),
        goodput=fixed_goodput(1.0),  # goodput and MFU overrides are training's (`advisor.core.unused`)
        memory=MemorySummary(
            required_gib=serving_memory_bytes(workload.model, step, precisions, shape, head_dim)
            / BYTES_PER_GIB,
            available_gib=usable_gib * workload.gpus,
            min_gpus=step.tp,
            fits=replicas >= 1 and layout.binding != "no fit",
            state_gib=replica_weight_bytes(workload.model, precisions.weights, step.tp) / BYTES_PER_GIB,
            activation_gib_per_gpu=kv_bytes(workload.model, step, precisions, shape, head_dim)
            / step.tp
            / BYTES_PER_GIB,
        ),
        serving=_serving_summary(
            workload,
            layout,
            replace(precisions, activations=computed),
            targets,
            price_usd_per_gpu_hour,
            meets=meets,
            as_released=weights_basis == "released",
        ),
    )


def sized_for_rate(workload: Workload, system: System, catalog: Catalog, precision: Precision) -> Workload:
    """The serving workload on the fleet that meets its target rate on `system` (replicas x GPUs each);
    a batch job, or one without a rate, as it is."""
    if workload.serving_rate is None:
        return workload
    targets = serving_targets(workload, catalog.economics.serving)
    layout, _ = _serving_layout(
        workload,
        system,
        catalog,
        _precisions(workload, precision, system, catalog.economics.inference.fp4_weight_only_precision),
        targets,
        [],
    )
    return workload.model_copy(update={"gpus": max(layout.gpus, layout.step.tp)})


def _precisions(
    workload: Workload, precision: Precision, system: System, fp4_weight_only: Precision
) -> Precisions:
    """Weights (`served_weights`: as given, else as released, else the run precision), KV cache and
    activations (unset ones following the weights). FP4 weights on a GPU without FP4 matrix units are
    served weight-only (`compute_precision`): the checkpoint's bytes are what decode reads. A KV cache not
    given is kept in the format the products run at on `system`, as a serving stack's "auto" keeps it:
    the weights' (FP8 for FP4 ones) where the GPU multiplies in it, else BF16 (MXFP4 gpt-oss on Hopper:
    "kv_cache_config dtype fp8 ... Hopper: use auto" in TensorRT-LLM's GPT-OSS options; FP8 on A100)."""
    weights, _ = served_weights(workload, precision)
    precisions = serving_precisions(weights, workload.kv_cache_precision, workload.activation_precision)
    if workload.kv_cache_precision is not None:
        return precisions
    return replace(precisions, kv_cache=compute_precision(system, precisions, fp4_weight_only))


def _fp4_warnings(
    workload: Workload, system: System, precisions: Precisions, computed: Precision
) -> list[str]:
    """What runs when FP4 is asked for on a GPU without FP4 matrix units (`run_precision` leaves a serving
    job's to this): FP4 weights multiplied at `computed`, or the precision the weights were set to."""
    if workload.precision != "fp4" or system.compute.peak_tflops("fp4") is not None or not workload.fp8_stack:
        return []
    if precisions.weights == "fp4":
        how = f"FP4 weights served weight-only, multiplied at {computed.upper()}"
    else:
        how = f"running {precisions.weights.upper()} weights"
    return [f"{system.name} has no FP4 tensor cores: {how}"]


def _delivered_per_gpu(workload: Workload, step: Iteration, replicas: int) -> float:
    """Tokens/s per GPU the deployment generates: the target rate when its replicas can carry it (a fleet
    is paid for whether busy or not), else their capacity (one replica's when not even one fits)."""
    capacity = step.tokens_per_second * replicas
    rate = workload.serving_rate
    if replicas < 1 or rate is None or rate >= capacity:
        return step.tokens_per_second / step.tp
    return rate / workload.gpus


def _serving_layout(
    workload: Workload,
    system: System,
    catalog: Catalog,
    precisions: Precisions,
    targets: Targets,
    warnings: list[str],
) -> tuple[Layout, bool]:
    """The layout meeting `targets`; else the best without the latency limits (and False), warned."""
    shape = (workload.prompt_tokens, workload.output_tokens)
    econ = catalog.economics
    found = choose_layout(
        workload.model,
        system,
        econ,
        precisions,
        shape,
        targets,
        software=workload.software,
        gpus=workload.gpus,
    )
    if isinstance(found, Layout):
        return found, True
    default = " (the default for chat)" if targets.tpot_default else ""
    warnings.append(f"{system.name}: {found.reason}{default}; shown without the latency limits")
    relaxed = Targets(tokens_per_second=targets.tokens_per_second, headroom=targets.headroom)
    found = choose_layout(
        workload.model, system, econ, precisions, shape, relaxed, software=workload.software
    )
    if isinstance(found, Layout):
        return found, False
    return _largest_replica(workload, system, catalog, precisions, shape), False


def _serving_summary(
    workload: Workload,
    layout: Layout,
    precisions: Precisions,
    targets: Targets,
    price: float,
    *,
    meets: bool,
    as_released: bool = False,
) -> ServingSummary:
    """The `serving` object: replica, batch and the limit that binds, latencies, fleet and prices."""
    step = layout.step
    replicas = max(workload.gpus // step.tp, 0)
    rate = targets.tokens_per_second
    return ServingSummary(
        replica_gpus=step.tp,
        replicas=replicas,
        tokens_per_second=step.tokens_per_second * replicas,
        decode_bound=step.bound,
        target_tokens_per_second=rate,
        gpus_for_target=layout.gpus if rate else None,
        batch=step.batch,
        binding_limit=layout.binding,
        ttft_ms=step.ttft_s * 1e3,
        tpot_ms=step.seconds * 1e3,
        weight_precision=precisions.weights,
        weights_as_released=as_released,
        kv_cache_precision=precisions.kv_cache,
        activation_precision=precisions.activations,
        utilisation=layout.utilisation,
        headroom=targets.headroom if rate else None,
        usd_per_million_input_tokens_at_full_load=_usd_per_million(price, step, input_side=True),
        usd_per_million_output_tokens_at_full_load=_usd_per_million(price, step, input_side=False),
        usd_per_month=price * (layout.gpus if rate else workload.gpus) * HOURS_PER_MONTH,
        meets_limits=meets,
        tpot_limit_ms=targets.tpot_s * 1e3 if targets.tpot_s is not None else None,
        tpot_limit_default=targets.tpot_default,
        period_hours=workload.tokens / rate / SECONDS_PER_HOUR if rate else None,
    )


def _largest_replica(
    workload: Workload, system: System, catalog: Catalog, precisions: Precisions, shape: tuple[int, int]
) -> Layout:
    """The largest replica at batch 1, shown when even it does not hold the weights (it does not fit)."""
    hw = replica_hardware(system, catalog.economics, precisions)
    c = serving_constants(catalog.economics)
    replica = Replica(workload.model, TP_SIZES[-1], hw, precisions, *shape, c, workload.software)
    step = iteration(replace(replica, stack=system.serving_stack), 1)
    return Layout(step, "no fit", 1, 1.0)


def _usd_per_million(price_usd_per_gpu_hour: float, step: Iteration, *, input_side: bool) -> float:
    """USD per million prompt (input) or generated (output) tokens at full load (every replica busy): the
    iteration's GPU time split by the share its prompt processing takes."""
    prefill_s = min(step.prefill_s, step.seconds)
    seconds = prefill_s if input_side else step.seconds - prefill_s
    tokens = step.prompt_tokens_per_iteration if input_side else step.batch
    usd = price_usd_per_gpu_hour * step.tp * seconds / SECONDS_PER_HOUR
    return usd / tokens * 1e6 if tokens else 0.0


def _idle_replica_warnings(gpus: int, replicas: int, replica_gpus: int) -> list[str]:
    """GPUs left over after whole replicas: paid for, but idle."""
    if replicas < 1 or replicas * replica_gpus >= gpus:
        return []
    idle = gpus - replicas * replica_gpus
    return [
        f"{gpus} GPUs make {replicas} replica(s) of {replica_gpus}; {idle} GPU(s) sit idle but are paid for"
    ]
