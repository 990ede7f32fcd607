"""`estimate()`: time, cost and energy of one workload on one system. Pure: no I/O."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from advisor.core.costing.cost import (
    HourlyCost,
    ownership_cost_per_gpu_hour,
    rental_cost_per_gpu_hour,
    run_cost_usd,
)
from advisor.core.costing.energy import (
    co2_tonnes,
    household_years,
    joules_per_token,
    power_draw,
    run_energy_kwh,
    run_energy_kwh_by_part,
)
from advisor.core.costing.results import (
    Estimate,
    GoodputDetail,
    MemorySummary,
    MfuBasis,
    ModelSummary,
    ServingSummary,
    fit_message,
)
from advisor.core.model.catalog import Catalog, Precision, System
from advisor.core.model.flops import lora_flops_per_token, training_flops_per_token
from advisor.core.model.goodput import Goodput, fixed_goodput, goodput_fraction
from advisor.core.model.inference import TP_SIZES, Iteration, Precisions, iteration, weight_bytes
from advisor.core.model.memory import MemoryCheck, check_memory
from advisor.core.model.mfu import resolve_mfu
from advisor.core.model.serving_plan import (
    Layout,
    Targets,
    choose_layout,
    kv_bytes,
    serving_constants,
    serving_flops_per_token,
    serving_hardware,
    serving_memory_bytes,
    serving_precisions,
    serving_targets,
)
from advisor.core.model.units import BYTES_PER_GIB, HOURS_PER_DAY, HOURS_PER_MONTH, SECONDS_PER_HOUR
from advisor.core.model.workload import Assumptions, Workload
from advisor.errors import UsageError

_NO_ASSUMPTIONS = Assumptions()
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
    if precision != requested:
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


def hourly_cost(workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions) -> HourlyCost:
    """What one GPU-hour costs under the workload's pricing mode."""
    if workload.pricing == "rent":
        price = assumptions.for_system("price_usd_per_gpu_hour", system.id)
        return rental_cost_per_gpu_hour(
            price
            if price is not None
            else system.rental_offer(assumptions.rental_offer).price_usd_per_gpu_hour
        )
    econ = catalog.economics
    capex_node = assumptions.for_system("capex_usd_per_node", system.id) or system.capex.all_in_usd_per_node
    return ownership_cost_per_gpu_hour(
        capex_usd_per_gpu=capex_node / system.interconnect.gpus_per_node,
        depreciation_years=econ.finance.depreciation_years,
        cost_of_capital=econ.finance.cost_of_capital,
        maintenance_fraction_per_year=econ.maintenance.fraction_of_capex_per_year,
        utilization=econ.utilization.owned_fleet_fraction,
        it_kw_per_gpu=system.power.it_w_per_gpu / 1000.0,
        pue=assumptions.pue or econ.facility.pue,
        electricity_usd_per_kwh=assumptions.electricity_usd_per_kwh or econ.electricity.usd_per_kwh,
        colocation_usd_per_kw_month=econ.colocation.usd_per_kw_month,
    )


def needs_reservation(workload: Workload, system: System) -> bool:
    """Renting more GPUs than a provider rents on demand: the capacity must be reserved ahead."""
    return workload.pricing == "rent" and workload.gpus > system.availability.on_demand_max_gpus


def capacity_wait_hours(workload: Workload, system: System, assumptions: Assumptions) -> float:
    """Hours before the capacity exists: the on-demand wait when renting a cluster that size can be had on
    demand, a reservation's lead time beyond it, the purchase lead time when buying."""
    override = assumptions.for_system("wait_hours", system.id)
    if override is not None:
        return override
    availability = system.availability
    if workload.pricing == "own":
        return availability.purchase_lead_days * HOURS_PER_DAY
    if needs_reservation(workload, system):
        return availability.reserved_lead_days * HOURS_PER_DAY
    return availability.on_demand_wait_hours


