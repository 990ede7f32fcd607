"""Serving headroom: a fleet at a target rate is sized to rate / (1 - headroom) in whole replicas, says
the headroom and the utilisation at the rate on every surface, and leaves a batch job as it was."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli.main import main
from advisor.core.costing.estimate import estimate
from advisor.core.model.serving_plan import Layout, Targets, choose_layout, serving_precisions
from advisor.core.model.workload import Workload
from advisor.core.scenario import Scenario
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
SERVE = ["--model", "llama3-70b", "--kind", "inference", "--target-tokens-per-second", "50k"]
MODELS = st.sampled_from(["llama3-8b", "llama3-70b", "llama3-405b"])
SYSTEMS = st.sampled_from(["a100", "h100", "h200", "b200", "mi325x", "gb200-nvl72"])
HEADROOM = st.floats(min_value=0, max_value=0.9)


def _layout(model: str, system: str, rate: float, headroom: float) -> Layout:
    targets = Targets(tokens_per_second=rate, tpot_s=0.1, tpot_default=True, headroom=headroom)
    found = choose_layout(
        CATALOG.model(model),
        CATALOG.system(system),
        CATALOG.economics,
        serving_precisions("fp8", None, None),
        (1000, 500),
        targets,
    )
    assert isinstance(found, Layout)
    return found


@settings(max_examples=150, deadline=None)
@given(MODELS, SYSTEMS, st.floats(min_value=100, max_value=2e6), HEADROOM, HEADROOM)
def test_more_headroom_never_fewer_gpus_and_the_rate_uses_at_most_the_rest(model, system, rate, a, b):
    low, high = sorted((a, b))
    less, more = _layout(model, system, rate, low), _layout(model, system, rate, high)
    assert more.gpus >= less.gpus
    if more.step.tp == less.step.tp:  # the same replica: never fewer of them
        assert more.replicas >= less.replicas
    for layout, headroom in ((less, low), (more, high)):
        share = 1 / layout.replicas  # one replica's share of the fleet
        assert layout.utilisation <= 1 - headroom + 1e-9
        # whole replicas, rounded up and no further: one fewer would not keep the headroom
        assert layout.utilisation > (1 - headroom) * (1 - share) - 1e-9
        assert layout.utilisation <= 1 - headroom + share


def test_no_headroom_sizes_the_fleet_to_the_rate_exactly():
    layout = _layout("llama3-70b", "mi355x", 50_000, 0.0)
    assert layout.utilisation > 0.9  # the case a new user found: 94-99.9% at the rate
    assert _layout("llama3-70b", "mi355x", 50_000, 0.25).replicas > layout.replicas


def test_the_default_headroom_is_the_catalogs_and_the_input_overrides_it():
    shipped = CATALOG.economics.serving
    assert shipped.assumption and 0 < shipped.default_headroom <= 0.9  # an assumption, said so
    model = CATALOG.model("llama3-70b")
    for given_, held in ((None, shipped.default_headroom), (0.0, 0.0), (0.5, 0.5)):
        w = Workload(model=model, kind="inference", target_tokens_per_second=50_000, serving_headroom=given_)
        s = estimate(w, "h100", CATALOG).serving
        assert s is not None and s.headroom == held and s.utilisation <= 1 - held + 1e-9


def test_a_batch_job_is_unaffected():
    model = CATALOG.model("llama3-70b")
    plain = Workload(model=model, kind="inference", tokens=1e9, gpus=16)
    spare = Workload(model=model, kind="inference", tokens=1e9, gpus=16, serving_headroom=0.5)
    a, b = estimate(plain, "h100", CATALOG), estimate(spare, "h100", CATALOG)
    assert a.cost_usd == b.cost_usd and a.gpus == b.gpus == 16
    assert a.serving is not None and b.serving is not None
    assert a.serving == b.serving and b.serving.headroom is None and b.serving.utilisation == 1.0


def test_the_flag_sizes_the_fleet_and_every_output_says_so(capsys):
    one = ["estimate", *SERVE, "--system", "h100", "--serving-headroom"]
    fleets = {}
    for headroom in ("0", "0.5"):
        assert main([*one, headroom, "--json"]) == 0
        s = json.loads(capsys.readouterr().out)["serving"]
        assert s["headroom"] == float(headroom) and s["utilisation"] <= 1 - float(headroom) + 1e-9
        fleets[headroom] = s["gpus_for_target"]
    assert fleets["0.5"] > fleets["0"]
    assert main([*one, "0.5"]) == 0
    assert re.search(r"utilisation \(headroom\)\s+[\d.]+% \(50% spare\)", capsys.readouterr().out)
    assert main(["recommend", *SERVE, "--serving-headroom", "0.5"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "headroom: 50% of each fleet kept spare for bursts" in out and "(at most 50%" in out
    assert main(["recommend", *SERVE, "--serving-headroom", "0"]) == 0
    assert "headroom: none" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("bad", ["0.95", "-0.1", "lots"])
def test_a_headroom_out_of_range_is_refused_naming_the_flag(capsys, bad):
    assert main(["recommend", *SERVE, "--serving-headroom", bad]) == 2
    err = capsys.readouterr().err
    assert "--serving-headroom" in err and "Traceback" not in err


def test_the_scenario_key_is_checked_and_named():
    data = {"workload": {"model": "llama3-70b", "kind": "inference", "target_tokens_per_second": "50k"}}
    ok = Scenario.model_validate({**data, "workload": {**data["workload"], "serving_headroom": 0.3}})
    assert ok.workload.serving_headroom == 0.3
    with pytest.raises(ValueError, match="serving_headroom"):
        Scenario.model_validate({**data, "workload": {**data["workload"], "serving_headroom": 1.5}})
