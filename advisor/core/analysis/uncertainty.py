"""Ranges: how wrong could an estimate be, and does the winner still win?

Uncertain inputs, each with low / expected / high:
- MFU: ± `mfu_exact` at a published point, ± `mfu_interpolated` between points, ± `mfu_transferred`
  when borrowed from another system, precision or model family (catalog `[uncertainty]`; a model
  family's own share where one is fitted, `mfu_<class>_<family>`);
- goodput: the failure-and-checkpoint overhead × `failure_overhead_low` … `failure_overhead_high`;
- price: the rental offer's published low/high, or capex ± `capex_relative` when owning;
- PUE and electricity: the published ranges in `[facility]` and `[electricity]`;
- owning: the depreciation life, cost of capital, maintenance share, fleet utilisation and colocation
  rent, over the ranges `[finance]`, `[maintenance]`, `[utilization]` and `[colocation]` give them
  (`owner_spreads`).
Values the user set are taken as given (no spread). PUE, electricity and the finance inputs are shared:
one value per joint draw for every system.

Two ranges are reported for time, cost and energy: `low`/`high`, every input at the favourable or the
unfavourable end of its range (outputs are monotone in every input, so these bound all combinations),
and `p10`/`p90` from sampling each input from a triangular distribution (low, expected, high) with a
fixed seed. Both are computed from the expected estimate with the model's own arithmetic (time ∝
1 / (MFU × goodput); cost from the estimate's typed cost parts through `run_cost_usd`, as
`estimate()`, each part scaled by its driver and the billed hours; energy with `run_energy_kwh`), so
no estimate is re-run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from advisor.core.analysis import SAMPLES
from advisor.core.analysis.owner_spreads import HELPS, capital_usd_share, owner_factors, owner_ranges
from advisor.core.costing.cost import DriverCost, cost_by_driver, run_cost_usd, scaled_cost_usd
from advisor.core.costing.energy import run_energy_kwh
from advisor.core.costing.results import Estimate, JsonFields, MfuBasis
from advisor.core.costing.throughput import strong_scaling_share
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog
from advisor.core.model.workload import Workload

SEED = 20250820


@dataclass(frozen=True)
class Spread(JsonFields):
    """One uncertain input: its range and whether it is shared by every system (PUE, electricity)."""

    NOT_IN_JSON: ClassVar[frozenset[str]] = frozenset({"name", "shared", "drawn_to"})

    name: str
    low: float
    expected: float
    high: float
    unit: str
    source: str
    shared: bool = False
    drawn_to: float | None = None
    """Drawn from the triangle up to this, a draw above `high` taken as `high` (None: up to `high`)."""

    @property
    def triangle(self) -> tuple[float, float, float] | None:
        """(low, mode, top) of the triangular distribution it is drawn from (a draw is then taken at
        most at `high`); None for a point (no width)."""
        top = self.drawn_to if self.drawn_to is not None else self.high
        return None if top <= self.low else (self.low, min(max(self.expected, self.low), top), top)


@dataclass(frozen=True)
class Range(JsonFields):
    """An output's expected value, interval bounds and sampled P10-P90."""

    expected: float
    low: float
    high: float
    p10: float
    p90: float


@dataclass(frozen=True)
class EstimateRange:
    """Ranges of one system's time, cost and energy, and the input spreads behind them."""

    system: str
    time_to_result_hours: Range
    cost_usd: Range
    cost_per_million_tokens_usd: Range
    energy_kwh: Range
    inputs: Mapping[str, Spread]

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "time_to_result_hours": self.time_to_result_hours.to_dict(),
            "cost_usd": self.cost_usd.to_dict(),
            "cost_per_million_tokens_usd": self.cost_per_million_tokens_usd.to_dict(),
            "energy_kwh": self.energy_kwh.to_dict(),
            "inputs": {name: spread.to_dict() for name, spread in self.inputs.items()},
        }


def _mfu_share(est: Estimate, catalog: Catalog) -> float:
    return catalog.economics.uncertainty.mfu_share(spread_class(est.mfu_basis), est.model.family)