def production_overhead(workload: Workload, catalog: Catalog) -> float:
    """Extra hours of a production run per hour of reference compute (0 for reference runs and serving).

    A team's end-to-end run loses time that benchmarks leave out (evaluations, checkpoints, data stalls,
    batch ramp-up, stragglers); the factor is fitted on published runs (`catalog/mfu/scaling.toml`).
    """
    if workload.efficiency == "reference" or workload.kind == "inference":
        return 0.0
    return 1.0 / catalog.mfu_scaling.production.factor_for(workload.model.params_total) - 1.0


def _goodput(workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions) -> Goodput:
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
class _Throughput:
    """How fast the workload runs on the system, and whether it fits."""

    flops_per_token: float
    tokens_per_s_per_gpu: float
    working_gpus: int
    mfu: float
    mfu_basis: MfuBasis
    goodput: Goodput
    memory: MemorySummary
    serving: ServingSummary | None = None


def _training(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    precision: Precision,
    peak_tflops: float,
    warnings: list[str],
) -> _Throughput:
    """Training throughput from the calibrated MFU; memory from the training state."""
    mfu_override = assumptions.for_system("mfu", system.id)
    if mfu_override is not None:
        mfu, basis = mfu_override, MfuBasis(exact=False, basis="set by the user", sources=(), overridden=True)
    else:
        try:
            found = resolve_mfu(
                catalog, system.id, precision, workload.model, workload.gpus, workload.software
            )
        except LookupError as exc:
            raise UsageError(str(exc)) from None
        mfu = found.mfu
        basis = MfuBasis(
            exact=found.exact,
            basis=found.basis,
            sources=found.sources,
            overridden=False,
            transferred=found.transferred,
            other_release=found.other_release,
            same_model=found.same_model,
        )
        warnings.extend(found.warnings)
    per_token = flops_per_token(workload)
    mem = memory_check(workload, system, catalog)
    return _Throughput(
        flops_per_token=per_token,
        tokens_per_s_per_gpu=peak_tflops * 1e12 * mfu / per_token,
        working_gpus=workload.gpus,
        mfu=mfu,
        mfu_basis=basis,
        goodput=_goodput(workload, system, catalog, assumptions),
        memory=MemorySummary(
            required_gib=mem.required_gib,
            available_gib=mem.available_gib,
            min_gpus=mem.min_gpus,
            fits=mem.fits,
            state_gib=mem.state_bytes / BYTES_PER_GIB,
            activation_gib_per_gpu=mem.activation_bytes_per_gpu / BYTES_PER_GIB,
        ),
    )


def _serving(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    precision: Precision,
    peak_tflops: float,
    warnings: list[str],
) -> _Throughput:
    """Serving speed of the layout that meets the rate and latency targets; memory from weights and KV."""
    econ = catalog.economics
    if assumptions.for_system("mfu", system.id) is not None:
        warnings.append("an MFU override does not apply to inference (decode is memory-bound); ignored")
    precisions = serving_precisions(
        workload.weight_precision or precision, workload.kv_cache_precision, workload.activation_precision
    )
    shape = (workload.prompt_tokens, workload.output_tokens)
    layout, meets = _serving_layout(workload, system, catalog, precisions, warnings)
    step = layout.step
    replicas = workload.gpus // step.tp
    warnings.extend(_idle_replica_warnings(workload.gpus, replicas, step.tp))
    per_gpu = step.tokens_per_second / step.tp
    per_token = serving_flops_per_token(workload.model, *shape)
    basis = (
        f"serving model: replicas of {step.tp} GPU(s) (tensor-parallel), batch {step.batch} set by "
        f"{layout.binding}, {step.seconds * 1e3:.1f} ms per output token, {step.bound}-bound"
    )
    usable_gib = system.memory.hbm_gb * econ.memory.usable_hbm_fraction
    price = hourly_cost(workload, system, catalog, assumptions).total
    return _Throughput(
        flops_per_token=per_token,
        tokens_per_s_per_gpu=per_gpu,
        working_gpus=max(replicas, 1) * step.tp,
        mfu=min(1.0, per_gpu * per_token / (peak_tflops * 1e12)),
        mfu_basis=MfuBasis(exact=False, basis=basis, sources=(econ.inference.source,), overridden=False),
        goodput=fixed_goodput(assumptions.goodput_for(system.id) or 1.0),
        memory=MemorySummary(
            required_gib=serving_memory_bytes(workload.model, step, precisions, shape) / BYTES_PER_GIB,
            available_gib=usable_gib * workload.gpus,
            min_gpus=step.tp,
            fits=replicas >= 1 and layout.binding != "no fit",
            state_gib=weight_bytes(workload.model, precisions.weights) / BYTES_PER_GIB,
            activation_gib_per_gpu=kv_bytes(workload.model, step, precisions, shape)
            / step.tp
            / BYTES_PER_GIB,
        ),
        serving=_serving_summary(workload, layout, precisions, price, meets=meets),
    )


