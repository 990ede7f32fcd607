"""The tornado shows the inputs that move the winner's cost or time, and only those."""

from __future__ import annotations

from datetime import date

import pytest

from advisor.core.analysis.sensitivity import sensitivity
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.workload import Constraints, Workload
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()


@pytest.mark.parametrize("pricing", ["rent", "own"])
def test_every_bar_moves_the_answer(pricing):
    w = Workload(model=CATALOG.model("llama3-70b"), tokens=2e12, gpus=512, precision="fp8", pricing=pricing)
    request = AdviceRequest(w, CATALOG, load_rules(), Constraints(), today=date(2026, 11, 29))
    rec, sens = sensitivity(request, samples=50, with_break_evens=False)
    spreads = sens.ranges[rec.winner].inputs
    bars = {bar.input for bar in sens.tornado}
    assert all(bar.cost_swing > 0 or bar.hours_at_low != bar.hours_at_high for bar in sens.tornado)
    # A renter's PUE moves the energy only (the price covers power): a bar of no swing said nothing.
    assert "pue" in spreads and ("pue" in bars) == (pricing == "own")
    if pricing == "own":
        assert {"depreciation", "cost_of_capital", "maintenance", "utilization", "colocation"} <= bars


def test_the_app_tornado_gives_each_range_in_its_unit():
    from rich.console import Console

    from advisor.core.run import run_scenario
    from advisor.core.scenario import Scenario
    from advisor.tui.widgets.sensitivity_view import sensitivity_content

    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "name": "own",
            "workload": {"model": "llama3-70b", "tokens": 2e12, "gpus": 512, "pricing": "own"},
        }
    )
    result = run_scenario(scenario, CATALOG, load_rules(), today=date(2026, 11, 29), samples=50)
    console = Console(width=200, record=True)
    console.print(sensitivity_content(result))
    text = console.export_text()
    # as the CLI prints them (present.numbers.input_label, input_value), not keys and bare numbers
    # ("cost_of_capital 0.07–0.15")
    assert "depreciation 4 years–6 years" in text
    assert "cost of capital 7.0%/year–15.0%/year" in text
    assert "utilisation 70% of hours–100% of hours" in text and "PUE " in text
    assert "cost_of_capital" not in text and "utilization" not in text
