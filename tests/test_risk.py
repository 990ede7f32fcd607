"""Risk appetite changes what meeting a deadline means: a conservative team is held to the P90 of the
time to result (catalog/economics.toml [risk]) in the sizing, the feasibility, the verdict, the headline
and what would change it; a balanced team keeps the expected estimate."""

from __future__ import annotations

import random
from datetime import date
from functools import cache
from typing import get_args

import pytest

from advisor.core.analysis.time_quantile import deadline_quantile, quantile_hours, run_factor_quantile
from advisor.core.analysis.uncertainty import Spread, input_spreads, percentile
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Risk
from advisor.core.run import ScenarioResult, run_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

TODAY = date(2026, 12, 1)
# The buyer's case: Llama 3 70B on 15T FP8 tokens, owning 1,024 H100 that alone cannot finish in 200
# days, sized to the deadline. Before, a conservative team was told to use 744 of its H100, which meet
# the deadline in only 68% of the samples, while the verdict itself called that too uncertain.
OWNED_H100 = {
    "model": "llama3-70b",
    "tokens": 15e12,
    "precision": "fp8",
    "pricing": "own",
    "owned_gpus": {"h100": 1024},
    "deadline_days": 200,
    "size_to_deadline": True,
}


@cache
def _result(risk: str, deadline: float = 200) -> ScenarioResult:
    data = {
        "schema": 1,
        "name": f"risk {risk}",
        "workload": {k: v for k, v in OWNED_H100.items() if k not in _SPLIT},
        "constraints": {"deadline_days": deadline, "risk": risk},
        "assumptions": {"owned_gpus": OWNED_H100["owned_gpus"]},
        "size_to_deadline": True,
    }
    catalog = shipped_catalog()
    return run_scenario(Scenario.model_validate(data), catalog, load_rules(), today=TODAY)


_SPLIT = {"owned_gpus", "deadline_days", "size_to_deadline"}


def test_every_appetite_names_its_deadline_quantile_in_the_catalog() -> None:
    catalog = shipped_catalog()
    assert set(catalog.economics.risk.deadline_quantile) == set(get_args(Risk))
    assert deadline_quantile(catalog, "conservative") == 0.9
    assert deadline_quantile(catalog, "balanced") is None


def test_a_conservative_team_gets_a_system_that_finishes_by_the_deadline_in_9_runs_in_10() -> None:
    result = _result("conservative")
    rec, deadline_hours = result.recommendation, 200 * HOURS_PER_DAY
    assert rec.winner is not None
    # The sampled P90 of the analysis (independent of the computed quantile) is within the deadline,
    # and so is the share of samples meeting it.
    p90 = result.sensitivity.ranges[rec.winner].time_to_result_hours.p90
    assert p90 <= deadline_hours
    assert result.sensitivity.robustness is not None
    assert (result.sensitivity.robustness.deadline_share or 0) >= 0.88
    sentence = rec.verdict.sentence()
    assert "too uncertain" not in sentence
    assert "sized so that 9 runs in 10 finish within the 200-day deadline (P90 " in sentence
    assert "at P90" in rec.headline
    # Sizing and feasibility agree: the winner's sizing says P90, and every system kept out by the
    # deadline is kept out at P90.
    sized = next(s for s in result.sizing if s.system == rec.winner)
    assert "at P90" in sized.reason
    for cand in rec.candidates:
        late = [r.text for r in cand.reasons if r.constraint == "deadline"]
        assert all("at P90 (9 runs in 10 must finish by it)" in text for text in late)


def test_h100_is_sized_to_p90_beyond_the_744_owned_gpus_that_met_it_on_average() -> None:
    result = _result("conservative")
    h100 = result.recommendation.candidate("h100").estimate
    assert h100 is not None and h100.gpus > 744
    sized = next(s for s in result.sizing if s.system == "h100")
    # sized on the P90, not the expected time: more of the owned GPUs (with the 27-run production line,
    # all 1,024 owned finish within the deadline at P90, 199.3 days; with the 10% margin wrongly on top
    # of the P90, 1,016 of them were sized to 180 days at P90)
    assert "at P90" in sized.reason and sized.gpus == h100.gpus


def test_what_would_change_it_names_the_deadline_at_p90() -> None:
    rec = _result("conservative", deadline=60).recommendation
    lines = [line for line in rec.what_would_change if "instead of 60" in line]
    assert lines
    assert all(" at P90 instead of 60" in line for line in lines)