def _serving_layout(
    workload: Workload, system: System, catalog: Catalog, precisions: Precisions, warnings: list[str]
) -> tuple[Layout, bool]:
    """The layout meeting the targets; else the best without the latency limits (and False), warned."""
    shape = (workload.prompt_tokens, workload.output_tokens)
    targets = serving_targets(workload)
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
    warnings.append(f"{system.name}: {found.reason}; shown without the latency limits")
    relaxed = Targets(tokens_per_second=targets.tokens_per_second)
    found = choose_layout(
        workload.model, system, econ, precisions, shape, relaxed, software=workload.software
    )
    if isinstance(found, Layout):
        return found, False
    return _largest_replica(workload, system, catalog, precisions, shape), False


def _serving_summary(
    workload: Workload, layout: Layout, precisions: Precisions, price: float, *, meets: bool
) -> ServingSummary:
    """The `serving` object: replica, batch and the limit that binds, latencies, fleet and prices."""
    step = layout.step
    replicas = max(workload.gpus // step.tp, 0)
    rate = serving_targets(workload).tokens_per_second
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
        kv_cache_precision=precisions.kv_cache,
        activation_precision=precisions.activations,
        utilisation=layout.utilisation,
        usd_per_million_input_tokens=_usd_per_million(price, step, input_side=True),
        usd_per_million_output_tokens=_usd_per_million(price, step, input_side=False),
        usd_per_month=price * (layout.gpus if rate else workload.gpus) * HOURS_PER_MONTH,
        meets_limits=meets,
    )


def _largest_replica(
    workload: Workload, system: System, catalog: Catalog, precisions: Precisions, shape: tuple[int, int]
) -> Layout:
    """The largest replica at batch 1, shown when even it does not hold the weights (it does not fit)."""
    hw = serving_hardware(system, catalog.economics.memory.usable_hbm_fraction, precisions.activations)
    c = serving_constants(catalog.economics)
    step = iteration(workload.model, TP_SIZES[-1], 1, hw, precisions, *shape, c, workload.software)
    return Layout(step, "no fit", 1, 1.0)


def _usd_per_million(price_usd_per_gpu_hour: float, step: Iteration, *, input_side: bool) -> float:
    """USD per million prompt (input) or generated (output) tokens: the iteration's GPU time split by
    the share its prompt processing takes."""
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


def _gpus_paid(workload: Workload, unit: int) -> int:
    """GPUs paid for: each one when renting; whole nodes or racks when buying."""
    if workload.pricing == "rent":
        return workload.gpus
    return math.ceil(workload.gpus / unit) * unit


def _speed(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    precision: Precision,
    warnings: list[str],
) -> _Throughput:
    """Throughput at the precision that runs (serving or training model); warns if it does not fit."""
    peak_tflops = system.compute.peak_tflops(precision)
    assert peak_tflops is not None  # run_precision falls back to BF16, which every system has
    speed_model = _serving if workload.kind == "inference" else _training
    speed = speed_model(workload, system, catalog, assumptions, precision, peak_tflops, warnings)
    if not speed.memory.fits:
        warnings.append(fit_message(speed.memory, workload.gpus, system.id, workload.kind))
    return speed


