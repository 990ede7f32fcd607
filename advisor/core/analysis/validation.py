"""Back-testing on published runs: predictions, the production-efficiency fit, and leave-one-out checks.

For each published run (`catalog/evidence/`) the cost model predicts the published figure with the
run's own model, system, GPUs, precision and software month: benchmarks at `reference` efficiency
(goodput 1), end-to-end runs at `production` efficiency (failures included).

The production factor is the geometric mean, over the end-to-end runs, of published speed ÷ the
reference model's speed. Every check is leave-one-out: run *i* is predicted with the factor and the
spread fitted without it, and benchmark runs with the calibration points of their own configuration
removed, so no run is judged by a constant it helped to fit. The spread (`low`, `high`) is the
triangular distribution whose 10th/90th percentiles are those of the leave-one-out ratios.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from advisor.core.analysis.fitting import (
    NO_SMALL_MODEL_LOSS,
    Probe,
    fit_production,
    fit_small_model_exponents,
    fit_strong_scaling,
    fit_weak_scaling,
    production_efficiency,
    triangular_share,
)
from advisor.core.analysis.prediction import peak_tflops, predict, quantity_of, run_workload, speed_ratio
from advisor.core.analysis.validation_results import CaseResult, ScalingFit, Validation
from advisor.core.costing.estimate import estimate
from advisor.core.costing.throughput import run_precision
from advisor.core.model.catalog import Catalog, MfuPoint, ProductionEfficiency
from advisor.core.model.evidence import EvidenceRun, Published
from advisor.core.model.mfu import mfu_index, resolve_mfu
from advisor.core.model.mfu_domain import fit_ratios
from advisor.core.model.strong_scaling import StrongScalingFit

# --- the published runs behind the calibration tables ---------------------------------------------------


def calibration_points(catalog: Catalog) -> list[MfuPoint]:
    """Every calibration point in the catalog's MFU tables."""
    return [point for table in catalog.mfu_tables.values() for point in table.points]


def has_other_calibration(catalog: Catalog, point: MfuPoint) -> bool:
    """Whether the point's system keeps a calibration point (its own or its proxy's) without this one."""
    systems = {point.system, catalog.systems[point.system].mfu_proxy_system}
    return any(p is not point and p.system in systems for p in calibration_points(catalog))


def calibration_runs(catalog: Catalog) -> list[tuple[EvidenceRun, MfuPoint]]:
    """Every calibration point as a benchmark run (checked leave-one-out: predicted without itself); a
    system's only point cannot be predicted without itself and is left out."""
    runs = []
    for table in catalog.mfu_tables.values():
        for n, point in enumerate(table.points, 1):
            if not has_other_calibration(catalog, point):
                continue
            measured = point.tokens_per_s_per_gpu
            run = EvidenceRun(
                id=f"{table.id}.{n}",
                title=f"{catalog.models[point.model].name} on {point.gpus} {point.system}, {point.stack}",
                kind="benchmark",
                model=point.model,
                system=point.system,
                gpus=point.gpus,
                precision=point.precision,
                seq_len=point.seq_len,
                software=point.software,
                stack=point.stack,
                published=Published(
                    quantity="tokens_per_s_per_gpu" if measured is not None else "mfu",
                    value=measured if measured is not None else point.mfu,
                    source=table.source,
                    url=table.url,
                    as_of=table.as_of,
                ),
            )
            runs.append((run, point))
    return runs


def _without_point(catalog: Catalog, point: MfuPoint) -> Catalog:
    """The catalog less one calibration point, with a fresh MFU index."""
    tables = {
        tid: table.model_copy(update={"points": tuple(p for p in table.points if p is not point)})
        for tid, table in catalog.mfu_tables.items()
    }
    return catalog.rebuilt(mfu_tables=tables)


def scale_up_fit(catalog: Catalog) -> dict[str, float]:
    """`[scale_up_ratio]` fitted on the catalog's calibration points: NVLink-domain and proxy ratios (see
    mfu_domain)."""
    return fit_ratios(mfu_index(catalog).calibrated_points(), catalog.systems)


def _with_scaling(catalog: Catalog, **update: Any) -> Catalog:
    """The catalog with some `mfu_scaling` values replaced, and a fresh MFU index."""
    return catalog.rebuilt(mfu_scaling=catalog.mfu_scaling.model_copy(update=update))


# --- fitting ---------------------------------------------------------------------------------------