def test_a_balanced_team_keeps_the_expected_estimate_and_its_answer() -> None:
    result = _result("balanced")
    rec = result.recommendation
    # The answer before risk appetites judged deadlines: GB300 NVL72 sized to 2,304 GPUs, meeting the
    # deadline in about 54% of samples (49% before the 27-run production line, 57% with it; the 32-run
    # line's wider spread and the owner's finance ranges put it back to 46%; the 38-run line,
    # 0.842 of the reference at 70B instead of 0.832, to 54%; refitted at 0.867 with the dense MFU
    # ranges fitted on dense cases (ev31), 60%), which the verdict reports.
    assert rec.winner == "gb300-nvl72"
    assert rec.candidate("gb300-nvl72").estimate.gpus == 2304
    assert "meets the 200-day deadline in only about 60% of samples" in rec.verdict.sentence()
    assert "P90" not in rec.headline and "9 runs in 10" not in rec.verdict.sentence()
    assert all("P90" not in s.reason for s in result.sizing)


def _spread(name: str, low: float, expected: float, high: float) -> Spread:
    return Spread(name, low, expected, high, "fraction", "test")


@pytest.mark.parametrize(
    "spreads",
    [
        {"mfu": _spread("mfu", 0.3, 0.42, 0.54), "goodput": _spread("goodput", 0.8, 0.9, 0.95)},
        {"efficiency": _spread("efficiency", 0.55, 0.8, 1.1), "goodput": _spread("goodput", 0.6, 0.75, 0.85)},
        {"mfu": _spread("mfu", 0.38, 0.4, 0.42)},
    ],
)
@pytest.mark.parametrize("q", [0.5, 0.9])
def test_the_computed_quantile_matches_sampling(spreads: dict[str, Spread], q: float) -> None:
    rng = random.Random(7)
    factors = []
    for _ in range(100_000):
        factor = 1.0
        for s in spreads.values():
            factor *= s.expected / rng.triangular(s.low, s.high, s.expected)
        factors.append(factor)
    assert run_factor_quantile(spreads, q) == pytest.approx(percentile(factors, q), rel=0.004)


def test_quantile_hours_add_the_fixed_wait_and_setup() -> None:
    result = _result("conservative")
    est = result.recommendation.candidate(result.recommendation.winner or "").estimate
    assert est is not None
    catalog = shipped_catalog()
    spreads = input_spreads(
        est,
        result.workload,
        catalog,
        Scenario.model_validate(
            {"schema": 1, "name": "x", "workload": {"model": "llama3-70b", "tokens": 1e9}}
        ).assumptions,
    )
    fixed = est.time_breakdown_hours["wait"] + est.time_breakdown_hours["setup"]
    p50, p90 = quantile_hours(est, spreads, 0.5), quantile_hours(est, spreads, 0.9)
    assert fixed < p50 < p90
    assert p90 - fixed == pytest.approx(
        (est.time_to_result_hours - fixed) * run_factor_quantile(spreads, 0.9)
    )


def test_the_sizing_and_the_report_say_which_quantile_was_used() -> None:
    from advisor.report import build_report, render_report

    assert {s.quantile for s in _result("conservative").sizing} == {0.9}
    assert {s.quantile for s in _result("balanced").sizing} == {None}
    scenario = _result("conservative").scenario
    report = render_report(
        build_report(scenario, shipped_catalog(), load_rules(), today=TODAY, version="t"), "md"
    )
    # one allowance, the P90, and the margin said not to be added on top of it
    blurb = (
        "meets the 200-day deadline, sized so its P90 time to result meets it (the team's risk appetite; "
        "no 10% sizing margin on top of the P90)"
    )
    assert blurb in report
    assert "sized so that 9 runs in 10 finish within the 200-day deadline (P90 " in report


def test_the_app_headline_says_it() -> None:
    from advisor.present.headline import verdict_line

    result = _result("conservative")
    line = verdict_line(result.recommendation, result.sensitivity).plain
    assert "sized so that 9 runs in 10 finish within the 200-day deadline (P90 " in line
    balanced = _result("balanced")
    assert "9 runs in 10" not in verdict_line(balanced.recommendation, balanced.sensitivity).plain


def test_the_python_api_judges_a_conservative_deadline_at_p90_too() -> None:
    from advisor.api import advise
    from advisor.core.model.workload import Constraints, Workload

    catalog = shipped_catalog()
    workload = Workload(model=catalog.model("llama3-70b"), tokens=15e12, gpus=4096, precision="fp8")
    careful = advise(workload, catalog, constraints=Constraints(deadline_days=40, risk="conservative"))
    balanced = advise(workload, catalog, constraints=Constraints(deadline_days=40))
    late = [r.text for c in careful.candidates for r in c.reasons if r.constraint == "deadline"]
    assert late and all("at P90" in text for text in late)
    assert not any("at P90" in r.text for c in balanced.candidates for r in c.reasons)
