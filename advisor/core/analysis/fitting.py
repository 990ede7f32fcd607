"""The arithmetic of `advisor validate`'s fits: least-squares lines, the production share and spread, the
small-model exponent and the weak-scaling loss. Pure functions of numbers; the cases come from
`advisor.core.analysis.validation`."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from advisor.core.analysis.uncertainty import percentile
from advisor.core.model.catalog import ProductionEfficiency
from advisor.core.model.mfu_points import LOSS_PIVOT_GPUS, effective_doublings
from advisor.core.model.strong_scaling import StrongScalingFit

if TYPE_CHECKING:
    from advisor.core.analysis.serving_fit import ServingValidation


def _geomean(values: Iterable[float]) -> float:
    logs = [math.log(v) for v in values]
    return math.exp(sum(logs) / len(logs))


PREDICTION_COVERAGE = 0.8
"""Share of new runs a fitted spread is meant to hold between its P10 and P90."""


def prediction_bounds(values: Sequence[float], coverage: float = PREDICTION_COVERAGE) -> tuple[float, float]:
    """Ends of a distribution-free prediction interval: the k-th smallest and k-th largest of `values`,
    with k the largest rank for which a new value from the same distribution falls between them with
    probability (n + 1 − 2k)/(n + 1) >= `coverage`. Unlike the sample P10/P90, which a new value escapes
    more often than 20% of the time when n is small, this holds `coverage` at any n (k >= 1: with fewer
    than 1/(1 − coverage) − 1 values it takes the extremes)."""
    ordered = sorted(values)
    n = len(ordered)
    k = max(1, math.floor((n + 1) * (1 - coverage) / 2 + 1e-9))  # 1e-9: (1 - 0.8) is 0.19999…
    return ordered[k - 1], ordered[n - k]


def prediction_bound(values: Sequence[float], coverage: float = PREDICTION_COVERAGE) -> float:
    """The one-sided form for non-negative errors: the rank-ceil((n + 1)·coverage) smallest (the
    largest when n is small), so a new error is at or below it with probability >= `coverage`."""
    ordered = sorted(values)
    return ordered[min(len(ordered), math.ceil((len(ordered) + 1) * coverage - 1e-9)) - 1]


_P90_OF_SYMMETRIC_TRIANGLE = 1 - math.sqrt(0.2)
"""A symmetric triangular distribution of half-width w has its P90 at mode + 0.553 w."""


def triangular_share(errors: Sequence[float]) -> float:
    """The ± share whose symmetric triangular P10-P90 holds 80% of new absolute log errors like these."""
    return round(min(math.expm1(prediction_bound(errors)) / _P90_OF_SYMMETRIC_TRIANGLE, 0.9), 3)


def triangular_for_quantiles(mode: float, q10: float, q90: float) -> tuple[float, float]:
    """Ends (low, high) of the triangular distribution with this mode whose P10 and P90 are `q10`, `q90`."""
    q10, q90 = min(q10, mode), max(q90, mode)
    low, high = q10, q90
    for _ in range(200):  # fixed point: each end from the other; converges in a few dozen steps
        # P(X <= q10) = (q10-low)^2 / ((high-low)(mode-low)) = 0.1, and P(X >= q90) likewise.
        width = high - low
        low = q10 - math.sqrt(0.1 * width * (mode - low)) if mode > low else q10
        high = q90 + math.sqrt(0.1 * width * (high - mode)) if high > mode else q90
    return low, high


def _slope_through_origin(xs: Sequence[float], ys: Sequence[float], lo: float, hi: float) -> float:
    """Least-squares b in y = b·x, clipped to [lo, hi] (0 without information)."""
    sxx = sum(x * x for x in xs)
    return 0.0 if sxx == 0 else min(max(sum(x * y for x, y in zip(xs, ys, strict=True)) / sxx, lo), hi)


MIN_STRONG_SCALING_RUNS = 3
"""Fewer runs below one sequence per replica than this fit no strong-scaling loss."""


def fit_strong_scaling(
    sequences: Sequence[float], ratios: Sequence[float]
) -> tuple[StrongScalingFit, list[StrongScalingFit]]:
    """The strong-scaling loss fitted on runs at `sequences` per replica per step (each below 1) whose
    published speed is `ratios` × the model's without the loss, and for each run the fit without it.

    Exponent: least squares through the origin of log(ratio) on log(sequences), in [0, 2]. Spread: the
    ± share whose triangular P10-P90 holds 80% of the runs' leave-one-out residuals (the others' for a
    run left out)."""
    xs, ys = [math.log(s) for s in sequences], [math.log(r) for r in ratios]
    n = len(xs)
    if n < MIN_STRONG_SCALING_RUNS:
        return StrongScalingFit(), [StrongScalingFit()] * n

    def exponent(skip: int | None = None) -> float:
        kept = [i for i in range(n) if i != skip]
        return round(_slope_through_origin([xs[i] for i in kept], [ys[i] for i in kept], 0.0, 2.0), 3)

    loo = [exponent(i) for i in range(n)]
    residuals = [abs(y - b * x) for x, y, b in zip(xs, ys, loo, strict=True)]

    def spread(skip: int | None = None) -> float:
        return triangular_share([e for i, e in enumerate(residuals) if i != skip])

    fitted = StrongScalingFit(exponent=exponent(), spread=spread(), runs=n)
    return fitted, [StrongScalingFit(exponent=loo[i], spread=spread(i), runs=n - 1) for i in range(n)]


def _line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """Least-squares (intercept, slope) of y on x; the slope is 0 when x does not vary."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = 0.0 if sxx == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return my - slope * mx, slope


