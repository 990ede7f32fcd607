"""Predicting one published run: the workload that describes it, the model's figure in the published
quantity, and the P10-P90 the tool would show (`advisor validate`, `advisor.core.analysis.validation`)."""

from __future__ import annotations

from typing import Any

from advisor.core.analysis.uncertainty import estimate_range, input_spreads, spread_class
from advisor.core.analysis.validation_results import CaseResult
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.costing.throughput import run_strong_scaling
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog
from advisor.core.model.evidence import SPEED_LIKE, EvidenceRun
from advisor.core.model.units import HOURS_PER_DAY, SECONDS_PER_HOUR
from advisor.core.model.workload import Workload

_TOKENS_FOR_SPEED = 1e12
"""Tokens assumed for a throughput benchmark (only the rate is compared)."""


# --- predicting one run ------------------------------------------------------------------------------


def run_workload(run: EvidenceRun, catalog: Catalog) -> tuple[Workload, Assumptions]:
    """The workload and assumptions that describe a published run to the cost model."""
    lora = run.lora_trainable_fraction
    job: dict[str, Any] = (
        {"kind": "pretrain"}
        if lora is None
        else {"kind": "finetune", "finetune_method": "lora", "lora_trainable_fraction": lora}
    )
    workload = Workload(
        **job,
        model=run.architecture(catalog.models),
        tokens=run.tokens or _TOKENS_FOR_SPEED,
        gpus=run.gpus,
        precision=run.precision,
        pricing="rent",
        software=run.software,
        efficiency=run.kind if run.kind == "production" else "reference",
        global_batch=run.global_batch,
    )
    fixed = {"wait_hours": 0.0} | ({"goodput": 1.0} if run.kind == "benchmark" else {})
    return workload, Assumptions.model_validate(fixed)


def _speed(est: Estimate) -> float:
    """End-to-end tokens/s per GPU: the run's tokens over its hours less setup."""
    setup = est.time_breakdown_hours["setup"]
    return est.tokens / ((est.time_to_train_hours - setup) * SECONDS_PER_HOUR * est.gpus)


def quantity_of(est: Estimate, quantity: str, peak_tflops: float) -> float:
    """The published quantity as the model predicts it."""
    if quantity == "gpu_hours":
        return est.gpu_hours
    if quantity == "days":
        return est.time_to_train_hours / HOURS_PER_DAY
    speed = _speed(est)
    if quantity == "tokens_per_s_per_gpu":
        return speed
    tflops = speed * est.flops_per_token / 1e12
    return tflops if quantity == "tflops_per_gpu" else tflops / peak_tflops


def speed_ratio(published: float, predicted: float, quantity: str) -> float:
    """Published speed ÷ predicted speed (time-like quantities invert)."""
    return published / predicted if quantity in SPEED_LIKE else predicted / published


def peak_tflops(catalog: Catalog, est: Estimate) -> float:
    """The system's dense peak at the precision the estimate ran."""
    peak = catalog.system(est.system).compute.peak_tflops(est.precision)
    assert peak is not None
    return peak


def _bounds(
    est: Estimate,
    workload: Workload,
    catalog: Catalog,
    assumptions: Assumptions,
    predicted: float,
    quantity: str,
) -> tuple[float, float]:
    """The P10-P90 of `predicted` the tool would show (a speed's bounds are the time's, inverted)."""
    rng = estimate_range(est, input_spreads(est, workload, catalog, assumptions)).time_to_result_hours
    low, high = rng.p10 / rng.expected, rng.p90 / rng.expected
    return (
        (predicted * low, predicted * high)
        if quantity not in SPEED_LIKE
        else (predicted / high, predicted / low)
    )


def predict(run: EvidenceRun, catalog: Catalog, *, ranged: bool = True) -> CaseResult:
    """The run's published quantity as `catalog` predicts it, with the P10-P90 the tool would show; with
    `ranged=False` the range is not sampled (P10 = P90 = the prediction), for fits that read only the
    speed ratio."""
    workload, assumptions = run_workload(run, catalog)
    est = estimate(workload, run.system, catalog, assumptions)
    quantity = run.published.quantity
    peak = peak_tflops(catalog, est)
    predicted = quantity_of(est, quantity, peak)
    bounds = (
        _bounds(est, workload, catalog, assumptions, predicted, quantity)
        if ranged
        else (predicted, predicted)
    )
    reference = estimate(
        workload.model_copy(update={"efficiency": "reference"}), run.system, catalog, assumptions
    )
    ratio = speed_ratio(run.published.value, quantity_of(reference, quantity, peak), quantity)
    basis = est.mfu_basis
    loss = run_strong_scaling(workload, est.memory.min_gpus, catalog)
    sequences = loss.sequences_per_replica if loss is not None else None
    return CaseResult(
        run, predicted, *bounds, est.mfu, basis.basis, spread_class(basis), ratio, est.model.family, sequences
    )
