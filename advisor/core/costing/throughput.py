"""How fast a training run goes on a system: the precision that runs, FLOPs per token, MFU, goodput
and memory. The serving counterpart is `advisor.core.costing.serving`; `estimate()` prices both."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from advisor.core.costing.results import MemorySummary, MfuBasis, ServingSummary
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog, Precision, System
from advisor.core.model.copying import from_attributes
from advisor.core.model.flops import lora_flops_per_token, training_flops_per_token
from advisor.core.model.goodput import Goodput, fixed_goodput, goodput_fraction
from advisor.core.model.memory import MemoryCheck, check_memory
from advisor.core.model.mfu import resolve_mfu
from advisor.core.model.strong_scaling import StrongScaling, strong_scaling
from advisor.core.model.units import BYTES_PER_GIB
from advisor.core.model.workload import Workload
from advisor.errors import UsageError

_WIDER: dict[Precision, Precision] = {"fp4": "fp8", "fp8": "bf16"}
"""The next wider precision, for a GPU without tensor cores for the requested one."""


def run_precision(workload: Workload, system: System) -> tuple[Precision, list[str]]:
    """The precision that will actually run, with a warning for each fallback.

    A stack without FP8 support runs BF16. A precision the GPU lacks falls back to the next wider one
    it has: FP4 on Hopper runs FP8, FP8 on A100 runs BF16.
    """
    warnings = []
    precision = workload.precision
    if precision != "bf16" and not workload.fp8_stack:
        warnings.append(
            f"{precision.upper()} requested but the software stack has no FP8 support: running BF16"
        )
        precision = "bf16"
    requested = precision
    while system.compute.peak_tflops(precision) is None:
        precision = _WIDER[precision]
    # A serving job asking for FP4 may keep FP4 weights (weight-only): costing/serving.py says what runs.
    if precision != requested and not (workload.kind == "inference" and requested == "fp4"):
        warnings.append(f"{system.name} has no {requested.upper()} tensor cores: running {precision.upper()}")
    return precision, warnings


def flops_per_token(workload: Workload) -> float:
    """Model FLOPs per token for the workload's kind (pretraining, full or LoRA fine-tuning)."""
    m = workload.model
    if workload.kind == "finetune" and workload.finetune_method == "lora":
        trainable = m.params_active * workload.lora_trainable_fraction
        return lora_flops_per_token(m.params_active, m.layers, m.hidden, m.seq_len, trainable)
    return training_flops_per_token(m.params_active, m.layers, m.hidden, m.seq_len)


def memory_check(
    workload: Workload, system: System, catalog: Catalog, gpus: int | None = None
) -> MemoryCheck:
    """Training state of the workload against the HBM of `gpus` (default: the workload's) GPUs."""
    mem = catalog.economics.memory
    trainable = None
    if workload.kind == "finetune" and workload.finetune_method == "lora":
        trainable = workload.model.params_total * workload.lora_trainable_fraction
    return check_memory(
        workload.model,
        gpus or workload.gpus,
        system.memory.hbm_gb,
        bytes_per_param=mem.training_bytes_per_param,
        usable_fraction=mem.usable_hbm_fraction,
        bytes_per_token_hidden_layer=mem.activation_bytes_per_token_hidden_layer,
        nvlink_domain_gpus=system.interconnect.nvlink_domain_gpus,
        gpus_per_node=system.interconnect.gpus_per_node,
        trainable_params=trainable,
    )


def run_strong_scaling(
    workload: Workload, replica_gpus: int | None, catalog: Catalog
) -> StrongScaling | None:
    """The strong-scaling loss of a training run at its global batch (None when no batch is given)."""
    if workload.kind == "inference":
        return None
    exponent = catalog.mfu_scaling.strong_scaling.exponent
    return strong_scaling(workload.global_batch, workload.gpus, replica_gpus, exponent)


def strong_scaling_share(workload: Workload, replica_gpus: int | None, catalog: Catalog) -> float:
    """Where the strong-scaling loss applies, the ± share of throughput its fitted runs missed by (else 0)."""
    loss = run_strong_scaling(workload, replica_gpus, catalog)
    return catalog.mfu_scaling.strong_scaling.spread if loss is not None and loss.factor < 1 else 0.0


def run_goodput(workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions) -> Goodput:
    """Goodput from the failure model, or the value the user set."""
    fixed = assumptions.goodput_for(system.id)
    if fixed is not None:
        return fixed_goodput(fixed)
    return goodput_fraction(
        workload.gpus,
        system.reliability.mtbf_gpu_hours,
        system.reliability.restart_minutes,
        catalog.economics.checkpointing.stall_seconds,
    )


@dataclass(frozen=True, slots=True)
class Throughput:
    """How fast the workload runs on the system, and whether it fits."""

    flops_per_token: float
    tokens_per_s_per_gpu: float
    working_gpus: int
    mfu: float
    mfu_basis: MfuBasis
    goodput: Goodput
    memory: MemorySummary
    serving: ServingSummary | None = None


class SpeedInputs(NamedTuple):
    """What the training and the serving speed models both read; their warnings go to `warnings`."""

    workload: Workload
    system: System
    catalog: Catalog
    assumptions: Assumptions
    precision: Precision
    """The precision that runs (after fallbacks)."""
    peak_tflops: float
    """The system's dense peak at that precision."""
    warnings: list[str]
    compared: bool = True
    """The estimate is one of several systems' (an estimate of one system compares nothing)."""


def training_throughput(inputs: SpeedInputs) -> Throughput:
    """Training throughput from the calibrated MFU; memory from the training state."""
    workload, system, catalog, assumptions, precision, peak_tflops, warnings, compared = inputs
    mfu_override = assumptions.for_system("mfu", system.id)
    if mfu_override is not None:
        mfu, basis = mfu_override, MfuBasis(exact=False, basis="set by the user", sources=(), overridden=True)
    else:
        try:
            found = resolve_mfu(
                catalog,
                system.id,
                precision,
                workload.model,
                workload.gpus,
                workload.software,
                compared=compared,
            )
        except LookupError as exc:
            raise UsageError(str(exc)) from None
        mfu = found.mfu
        basis = from_attributes(MfuBasis, found, overridden=False)
        warnings.extend(found.warnings)
    mem = memory_check(workload, system, catalog)
    loss = run_strong_scaling(workload, mem.min_gpus, catalog)
    if loss is not None and loss.factor < 1 and mfu_override is None:
        exponent = catalog.mfu_scaling.strong_scaling.exponent
        mfu *= loss.factor
        basis = replace(basis, basis=basis.basis + loss.note(workload.gpus, exponent))
    per_token = flops_per_token(workload)
    return Throughput(
        flops_per_token=per_token,
        tokens_per_s_per_gpu=peak_tflops * 1e12 * mfu / per_token,
        working_gpus=workload.gpus,
        mfu=mfu,
        mfu_basis=basis,
        goodput=run_goodput(workload, system, catalog, assumptions),
        memory=MemorySummary(
            required_gib=mem.required_gib,
            available_gib=mem.available_gib,
            min_gpus=mem.min_gpus,
            fits=mem.fits,
            state_gib=mem.state_bytes / BYTES_PER_GIB,
            activation_gib_per_gpu=mem.activation_bytes_per_gpu / BYTES_PER_GIB,
        ),
    )