class _Hours(NamedTuple):
    """The run's hours: waiting for capacity, setting up, computing, and computing again after failures."""

    wait: float
    setup: float
    compute: float
    overhead: float
    """What a production run adds to the reference compute (0 at reference efficiency)."""
    downtime: float
    """Lost to failures and restarts: (compute + overhead) x (1 / goodput - 1)."""
    billed: float
    """Hours paid for: setup, compute, overhead and downtime."""

    def breakdown(self) -> dict[str, float]:
        """The `time_breakdown_hours` object."""
        return {
            "wait": self.wait,
            "setup": self.setup,
            "compute": self.compute,
            "overhead": self.overhead,
            "downtime": self.downtime,
        }


def _hours(
    workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions, speed: _Throughput
) -> _Hours:
    """Hours to process the workload's tokens at `speed`, plus setup and the wait for capacity."""
    compute_hours = workload.tokens / (speed.tokens_per_s_per_gpu * speed.working_gpus) / SECONDS_PER_HOUR
    overhead_hours = compute_hours * production_overhead(workload, catalog)
    downtime_hours = (compute_hours + overhead_hours) * (1.0 / speed.goodput.fraction - 1.0)
    setup_hours = system.setup.setup_minutes / 60.0
    return _Hours(
        wait=capacity_wait_hours(workload, system, assumptions),
        setup=setup_hours,
        compute=compute_hours,
        overhead=overhead_hours,
        downtime=downtime_hours,
        billed=setup_hours + compute_hours + overhead_hours + downtime_hours,
    )


def _reservation_warnings(workload: Workload, system: System, assumptions: Assumptions) -> list[str]:
    """Renting beyond what is rented on demand: say that a reservation is needed, and its lead time."""
    if not needs_reservation(workload, system) or assumptions.for_system("wait_hours", system.id) is not None:
        return []
    availability = system.availability
    return [
        f"{workload.gpus:,} {system.id} GPUs is more than the {availability.on_demand_max_gpus} rented on "
        f"demand: it needs a reservation, about {availability.reserved_lead_days:g} days ahead"
    ]


def _purchase_warnings(workload: Workload, system: System, gpus_paid: int) -> list[str]:
    """Idle GPUs paid for in whole nodes, or a GPU count that splits a node."""
    unit = system.interconnect.gpus_per_node
    node = system.interconnect.node_name
    if gpus_paid > workload.gpus:
        return [
            f"{workload.gpus} GPUs means buying {gpus_paid // unit} whole {unit}-GPU {node}(s): "
            f"the {gpus_paid - workload.gpus} idle GPUs are paid for"
        ]
    if workload.gpus > unit and workload.gpus % unit:
        return [f"{workload.gpus} GPUs is not a whole number of {unit}-GPU {node}s"]
    return []


def _model_summary(workload: Workload) -> ModelSummary:
    model = workload.model
    return ModelSummary(
        id=model.id,
        name=model.name,
        family=model.family,
        params_total=model.params_total,
        params_active=model.params_active,
        seq_len=model.seq_len,
        layers=model.layers,
        hidden=model.hidden,
        inferred=model.inferred,
    )


def _goodput_detail(goodput: Goodput, overridden: bool) -> GoodputDetail:
    return GoodputDetail(
        interruptions_per_day=goodput.interruptions_per_day,
        checkpoint_interval_minutes=goodput.checkpoint_interval_minutes
        if goodput.interruptions_per_day
        else None,
        overridden=overridden,
    )


class _Money(NamedTuple):
    """What the run costs: the GPUs paid for, one GPU-hour's typed parts, and dollars by part."""

    gpus_paid: int
    hourly: HourlyCost
    cost_breakdown_usd: dict[str, float]
    purchase_usd: float | None
    """When buying: the capital outlay for the nodes or racks bought (the run pays only its share)."""


