"""Sizing to a deadline keeps one risk allowance, and says which: a conservative team's P90 time to
result (catalog/economics.toml [risk]) or, for a team judged on the expected time, the sizing margin.
Before, a conservative team was sized so its P90 met the deadline less the 10% margin: the same risk
counted twice (1,800 rented MI300X for a 30-day 2T-token 70B run instead of 1,560, $2.11M instead of
$1.83M)."""

from __future__ import annotations

from datetime import date
from functools import cache

import pytest

from advisor.core.costing.estimate import estimate
from advisor.core.decision.constraints import judged_hours
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.run import ScenarioAdvice, advise_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

TODAY = date(2026, 12, 1)
DEADLINE = 30
SYSTEMS = ["h100", "mi300x"]


@cache
def _advice(risk: str, margin: float = 0.1) -> ScenarioAdvice:
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "size_to_deadline": True,
            "systems": SYSTEMS,
            "constraints": {"deadline_days": DEADLINE, "risk": risk, "sizing_margin": margin},
            "workload": {"model": "llama3-70b", "tokens": "2T", "precision": "fp8"},
        }
    )
    return advise_scenario(scenario, shipped_catalog(), load_rules(), today=TODAY)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_conservative_team_is_sized_to_the_p90_alone_not_the_p90_less_the_margin(system: str) -> None:
    advice = _advice("conservative")
    basis = advice.request.deadline_basis
    assert basis is not None and basis.quantile == 0.9
    found = next(f for f in advice.sizing if f.system == system)
    assert found.binding == "deadline" and found.margin == 0.0 and found.estimate is not None
    deadline_hours = DEADLINE * HOURS_PER_DAY
    assert judged_hours(found.estimate, basis) <= deadline_hours
    # Not oversized: one node fewer misses the deadline itself at P90 (with the margin on top, the
    # size met 27 days at P90, and one node fewer still met 30).
    node = shipped_catalog().system(system).interconnect.gpus_per_node
    fewer = advice.workload.model_copy(update={"gpus": found.estimate.gpus - node})
    short = estimate(fewer, system, shipped_catalog(), advice.request.capacity_assumptions())
    assert judged_hours(short, basis) > deadline_hours


def test_the_conservative_answer_says_its_allowance_and_that_no_margin_was_added() -> None:
    rec = _advice("conservative").recommendation
    notes = [r.text for c in rec.candidates for r in c.reasons if r.text.startswith("sized to the deadline")]
    assert notes and all(
        n.startswith("sized to the deadline so its P90 time to result meets it: ") for n in notes
    )
    assert "; no 10% sizing margin on top of the P90)" in rec.verdict.sentence()


def test_a_balanced_team_keeps_the_margin_and_says_so() -> None:
    advice = _advice("balanced")
    assert advice.request.deadline_basis is None
    assert {f.margin for f in advice.sizing} == {0.1}
    for found in advice.sizing:
        assert found.estimate is not None
        assert found.estimate.time_to_result_hours <= 0.9 * DEADLINE * HOURS_PER_DAY
    rec = advice.recommendation
    notes = [r.text for c in rec.candidates for r in c.reasons if r.text.startswith("sized to the deadline")]
    expected = "sized to the deadline with a 10% margin (to finish within 27.0 of its 30 days): "
    assert notes and all(n.startswith(expected) for n in notes)
    assert "sizing margin" not in rec.verdict.sentence()


def test_a_conservative_team_without_a_margin_is_told_nothing_was_left_out() -> None:
    rec = _advice("conservative", 0.0).recommendation
    sentence = rec.verdict.sentence()
    assert "(P90 " in sentence and "sizing margin" not in sentence
    # The margin no longer moves a conservative sizing: one allowance, the P90.
    sizes = {f.system: f.gpus for f in _advice("conservative", 0.0).sizing}
    assert sizes == {f.system: f.gpus for f in _advice("conservative").sizing}
