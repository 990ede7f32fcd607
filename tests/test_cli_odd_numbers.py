"""Odd numerals on the command line: each is read exactly as written or refused, and a refusal names the
flag, the value and what the flag accepts (never a changed value, never a bare "not a number")."""

from __future__ import annotations

import json

import pytest

from advisor.cli.main import main

JOB = ["estimate", "--model", "llama3-8b", "--system", "h100", "--json"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([*JOB, *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # Read as 0 x 10 (dataset x epochs) and refused as "out of range: >= 1", a hex literal looked like
        # a range problem.
        (["--tokens", "0x10"], "--tokens: '0x10' is not read as hexadecimal, octal or binary"),
        (["--tokens", "1e"], "--tokens: '1e' is not a number; must be from 1 to 1e18, written like 70B"),
        (["--tokens", "inf"], "--tokens: 'inf' is not a number; must be from 1 to 1e18"),
        (["--tokens", "nan"], "--tokens: 'nan' is not a number; must be from 1 to 1e18"),
        # Read as 10 and 80: an underscore outside groups of three is refused, never guessed at.
        (["--tokens", "1T", "--tokens", "1__0"], "--tokens: '1__0': an underscore only separates thousands"),
        (["--tokens", "1T", "--gpus", "8_0"], "--gpus: '8_0': an underscore only separates thousands"),
        (["--tokens", "1T", "--gpus", "8.5"], "--gpus: '8.5' must be a whole number from 1 to 1M"),
        (
            ["--tokens", "1T", "--gpus", "1e99"],
            "--gpus: '1e99' is out of range: must be a whole number from 1 to 1M",
        ),
        (["--tokens", "0"], "--tokens: '0' is out of range: must be from 1 to 1e18"),
        (
            ["--tokens", "5T x 1e-13"],
            "--tokens: '5T x 1e-13' is out of range (it reads as 0.5): must be from 1",
        ),
        # Read as system 'h100=0.5': "unknown system (did you mean 'h100'?)".
        (["--tokens", "1T", "--mfu", "h100=0.5=0.6"], "--mfu: 'h100=0.5=0.6' has more than one '='"),
        (
            ["--tokens", "1T", "--mfu", "h100=lots"],
            "--mfu: h100: 'lots' is not a number; must be from 0.001 to 1",
        ),
        (["--tokens", "1T", "--mfu", "2"], "--mfu: '2' is out of range: must be from 0.001 to 1"),
    ],
)
def test_an_odd_numeral_is_refused_naming_the_flag_the_value_and_what_is_accepted(argv, said, capsys):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert f"argument {said}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "key", "value"),
    [
        (["--tokens", "1_000"], "tokens", 1000),
        (["--tokens", "1_000B"], "tokens", 1e12),
        (["--tokens", "+5"], "tokens", 5),
        (["--tokens", "1."], "tokens", 1),
        (["--tokens", "5T x 3"], "tokens", 15e12),
        (["--tokens", "1T", "--gpus", "1e3"], "gpus", 1000),
        (["--tokens", "1T", "--gpus", "+8"], "gpus", 8),
        (["--tokens", "1T", "--gpus", "2,048"], "gpus", 2048),
        (["--tokens", "1T", "--gpus", "2k"], "gpus", 2000),
    ],
)
def test_an_unusual_but_exact_numeral_is_read_as_written(argv, key, value, capsys):
    code, out, _ = run(capsys, *argv)
    assert code == 0 and json.loads(out)[key] == value


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--mfu", "h100=0.5", "--mfu", "h100=0.6"], "--mfu gives 'h100' twice (0.5 and 0.6): give it once"),
        (["--mfu", "0.5", "--mfu", "h100=0.4"], "--mfu gives 'h100' twice (0.5 and 0.4)"),  # --system h100
    ],
)
def test_a_system_given_twice_in_a_repeated_flag_is_refused_not_the_last_kept(argv, said, capsys):
    # The last value was kept silently (MFU 0.6, the 0.5 dropped).
    code, out, err = run(capsys, "--tokens", "1T", *argv)
    assert code == 2 and not out and said in err


def test_a_repeated_flag_for_different_systems_adds_them(capsys):
    code, out, _ = run(capsys, "--tokens", "1T", "--mfu", "b200=0.4", "--mfu", "h100=0.5")
    assert code == 0 and json.loads(out)["mfu"] == 0.5