def _probe(run: EvidenceRun, point: MfuPoint, catalog: Catalog, **scaling: Any) -> Probe:
    loo = _with_scaling(_without_point(catalog, point), **scaling)
    workload, assumptions = run_workload(run, loo)
    precision, _ = run_precision(workload, loo.system(run.system))
    found = resolve_mfu(loo, run.system, precision, workload.model, run.gpus, run.software)
    est = estimate(workload, run.system, loo, assumptions)
    predicted = quantity_of(est, run.published.quantity, peak_tflops(loo, est))
    ratio = speed_ratio(run.published.value, predicted, run.published.quantity)
    beyond = 0.0 if found.other_release else found.doublings_beyond
    return Probe(
        workload.model.family, precision, math.log(found.size_ratio), beyond, math.log(ratio), run.gpus
    )


# --- validation ------------------------------------------------------------------------------------

FITTED_SPREADS = ("exact", "other_release", "scaled", "interpolated", "transferred")
"""Spread classes fitted on residuals. `exact` cases are a published point predicted from another
publication of the same configuration and release (a partner's MLPerf log, a second table): how far a
run reproduces a published figure."""

MIN_RESIDUALS = 5
"""Fewer residuals than this in a class leave the catalog's spread as it is."""

MIN_FAMILY_RESIDUALS = 10
"""A class gets a share of its own for one model family (dense or MoE) from this many of that family's
residuals; with fewer, the family takes the class's pooled share. One vendor series that swings between
releases (B200 Qwen3 30B-A3B: 18,066, 9,299, 27,136 tokens/s) then widens MoE estimates, not dense ones."""

FAMILIES = ("dense", "moe")


def reference_spreads(cases: Sequence[CaseResult], skip: CaseResult | None = None) -> dict[str, float]:
    """Per MFU basis class, the ± share whose triangular P10-P90 holds 80% of the benchmark residuals
    (`mfu_<class>`), and per model family where it has `MIN_FAMILY_RESIDUALS` (`mfu_<class>_<family>`)."""
    out = {}
    for cls in FITTED_SPREADS:
        chosen = [c for c in cases if c.basis_class == cls and c is not skip]
        if len(chosen) >= MIN_RESIDUALS:
            out[f"mfu_{cls}"] = triangular_share([abs(math.log(c.speed_ratio)) for c in chosen])
        for family in FAMILIES:
            of_family = [abs(math.log(c.speed_ratio)) for c in chosen if c.family == family]
            if len(of_family) >= MIN_FAMILY_RESIDUALS:
                out[f"mfu_{cls}_{family}"] = triangular_share(of_family)

    # A figure borrowed from another system, precision or family is never surer than one interpolated.
    # A family's share is its own where fitted, else the pooled one; set where the family has either.
    def share(name: str, suffix: str) -> float | None:
        return out.get(f"{name}{suffix}", out.get(name))

    for suffix in ("", *(f"_{f}" for f in FAMILIES)):
        interpolated = share("mfu_interpolated", suffix)
        if interpolated is not None and {f"mfu_interpolated{suffix}", f"mfu_transferred{suffix}"} & set(out):
            out[f"mfu_transferred{suffix}"] = max(share("mfu_transferred", suffix) or 0.0, interpolated)
    return out


FAMILY_SHARES = tuple(f"mfu_{cls}_{family}" for cls in FITTED_SPREADS for family in FAMILIES)
"""The `[uncertainty]` names of the per-family shares."""


def _with_reference_spreads(catalog: Catalog, shares: dict[str, float]) -> Catalog:
    """The catalog with these MFU shares; a family share not among them is unset (the pooled one holds)."""
    update: dict[str, float | None] = {**dict.fromkeys(FAMILY_SHARES), **shares}
    uncertainty = catalog.economics.uncertainty.model_copy(update=update)
    return catalog.rebuilt(economics=catalog.economics.model_copy(update={"uncertainty": uncertainty}))


def _benchmark_cases(
    runs: Sequence[EvidenceRun], catalog: Catalog
) -> tuple[list[tuple[EvidenceRun, Catalog]], ScalingFit]:
    """Each benchmark with the catalog it is predicted from: a calibration point without itself, with
    the weak-scaling loss and the small-model exponents fitted without it. Then the fit on every point."""
    calibration = calibration_runs(catalog)
    precisions = list(catalog.mfu_scaling.loss_per_doubling)
    no_loss = dict.fromkeys(precisions, 0.0)
    scale = [
        _probe(r, p, catalog, loss_per_doubling=no_loss, small_model_exponent=NO_SMALL_MODEL_LOSS)
        for r, p in calibration
    ]
    losses, growth = fit_weak_scaling(scale, precisions)
    size = [
        _probe(
            r,
            p,
            catalog,
            loss_per_doubling=losses,
            loss_growth=growth,
            small_model_exponent=NO_SMALL_MODEL_LOSS,
        )
        for r, p in calibration
    ]
    fit = ScalingFit(losses, fit_small_model_exponents(size), scale_up_fit(catalog), growth)
    out = []
    for i, (run, point) in enumerate(calibration):
        without = _without_point(catalog, point)
        loo_losses, loo_growth = fit_weak_scaling(scale, precisions, i)
        loo = _with_scaling(
            without,
            loss_per_doubling=loo_losses,
            loss_growth=loo_growth,
            small_model_exponent=fit_small_model_exponents(size, i),
            scale_up_ratio=scale_up_fit(without),
        )
        out.append((run, loo))
    fitted = _with_scaling(catalog, **fit.scaling_values())
    out += [(run, fitted) for run in runs if run.kind == "benchmark"]
    return out, fit