@dataclass(frozen=True)
class Probe:
    """A calibration point predicted without itself, with the constants being fitted switched off."""

    family: str
    precision: str
    log_size_ratio: float
    """log(active parameters ÷ the smallest published model's) when below it, else 0."""
    doublings_beyond: float
    """Doublings of the cluster beyond its own configuration's published range, in the same release
    (0 across models, or when the prediction rests on another release: software moved it too)."""
    log_ratio: float
    """log(published ÷ predicted speed)."""
    gpus: float = LOSS_PIVOT_GPUS
    """The cluster size predicted (where the doublings beyond end)."""

    def beyond(self, growth: float) -> float:
        """`doublings_beyond` weighted by cluster size as `growth` weighs them (`effective_doublings`)."""
        return effective_doublings(self.gpus, self.doublings_beyond, growth)


NO_SMALL_MODEL_LOSS = {"dense": 0.0, "moe": 0.0}


def fit_small_model_exponents(cases: Sequence[Probe], skip: int | None = None) -> dict[str, float]:
    """Per family, the exponent b with log(published/predicted) ≈ b·log(size ratio), clipped to [0, 2]."""
    out = {}
    for family in ("dense", "moe"):
        chosen = [c for i, c in enumerate(cases) if c.family == family and c.log_size_ratio < 0 and i != skip]
        xs = [c.log_size_ratio for c in chosen]
        out[family] = round(_slope_through_origin(xs, [c.log_ratio for c in chosen], 0.0, 2.0), 3)
    return out


MIN_SCALING_CASES = 4
"""A precision with fewer cases beyond a published range takes the loss fitted on all precisions."""


def fit_loss_per_doubling(
    cases: Sequence[Probe], precisions: Iterable[str], skip: int | None = None, growth: float = 0.0
) -> dict[str, float]:
    """Per precision, the weak-scaling loss per doubling up to `LOSS_PIVOT_GPUS`: log(published/predicted)
    ≈ effective doublings·log(1 − loss), the doublings above the pivot weighted by (GPUs / pivot)^`growth`."""

    def loss(chosen: list[Probe]) -> float:
        xs, ys = [c.beyond(growth) for c in chosen], [c.log_ratio for c in chosen]
        return round(-math.expm1(_slope_through_origin(xs, ys, math.log(0.8), 0.0)), 4) + 0.0

    beyond = [c for i, c in enumerate(cases) if c.doublings_beyond != 0 and i != skip]
    pooled = loss(beyond)
    out = {}
    for precision in precisions:
        own = [c for c in beyond if c.precision == precision]
        out[precision] = loss(own) if len(own) >= MIN_SCALING_CASES else pooled
    return out


LOSS_GROWTHS = tuple(round(0.05 * i, 2) for i in range(41))
"""The growths tried when fitting how the loss per doubling grows with the cluster (0 to 2)."""


def fit_weak_scaling(
    cases: Sequence[Probe], precisions: Sequence[str], skip: int | None = None
) -> tuple[dict[str, float], float]:
    """The loss per doubling up to `LOSS_PIVOT_GPUS` per precision and the growth (one, shared) that together
    leave the least squared log error on the cases beyond a published range (ties: the smallest growth)."""
    beyond = [c for i, c in enumerate(cases) if c.doublings_beyond != 0 and i != skip]

    def sse(growth: float) -> float:
        losses = fit_loss_per_doubling(beyond, precisions, growth=growth)
        pooled = fit_loss_per_doubling(beyond, ["all"], growth=growth)["all"]
        fitted = [c.beyond(growth) * math.log1p(-losses.get(c.precision, pooled)) for c in beyond]
        return sum((c.log_ratio - f) ** 2 for c, f in zip(beyond, fitted, strict=True))

    growth = min(LOSS_GROWTHS, key=lambda g: (round(sse(g), 9), g))
    return fit_loss_per_doubling(cases, precisions, skip, growth), growth


def fit_production(
    params: Sequence[float], ratios: Sequence[float], reference_params: float
) -> tuple[float, float, list[float]]:
    """(factor at `reference_params`, size exponent, leave-one-out ratios of published to fitted)."""
    xs = [math.log(p / reference_params) for p in params]
    ys = [math.log(r) for r in ratios]
    intercept, slope = _line(xs, ys)
    residuals = []
    for i in range(len(xs)):
        a, b = _line(xs[:i] + xs[i + 1 :], ys[:i] + ys[i + 1 :])
        residuals.append(math.exp(ys[i] - a - b * xs[i]))
    return math.exp(intercept), slope, residuals


def production_efficiency(
    params: Sequence[float], ratios: Sequence[float], spread_from: Sequence[float], reference_params: float
) -> ProductionEfficiency:
    """The fitted production constants; the spread matches the P10/P90 of `spread_from` ratios."""
    factor, slope, _ = fit_production(params, ratios, reference_params)
    low, high = triangular_for_quantiles(1.0, *prediction_bounds(spread_from))
    return ProductionEfficiency(
        throughput_factor=round(factor, 3),
        size_exponent=round(slope, 3),
        reference_params=reference_params,
        spread_low=round(max(low, 0.05), 3),
        spread_high=round(high, 3),
        runs=len(ratios),
    )


def serving_spread(serving: ServingValidation) -> tuple[float, float]:
    """Ends of the triangular spread (mode 1) of published ÷ predicted serving speed whose P10 and P90 are
    those of the leave-one-out ratios: the range `[inference] spread_low`, `spread_high` gives."""
    ratios = [1 / (1 + case.error) for case in serving.cases]
    low, high = triangular_for_quantiles(1.0, percentile(ratios, 0.1), percentile(ratios, 0.9))
    return round(low, 3), round(high, 3)
