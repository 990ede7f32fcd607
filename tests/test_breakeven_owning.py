"""Break-even points in the owner's finance inputs: the depreciation life and the cost of capital."""

from __future__ import annotations

from datetime import date

from advisor.core.analysis.sensitivity import sensitivity
from advisor.core.decision.advise import advise
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.workload import Constraints, Workload
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog
from tests.test_uncertainty import _moved

CATALOG = shipped_catalog()
RULES = load_rules()
TODAY = date(2026, 11, 29)


def _request(pricing: str) -> AdviceRequest:
    # `advisor sensitivity --model llama3-70b --tokens 2T --gpus 512 --pricing own`: gb300-nvl72 wins on
    # the rules' weights, b300 is cheaper per TCO dollar, and a shorter life weighs on the rack's capital.
    workload = Workload(
        model=CATALOG.model("llama3-70b"), tokens=2e12, gpus=512, precision="fp8", pricing=pricing
    )
    return AdviceRequest(
        workload, CATALOG, RULES, Constraints(), systems=("gb300-nvl72", "b300"), today=TODAY
    )


def test_the_depreciation_life_has_a_break_even_that_flips_the_winner():
    request = _request("own")
    rec, sens = sensitivity(request, samples=50)
    found = {item.input: item for item in sens.break_evens if item.threshold is not None}
    life = found["depreciation"]
    assert life.current == 6 and 0.5 < life.threshold < 6
    assert life.sentence.startswith(f"{sens.runner_up} becomes the better choice if the depreciation life")
    assert f"below {life.threshold:.1f} years (now 6 years; the catalog's range 4–6 years)" in life.sentence
    # Fed back: just below the threshold the runner-up wins, just above it the winner holds.
    assert advise(_moved(request, life, life.threshold * 0.99)).winner == sens.runner_up
    assert advise(_moved(request, life, life.threshold * 1.01)).winner == rec.winner
    rate = found.get("cost_of_capital")
    if rate is not None:
        beyond = rate.threshold * (1.01 if rate.threshold > rate.current else 0.99)
        assert advise(_moved(request, rate, beyond)).winner == sens.runner_up


def test_renting_has_no_finance_break_even():
    _, sens = sensitivity(_request("rent"), samples=50)
    assert not {"depreciation", "cost_of_capital"} & {item.input for item in sens.break_evens}
