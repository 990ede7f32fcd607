"""The owner's finance inputs as uncertain inputs: depreciation life, cost of capital, maintenance,
utilisation and colocation rent (catalog/economics.toml ranges, `analysis.owner_spreads`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from advisor.core.analysis.owner_spreads import OWNER_INPUTS
from advisor.core.analysis.uncertainty import input_spreads, sampled_outputs
from advisor.core.costing.estimate import estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.economics import Finance
from advisor.core.model.workload import Workload
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
NAMES = [spec.name for spec in OWNER_INPUTS]


def _workload(pricing: str = "own", gpus: int = 512) -> Workload:
    return Workload(
        model=CATALOG.model("llama3-70b"), tokens=2e12, gpus=gpus, precision="fp8", pricing=pricing
    )


def _catalog_at(name: str, value: float):
    """The shipped catalog with one finance input at `value` (its range kept)."""
    spec = next(s for s in OWNER_INPUTS if s.name == name)
    econ = CATALOG.economics
    section = getattr(econ, spec.section).model_copy(update={spec.field: value})
    return CATALOG.rebuilt(economics=econ.model_copy(update={spec.section: section}))


def _cost_at(est, workload, assumptions, values):
    spreads = input_spreads(est, workload, CATALOG, assumptions)
    expected = {n: s.expected for n, s in spreads.items()}
    return sampled_outputs(est, spreads, [{**expected, **values}])[0][1]


def test_owning_spreads_every_finance_input_and_renting_none():
    w = _workload()
    own = input_spreads(estimate(w, "h100", CATALOG), w, CATALOG, Assumptions())
    assert set(NAMES) <= set(own)
    assert all(own[name].shared for name in NAMES)
    assert own["depreciation"].low == 4 and own["depreciation"].high == 6
    assert (own["cost_of_capital"].low, own["cost_of_capital"].high) == (0.07, 0.15)
    assert own["utilization"].high == 1.0 and own["utilization"].low == 0.7
    rent = _workload("rent")
    assert not set(NAMES) & set(input_spreads(estimate(rent, "h100", CATALOG), rent, CATALOG, Assumptions()))


def test_owned_gpus_have_no_capital_to_spread():
    # Every GPU already owned: the purchase is sunk, so its life and interest move nothing.
    w, a = _workload(gpus=64), Assumptions(owned_gpus={"h100": 64})
    spreads = input_spreads(estimate(w, "h100", CATALOG, a), w, CATALOG, a)
    assert "depreciation" not in spreads and "cost_of_capital" not in spreads
    assert {"maintenance", "utilization", "colocation"} <= set(spreads)


@pytest.mark.parametrize("owned", [0, 256])
@pytest.mark.parametrize("name", NAMES)
def test_the_ranges_arithmetic_is_the_estimate_at_each_end(name, owned):
    # The ranges scale the estimate's cost parts; a re-run estimate() with the catalog's value moved
    # must agree at both ends of the range (and with owned and bought GPUs together).
    w, a = _workload(), Assumptions(owned_gpus={"h100": owned})
    est = estimate(w, "h100", CATALOG, a)
    spread = input_spreads(est, w, CATALOG, a)[name]
    for value in (spread.low, (spread.low + spread.high) / 2, spread.high):
        rerun = estimate(w, "h100", _catalog_at(name, value), a)
        assert _cost_at(est, w, a, {name: value}) == pytest.approx(rerun.cost_usd, rel=1e-9)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(NAMES),
    st.floats(0, 1),
    st.floats(0, 1),
    st.sampled_from(["h100", "b200", "gb200-nvl72", "mi300x"]),
    st.sampled_from([0, 64]),
)
def test_cost_is_monotone_in_each_finance_input(name, a_at, b_at, system, owned):
    # The interval bounds take each input at one end of its range: that bounds every combination only
    # if the cost moves one way in each input, whatever the others are.
    w, a = _workload(), Assumptions(owned_gpus={system: owned})
    est = estimate(w, system, CATALOG, a)
    spreads = input_spreads(est, w, CATALOG, a)
    spread = spreads[name]
    lo, hi = sorted(spread.low + t * (spread.high - spread.low) for t in (a_at, b_at))
    others = {n: s.low for n, s in spreads.items() if n in NAMES and n != name}
    cost_lo = _cost_at(est, w, a, {**others, name: lo})
    cost_hi = _cost_at(est, w, a, {**others, name: hi})
    helps = next(s.helps for s in OWNER_INPUTS if s.name == name)
    if helps:
        assert cost_hi <= cost_lo * (1 + 1e-12)
    else:
        assert cost_hi >= cost_lo * (1 - 1e-12)


def test_a_range_that_excludes_its_value_is_refused_naming_the_field():
    with pytest.raises(ValidationError, match="depreciation_years = 6 must lie within"):
        Finance(
            depreciation_years=6,
            depreciation_years_low=7,
            cost_of_capital=0.1,
            source="test [A]",
            as_of="2025",
        )