def spread_class(basis: MfuBasis) -> str:
    """How the MFU was found, which sets its spread: `transferred` from another system, precision or
    family; `other_release` from published figures of another software release; `exact` at a published
    point; `scaled` from the same configuration at other cluster sizes; else `interpolated` across models.
    """
    if basis.transferred:
        return "transferred"
    if basis.other_release:
        return "other_release"
    if basis.exact:
        return "exact"
    return "scaled" if basis.same_model else "interpolated"


def _around(name: str, value: float, share: float, widen: float, unit: str, source: str) -> Spread:
    """`value` ± `share` (× `widen`, at most 95%)."""
    share = min(share * widen, 0.95)
    return Spread(name, value * (1 - share), value, value * (1 + share), unit, source)


def _between(
    name: str, value: float, low: float, high: float, widen: float, unit: str, source: str, *, shared: bool
) -> Spread:
    """`value` within a published `low`..`high`, the distances to it × `widen` (never below 5% of it)."""
    low_w, high_w = value - (value - low) * widen, value + (high - value) * widen
    return Spread(name, max(low_w, value * 0.05), value, high_w, unit, source, shared)


def _speed_spreads(est: Estimate, catalog: Catalog, widen: float, strong: float) -> list[Spread]:
    """MFU (reference) or production efficiency, and goodput: what sets the run's hours; `strong` (the
    strong-scaling loss's share) is the MFU spread's floor and widens the production range."""
    out = []
    if est.efficiency == "reference" and not est.mfu_basis.overridden and est.kind != "inference":
        out.append(
            _around(
                "mfu",
                est.mfu,
                max(_mfu_share(est, catalog), strong),
                widen,
                "fraction",
                "catalog [uncertainty] mfu spread",
            )
        )
    if est.kind == "inference":
        # The serving model's leave-one-out error on published serving benchmarks.
        i = catalog.economics.inference
        source = f"fitted on {i.fit_points} published serving benchmarks (catalog/economics.toml [inference])"
        out.append(
            _between(
                "efficiency",
                1.0,
                i.spread_low,
                i.spread_high,
                widen,
                "share of modelled throughput",
                source,
                shared=False,
            )
        )
    elif est.efficiency == "production":
        # Fitted on published end-to-end runs against the reference model, so it holds the MFU's own
        # error too (no separate MFU spread); drawn per system, as that error is. A team's run does not
        # beat the tuned benchmark of its configuration by more than that benchmark's own spread (a 405B
        # run on a published configuration is not 58% faster than its recipe): a draw above it is taken
        # at it, so the slow side, which a deadline is judged at, stays as fitted.
        production = catalog.mfu_scaling.production
        factor = production.factor_for(est.model.params_total)
        source = f"fitted on {production.runs} published end-to-end runs (catalog/mfu/scaling.toml)"
        low, high = (
            factor * production.spread_low * (1 - strong),
            factor * production.spread_high * (1 + strong),
        )
        spread = _between(
            "efficiency", factor, low, high, widen, "share of reference throughput", source, shared=False
        )
        ceiling = max(factor, 1 + _mfu_share(est, catalog))
        out.append(replace(spread, high=min(spread.high, ceiling), drawn_to=spread.high))
    if not est.goodput_detail.overridden and est.kind != "inference":
        unc = catalog.economics.uncertainty
        overhead = 1 / est.goodput - 1
        low_g = 1 / (1 + overhead * unc.failure_overhead_high**widen)
        high_g = 1 / (1 + overhead * unc.failure_overhead_low**widen)
        source = "catalog [uncertainty] failure overhead"
        out.append(Spread("goodput", low_g, est.goodput, high_g, "fraction", source))
    return out


