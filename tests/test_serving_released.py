"""A model is served in the format its weights are released in, unless a precision is given.

gpt-oss-120b and gpt-oss-20b are published with MXFP4 MoE weights and every other tensor in BF16 (model
card, arXiv 2508.10925; openai/gpt-oss README, "Precision format"); DeepSeek-V3 and Kimi K2 with FP8
weights (their READMEs). Served at the run precision, BF16 unless given, gpt-oss-120b took 4x the memory
of what is deployed: 4 H100 for a rate one H100 carries.
"""

from __future__ import annotations

import pytest

from advisor.cli.main import main
from advisor.core.costing.estimate import estimate
from advisor.core.model.inference import weight_bytes
from advisor.core.model.serving_plan import as_released, served_weights
from advisor.core.model.units import BYTES_PER_GIB
from advisor.core.model.workload import Workload
from advisor.core.scenario import Scenario
from advisor.tui.placeholders import placeholders
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()


def _serve(model: str, **given: object) -> Workload:
    return Workload(model=CATALOG.model(model), kind="inference", tokens=1e9, **given)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("system", "weights", "math"),
    [("h100", "fp4", "bf16"), ("b200", "fp4", "fp8"), ("a100", "fp4", "bf16")],
)
def test_no_precision_given_serves_gpt_oss_as_released(system, weights, math):
    s = estimate(_serve("gpt-oss-120b"), system, CATALOG).serving
    assert s is not None and s.weights_as_released
    assert (s.weight_precision, s.activation_precision) == (weights, math)


def test_deepseek_is_served_in_fp8_as_released_and_fits_eight_h200():
    # 671B parameters at one byte: 625 GiB of weights (733 with the copies attention data parallelism makes),
    # in 8 x 141 GB (1,015 GiB usable); at BF16 it did not fit
    e = estimate(_serve("deepseek-v3", gpus=8), "h200", CATALOG)
    assert e.serving is not None and e.serving.weights_as_released and e.memory.fits
    assert (e.serving.weight_precision, e.serving.activation_precision) == ("fp8", "fp8")
    assert e.serving.replica_gpus == 8
    one_copy = weight_bytes(CATALOG.model("deepseek-v3"), "fp8") / BYTES_PER_GIB
    assert 620 < one_copy < 630 and e.memory.state_gib > one_copy  # with attention-DP's copies
    at_bf16 = estimate(_serve("deepseek-v3", gpus=8, precision="bf16"), "h200", CATALOG)
    assert not at_bf16.memory.fits


def test_gpt_oss_120b_at_a_small_rate_is_one_h100():
    # "fits into a single 80GB GPU" (openai/gpt-oss README); at BF16 weights it took a 4-GPU replica
    w = Workload(model=CATALOG.model("gpt-oss-120b"), kind="inference", target_tokens_per_second=1000)
    s = estimate(w, "h100", CATALOG).serving
    assert s is not None and (s.replica_gpus, s.gpus_for_target) == (1, 1)
    bf16 = w.model_copy(update={"precision": "bf16"})
    s = estimate(bf16, "h100", CATALOG).serving
    assert s is not None and s.replica_gpus == 4 and not s.weights_as_released


@pytest.mark.parametrize(
    ("given", "weights", "basis"),
    [
        ({}, "fp4", "released"),
        ({"precision": "bf16"}, "bf16", "run"),  # typed, even at the default: given
        ({"precision": "fp8"}, "fp8", "run"),
        ({"precision": "fp4"}, "fp4", "run"),
        ({"weight_precision": "fp8"}, "fp8", "given"),
        ({"weight_precision": "bf16", "precision": "fp8"}, "bf16", "given"),
        ({"fp8_stack": False}, "bf16", "run"),  # a stack without FP8 runs no FP4 or FP8 weights
    ],
)
def test_a_precision_given_wins(given, weights, basis):
    w = _serve("gpt-oss-20b", **given)
    assert served_weights(w, w.precision if w.fp8_stack else "bf16") == (weights, basis)


def test_a_model_without_a_stated_release_serves_the_run_precision():
    w = _serve("llama3-70b")
    assert served_weights(w, "bf16") == ("bf16", "run") and as_released(w.model, w) is None


def test_the_notes_say_which_format_and_why():
    notes = estimate(_serve("gpt-oss-120b"), "h100", CATALOG).mfu_basis.basis
    assert "weights as released: FP4 (MXFP4) (the MoE experts' weights, the rest BF16)" in notes
    given = estimate(_serve("gpt-oss-120b", precision="fp8"), "h100", CATALOG).mfu_basis.basis
    assert "weights FP8 as the precision given, not as released (FP4 (MXFP4))" in given
    no_stack = estimate(_serve("deepseek-v3", gpus=16, fp8_stack=False), "h200", CATALOG).mfu_basis.basis
    assert "weights BF16, not as released (FP8 (E4M3)): the stack runs no FP8" in no_stack


def _scenario(**workload: object) -> Scenario:
    data = {"model": "gpt-oss-120b", "kind": "inference", "tokens": "1B", **workload}
    return Scenario.model_validate({"schema": 1, "name": "t", "workload": data})


def test_a_saved_scenario_keeps_whether_a_precision_was_given():
    plain, typed = _scenario(), _scenario(precision="bf16")
    assert "precision" not in plain.to_data()["workload"]
    assert typed.to_data()["workload"]["precision"] == "bf16"
    for scenario, weights in ((plain, "fp4"), (typed, "bf16")):
        again = Scenario.model_validate(scenario.to_data())
        w = again.workload.workload(CATALOG)
        assert served_weights(w, "bf16")[0] == weights
    trained = Scenario.model_validate(
        {"schema": 1, "name": "t", "workload": {"model": "llama3-8b", "tokens": 1e9}}
    )
    assert "precision" not in trained.to_data()["workload"]  # the default, not given: left out


def test_the_command_line_says_the_weights_are_as_released(capsys):
    serve = ["estimate", "--model", "gpt-oss-120b", "--kind", "inference", "--system", "h100"]
    assert main([*serve, "--target-tokens-per-second", "1000"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "FP4 (MXFP4) weights as released, rent" in out  # the title
    assert "precision run FP4 weights as released, BF16 math" in out
    assert main([*serve, "--target-tokens-per-second", "1000", "--precision", "bf16"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "weights as released" not in out and "precision run BF16" in out


def test_the_app_says_the_default_weight_format():
    assert placeholders(CATALOG, _scenario())["weight_precision"] == "default: as released, FP4 (MXFP4)"
    assert placeholders(CATALOG, _scenario())["kv_cache_precision"] == "default: FP8 where the GPU has FP4"
    typed = placeholders(CATALOG, _scenario(precision="bf16"))
    assert typed["weight_precision"] == "default: BF16 (as precision)"
    llama = placeholders(CATALOG, _scenario(model="llama3-8b", precision="fp8"))
    assert llama["weight_precision"] == "default: FP8 (as precision)"


def test_the_stack_and_release_inputs_are_not_called_unused_when_the_weights_may_be_as_released():
    from advisor.core.unused import unused_inputs

    plain = unused_inputs(_scenario(model="deepseek-v3", fp8_stack=False, software="2024-06"))
    assert "workload.fp8_stack" not in plain and "workload.software" not in plain
    typed = unused_inputs(
        _scenario(model="deepseek-v3", fp8_stack=False, software="2024-06", precision="bf16")
    )
    assert "workload.fp8_stack" in typed and "workload.software" in typed
