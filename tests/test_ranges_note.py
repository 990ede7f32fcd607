"""An expected figure outside its own P10–P90 is said, with the inputs taken at one end of their range.

A buyer read "b200 $14.8M ($15.5M to $27.9M)" with nothing saying why the figure lies below its own
range: owning is costed at 100% of hours over a 6-year life, the favourable ends (new-user walk, stop 27).
"""

from __future__ import annotations

from advisor.core.analysis.uncertainty import EstimateRange, Range, Spread
from advisor.present.ranges import outside_note
from tests.test_reports import GOLDEN_SCENARIOS, example_report

INSIDE = Range(expected=10.0, low=5.0, high=20.0, p10=8.0, p90=14.0)


def _system(name: str, *, cost: Range = INSIDE, time: Range = INSIDE) -> EstimateRange:
    inputs = {
        "utilization": Spread("utilization", 0.7, 1.0, 1.0, "fraction", "assumption"),
        "depreciation": Spread("depreciation", 4.0, 6.0, 6.0, "years", "10-Q"),
        "efficiency": Spread("efficiency", 0.4, 1.0, 1.3, "share", "fit"),
        "goodput": Spread("goodput", 0.9, 0.95, 0.98, "fraction", "fit"),
    }
    return EstimateRange(name, time, cost, INSIDE, INSIDE, inputs)


def test_a_cost_below_its_p10_names_the_systems_and_the_one_sided_inputs():
    below = Range(expected=10.0, low=9.0, high=30.0, p10=11.0, p90=20.0)
    note = outside_note({"b200": _system("b200", cost=below), "h100": _system("h100")})
    assert note.startswith("The expected cost of b200 lies below its P10")
    assert "utilisation (100% of hours; the other end 70% of hours)" in note
    assert "depreciation (6 years; the other end 4 years)" in note
    assert "h100" not in note and "efficiency" not in note and "goodput" not in note


def test_a_time_outside_its_range_is_not_blamed_on_the_finance_inputs():
    above = Range(expected=30.0, low=9.0, high=31.0, p10=11.0, p90=20.0)
    note = outside_note({"h100": _system("h100", time=above)})
    assert "time to result of h100 lies above its P90" in note
    assert "depreciation" not in note and "utilisation" not in note
    assert "run one way" in note


def test_nothing_is_said_when_every_expected_figure_is_inside():
    assert outside_note({"b200": _system("b200"), "h100": _system("h100")}) == ""


def test_each_golden_report_says_which_expected_costs_lie_outside_their_range():
    from advisor.report.tables import range_blurb

    for stem in GOLDEN_SCENARIOS:
        report = example_report(stem)
        blurb = range_blurb(report)
        for system, rng in report.sensitivity.ranges.items():
            cost = rng.cost_usd
            outside = not cost.p10 <= cost.expected <= cost.p90
            assert outside == (outside and system in blurb), (stem, system)
        anything_outside = any(
            not getattr(r, key).p10 <= getattr(r, key).expected <= getattr(r, key).p90
            for r in report.sensitivity.ranges.values()
            for key in ("time_to_result_hours", "cost_usd", "energy_kwh")
        )
        assert ("plan on the P10 to P90" in blurb) == anything_outside, stem
