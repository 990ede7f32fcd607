"""Odd uses of the command line end in one message, never a traceback: output that cannot be written, an
empty --system, and a file given where a folder is wanted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli.main import main
from tests.conftest import ROOT

EXAMPLE = str(ROOT / "examples/7b-finetune.toml")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "--model", "llama3-8b", "--tokens", "1B", "--system", "h100"],
        ["report", EXAMPLE, "--format", "json"],
        ["models"],
    ],
)
def test_output_to_a_full_device_is_one_message_and_status_1(argv):
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [sys.executable, "-m", "advisor", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 1, done.stderr
    assert done.stderr == "advisor: could not write the output: No space left on device\n"


def test_an_empty_system_is_refused_not_read_as_every_system(capsys):
    assert main(["estimate", "--model", "llama3-8b", "--tokens", "1B", "--system", ""]) == 2
    out, err = capsys.readouterr()
    assert not out and "--system '': unknown system" in err


@pytest.mark.parametrize(
    ("flag", "what"), [("--catalog", "user catalog folder"), ("--rules", "rules folder")]
)
def test_a_file_given_for_a_folder_is_called_a_file(flag, what, capsys):
    assert main([flag, EXAMPLE, "recommend", "--model", "llama3-8b", "--tokens", "1B"]) == 2
    err = capsys.readouterr().err
    assert err == f"advisor: {EXAMPLE}: is a file, not a folder; give the {what}\n"
