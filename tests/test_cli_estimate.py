"""`advisor estimate` and the CLI's error handling."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from advisor.cli.main import main

GPT3 = [
    "estimate",
    "--model",
    "gpt3-175b",
    "--tokens",
    "300e9",
    "--gpus",
    "128",
    "--precision",
    "fp8",
    "--pricing",
    "own",
    "--goodput",
    "1",
    "--efficiency",
    "reference",
]

JSON_KEYS = {
    "system",
    "gpus",
    "precision",
    "pricing",
    "model",
    "tokens",
    "flops_per_token",
    "total_flops",
    "mfu",
    "tokens_per_second_per_gpu",
    "goodput",
    "time_to_train_hours",
    "gpu_hours",
    "price_usd_per_gpu_hour",
    "cost_usd",
    "cost_per_million_tokens_usd",
    "cost_breakdown_usd",
    "power_w_per_gpu_all_in",
    "energy_kwh",
    "joules_per_token",
    "household_years",
    "co2_tonnes",
    "memory",
    "warnings",
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_estimate_json_has_documented_keys(capsys):
    code, out, _ = run(capsys, *GPT3, "--system", "h100", "--json")
    assert code == 0
    data = json.loads(out)
    assert JSON_KEYS <= set(data)
    assert {"name", "params_total", "params_active", "seq_len"} <= set(data["model"])
    assert {"required_gib", "available_gib", "min_gpus"} <= set(data["memory"])
    assert data["cost_per_million_tokens_usd"] == pytest.approx(0.542, rel=0.03)


def test_estimate_all_systems_is_a_list(capsys):
    code, out, _ = run(capsys, *GPT3, "--system", "all", "--json")
    assert code == 0
    versioned = json.loads(out)
    assert list(versioned) == ["schema_version", "estimates"] and versioned["schema_version"] == 1
    data = versioned["estimates"]
    assert [d["system"] for d in data] == [
        "a100",
        "b200",
        "b300",
        "gb200-nvl72",
        "gb300-nvl72",
        "h100",
        "h200",
        "mi300x",
        "mi325x",
        "mi355x",
    ]


def test_estimate_custom_model(capsys):
    code, out, _ = run(
        capsys,
        "estimate",
        "--params",
        "13e9",
        "--tokens",
        "1T",
        "--gpus",
        "64",
        "--system",
        "h100",
        "--seq-len",
        "4096",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["model"]["params_total"] == 13e9 and data["model"]["seq_len"] == 4096


def test_estimate_software_reproduces_jan_2024(capsys):
    _code, out, _ = run(capsys, *GPT3, "--system", "h100", "--software", "2024-01", "--json")
    assert json.loads(out)["mfu"] == 0.295


def test_human_output_is_a_table(capsys):
    code, out, _ = run(capsys, *GPT3, "--system", "h100")
    assert code == 0
    # 54.1¢ and $162.3k: NeMo 24.12 as SemiAnalysis (54.2¢, $162k) and DGX Cloud Benchmarking publish it
    assert "cost per 1M tokens" in out and "54.1¢" in out and "$162.3k" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--system", "tpu"],
            "--system 'tpu': unknown system (valid: a100, b200, b300, gb200-nvl72, gb300-nvl72, h100, h200, mi300x, mi325x, mi355x)",
        ),
        (
            ["--model", "llama9"],
            "--model 'llama9': unknown model (did you mean 'llama3-8b'?); see `advisor models`",
        ),
        (["--system", "h10"], "--system 'h10': unknown system (did you mean 'h100'?)"),
        (["--mfu", "h10=0.4"], "--mfu 'h10': unknown system (did you mean 'h100'?); see `advisor systems`"),
        (
            ["--price-per-gpu-hour", "b20=3"],
            "--price-per-gpu-hour 'b20': unknown system (did you mean 'b200'?)",
        ),
        (
            ["--rental-offer", "on-demand (Crusoe, Sep 2062)"],
            "unknown offer (did you mean 'on-demand (Crusoe, Sep 2026)'?)",
        ),
        (["--tokens", "0"], "argument --tokens: '0' is out of range: must be from 1 to 1e18"),
        (["--tokens", "-5"], "argument --tokens: '-5' is out of range"),
        (["--tokens", "lots"], "argument --tokens: 'lots' is not a number"),
        (["--gpus", "0"], "argument --gpus: '0' is out of range: must be a whole number from 1 to 1M"),
        (["--gpus", "2.5"], "argument --gpus: '2.5' must be a whole number"),
        (["--params", "abc"], "argument --params: 'abc' is not a number"),
        (["--precision", "int4"], "argument --precision: invalid choice: 'int4'"),
        (["--software", "2024"], "argument --software: software '2024' must be a release month like 2024-12"),
        (["--goodput", "1.5"], "argument --goodput: '1.5' is out of range"),
    ],
)
def test_bad_input_exits_2_with_message(capsys, argv, message):
    base = ["estimate", "--model", "llama3-8b", "--tokens", "1e9"]
    code, _out, err = run(capsys, *base, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_missing_model_or_tokens(capsys):
    code, _, err = run(capsys, "estimate", "--tokens", "1e9")
    assert code == 2 and "give --model" in err
    code, _, err = run(capsys, "estimate", "--model", "llama3-8b")
    assert code == 2 and "give --tokens" in err


def test_memory_infeasible_says_needed_vs_available(capsys):
    # No answer is not bad input: status 1, so a script can tell it from a typo (status 2).
    code, _, err = run(
        capsys, "estimate", "--model", "llama3-405b", "--tokens", "1e12", "--gpus", "8", "--system", "a100"
    )
    assert code == 1
    assert "Llama 3 405B does not fit: training state and activations need" in err
    assert "8x a100 hold" in err and "the minimum is" in err and "(--gpus)" in err


def test_version_and_help_do_not_import_textual():
    code = (
        "import sys; from advisor.cli.main import main; import contextlib, io\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        "    for argv in (['--help'], ['estimate', '--help'], ['--version']):\n"
        "        try: main(argv)\n"
        "        except SystemExit: pass\n"
        "    main(['estimate', '--model', 'llama3-8b', '--tokens', '1e9', '--json'])\n"
        "print('textual' in sys.modules, 'advisor 0.' in buf.getvalue())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split()[-2:] == ["False", "True"]


def test_public_python_api():
    import advisor

    catalog = advisor.load_catalog(user_dir=False)
    workload = advisor.Workload(
        model=catalog.model("gpt3-175b"),
        tokens=300e9,
        gpus=128,
        precision="fp8",
        pricing="own",
        efficiency="reference",
    )
    est = advisor.estimate(
        "gpt3-175b", 300e9, system="h100", gpus=128, precision="fp8", pricing="own", efficiency="reference"
    )
    assert est.cost_per_million_tokens_usd == pytest.approx(0.542, rel=0.03)
    rec = advisor.advise(workload, catalog)
    assert rec.winner in catalog.systems


def test_without_a_terminal_the_app_is_refused_with_a_message(capsys, monkeypatch):
    # `advisor | cat` or a script: the full-screen app would write control codes into the pipe and wait.
    monkeypatch.setattr("sys.stdout.isatty", lambda: False, raising=False)
    assert main([]) == 2
    assert "needs a terminal" in capsys.readouterr().err


def test_rules_without_an_action_shows_the_rules_help(capsys):
    assert main(["rules"]) == 2
    assert "advisor rules" in capsys.readouterr().err


def test_python_dash_m_runs_the_command_line():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "advisor", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("advisor ")


def test_memory_row_is_per_gpu_not_summed(capsys):
    # 70B sharded over 1024 GPUs: a few GiB each. The old row summed all GPUs ("fits (3,600 of 68,700 GiB)").
    code, out, _ = run(
        capsys, "estimate", "--model", "llama3-70b", "--tokens", "1e12", "--gpus", "1024", "--system", "h100"
    )
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("memory"))
    assert line.strip().startswith("memory, GiB per GPU")
    need, have = (float(x) for x in line.split("GiB per GPU")[1].split(" of "))
    assert 1 < need < 10 and 60 < have < 80
    code, out, _ = run(
        capsys, "estimate", "--model", "llama3-70b", "--tokens", "1e12", "--gpus", "64", "--system", "h100"
    )
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("memory"))
    assert float(line.split("GiB per GPU")[1].split(" of ")[0]) > 3 * need


def test_estimate_says_it_does_not_size_a_scenario_to_its_deadline(capsys, tmp_path):
    # A scenario saved with size_to_deadline keeps gpus = 8; estimate ran every system on those 8 GPUs
    # without a word (12.8 years for a 60-day plan, new-user walk).
    plan = tmp_path / "plan.toml"
    sized = ["--model", "llama3-8b", "--tokens", "100B", "--deadline-days", "30", "--size-to-deadline"]
    assert main(["recommend", *sized, "--save", str(plan)]) == 0
    capsys.readouterr()
    assert main(["estimate", str(plan), "--system", "h100", "--json"]) == 0
    err = capsys.readouterr().err
    assert "size_to_deadline is not used by estimate: every system runs on the scenario's 8 GPUs" in err
    assert main(["estimate", "--model", "llama3-8b", "--tokens", "100B", "--system", "h100", "--json"]) == 0
    assert "size_to_deadline" not in capsys.readouterr().err


def test_a_production_estimate_shows_the_mfu_its_time_works_at(capsys):
    # The reports' MFU column is the production run's (the overhead included); the CLI's table said only
    # the reference MFU, which does not match the time to train it printed beside it.
    args = ["estimate", "--model", "llama3-8b", "--tokens", "1T", "--gpus", "64", "--system", "h100"]
    main([*args, "--json"])
    est = json.loads(capsys.readouterr().out)
    assert est["mfu_effective"] < est["mfu"]
    main(args)
    table = capsys.readouterr().out
    assert f"MFU, production run {est['mfu_effective'] * 100:.1f}%" in " ".join(table.split())
    assert f"MFU, reference {est['mfu'] * 100:.1f}%" in " ".join(table.split())
    main([*args, "--efficiency", "reference"])
    assert "production run" not in capsys.readouterr().out