def _production_cases(
    runs: Sequence[EvidenceRun], catalog: Catalog
) -> tuple[list[tuple[EvidenceRun, Catalog]], ProductionEfficiency | None]:
    """Each end-to-end run with a catalog whose production constants were fitted without it."""
    production = [run for run in runs if run.kind == "production"]
    if len(production) < MIN_RESIDUALS:  # too few to fit leaving one out: keep the catalog's constants
        return [(run, catalog) for run in production], None
    reference_params = catalog.mfu_scaling.production.reference_params
    params = [run.architecture(catalog.models).params_total for run in production]
    ratios = [predict(run, catalog, ranged=False).speed_ratio for run in production]
    _, _, residuals = fit_production(params, ratios, reference_params)
    out = []
    for i, run in enumerate(production):
        others = slice(None, i), slice(i + 1, None)
        loo = production_efficiency(
            [*params[others[0]], *params[others[1]]],
            [*ratios[others[0]], *ratios[others[1]]],
            [*residuals[others[0]], *residuals[others[1]]],
            reference_params,
        )
        out.append((run, _with_scaling(catalog, production=loo)))
    return out, production_efficiency(params, ratios, residuals, reference_params)


def validate(runs: Sequence[EvidenceRun], catalog: Catalog) -> Validation:
    """Calibration points and published runs, each predicted leave-one-out; constants fitted on all.

    Benchmarks are predicted twice: first for their residuals, then with the reference MFU spread
    fitted on the other benchmarks' residuals, so the P10-P90 shown is the one the tool would give.
    Benchmarks below one sequence per replica per step fit the strong-scaling loss instead (each
    predicted with the loss fitted without it) and leave the reference spreads to the others.
    """
    catalog = _with_scaling(catalog, strong_scaling=StrongScalingFit())
    benchmarks, scaling = _benchmark_cases(runs, catalog)
    first = [predict(run, loo, ranged=False) for run, loo in benchmarks]
    weak = [case for case in first if not case.strong_scaling]
    spreads = reference_spreads(weak)
    cases = [
        predict(run, _with_reference_spreads(loo, reference_spreads(weak, skip=case)))
        for (run, loo), case in zip(benchmarks, first, strict=True)
        if not case.strong_scaling
    ]
    strong = [(run, case) for (run, _), case in zip(benchmarks, first, strict=True) if case.strong_scaling]
    fitted_strong, without = fit_strong_scaling(
        [case.sequences_per_replica or 1.0 for _, case in strong], [case.speed_ratio for _, case in strong]
    )
    fitted_catalog = _with_reference_spreads(
        _with_scaling(catalog, **scaling.scaling_values(), strong_scaling=fitted_strong), spreads
    )
    cases += [
        predict(run, _with_scaling(fitted_catalog, strong_scaling=fit))
        for (run, _), fit in zip(strong, without, strict=True)
    ]
    production, efficiency = _production_cases(runs, fitted_catalog)
    cases += [predict(run, loo) for run, loo in production]
    return Validation(tuple(cases), efficiency, scaling, spreads, strong_scaling=fitted_strong)


def held_out(runs: Sequence[EvidenceRun], catalog: Catalog) -> Validation:
    """Runs outside the shipped evidence, each predicted with the shipped (fitted) catalog as it is."""
    unc = catalog.economics.uncertainty
    names = [*(f"mfu_{cls}" for cls in FITTED_SPREADS), *FAMILY_SHARES]
    spreads = {name: getattr(unc, name) for name in names if getattr(unc, name) is not None}
    scaling = ScalingFit(
        {str(k): v for k, v in catalog.mfu_scaling.loss_per_doubling.items()},
        {str(k): v for k, v in catalog.mfu_scaling.small_model_exponent.items()},
        dict(catalog.mfu_scaling.scale_up_ratio),
        catalog.mfu_scaling.loss_growth,
    )
    cases = tuple(predict(run, catalog) for run in runs)
    strong = catalog.mfu_scaling.strong_scaling
    return Validation(
        cases, catalog.mfu_scaling.production, scaling, spreads, held_out=True, strong_scaling=strong
    )
