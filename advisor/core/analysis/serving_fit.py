"""The serving model against published serving benchmarks: prediction, fit of its constants, leave-one-out.

Each point (`catalog/evidence/serving/`) is predicted with its own model, system, tensor-parallel size,
precisions, request shape and load. The fitted constants (HBM bandwidth efficiency, decode and prefill
MFU, overlap, early FP8 speed, tensor-parallel exponent, time per routed token) minimise the squared log
error over the points of the reference serving stack, by Nelder-Mead (the shares on their logits); each
other stack's speed factor is then fitted on its own points; every reported error is leave-one-out: point
*i* predicted with constants fitted without it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from advisor.core.model.catalog import Catalog
from advisor.core.model.inference import Precisions, Replica, ServingConstants, iteration, saturated
from advisor.core.model.serving_evidence import ServingPoint
from advisor.core.model.serving_plan import replica_hardware, serving_constants

FITTED = (
    "bandwidth_efficiency",
    "decode_mfu",
    "prefill_mfu",
    "overlap",
    "early_fp8_factor",
    "tp_exponent",
    "routed_token_ns",
)
"""The serving constants fitted on the published points (the rest are assumptions), besides one
`stack_factor.<stack>` per non-reference serving stack the points' systems name."""
FRACTIONS = FITTED[:5]
"""The fitted constants that are shares (searched on their logits); tp_exponent is searched as it is,
routed_token_ns on its logarithm."""
STACK_PREFIX = "stack_factor."


def predict_per_gpu(point: ServingPoint, catalog: Catalog, c: ServingConstants) -> float:
    """The model's generated tokens per second per GPU for the point (0 if it does not fit)."""
    model = catalog.models[point.model]
    system = catalog.systems[point.system]
    precisions = Precisions(point.weight_precision, point.kv_precision, point.activation_precision)
    hw = replica_hardware(system, catalog.economics, precisions)
    shape = (point.prompt_tokens, point.output_tokens)
    stack = system.serving_stack
    replica = Replica(model, point.tp, hw, precisions, *shape, c, point.software, stack)
    if point.concurrency:
        it = iteration(replica, point.concurrency)
    else:
        found = saturated(replica)
        if found is None:
            return 0.0
        it = found
    return it.tokens_per_second / point.tp


def _logit(x: float) -> float:
    return math.log(x / (1 - x))


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def _nelder_mead(f: Callable[[list[float]], float], x0: list[float], steps: int = 600) -> list[float]:
    """Minimise `f` from `x0` (a plain Nelder-Mead simplex; deterministic)."""
    n = len(x0)
    simplex = [list(x0)] + [[x + (0.5 if i == j else 0.0) for j, x in enumerate(x0)] for i in range(n)]
    values = [f(x) for x in simplex]
    for _ in range(steps):
        order = sorted(range(n + 1), key=lambda i: values[i])
        simplex, values = [simplex[i] for i in order], [values[i] for i in order]
        if values[-1] - values[0] < 1e-9:
            break
        centroid = [sum(x[j] for x in simplex[:-1]) / n for j in range(n)]
        worst = simplex[-1]
        reflected = [c + (c - w) for c, w in zip(centroid, worst, strict=True)]
        fr = f(reflected)
        if fr < values[0]:
            expanded = [c + 2 * (c - w) for c, w in zip(centroid, worst, strict=True)]
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = [c + 0.5 * (w - c) for c, w in zip(centroid, worst, strict=True)]
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [
                    [b + 0.5 * (x - b) for b, x in zip(best, s, strict=True)] for s in simplex[1:]
                ]
                values = [values[0]] + [f(s) for s in simplex[1:]]
    return simplex[min(range(n + 1), key=lambda i: values[i])]


def _significant(value: float, digits: int = 3) -> float:
    """`value` rounded to `digits` significant figures (how the catalog stores a fitted constant)."""
    return float(f"{value:.{digits}g}")


