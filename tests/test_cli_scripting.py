"""The command line in scripts: whole lines in pipes, exit statuses a script can branch on, clear typos."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli.main import COMMANDS, build_parser, main
from advisor.core import fmt
from advisor.io.catalog_files import load_catalog

TRAIN_70B = ["--model", "llama3-70b", "--tokens", "1T", "--gpus", "64"]
NOTHING_FITS = ["--model", "llama3-405b", "--tokens", "1T", "--gpus", "1"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_piped_model_listing_shows_every_id_whole_and_no_trailing_spaces(capsys):
    code, out, _ = run(capsys, "models")
    assert code == 0
    lines = out.splitlines()
    for model_id in load_catalog(user_dir=False).models:
        assert any(line.split()[:1] == [model_id] for line in lines), model_id
    assert "…" not in out
    assert not [line for line in lines if line != line.rstrip()]


TRAINING_HEADER = ["#", "system", "GPUs", "train", "to", "result", "cost", "/1M", "tok", "energy", "score"]
"""The words of `recommend`'s systems table header for a training job."""


def test_piped_recommendation_keeps_headers_and_reasons_on_one_line(capsys):
    code, out, _ = run(capsys, "recommend", *TRAIN_70B)
    assert code == 0
    header = next(line for line in out.splitlines() if "system" in line and "score" in line)
    assert header.split() == TRAINING_HEADER
    assert "…" not in out
    assert not [line for line in out.splitlines() if line != line.rstrip()]
    # a reason is one line, not wrapped at 80 columns
    assert any(len(line) > 100 and "ROCm" in line for line in out.splitlines())


def test_recommend_shows_each_systems_gpu_count(capsys):
    # Sized to a deadline, each system gets its own count; the table says which.
    argv = ["--model", "llama3-70b", "--tokens", "15T", "--precision", "fp8", "--deadline-days", "60"]
    code, out, _ = run(capsys, "recommend", *argv, "--size-to-deadline", "--json")
    gpus = {c["system"]: c["estimate"]["gpus"] for c in json.loads(out)["candidates"]}
    assert len(set(gpus.values())) > 1
    code, out, _ = run(capsys, "recommend", *argv, "--size-to-deadline")
    assert code == 0
    shown = {
        row[1]: int(row[2].replace(",", ""))
        for row in map(str.split, out.splitlines())
        if len(row) > 3 and (row[0].isdigit() or row[0] == "no") and row[1] in gpus
    }
    assert shown == gpus


def test_closed_pipe_exits_0_without_a_message():
    # `advisor models | head -1`: the reader leaves early; that is not a failure of advisor.
    with subprocess.Popen(
        [sys.executable, "-m", "advisor", "rules", "list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0, err
    assert err == ""


@pytest.mark.parametrize(
    ("word", "hint"),
    [("app", ""), ("recomend", " (did you mean 'recommend'?)"), ("modles", " (did you mean 'models'?)")],
)
def test_unknown_command_names_the_commands(capsys, word, hint):
    code, out, err = run(capsys, word)
    assert code == 2 and out == ""
    assert f"unknown command {word!r}{hint}; the commands are estimate, recommend," in err
    assert "completion" in err


def test_unknown_command_after_global_options(capsys, tmp_path):
    code, _, err = run(capsys, "--catalog", str(tmp_path), "sytems")
    assert code == 2 and "unknown command 'sytems' (did you mean 'systems'?)" in err


def test_the_command_list_is_the_parsers():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert set(COMMANDS) == set(sub.choices)


@pytest.mark.parametrize("value", ["-5T", "-1e9", "-.5"])
def test_negative_amount_is_out_of_range_not_a_missing_argument(capsys, value):
    code, _, err = run(capsys, "estimate", "--model", "llama3-8b", "--tokens", value)
    assert code == 2
    assert f"argument --tokens: {value!r} is out of range" in err and "must be from 1 to 1e18" in err


@pytest.mark.parametrize("command", ["recommend", "sensitivity"])
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_nothing_feasible_exits_1(capsys, command, json_flag):
    code, out, _ = run(capsys, command, *NOTHING_FITS, *json_flag)
    assert code == 1
    assert "No system is feasible" in out


def test_an_answer_exits_0_and_bad_input_2(capsys):
    assert run(capsys, "recommend", *TRAIN_70B, "--json")[0] == 0
    assert run(capsys, "recommend", *TRAIN_70B, "--gpus", "zero")[0] == 2


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_names_every_command_and_flags(capsys, shell):
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    for command in COMMANDS:
        assert command in out, command
    assert "tokens" in out and "size-to-deadline" in out


def test_completion_refuses_an_unknown_shell(capsys):
    code, _, err = run(capsys, "completion", "powershell")
    assert code == 2 and "invalid choice: 'powershell'" in err


def test_bash_completion_script_is_valid_bash(tmp_path, capsys):
    code, out, _ = run(capsys, "completion", "bash")
    assert code == 0 and "-F _shtab_advisor advisor" in out
    script = tmp_path / "advisor.bash"
    script.write_text(out)
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_huge_values_read_as_numbers_not_digit_strings(capsys):
    # --tokens 1e30 once printed "664570311286387968.0 years" and "$1.86e+14B"; tokens now stop at 1e18
    # (the declared physical range), and the largest allowed value still reads as a number.
    code, out, _ = run(capsys, "estimate", "--model", "llama3-8b", "--tokens", "1e18", "--system", "h100")
    assert code == 0
    assert re.search(r"\d{7,}", out.replace(",", "")) is None, out
    # Shapes, not the model's figures (which move with calibration): 663,929 years, $186B, 83.2 TWh.
    assert re.search(r"time to train +\d{3},\d{3} years\n", out), out
    assert re.search(r"total cost +\$\d+(\.\d+)?B\n", out) and re.search(r"energy +\d+(\.\d+)? TWh\n", out)
    code, out, _ = run(capsys, "recommend", "--model", "llama3-8b", "--tokens", "1e18", "--gpus", "8")
    table = out.split("#: rank")[0]  # the headline and the ranked table (rule texts format their own)
    assert code == 0 and "years" in table and re.search(r"\d{7,}", table.replace(",", "")) is None


def test_tokens_beyond_the_physical_range_are_refused_by_name(capsys):
    code, _, err = run(capsys, "estimate", "--model", "llama3-8b", "--tokens", "1e30", "--system", "h100")
    assert code == 2 and "--tokens" in err and "from 1 to 1e18" in err


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (fmt.money, [(162_700, "$162.7k"), (4.2e12, "$4.2T"), (1.86e23, "$1.86e+23")]),
        (fmt.duration, [(24 * 365 * 2.5, "2.5 years"), (24 * 365 * 12_345, "12,345 years")]),
        (fmt.duration, [(24 * 365 * 6.65e17, "6.65e+17 years")]),
        (fmt.energy, [(4.91e6, "4.91 GWh"), (1.2e9, "1.2 TWh")]),
        (fmt.count, [(15e12, "15T"), (1e30, "1e+30")]),
    ],
)
def test_formats_of_huge_values(value, shown):
    for number, text in shown:
        assert value(number) == text


