"""The time to result a deadline is judged against: the risk appetite's quantile of it.

Each appetite names in `catalog/economics.toml [risk]` the quantile of the time to result that must meet
a deadline (conservative: 0.9, so 9 runs in 10 finish by it), or `expected` for the expected estimate.

The quantile comes from the same spreads as the ranges (`uncertainty.input_spreads`): the run's hours
scale as 1 / (MFU x efficiency x goodput), each drawn from its triangular distribution, while the wait
and setup are fixed. It is computed, not sampled: each factor is cut into `STRATA` equally likely
strata (the inverse CDF at their midpoints), and the product of two factors is cut again the same way.
So the quantile of any estimate costs a few hundred multiplications and is the same on every call,
which sizing needs (it asks at every candidate size), and it agrees with the sampled P90 within the
sampling error of `SAMPLES` draws.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from advisor.core.analysis.uncertainty import Spread, input_spreads
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import DeadlineBasis
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog
from advisor.core.model.workload import Risk, Workload

STRATA = 32
"""Equally likely strata per factor (a quantile's error is about 1 / (2 x STRATA) in probability)."""
SPEED_INPUTS = ("mfu", "efficiency", "goodput")
"""The inputs the run's hours scale with, inversely."""


def deadline_quantile(catalog: Catalog, risk: Risk) -> float | None:
    """The quantile of the time to result a deadline is judged at for `risk` (None: the expected)."""
    value = catalog.economics.risk.deadline_quantile.get(risk, "expected")
    return None if value == "expected" else float(value)


def _inverse_triangular(s: Spread, u: float) -> float:
    """The value of `s`'s distribution below which a share `u` lies: its triangle's, taken at most at
    `high` (as `uncertainty` draws it)."""
    if s.triangle is None:
        return s.expected
    low, mode, top = s.triangle
    if u < (mode - low) / (top - low):
        value = low + math.sqrt(u * (top - low) * (mode - low))
    else:
        value = top - math.sqrt((1 - u) * (top - low) * (top - mode))
    return min(value, s.high)


def _strata(values: list[float]) -> list[float]:
    """`values` (equally likely) cut into `STRATA` equally likely strata: each one's middle value."""
    ordered = sorted(values)
    step = len(ordered) / STRATA
    return [ordered[int((i + 0.5) * step)] for i in range(STRATA)]


def run_factor_quantile(spreads: Mapping[str, Spread], q: float) -> float:
    """The `q` quantile of the factor the run's expected hours are multiplied by: the product of
    expected / drawn over the speed inputs (MFU, efficiency, goodput), 1 without any."""
    factors = [spreads[name] for name in SPEED_INPUTS if name in spreads]
    if not factors:
        return 1.0
    # A slow draw (low MFU) is a long run: the factor's u-quantile takes the input's (1 - u)-quantile.
    strata = [
        [s.expected / _inverse_triangular(s, 1 - (i + 0.5) / STRATA) for i in range(STRATA)] for s in factors
    ]
    combined = strata[0]
    for other in strata[1:]:
        combined = _strata([a * b for a in combined for b in other])
    index = q * STRATA - 0.5  # the strata's middles lie at (i + 0.5) / STRATA
    lo = min(max(math.floor(index), 0), STRATA - 1)
    hi = min(lo + 1, STRATA - 1)
    return combined[lo] + (combined[hi] - combined[lo]) * min(max(index - lo, 0.0), 1.0)


def quantile_hours(est: Estimate, spreads: Mapping[str, Spread], q: float) -> float:
    """`est`'s time to result at its `q` quantile: the wait and setup, plus the run's hours times the
    `q` quantile of their factor (as `uncertainty._outputs` draws them)."""
    if est.serves_a_rate:
        return est.time_to_result_hours  # a fleet at a target rate serves its month at any speed
    hours = est.time_breakdown_hours
    run = (hours["compute"] + hours["overhead"]) / est.goodput
    return hours["wait"] + hours["setup"] + run * run_factor_quantile(spreads, q)


def deadline_basis(
    catalog: Catalog, workload: Workload, assumptions: Assumptions, risk: Risk
) -> DeadlineBasis | None:
    """What `risk` judges a deadline against: its quantile of each estimate's time to result, or None
    for the expected estimate."""
    q = deadline_quantile(catalog, risk)
    if q is None:
        return None

    def hours(est: Estimate) -> float:
        return quantile_hours(est, input_spreads(est, workload, catalog, assumptions), q)

    return DeadlineBasis(q, Fraction(q).limit_denominator(20), hours)
