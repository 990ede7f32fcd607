"""Ranges, robustness and break-even points (issue: decisions under uncertainty)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.analysis.breakeven import repriced
from advisor.core.analysis.sensitivity import LIKELY, sensitivity
from advisor.core.analysis.uncertainty import estimate_range, input_spreads, sampled_outputs, spread_class
from advisor.core.costing.estimate import estimate
from advisor.core.decision.advise import advise
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.workload import Constraints, Workload
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog
from tests.test_properties import workloads as random_workloads

CATALOG = shipped_catalog()
RULES = load_rules()
TODAY = date(2026, 11, 29)


@st.composite
def cases(draw):
    model = CATALOG.model(draw(st.sampled_from(["llama2-7b", "llama2-13b", "llama3-70b", "deepseek-v3"])))
    workload = Workload(
        model=model,
        tokens=draw(st.floats(min_value=1e8, max_value=2e13)),
        gpus=draw(st.sampled_from([8, 64, 512, 2048])),
        precision=draw(st.sampled_from(["bf16", "fp8"])),
        pricing=draw(st.sampled_from(["rent", "own"])),
        kind=draw(st.sampled_from(["pretrain", "finetune", "inference"])),
    )
    return workload, draw(st.sampled_from(sorted(CATALOG.systems)))


OUTPUTS = ("time_to_result_hours", "cost_usd", "cost_per_million_tokens_usd", "energy_kwh")


@settings(max_examples=60, deadline=None)
@given(cases())
def test_ranges_contain_the_expected_value(case):
    workload, system = case
    est = estimate(workload, system, CATALOG)
    rng = estimate_range(est, input_spreads(est, workload, CATALOG, Assumptions()))
    for name in OUTPUTS:
        r = getattr(rng, name)
        assert r.low <= r.expected * (1 + 1e-9) and r.expected <= r.high * (1 + 1e-9)
        assert r.low <= r.p10 * (1 + 1e-9) and r.p10 <= r.p90 and r.p90 <= r.high * (1 + 1e-9)


@settings(max_examples=40, deadline=None)
@given(cases(), st.floats(min_value=1.0, max_value=3.0), st.floats(min_value=1.0, max_value=3.0))
def test_more_uncertainty_never_narrows_a_range(case, widen_a, extra):
    workload, system = case
    est = estimate(workload, system, CATALOG)
    narrow = estimate_range(est, input_spreads(est, workload, CATALOG, Assumptions(), widen=widen_a))
    wide = estimate_range(est, input_spreads(est, workload, CATALOG, Assumptions(), widen=widen_a * extra))
    for name in OUTPUTS:
        a, b = getattr(narrow, name), getattr(wide, name)
        assert b.low <= a.low * (1 + 1e-9) and b.high >= a.high * (1 - 1e-9)


@st.composite
def any_cases(draw):
    """`cases()`, or any random valid training workload (custom models, every precision and software)."""
    if draw(st.booleans()):
        return draw(cases())
    return draw(random_workloads()), draw(st.sampled_from(sorted(CATALOG.systems)))


def _at_expected_inputs(est, workload, assumptions=None):
    """(time to result, cost, kWh) as the ranges' arithmetic computes them with every input expected."""
    spreads = input_spreads(est, workload, CATALOG, assumptions or Assumptions())
    expected = {name: spread.expected for name, spread in spreads.items()}
    return sampled_outputs(est, spreads, [expected])[0]


@settings(max_examples=300, deadline=None)
@given(any_cases(), st.one_of(st.none(), st.floats(min_value=1.0, max_value=2.0)))
def test_range_arithmetic_at_the_expected_inputs_is_the_estimate(case, pue):
    # The ranges recompute time, cost and energy from the estimate's typed parts; at the expected inputs
    # they must give the estimate back, so a part added to one side and not the other fails here.
    workload, system = case
    assumptions = Assumptions(pue=pue)
    est = estimate(workload, system, CATALOG, assumptions)
    hours, cost, kwh = _at_expected_inputs(est, workload, assumptions)
    assert hours == pytest.approx(est.time_to_result_hours, rel=1e-12)
    assert cost == pytest.approx(est.cost_usd, rel=1e-12)
    assert kwh == pytest.approx(est.energy_kwh, rel=1e-12)
    assert sum(est.cost_breakdown_usd.values()) == est.cost_usd
    assert [part.name for part in est.cost_parts] == list(est.price_breakdown_usd_per_gpu_hour)
    assert [part.name for part in est.power_draw.parts] == list(est.power_breakdown_w)