@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "--model", "llama3-70b", "--tokens", "15T", "--gpus", "2048", "--system", "h100"],
        ["estimate", "--model", "llama3-70b", "--tokens", "15T", "--gpus", "2048"],
        ["sensitivity", "--model", "llama3-70b", "--tokens", "1T", "--samples", "50"],
        ["rules", "list"],
        ["prices", "list"],
        ["systems"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_piped_output_has_whole_lines(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "…" not in out
    assert [line for line in out.splitlines() if line != line.rstrip()] == []


def test_bash_completes_model_ids_from_the_catalog(tmp_path, capsys):
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "advisor").exists():
        pytest.skip("the advisor console script is not installed beside this Python")
    _, out, _ = run(capsys, "completion", "bash")
    script = tmp_path / "advisor.bash"
    script.write_text(out)
    words = "advisor estimate --model llama3-"
    probe = (
        f"source {script}; COMP_WORDS=({words}); COMP_CWORD=3; COMP_LINE='{words}'; "
        "COMP_POINT=${#COMP_LINE}; _shtab_advisor advisor llama3- --model; echo ${COMPREPLY[@]}"
    )
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    ids = sorted(m for m in load_catalog(user_dir=False).models if m.startswith("llama3-"))
    assert done.stdout.split() == ids, done.stderr


def test_recommend_table_fits_an_80_column_terminal(capsys, monkeypatch):
    from rich.console import Console

    from advisor.cli import console as console_module

    terminal = Console(file=sys.stdout, width=80, force_terminal=True, color_system=None)
    monkeypatch.setattr(console_module.console, "current", lambda: terminal)
    argv = ["--model", "llama3-70b", "--tokens", "15T", "--gpus", "2048", "--precision", "fp8"]
    code, out, _ = run(capsys, "recommend", *argv)
    lines = out.split("#: rank")[0].splitlines()
    table = lines[next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "system"]) :]
    assert code == 0 and table[0].split() == TRAINING_HEADER
    assert "…" not in "\n".join(table) and max(map(len, table)) <= 80
    assert "gb300-nvl72" in out and "2,048" in out


@pytest.mark.parametrize("value", ["-inf", "-Infinity", "-nan"])
def test_negative_infinity_and_nan_are_values_named_by_their_flag(capsys, value):
    # argparse once read `--tokens -inf` as an unknown option: "expected one argument".
    code, _, err = run(capsys, "estimate", "--model", "llama3-8b", "--tokens", value)
    assert code == 2 and f"--tokens: '{value}' is not a number" in err


def test_a_negative_dollar_amount_is_a_value_named_by_its_flag(capsys):
    code, _, err = run(capsys, "recommend", "--model", "llama3-8b", "--tokens", "1T", "--budget-usd", "-$2")
    assert code == 2 and "--budget-usd" in err and "expected one argument" not in err


def test_a_preset_and_a_custom_size_together_are_refused_not_silently_one_of_them(capsys):
    argv = ("estimate", "--model", "llama3-8b", "--params", "70B", "--tokens", "1T", "--system", "h100")
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--model" in err and "--params" in err and "not both" in err


def test_a_flag_the_command_does_not_take_points_to_the_commands_help(capsys):
    # `estimate --deadline-days 30` said "advisor: unrecognized arguments … (see `advisor --help`)",
    # whose help lists no command's flags (new-user walk, stop 27).
    code, _, err = run(capsys, "estimate", "--model", "llama3-8b", "--tokens", "1T", "--deadline-days", "30")
    assert code == 2
    assert err.strip() == (
        "advisor estimate: unrecognized arguments: --deadline-days\n(see `advisor estimate --help`)"
    )
    code, _, err = run(capsys, "--bogus")
    assert code == 2 and "(see `advisor --help`)" in err