def _money_spreads(
    est: Estimate, workload: Workload, catalog: Catalog, assumptions: Assumptions, widen: float
) -> list[Spread]:
    """Rental price, or capex and electricity when owning; and PUE (never below 1)."""
    econ = catalog.economics
    system = catalog.system(est.system)
    out = []
    if workload.pricing == "rent":
        chosen = est.price_offer
        if chosen is not None and chosen.offer is not None:
            offer = system.rental_offer(chosen.offer)
            low = offer.low_usd_per_gpu_hour or offer.price_usd_per_gpu_hour
            high = offer.high_usd_per_gpu_hour or offer.price_usd_per_gpu_hour
            price = est.price_usd_per_gpu_hour
            out.append(
                _between("price", price, low, high, widen, "USD per GPU-hour", offer.source, shared=False)
            )
    else:
        if assumptions.for_system("capex_usd_per_node", system.id) is None:
            unc = econ.uncertainty
            capex = system.capex.all_in_usd_per_node
            out.append(_around("capex", capex, unc.capex_relative, widen, "USD per node", unc.source))
        if assumptions.electricity_usd_per_kwh is None:
            e = econ.electricity
            low, high = e.usd_per_kwh_low or e.usd_per_kwh, e.usd_per_kwh_high or e.usd_per_kwh
            out.append(
                _between("electricity", e.usd_per_kwh, low, high, widen, "USD per kWh", e.source, shared=True)
            )
    if assumptions.pue is None:
        f = econ.facility
        pue = _between(
            "pue", f.pue, f.pue_low or f.pue, f.pue_high or f.pue, widen, "", f.source, shared=True
        )
        out.append(Spread("pue", max(pue.low, 1.0), pue.expected, pue.high, pue.unit, pue.source, True))
    return out


def input_spreads(
    est: Estimate, workload: Workload, catalog: Catalog, assumptions: Assumptions, widen: float = 1.0
) -> dict[str, Spread]:
    """The uncertain inputs behind `est`; `widen` scales every spread (1 = the catalog's)."""
    spreads = [
        *_speed_spreads(est, catalog, widen, strong_scaling_share(workload, est.memory.min_gpus, catalog)),
        *_money_spreads(est, workload, catalog, assumptions, widen),
        *_owner_spreads(est, catalog, widen),
    ]
    return {spread.name: spread for spread in spreads}


def _owner_spreads(est: Estimate, catalog: Catalog, widen: float) -> list[Spread]:
    """Owning: the finance inputs (`owner_spreads`), shared by every system; a fraction never above 1."""
    out = []
    for spec, found in owner_ranges(est, catalog):
        spread = _between(
            spec.name, found.value, found.low, found.high, widen, spec.unit, found.source, shared=True
        )
        if spec.name == "utilization":
            spread = replace(spread, high=min(spread.high, 1.0))
        out.append(spread)
    return out


class _Basis(NamedTuple):
    """What the ranges recompute from, once per estimate: its hours and its dollars by cost driver."""

    est: Estimate
    billed_hours: float
    """Hours paid for: the run's, or a reservation's whole term when longer."""
    cost: DriverCost
    term_hours: float
    """A reservation's term, paid in full however short the run (0 otherwise)."""
    capital_share: float
    """Capital over the capex driver's dollars, the rest maintenance (`owner_spreads`)."""

    @classmethod
    def of(cls, est: Estimate) -> _Basis:
        term = est.term_hours
        paid = max(est.time_to_train_hours, term)
        usd = run_cost_usd(est.cost_parts, paid, est.gpus, est.gpus_paid)
        share = capital_usd_share(est.cost_parts, usd)
        return cls(est, paid, cost_by_driver(est.cost_parts, usd), term, share)


def _outputs(
    basis: _Basis, values: Mapping[str, float], spreads: Mapping[str, Spread]
) -> tuple[float, float, float]:
    """(time to result hours, cost, kWh) with `values` in place of the expected inputs.

    Time is recomputed from the estimate's hours; cost from its dollars per cost driver
    (`run_cost_usd`), each scaled by its inputs' ratios; energy with `run_energy_kwh`, as `estimate()`.
    """

    def ratio(name: str) -> float:
        return values[name] / spreads[name].expected if name in spreads else 1.0

    est = basis.est
    hours = est.time_breakdown_hours
    compute = (hours["compute"] + hours["overhead"]) / ratio("mfu") / ratio("efficiency")
    run = compute / (values["goodput"] if "goodput" in spreads else est.goodput)
    billed = run + hours["setup"]
    capex, hosting = owner_factors(basis.capital_share, spreads, values)
    cost = scaled_cost_usd(
        basis.cost,
        max(billed, basis.term_hours) / basis.billed_hours,
        capex=ratio("capex") * capex,
        hosting=hosting,
        energy=ratio("pue") * ratio("electricity"),
        rental=ratio("price"),
    )
    pue = values["pue"] if "pue" in spreads else None
    kwh = run_energy_kwh(est.power_draw, billed, est.gpus, pue)
    if est.serves_a_rate:
        # A fleet at a target rate serves its month at any speed: a slower one is more GPUs, not longer.
        return hours["wait"] + basis.billed_hours, cost, kwh
    return hours["wait"] + billed, cost, kwh