@pytest.mark.parametrize("pricing", ["rent", "own"])
def test_a_cost_part_dropped_from_the_ranges_shows(pricing):
    # The check above can fail: the ranges computed without one of the estimate's parts disagree with it.
    w = Workload(model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8", pricing=pricing)
    est = estimate(w, "h100", CATALOG)
    for index in range(len(est.cost_parts)):
        dropped = replace(est, cost_parts=est.cost_parts[:index] + est.cost_parts[index + 1 :])
        assert _at_expected_inputs(dropped, w)[1] != pytest.approx(est.cost_usd, rel=1e-12)


def test_user_set_values_carry_no_spread():
    w = Workload(
        model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8", efficiency="reference"
    )
    a = Assumptions(mfu={"h100": 0.4}, goodput=0.95, price_usd_per_gpu_hour={"h100": 2.0}, pue=1.2)
    est = estimate(w, "h100", CATALOG, a)
    assert input_spreads(est, w, CATALOG, a) == {}
    rng = estimate_range(est, {})
    assert rng.cost_usd.low == rng.cost_usd.high == pytest.approx(est.cost_usd)


def test_production_runs_carry_the_fitted_efficiency_spread_in_place_of_the_mfu_spread():
    w = Workload(model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8")
    a = Assumptions(mfu={"h100": 0.4}, goodput=0.95, price_usd_per_gpu_hour={"h100": 2.0}, pue=1.2)
    est = estimate(w, "h100", CATALOG, a)
    spreads = input_spreads(est, w, CATALOG, a)
    production = CATALOG.mfu_scaling.production
    assert set(spreads) == {"efficiency"} and not spreads["efficiency"].shared
    factor = production.factor_for(w.model.params_total)
    assert spreads["efficiency"].low == pytest.approx(factor * production.spread_low)
    # The top is drawn to, and taken at the reference x (1 + the reference's own spread) above it.
    assert spreads["efficiency"].drawn_to == pytest.approx(factor * production.spread_high)
    share = CATALOG.economics.uncertainty.mfu_share(spread_class(est.mfu_basis), est.model.family)
    assert spreads["efficiency"].high == pytest.approx(min(factor * production.spread_high, 1 + share))
    reference = estimate(w.model_copy(update={"efficiency": "reference"}), "h100", CATALOG, a)
    assert est.time_breakdown_hours["overhead"] > 0 == reference.time_breakdown_hours["overhead"]
    assert est.time_to_train_hours > reference.time_to_train_hours


def test_a_production_run_is_not_drawn_faster_than_its_benchmark_beyond_the_benchmarks_own_spread():
    # Llama 3 405B, FP8 on GB300 NVL72: the production share is 1 at 405B, and the fitted spread's top
    # (x1.58, set by runs whose benchmark was transferred from another system or family) made the run
    # 58% faster than its recipe, about 84% MFU (new-user walk). The slow side stays as fitted.
    from advisor.core.analysis.time_quantile import run_factor_quantile
    from advisor.core.analysis.uncertainty import sample_inputs, spread_class

    w = Workload(model=CATALOG.model("llama3-405b"), tokens=15e12, gpus=2304, precision="fp8", pricing="own")
    est = estimate(w, "gb300-nvl72", CATALOG)
    eff = input_spreads(est, w, CATALOG, Assumptions())["efficiency"]
    production = CATALOG.mfu_scaling.production
    share = CATALOG.economics.uncertainty.mfu_share(spread_class(est.mfu_basis), est.model.family)
    assert eff.expected == 1.0 and eff.high == pytest.approx(1 + share) and eff.high < production.spread_high
    assert eff.drawn_to == pytest.approx(production.spread_high)
    assert eff.low == pytest.approx(production.spread_low)
    drawn = [d["efficiency"] for d in sample_inputs({est.system: {"efficiency": eff}})[est.system]]
    assert max(drawn) == eff.high and drawn.count(eff.high) > 1 and min(drawn) < eff.expected  # clipped
    unclipped = replace(eff, high=eff.drawn_to, drawn_to=None)
    slow, fast = 0.9, 0.1
    assert run_factor_quantile({"efficiency": eff}, slow) == run_factor_quantile(
        {"efficiency": unclipped}, slow
    )
    assert run_factor_quantile({"efficiency": eff}, fast) > run_factor_quantile(
        {"efficiency": unclipped}, fast
    )


def test_published_point_is_tighter_than_a_transferred_one():
    w = Workload(
        model=CATALOG.model("llama3-70b"),
        tokens=1e12,
        gpus=64,
        precision="fp8",
        software="2026-05",
        efficiency="reference",
    )
    exact = input_spreads(estimate(w, "h100", CATALOG), w, CATALOG, Assumptions())["mfu"]
    borrowed = input_spreads(estimate(w, "h200", CATALOG), w, CATALOG, Assumptions())["mfu"]
    assert exact.high / exact.expected < borrowed.high / borrowed.expected


SCENARIOS = [
    (dict(model="llama2-13b", tokens=26e9, gpus=8, precision="fp8"), Constraints()),
    (
        dict(model="llama3-405b", tokens=15e12, gpus=2016, precision="fp8", pricing="own"),
        Constraints(risk="early-adopter"),
    ),
    (dict(model="llama2-7b", tokens=10e9, gpus=8, kind="inference"), Constraints()),
]


SYSTEMS_2025 = ("a100", "h100", "h200", "b200", "gb200-nvl72")
"""The catalog these scenarios were written for (the 2026 systems change their winners)."""


def _run(spec, constraints, assumptions=None):
    spec = dict(spec)
    workload = Workload(model=CATALOG.model(spec.pop("model")), **spec)
    request = AdviceRequest(
        workload,
        CATALOG,
        RULES,
        constraints,
        assumptions=assumptions or Assumptions(),
        systems=SYSTEMS_2025,
        today=TODAY,
    )
    return workload, sensitivity(request, samples=400)


def _moved(request: AdviceRequest, item, value: float) -> AdviceRequest:
    """`request` with the break-even's input at `value`, as the break-even moves it: a catalog price in
    the catalog (it stays a quote or an assumption), anything else as the user's value."""
    name, system = item.input, item.system
    if name in ("price", "capex"):
        moved = repriced(CATALOG.system(system), name == "price", item.current, value)
        return replace(request, catalog=CATALOG.rebuilt(systems={**CATALOG.systems, system: moved}))
    if name in ("depreciation", "cost_of_capital"):
        field = "depreciation_years" if name == "depreciation" else name
        econ = CATALOG.economics
        finance = econ.finance.model_copy(update={field: value})
        return replace(
            request, catalog=CATALOG.rebuilt(economics=econ.model_copy(update={"finance": finance}))
        )
    if name in ("electricity", "pue"):
        key = "electricity_usd_per_kwh" if name == "electricity" else "pue"
        return replace(request, assumptions=Assumptions(**{key: value}))
    return replace(request, assumptions=Assumptions(**{name: {system: value}}))


@pytest.mark.parametrize(("spec", "constraints"), SCENARIOS, ids=["13b-rent", "405b-own", "7b-serving"])
def test_break_even_points_fed_back_flip_the_winner(spec, constraints):
    workload, (rec, sens) = _run(spec, constraints)
    assert sens.break_evens, "a two-system decision has break-even points"
    checked = 0
    for item in sens.break_evens:
        if item.threshold is None:
            continue
        # Just beyond the threshold (in the direction away from the current value) the answer flips ...
        beyond = item.threshold * (1.01 if item.threshold > item.current else 0.99)
        pair = AdviceRequest(
            workload, CATALOG, RULES, constraints, today=TODAY, systems=[rec.winner, sens.runner_up]
        )
        flipped = advise(_moved(pair, item, beyond))
        assert flipped.winner != rec.winner, item.sentence
        # ... and just short of it, it does not.
        short = item.threshold * (0.99 if item.threshold > item.current else 1.01)
        kept = advise(_moved(pair, item, short))
        assert kept.winner == rec.winner, item.sentence
        checked += 1
    assert checked >= 2


def test_robustness_says_whether_the_winner_holds():
    # On the 2025 systems: 13B rented on 8 GPUs is a close call (B200 against H200 and A100); 405B bought
    # by an early adopter a clearer one (GB200 NVL72: about 80% of samples since the production spread holds
    # 80% of published end-to-end runs, issue 11, 78% with the wider spread fitted on 32 runs, 73% with the
    # wider still x0.355-1.708 fitted on 35 runs at stop 26; the owner's
    # finance ranges, drawn once for every system, move the systems' capital alike but not equally). The
    # verdict follows the share of samples.
    _, (_, close) = _run(*SCENARIOS[0])
    _, (_, clear) = _run(*SCENARIOS[1])
    assert close.robustness.share < clear.robustness.share
    assert clear.robustness.share >= 0.70 and "gb200-nvl72 wins" in clear.robustness.verdict
    for r in (close.robustness, clear.robustness):
        assert ("across the range" in r.verdict) == (r.share >= 0.9)
    # The close call's share sits near LIKELY (59-62% as the production spread is refitted on more runs):
    # its verdict says "in most cases ..., not all" above it and "only near the expected values" below.
    close_verdict = close.robustness.verdict
    assert ("most cases" in close_verdict and "not all" in close_verdict) == (
        close.robustness.share >= LIKELY
    )
    assert ("only near the expected values" in close_verdict) == (close.robustness.share < LIKELY)
    assert 0 <= close.robustness.share <= 1 and sum(close.robustness.shares.values()) <= 1 + 1e-9


def test_tornado_is_sorted_by_swing_and_names_the_inputs():
    _, (_, sens) = _run(*SCENARIOS[1])
    swings = [bar.cost_swing for bar in sens.tornado]
    assert swings == sorted(swings, reverse=True)
    assert {bar.input for bar in sens.tornado} >= {"efficiency", "goodput", "capex", "pue", "electricity"}


# SemiAnalysis (Aug 2025): "GB200 must be at least 1.6x faster per GPU than H100 to win on performance
# per TCO dollar". The speed-for-price line states the bar and where the estimate stands.
def test_speed_for_price_line_for_gb200_against_h100():
    w = Workload(model=CATALOG.model("llama3-70b"), tokens=15e12, gpus=2016, precision="fp8", pricing="own")
    request = AdviceRequest(
        w, CATALOG, RULES, Constraints(risk="early-adopter"), today=TODAY, systems=["h100", "gb200-nvl72"]
    )
    _rec, sens = sensitivity(request, with_break_evens=False, samples=200)
    (line,) = sens.speed_for_price
    assert line.startswith("gb200-nvl72 costs 1.5") and "h100" in line and "wins per TCO dollar" in line


def test_break_evens_respect_deadline_sizing():
    from advisor.core.run import run_scenario
    from advisor.core.scenario import Scenario

    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "size_to_deadline": True,
            "constraints": {"deadline_days": 30},
            "workload": {"model": "llama3-70b", "tokens": "2T", "gpus": 64, "precision": "fp8"},
        }
    )
    result = run_scenario(scenario, CATALOG, RULES, today=TODAY, break_evens=True, samples=200)
    sized = {count.system: count.gpus for count in result.sizing if count.gpus is not None}
    assert sized and all(g > 64 for g in sized.values())
    # A cluster that size is reserved ahead: where the reservation alone outlasts the deadline, no size
    # meets it, and the sizing says why.
    for count in result.sizing:
        assert count.gpus is not None or count.binding == "lead time"
        assert count.gpus is not None or count.reason.startswith("a reservation takes")
    for item in result.sensitivity.break_evens:
        assert item.threshold is None or abs(item.threshold / item.current - 1) > 1e-3, item.sentence


