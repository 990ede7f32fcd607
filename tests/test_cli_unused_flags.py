"""A flag the answer does not use is said once, in the same words, on stderr and in `--json` warnings."""

from __future__ import annotations

import json

import pytest

from advisor.cli.main import main

RUN = ["--model", "llama3-8b", "--tokens", "1T", "--deadline-days", "30"]
MARGIN_UNUSED = (
    "--sizing-margin is not used: a conservative risk appetite holds the deadline at the P90 time to result, "
    "which is the allowance for risk itself (no 20% sizing margin on top of the P90)"
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("sized", [[], ["--size-to-deadline"]])
def test_a_sizing_margin_a_conservative_answer_does_not_apply_is_said(sized, capsys):
    argv = ["recommend", *RUN, *sized, "--risk", "conservative", "--sizing-margin", "0.2"]
    code, _, err = run(capsys, *argv)
    assert code in (0, 1) and f"advisor: warning: {MARGIN_UNUSED}" in err
    code, out, _ = run(capsys, *argv, "--json")
    assert json.loads(out)["warnings"][0] == MARGIN_UNUSED


def test_a_sizing_margin_the_answer_applies_is_not_called_unused(capsys):
    code, out, err = run(capsys, "recommend", *RUN, "--risk", "balanced", "--sizing-margin", "0.2", "--json")
    assert code in (0, 1)
    assert "sizing-margin" not in err and not any("sizing-margin" in w for w in json.loads(out)["warnings"])


@pytest.mark.parametrize("system", ["h100", "all"])
def test_an_estimate_s_json_warnings_say_which_flags_are_unused(system, capsys):
    argv = ["estimate", "--model", "llama3-8b", "--tokens", "100B", "--gpus", "64", "--system", system]
    code, out, err = run(capsys, *argv, "--pricing", "rent", "--capex-usd-per-node", "300k", "--json")
    said = "--capex-usd-per-node is not used: it applies when buying (pricing: own)"
    assert code == 0 and f"advisor: warning: {said}" in err
    data = json.loads(out)
    for estimate in data["estimates"] if system == "all" else [data]:
        assert estimate["warnings"][0] == said


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["--pricing", "rent", "--electricity-usd-per-kwh", "0.3"],
            "--electricity-usd-per-kwh is not used: it applies when buying (pricing: own)",
        ),
        (
            ["--precision", "bf16", "--no-fp8-stack"],
            "--no-fp8-stack is not used: it applies at FP8 or FP4 (precision: fp8 or fp4); BF16 needs no FP8 "
            "support",
        ),
        # Serving: the training sequence length, and the software month at BF16 changed nothing and
        # were not said to be unused. BF16 given: with no precision the weights may be served in a
        # model's released format (FP8 for DeepSeek-V3), which the scenario cannot tell without the catalog.
        (
            ["--kind", "inference", "--seq-len", "4096"],
            "--seq-len is not used: it applies to training (job: pretrain or finetune)",
        ),
        (
            ["--kind", "inference", "--precision", "bf16", "--software", "2024-01"],
            "--software is not used: it applies to training, and to serving FP8 weights (early FP8 releases "
            "served slower); these weights are not FP8",
        ),
        (["--kind", "inference", "--precision", "fp8", "--software", "2024-01"], None),
        (["--kind", "inference", "--software", "2024-01"], None),
        (["--pricing", "own", "--electricity-usd-per-kwh", "0.3"], None),
        (["--precision", "fp8", "--no-fp8-stack"], None),
    ],
)
def test_a_flag_that_cannot_change_the_answer_is_said_to_be_unused(argv, said, capsys):
    # Renting, the hourly price pays for the power (the cost did not move from 0.05 to 0.30 $/kWh); at
    # BF16 the stack's FP8 support changes nothing.
    job = ["--model", "llama3-8b", "--tokens", "1T", "--gpus", "64", "--system", "h100"]
    _, out, err = run(capsys, "estimate", *job, *argv, "--json")
    warnings = json.loads(out)["warnings"]
    if said is None:
        assert "is not used" not in err and not any("is not used" in w for w in warnings)
    else:
        assert f"advisor: warning: {said}" in err and said in warnings


def test_sizing_to_a_deadline_at_a_target_rate_is_said_to_be_unused(capsys):
    # A fleet serving at a rate is sized to the rate: --size-to-deadline changed nothing, unsaid.
    serve = ["--model", "llama3-8b", "--kind", "inference", "--target-tokens-per-second", "5k"]
    argv = ["recommend", *serve, "--deadline-days", "30", "--size-to-deadline", "--sizing-margin", "0.2"]
    code, out, err = run(capsys, *argv, "--json")
    assert code in (0, 1)
    rate = "a target rate sizes the fleet, and the job is a month of serving at that rate"
    for flag in ("--size-to-deadline", "--sizing-margin"):
        said = f"{flag} is not used: {rate}"
        assert f"advisor: warning: {said}" in err and said in json.loads(out)["warnings"]


