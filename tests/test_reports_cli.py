"""`advisor report` on the command line: formats, atomic writes, --force, clear errors."""

from __future__ import annotations

import json
import tomllib

import pytest

from advisor.cli.main import build_parser, main
from advisor.io.scenario_files import load_scenario
from advisor.report.formats import COMPARISON_FORMATS, REPORT_FORMATS
from tests.conftest import ROOT

EXAMPLE = str(ROOT / "examples/7b-finetune.toml")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "fmt", "check"),
    [
        ("r.md", "md", lambda text: text.startswith("# Advisor report: Llama 2 7B fine-tune")),
        ("r.markdown", "md", lambda text: text.startswith("# Advisor report:")),
        ("r.html", "html", lambda text: text.startswith("<!DOCTYPE html>")),
        ("r.HTM", "html", lambda text: text.startswith("<!DOCTYPE html>")),
        ("r.json", "json", lambda text: json.loads(text)["winner"] == "a100"),
        ("r.toml", "toml", lambda text: tomllib.loads(text)["results"]["winner"] == "a100"),
    ],
)
def test_format_from_the_extension(name, fmt, check, capsys, tmp_path):
    out = tmp_path / name
    code, _, err = run(capsys, "report", EXAMPLE, "-o", str(out))
    assert code == 0, err
    assert check(out.read_text(encoding="utf-8"))
    assert f"wrote the {fmt} report to {out}" in err
    assert [p.name for p in tmp_path.iterdir()] == [name], "no temporary file left behind"


def test_format_flag_wins_over_the_extension(capsys, tmp_path):
    out = tmp_path / "report.txt"
    code, _, _ = run(capsys, "report", EXAMPLE, "-o", str(out), "--format", "json")
    assert code == 0 and json.loads(out.read_text())["objective"] == "cost"


def test_without_output_markdown_goes_to_stdout(capsys):
    code, out, _ = run(capsys, "report", EXAMPLE)
    assert code == 0 and out.startswith("# Advisor report:") and "## Assumptions used" in out
    code, out, _ = run(capsys, "report", EXAMPLE, "--format", "json")
    assert code == 0 and json.loads(out)["winner"] == "a100"


def test_an_existing_file_is_replaced_only_with_force(capsys, tmp_path):
    out = tmp_path / "r.md"
    out.write_text("keep me")
    code, _, err = run(capsys, "report", EXAMPLE, "-o", str(out))
    assert code == 2 and "already exists; use --force to replace it" in err
    assert out.read_text() == "keep me"
    code, _, _ = run(capsys, "report", EXAMPLE, "-o", str(out), "--force")
    assert code == 0 and out.read_text().startswith("# Advisor report:")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "report.pdf",
            "cannot tell the format (extension .pdf); name it .md, .html, .json, .toml, or give --format",
        ),
        ("report", "cannot tell the format (no extension)"),
        ("missing-folder/r.md", "missing-folder: no such folder"),
        ("a-file/r.md", "a-file: is a file, not a folder"),
        (".", "is a folder; give a file name"),
    ],
)
def test_unwritable_or_unclear_targets_say_why(target, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("")
    code, out, err = run(
        capsys, "report", EXAMPLE, "-o", target, *(["--format", "md"] if target == "." else [])
    )
    assert code == 2 and message in err and "Traceback" not in err
    assert out == ""


def test_flags_override_the_file(capsys, tmp_path):
    out = tmp_path / "r.toml"
    code, _, _ = run(capsys, "report", EXAMPLE, "--gpus", "16", "--deadline-days", "5", "-o", str(out))
    assert code == 0
    scenario = load_scenario(out)
    assert scenario.workload.gpus == 16 and scenario.constraints.deadline_days == 5
    assert scenario.workload.model == "llama2-7b", "the file's other values stay"


def test_flags_alone_make_a_report(capsys):
    code, out, _ = run(capsys, "report", "--model", "llama3-8b", "--tokens", "1T", "--gpus", "64")
    assert code == 0 and "| Tokens | 1T |" in out and "| GPUs | 64 |" in out


@pytest.mark.parametrize(
    ("flags", "title"),
    [
        (("--model", "llama3-8b", "--tokens", "1T"), "llama3-8b pretrain, 1T tokens"),
        (
            ("--params", "7e9", "--tokens", "2e9", "--kind", "finetune"),
            "7B-parameter model finetune, 2B tokens",
        ),
    ],
)
def test_a_report_from_flags_is_named_by_its_job(flags, title, capsys):
    code, out, _ = run(capsys, "report", *flags, "--gpus", "64")
    assert code == 0 and out.startswith(f"# Advisor report: {title}\n")


def test_a_file_keeps_its_own_name(capsys, tmp_path):
    out = tmp_path / "r.toml"
    assert run(capsys, "report", EXAMPLE, "--gpus", "16", "-o", str(out))[0] == 0
    assert load_scenario(out).name == load_scenario(EXAMPLE).name


@pytest.mark.parametrize(
    ("command", "registry"), [("report", REPORT_FORMATS), ("compare", COMPARISON_FORMATS)]
)
def test_the_command_line_offers_what_the_registry_holds(command, registry):
    subcommands = next(a for a in build_parser()._actions if a.dest == "command").choices
    fmt = next(a for a in subcommands[command]._actions if a.dest == "format")
    assert list(fmt.choices) == list(registry)


@pytest.mark.parametrize(("flags", "validations"), [((), 1), (("--gpus", "16"), 2)])
def test_report_validates_the_scenario_file_once(flags, validations, capsys, tmp_path, monkeypatch):
    import advisor.io.scenario_files as scenario_files

    calls = []
    original = scenario_files.scenario_from_data

    def counted(*args, **kwargs):
        calls.append(args[1] if len(args) > 1 else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(scenario_files, "scenario_from_data", counted)
    code, _, err = run(capsys, "report", EXAMPLE, *flags, "-o", str(tmp_path / "r.md"))
    assert code == 0, err
    assert len(calls) == validations  # the file once; again only when flags change it
