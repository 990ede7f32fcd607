"""Inputs the other answers leave unused: one list, from each input's declared `applies` conditions."""

from __future__ import annotations

from typing import Any, get_args

from hypothesis import given
from hypothesis import strategies as st

from advisor.core.model.inputs import Condition
from advisor.core.scenario import INPUTS, Scenario
from advisor.core.unused import CONDITIONS, unused_inputs


def _scenario(workload: dict[str, Any], **top: Any) -> Scenario:
    return Scenario.model_validate({"workload": {"model": "llama3-8b", "tokens": "1T", **workload}, **top})


def test_renting_leaves_the_owning_inputs_unused_and_says_why():
    rent = _scenario({"pricing": "rent"}, assumptions={"owned_gpus": {"h100": 1024}, "hardware_in_days": 0})
    unused = unused_inputs(rent)
    for key in ("assumptions.owned_gpus", "assumptions.hardware_in_days", "assumptions.capex_usd_per_node"):
        assert unused[key] == "it applies when buying (pricing: own)"
    assert "assumptions.price_usd_per_gpu_hour" not in unused


def test_a_wait_for_capacity_leaves_the_hardware_date_unused_when_buying():
    own = _scenario({"pricing": "own"}, assumptions={"hardware_in_days": 100})
    assert "assumptions.hardware_in_days" not in unused_inputs(own)
    waited = _scenario({"pricing": "own"}, assumptions={"hardware_in_days": 100, "wait_hours": {"*": 0}})
    assert "wait for capacity is set" in unused_inputs(waited)["assumptions.hardware_in_days"]


def test_a_target_rate_leaves_the_token_count_and_the_cluster_unused():
    batch = _scenario({"kind": "inference"})
    assert {"workload.tokens", "workload.gpus"}.isdisjoint(unused_inputs(batch))
    assert "workload.serving_headroom" in unused_inputs(batch)  # headroom is for a rate
    rate = _scenario({"kind": "inference", "target_tokens_per_second": 50_000})
    unused = unused_inputs(rate)
    assert unused["workload.tokens"].startswith("a target rate sizes the fleet")
    assert "workload.gpus" in unused and "workload.serving_headroom" not in unused


def test_a_target_rate_not_sizing_to_the_deadline_is_why_the_cluster_is_unused():
    # Both given, the new-user try was told the rate leaves size_to_deadline unused and, of --gpus, that
    # "sizing to the deadline gives each system its own GPU count".
    serve = {"kind": "inference", "target_tokens_per_second": 20_000, "gpus": 64}
    both = _scenario(serve, constraints={"deadline_days": 30}, size_to_deadline=True)
    unused = unused_inputs(both)
    assert unused["size_to_deadline"].startswith("a target rate sizes the fleet")
    assert unused["workload.gpus"] == unused["size_to_deadline"]
    train = _scenario({"gpus": 64}, constraints={"deadline_days": 30}, size_to_deadline=True)
    assert (
        unused_inputs(train)["workload.gpus"] == "sizing to the deadline gives each system its own GPU count"
    )


def test_a_target_tokens_per_second_leaves_the_requests_per_second_unused():
    # Both given, the tokens/s are served and the requests/s were dropped silently (new-user walk:
    # "--requests-per-second 100 --target-tokens-per-second 5k" served 5k tokens/s, not 50k).
    both = _scenario({"kind": "inference", "target_tokens_per_second": 5_000, "requests_per_second": 100})
    assert "target tokens/s is set" in unused_inputs(both)["workload.requests_per_second"]
    requests = _scenario({"kind": "inference", "requests_per_second": 100})
    assert "workload.requests_per_second" not in unused_inputs(requests)


def test_training_leaves_every_serving_input_unused_and_serving_every_training_one():
    train, serve = _scenario({}), _scenario({"kind": "inference"})
    serving = {k for k, item in INPUTS.items() if "inference" in item.meta.applies}
    assert serving and serving <= unused_inputs(train).keys()
    training = {k for k, item in INPUTS.items() if "training" in item.meta.applies}
    assert {"workload.efficiency", "assumptions.mfu"} <= training <= unused_inputs(serve).keys()


def test_sizing_leaves_the_gpu_count_unused_and_needs_a_deadline():
    assert "constraints.sizing_margin" in unused_inputs(_scenario({}))
    sized = _scenario({}, size_to_deadline=True, constraints={"deadline_days": 30})
    assert "workload.gpus" in unused_inputs(sized)
    assert "constraints.sizing_margin" not in unused_inputs(sized)


def test_every_condition_has_a_meaning_and_some_input_declares_it():
    assert set(CONDITIONS) == set(get_args(Condition))
    declared = {c for item in INPUTS.values() for c in item.meta.applies}
    assert declared == set(CONDITIONS)


@given(
    kind=st.sampled_from(["pretrain", "finetune", "inference"]),
    pricing=st.sampled_from(["rent", "own"]),
    rate=st.sampled_from([None, 1000.0]),
    deadline=st.sampled_from([None, 30.0]),
)
def test_an_input_is_unused_exactly_when_one_of_its_conditions_fails(kind, pricing, rate, deadline):
    workload = {"kind": kind, "pricing": pricing}
    if rate is not None:
        workload["target_tokens_per_second"] = rate
    scenario = _scenario(workload, constraints={"deadline_days": deadline} if deadline else {})
    unused = unused_inputs(scenario)
    for key, item in INPUTS.items():
        fails = [c for c in item.meta.applies if not CONDITIONS[c][0](scenario)]
        assert (key in unused) == bool(fails), key
        if fails:
            assert unused[key] == CONDITIONS[fails[0]][1]


def test_the_cli_warns_of_each_flag_the_other_answers_leave_unused(capsys):
    from advisor.cli.main import main

    flags = ["--model", "llama3-8b", "--tokens", "100B", "--gpus", "8", "--system", "h100", "--json"]
    assert main(["estimate", *flags, "--owned", "h100=8", "--hardware-in-days", "0"]) == 0
    err = capsys.readouterr().err
    assert "--owned is not used: it applies when buying (pricing: own)" in err
    assert "--hardware-in-days is not used" in err
    assert main(["estimate", *flags, "--pricing", "own", "--owned", "h100=8"]) == 0
    assert "not used" not in capsys.readouterr().err
    serve = ["--model", "llama3-8b", "--kind", "inference", "--system", "h100", "--json"]
    assert main(["estimate", *serve, "--requests-per-second", "100", "--target-tokens-per-second", "5k"]) == 0
    assert "--requests-per-second is not used: the target tokens/s is set" in capsys.readouterr().err