def test_a_rental_price_beside_a_purchase_with_a_deadline_is_not_called_unused(capsys):
    # Buying misses a 20-day deadline, and the answer offers the rental that meets it at the price
    # given ($7,450 at $2, $33.53k at $9), while the warning said the price was not used.
    job = ["recommend", "--model", "llama3-8b", "--tokens", "100B", "--gpus", "64", "--pricing", "own"]
    answers = []
    for price in ("2", "9"):
        code, out, err = run(capsys, *job, "--deadline-days", "20", "--price-per-gpu-hour", price, "--json")
        assert code in (0, 1) and "--price-per-gpu-hour is not used" not in err
        answers.append(json.loads(out)["what_would_change"])
    assert answers[0] != answers[1]
    _, _, err = run(capsys, *job, "--price-per-gpu-hour", "2", "--json")
    said = "--price-per-gpu-hour is not used: it applies when renting (pricing: rent), or beside a purchase"
    assert said in err


SERVE = ["--model", "llama3-70b", "--kind", "inference", "--tokens", "1e9", "--system", "h100"]


def test_goodput_is_unused_for_serving_and_changes_nothing(capsys):
    # Goodput is a training job's checkpoint-and-restart overhead; a serving fleet keeps spare replicas
    # (its headroom). --goodput 0.5 doubled the serving cost ($965 to $1,913), unsaid.
    _, plain, _ = run(capsys, "estimate", *SERVE, "--json")
    code, out, err = run(capsys, "estimate", *SERVE, "--goodput", "0.5", "--json")
    said = "--goodput is not used: it applies to training (job: pretrain or finetune)"
    assert code == 0 and f"advisor: warning: {said}" in err
    data, before = json.loads(out), json.loads(plain)
    assert data["cost_usd"] == before["cost_usd"] and data["goodput"] == 1.0
    assert said in data["warnings"] and not data["goodput_detail"]["overridden"]


def test_goodput_still_applies_to_training(capsys):
    job = [
        "estimate",
        "--model",
        "llama3-8b",
        "--tokens",
        "100B",
        "--gpus",
        "64",
        "--system",
        "h100",
        "--json",
    ]
    _, plain, _ = run(capsys, *job)
    _, out, err = run(capsys, *job, "--goodput", "0.5")
    assert "goodput" not in err and json.loads(out)["cost_usd"] > json.loads(plain)["cost_usd"]


@pytest.mark.parametrize("system", ["h100", "all"])
def test_an_mfu_given_for_serving_is_warned_once(system, capsys):
    argv = ["estimate", *SERVE[:-2], "--system", system, "--mfu", "0.4"]
    _, _, err = run(capsys, *argv)
    assert err.count("MFU") + err.count("--mfu") == 1, err
    _, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    for estimate in data["estimates"] if system == "all" else [data]:
        assert sum("mfu" in w.lower() for w in estimate["warnings"]) == 1


SERVING_FILE = """schema = 1
name = "serve"

[workload]
model = "llama3-70b"
kind = "inference"
tokens = 1e9
seq_len = 4096

[assumptions]
goodput = 0.5
mfu = { h100 = 0.4 }
"""
TRAINING = "it applies to training (job: pretrain or finetune)"


@pytest.mark.parametrize("command", ["estimate", "recommend", "sensitivity", "report"])
def test_keys_of_a_scenario_file_the_answer_does_not_use_are_warned(command, tmp_path, capsys):
    path = tmp_path / "serve.toml"
    path.write_text(SERVING_FILE)
    extra = ["-o", str(tmp_path / "r.md")] if command == "report" else ["--system", "h100"]
    code, _, err = run(capsys, command, str(path), *(extra if command in ("estimate", "report") else []))
    assert code in (0, 1)
    for line, key in ((8, "workload.seq_len"), (11, "assumptions.goodput"), (12, "assumptions.mfu")):
        assert f"advisor: warning: {path}:{line}: {key} is not used: {TRAINING}" in err
    assert err.count("is not used") == 3


def test_a_file_key_its_flag_overrides_is_warned_as_the_flag(tmp_path, capsys):
    path = tmp_path / "serve.toml"
    path.write_text(SERVING_FILE)
    _, out, err = run(capsys, "estimate", str(path), "--system", "h100", "--mfu", "0.3", "--json")
    assert f"--mfu is not used: {TRAINING}" in err and "assumptions.mfu" not in err
    assert f"{path}:8: workload.seq_len is not used: {TRAINING}" in json.loads(out)["warnings"]


def test_a_training_file_made_serving_by_a_flag_warns_its_training_keys(tmp_path, capsys):
    path = tmp_path / "train.toml"
    path.write_text('schema = 1\n[workload]\nmodel = "llama3-8b"\ntokens = 1e11\nseq_len = 4096\n')
    _, _, err = run(capsys, "estimate", str(path), "--system", "h100")
    assert "is not used" not in err
    _, _, err = run(capsys, "estimate", str(path), "--system", "h100", "--kind", "inference")
    assert f"{path}:5: workload.seq_len is not used: {TRAINING}" in err


def test_compare_warns_each_file_s_unused_keys(tmp_path, capsys):
    serve, train = tmp_path / "serve.toml", tmp_path / "train.toml"
    serve.write_text(SERVING_FILE)
    train.write_text('schema = 1\n[workload]\nmodel = "llama3-8b"\ntokens = 1e11\n')
    code, _, err = run(capsys, "compare", str(serve), str(train), "-o", str(tmp_path / "c.md"))
    assert code == 0 and f"{serve}:12: assumptions.mfu is not used" in err and str(train) + ":" not in err