def fit_constants(
    points: Sequence[ServingPoint], catalog: Catalog, near: ServingConstants | None = None
) -> ServingConstants:
    """The fitted constants minimising the squared log error of the predicted throughput over `points`.

    The efficiencies are fitted on the points of systems on the reference stack alone; each other stack's
    factor is then the geometric mean of published ÷ modelled over its own points (the least-squares log
    fit of one multiplier), so another stack's points never move the reference stack's predictions.
    The search starts from the same place whatever the catalog holds (fractions at 1/2, tensor-parallel
    exponent 0.1, 1 ns per routed token), so refitting the shipped points reproduces the shipped values;
    or `near` given constants (a quicker start for the leave-one-out refits, which then move to their own
    minimum).
    """
    start = serving_constants(catalog.economics)
    reference: list[ServingPoint] = []
    by_stack: dict[str, list[ServingPoint]] = {}
    for point in points:
        stack = catalog.systems[point.system].serving_stack
        (reference if stack is None else by_stack.setdefault(stack, [])).append(point)

    def with_values(z: list[float], digits: int = 12) -> ServingConstants:
        f = [_significant(_sigmoid(v), digits) for v in z[: len(FRACTIONS)]]
        return replace(
            start,
            bandwidth_efficiency=f[0],
            decode_mfu=f[1],
            prefill_mfu=f[2],
            overlap=f[3],
            early_fp8_factor=f[4],
            tp_exponent=_significant(z[-2], digits),
            routed_token_ns=_significant(math.exp(z[-1]), digits),
            stack_factors=(),
        )

    def loss(z: list[float]) -> float:
        c = with_values(z)
        total = 0.0
        for point in reference:
            predicted = predict_per_gpu(point, catalog, c)
            total += math.log(max(predicted, 1e-9) / point.tokens_per_second_per_gpu) ** 2
        return total

    z0 = [0.0] * len(FRACTIONS) + [0.1, 0.0]
    if near is not None:
        z0 = [_logit(getattr(near, name)) for name in FRACTIONS] + [near.tp_exponent]
        z0.append(math.log(max(near.routed_token_ns, 1e-3)))
    fitted = with_values(_nelder_mead(loss, z0), digits=3)
    factors = dict(start.stack_factors)
    for stack, stacked in by_stack.items():
        logs = [
            math.log(p.tokens_per_second_per_gpu / max(predict_per_gpu(p, catalog, fitted), 1e-9))
            for p in stacked
        ]
        factors[stack] = _significant(math.exp(statistics.fmean(logs)))
    return replace(fitted, stack_factors=tuple(sorted(factors.items())))


@dataclass(frozen=True)
class ServingCase:
    """One published serving point, predicted leave-one-out."""

    point: ServingPoint
    predicted_per_gpu: float

    @property
    def published_per_gpu(self) -> float:
        """The published generated tokens per second per GPU."""
        return self.point.tokens_per_second_per_gpu

    @property
    def error(self) -> float:
        """Relative error (+ = the model says faster)."""
        return self.predicted_per_gpu / self.published_per_gpu - 1.0

    @property
    def shape(self) -> str:
        """`prefill-heavy` (prompt longer than the output), `decode-heavy` (shorter) or `balanced`."""
        prompt, output = self.point.prompt_tokens, self.point.output_tokens
        return "prefill-heavy" if prompt > output else "decode-heavy" if prompt < output else "balanced"


@dataclass(frozen=True)
class ServingValidation:
    """Every point predicted leave-one-out, the constants fitted on all of them, and the summary."""

    cases: tuple[ServingCase, ...]
    fitted: ServingConstants
    held_out: bool = False

    @property
    def median_abs_error(self) -> float:
        """Median absolute relative error."""
        return statistics.median(abs(c.error) for c in self.cases)

    @property
    def worst_abs_error(self) -> float:
        """Largest absolute relative error."""
        return max(abs(c.error) for c in self.cases)

    @property
    def within_25(self) -> int:
        """Points predicted within 25%."""
        return sum(abs(c.error) <= 0.25 for c in self.cases)

    def to_dict(self) -> dict[str, Any]:
        """The `serving` object of `advisor validate --json`."""
        return {
            "method": "held out" if self.held_out else "leave-one-out",
            "cases": [
                {
                    "id": c.point.id,
                    "model": c.point.model,
                    "system": c.point.system,
                    "tp": c.point.tp,
                    "precision": c.point.weight_precision,
                    "shape": c.shape,
                    "published_tokens_per_s_per_gpu": c.published_per_gpu,
                    "predicted_tokens_per_s_per_gpu": c.predicted_per_gpu,
                    "error": c.error,
                    "source": c.point.published.url,
                    "as_of": c.point.published.as_of,
                }
                for c in self.cases
            ],
            "summary": {
                "points": len(self.cases),
                "systems": len({c.point.system for c in self.cases}),
                "median_abs_error": self.median_abs_error,
                "worst_abs_error": self.worst_abs_error,
                "within_25_percent": self.within_25,
            },
            "fitted": fitted_values(self.fitted),
        }


def fitted_values(c: ServingConstants) -> dict[str, float]:
    """The fitted constants as the catalog stores them (a stack's factor under its dotted TOML key)."""
    stacks = {f"{STACK_PREFIX}{stack}": factor for stack, factor in c.stack_factors}
    return {name: getattr(c, name) for name in FITTED} | stacks


def validate_serving(points: Sequence[ServingPoint], catalog: Catalog) -> ServingValidation:
    """Each point predicted with the constants fitted without it; the constants fitted on all."""
    fitted = fit_constants(points, catalog)
    cases = []
    for i, point in enumerate(points):
        others = [p for j, p in enumerate(points) if j != i]
        without = fit_constants(others, catalog, near=fitted)
        cases.append(ServingCase(point, predict_per_gpu(point, catalog, without)))
    return ServingValidation(cases=tuple(cases), fitted=fitted)


def held_out_serving(points: Sequence[ServingPoint], catalog: Catalog) -> ServingValidation:
    """Each point predicted with the shipped constants (nothing in `points` was fitted on)."""
    c = serving_constants(catalog.economics)
    cases = tuple(ServingCase(p, predict_per_gpu(p, catalog, c)) for p in points)
    return ServingValidation(cases=cases, fitted=c, held_out=True)