def test_widened_pue_never_falls_below_one():
    # A PUE below 1 would mean the facility makes energy: widening stops at 1.
    w = Workload(model=CATALOG.model("llama3-8b"), tokens=1e10, gpus=8, pricing="own")
    est = estimate(w, "h100", CATALOG)
    pue = input_spreads(est, w, CATALOG, Assumptions(), widen=3.0)["pue"]
    assert pue.low == 1.0 < pue.expected < pue.high


def test_close_call_price_and_break_even_are_one_figure():
    # 13B on 64 rented GPUs in FP8: h100 is 0.2% cheaper than gb300-nvl72, whose price the catalog assumes
    # (on 8 GPUs, the README's example, it was mi355x over mi300x by 3.0% until MI300X was carried from
    # MI325X by the measured proxy ratio: now 33.5%). "What would change the answer" and the break-even point state the runner-up's
    # price to win; they once differed ($1.66 and $1.69, "now $1.69"): the break-even set the price as
    # the user's, which also dropped the assumed-price penalty.
    workload = Workload(model=CATALOG.model("llama2-13b"), tokens=26e9, gpus=64, precision="fp8")
    request = AdviceRequest(workload, CATALOG, RULES, Constraints(), today=TODAY)
    rec, sens = sensitivity(request, samples=200)
    stated = rec.price_to_win
    assert stated is not None and stated.sentence in rec.what_would_change
    (even,) = [b for b in sens.break_evens if b.input == "price" and b.system == stated.system]
    assert even.current == stated.current_usd_per_gpu_hour
    assert even.threshold == stated.threshold_usd_per_gpu_hour
    assert f"${stated.threshold_usd_per_gpu_hour:.2f}/GPU-hour" in even.sentence
    assert abs(even.threshold / even.current - 1) > 1e-3, even.sentence