HIGHER_HELPS = frozenset({"mfu", "goodput", "efficiency", *HELPS})
"""Higher MFU, goodput, efficiency, depreciation life and utilisation help; a higher price, capex,
electricity, PUE, cost of capital, maintenance and colocation rent hurt."""


def _corner(spreads: Mapping[str, Spread], favourable: bool) -> dict[str, float]:
    return {name: (s.high if (name in HIGHER_HELPS) == favourable else s.low) for name, s in spreads.items()}


def _triangular(rng: random.Random, s: Spread) -> float:
    if s.triangle is None:
        return s.expected
    low, mode, top = s.triangle
    return min(rng.triangular(low, top, mode), s.high)


def percentile(values: Sequence[float], q: float) -> float:
    """The `q` quantile of `values`, interpolating linearly between the ordered values."""
    ordered = sorted(values)
    index = q * (len(ordered) - 1)
    lo, hi = math.floor(index), math.ceil(index)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (index - lo)


def estimate_range(
    est: Estimate, spreads: Mapping[str, Spread], samples: Sequence[Mapping[str, float]] | None = None
) -> EstimateRange:
    """Interval bounds and sampled P10-P90 of time, cost and energy for one estimate."""
    draws = samples if samples is not None else sample_inputs({est.system: spreads})[est.system]
    return range_of(est, spreads, sampled_outputs(est, spreads, draws))


def range_of(
    est: Estimate, spreads: Mapping[str, Spread], sampled: Sequence[tuple[float, float, float]]
) -> EstimateRange:
    """`estimate_range` from outputs already sampled (`sampled_outputs`), so they are computed once."""
    expected = (est.time_to_result_hours, est.cost_usd, est.energy_kwh)
    basis = _Basis.of(est)
    good = _outputs(basis, _corner(spreads, True), spreads)
    bad = _outputs(basis, _corner(spreads, False), spreads)

    def make(i: int) -> Range:
        column = [s[i] for s in sampled]
        low, high = min(good[i], bad[i], expected[i]), max(good[i], bad[i], expected[i])
        return Range(expected[i], low, high, percentile(column, 0.1), percentile(column, 0.9))

    cost = make(1)
    per_m = 1e6 / est.tokens
    return EstimateRange(
        system=est.system,
        time_to_result_hours=make(0),
        cost_usd=cost,
        cost_per_million_tokens_usd=Range(
            *(v * per_m for v in (cost.expected, cost.low, cost.high, cost.p10, cost.p90))
        ),
        energy_kwh=make(2),
        inputs=dict(spreads),
    )


def sample_inputs(
    spreads_by_system: Mapping[str, Mapping[str, Spread]], n: int = SAMPLES, seed: int = SEED
) -> dict[str, list[dict[str, float]]]:
    """Joint samples: shared inputs (PUE, electricity) take one value per draw for every system."""
    rng = random.Random(seed)
    out: dict[str, list[dict[str, float]]] = {sid: [] for sid in spreads_by_system}
    for _ in range(n):
        shared: dict[str, float] = {}
        for sid, spreads in spreads_by_system.items():
            values = {}
            for name, spread in spreads.items():
                if spread.shared:
                    if name not in shared:
                        shared[name] = _triangular(rng, spread)
                    values[name] = shared[name]
                else:
                    values[name] = _triangular(rng, spread)
            out[sid].append(values)
    return out


def sampled_outputs(
    est: Estimate, spreads: Mapping[str, Spread], draws: Sequence[Mapping[str, float]]
) -> list[tuple[float, float, float]]:
    """(time, cost, kWh) for each joint draw (used to test whether the winner holds)."""
    basis = _Basis.of(est)
    return [_outputs(basis, values, spreads) for values in draws]
