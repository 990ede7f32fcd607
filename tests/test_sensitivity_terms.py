"""The speed-for-price line when rentals pay a reservation's whole term (longer than the run)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from advisor.core.analysis.breakeven import break_evens
from advisor.core.analysis.sensitivity import speed_for_price
from advisor.core.costing.estimate import estimate
from advisor.core.decision.advise import advise
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.workload import Constraints, Workload
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
RULES = load_rules()
TODAY = date(2026, 11, 29)


def _request(
    tokens: float = 1e12, systems: tuple[str, ...] = ("a100", "mi300x"), **job: Any
) -> AdviceRequest:
    # The app walk's case: Llama 3 8B, 1T tokens on 512 rented GPUs, beyond on-demand capacity, so each
    # system rents on a 30-day reservation and each run is shorter than the term.
    job = {"model": CATALOG.model("llama3-8b"), "gpus": 512, **job}
    workload = Workload(tokens=tokens, precision="bf16", pricing="rent", **job)
    return AdviceRequest(workload, CATALOG, RULES, Constraints(), today=TODAY, systems=list(systems))


def test_both_paying_their_term_the_line_names_the_term_not_the_hourly_price():
    rec = advise(_request())
    a100, mi300x = (rec.candidate(s).estimate for s in ("a100", "mi300x"))
    assert a100 is not None and mi300x is not None
    assert max(a100.time_to_train_hours, mi300x.time_to_train_hours) < 30 * 24  # the premise: both in term
    (line,) = speed_for_price(rec)
    assert "per GPU-hour, so it needs" not in line  # the hourly comparison buys nothing here
    assert "each pay a 30-day reservation in full" in line
    assert "speed buys nothing until the run outlasts the term" in line
    ratio = mi300x.cost_usd / a100.cost_usd
    assert f"mi300x costs {ratio:.2f}x a100" in line
    assert "mi300x costs less from about" in line


def test_crossover_is_where_the_real_costs_swap():
    """At the run size stated, the cost model itself swaps the two systems' order."""
    from advisor.core.analysis.speed_price import cost_crossover

    rec = advise(_request())
    a100, mi300x = (rec.candidate(s).estimate for s in ("a100", "mi300x"))
    assert a100 is not None and mi300x is not None
    below, above = cost_crossover(mi300x, a100)
    assert below is None and above is not None and 1 < above < 10

    def gap(scale: float) -> float:
        w = _request(tokens=1e12 * scale).workload
        return estimate(w, "mi300x", CATALOG).cost_usd - estimate(w, "a100", CATALOG).cost_usd

    assert gap(above * 0.97) > 0 > gap(above * 1.03)


def test_no_crossover_when_the_dearer_is_not_fast_enough():
    from advisor.core.analysis.speed_price import cost_crossover

    rec = advise(_request())
    a100 = rec.candidate("a100").estimate
    assert a100 is not None
    # the same run at thrice a100's hourly price, half its speed: never the cheaper at any run size
    slow = replace(
        a100,
        system="slow",
        cost_usd=a100.cost_usd * 3,
        price_usd_per_gpu_hour=a100.price_usd_per_gpu_hour * 3,
        tokens_per_second_per_gpu=a100.tokens_per_second_per_gpu / 2,
        time_breakdown_hours={**a100.time_breakdown_hours, "setup": 0.0},
    )
    assert cost_crossover(slow, a100) == (None, None)


def test_runs_past_the_term_keep_the_hourly_line():
    from advisor.core.analysis.speed_price import pays_idle_term

    rec = advise(_request(tokens=20e12))
    assert not any(pays_idle_term(c.estimate) for c in rec.candidates if c.estimate is not None)
    (line,) = speed_for_price(rec)
    assert "per GPU-hour, so it needs at least" in line


def test_break_even_says_why_no_speed_of_the_runner_up_flips_it():
    request = _request()
    rec = advise(request)
    _runner, found = break_evens(rec, request)
    (mfu,) = [b for b in found if b.input == "mfu" and b.system == "mi300x"]
    assert mfu.threshold is None
    assert mfu.sentence.endswith("mi300x pays its reservation's whole term however fast it runs")


@pytest.mark.parametrize("tokens", [1e12, 20e12])
def test_lines_name_both_systems(tokens: float):
    (line,) = speed_for_price(advise(_request(tokens=tokens)))
    assert "a100" in line and "mi300x" in line


def test_a_short_run_says_setup_not_the_ranking_makes_the_slower_system_cheaper():
    # The 7B fine-tune example (56 min on 8 rented A100s): a100 loses to mi300x and h100 per dollar of
    # compute yet costs less, since setup is most of mi300x's and h100's short runs. The line said "a100
    # is still recommended: a100 is 13.7% cheaper than mi300x", against its own "loses per rental dollar",
    # and gave that mi300x reason for the h100 pair too.
    from pathlib import Path

    from advisor.core.run import run_scenario
    from advisor.io.scenario_files import load_scenario

    scenario = load_scenario(Path(__file__).parent.parent / "examples" / "7b-finetune.toml", CATALOG)
    result = run_scenario(scenario, CATALOG, RULES, today=TODAY, samples=200)
    lines = result.sensitivity.speed_for_price
    assert result.recommendation.winner == "a100" and len(lines) == 2  # the premise
    for line in lines:
        assert "for the fine-tune, a100 costs less all the same" in line and "the fixed setup takes" in line
        assert "still recommended" not in line


@pytest.mark.parametrize("gpus", [64, 512])
def test_a_serving_job_is_worded_as_one(gpus):
    # Llama 3 70B serving 100B tokens: mi300x pays its 30-day term (18.6 days on 64 GPUs); the line said
    # "for a run of 18.6 days" (the rules' {run} fact words it "the serving job").
    job = {"model": CATALOG.model("llama3-70b"), "gpus": gpus, "kind": "inference"}
    (line,) = speed_for_price(advise(_request(1e11, **job)))
    assert "reservation in full" in line and "the serving job" in line
    assert "a run" not in line and "their runs" not in line