def _money(
    workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions, hours: _Hours
) -> _Money:
    """The run's cost: each part of a GPU-hour over the billed hours, on the GPUs that pay it."""
    unit = system.interconnect.gpus_per_node
    gpus_paid = _gpus_paid(workload, unit)
    hourly = hourly_cost(workload, system, catalog, assumptions)
    purchase = None
    if workload.pricing == "own":
        per_unit = assumptions.for_system("capex_usd_per_node", system.id) or system.capex.all_in_usd_per_node
        purchase = per_unit * gpus_paid / unit
    cost = run_cost_usd(hourly.parts, hours.billed, workload.gpus, gpus_paid)
    return _Money(gpus_paid, hourly, cost, purchase)


def estimate(
    workload: Workload, system_id: str, catalog: Catalog, assumptions: Assumptions | None = None
) -> Estimate:
    """Time, cost and energy of `workload` on `system_id`: the cost model end to end."""
    assumptions = assumptions or _NO_ASSUMPTIONS
    system = catalog.system(system_id)
    precision, warnings = run_precision(workload, system)
    speed = _speed(workload, system, catalog, assumptions, precision, warnings)
    hours = _hours(workload, system, catalog, assumptions, speed)
    money = _money(workload, system, catalog, assumptions, hours)
    warnings.extend(_purchase_warnings(workload, system, money.gpus_paid))
    warnings.extend(_reservation_warnings(workload, system, assumptions))
    return _result(workload, system, catalog, assumptions, precision, speed, hours, money, warnings)


def _result(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    precision: Precision,
    speed: _Throughput,
    hours: _Hours,
    money: _Money,
    warnings: list[str],
) -> Estimate:
    """The `Estimate`: the stages' figures, with energy and its equivalents from the power parts."""
    econ = catalog.economics
    power, billed = power_draw(system.power, assumptions.pue or econ.facility.pue), hours.billed
    kwh = run_energy_kwh(power, billed, workload.gpus)
    hourly, cost_breakdown = money.hourly, money.cost_breakdown_usd
    cost = sum(cost_breakdown.values())
    return Estimate(
        system=system.id,
        system_name=system.name,
        gpus=workload.gpus,
        precision=precision,
        precision_requested=workload.precision,
        pricing=workload.pricing,
        kind=workload.kind,
        software=workload.software,
        efficiency="reference" if workload.kind == "inference" else workload.efficiency,
        model=_model_summary(workload),
        tokens=workload.tokens,
        flops_per_token=speed.flops_per_token,
        total_flops=speed.flops_per_token * workload.tokens,
        mfu=speed.mfu,
        mfu_basis=speed.mfu_basis,
        tokens_per_second_per_gpu=speed.tokens_per_s_per_gpu,
        goodput=speed.goodput.fraction,
        goodput_detail=_goodput_detail(speed.goodput, assumptions.goodput_for(system.id) is not None),
        time_to_train_hours=billed,
        time_to_result_hours=hours.wait + billed,
        time_breakdown_hours=hours.breakdown(),
        gpu_hours=billed * workload.gpus,
        gpus_paid=money.gpus_paid,
        purchase_usd=money.purchase_usd,
        price_usd_per_gpu_hour=hourly.total,
        price_breakdown_usd_per_gpu_hour=hourly.usd_per_gpu_hour(),
        cost_usd=cost,
        cost_per_million_tokens_usd=cost / workload.tokens * 1e6,
        cost_breakdown_usd=cost_breakdown,
        power_w_per_gpu_all_in=power.all_in_w,
        power_breakdown_w=power.w_per_gpu(),
        energy_kwh=kwh,
        energy_breakdown_kwh=run_energy_kwh_by_part(power, billed, workload.gpus),
        joules_per_token=joules_per_token(kwh, workload.tokens),
        household_years=household_years(kwh, econ.household.kwh_per_year),
        co2_tonnes=co2_tonnes(kwh, econ.carbon.grid_gco2_per_kwh),
        memory=speed.memory,
        warnings=tuple(dict.fromkeys(warnings)),
        cost_parts=hourly.parts,
        power_draw=power,
        serving=speed.serving,
    )
