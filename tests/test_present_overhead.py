"""A production run's overhead where the fitted line adds none (models above about 330B parameters): said
plainly, with why, instead of a bare `0 min`, on the CLI and in the reports."""

from __future__ import annotations

from datetime import date

from advisor.cli.main import main
from advisor.core.costing.estimate import estimate
from advisor.core.model.workload import Workload
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.report.data import build_report
from advisor.report.markdown import render_markdown
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()


def _estimate(model: str):
    work = Workload(model=CATALOG.model(model), tokens=15e12, gpus=16384, precision="fp8")
    return estimate(work, "h100", CATALOG)


def test_the_fitted_line_adds_no_overhead_for_the_largest_models_and_some_below():
    # The premise: at 405B the fitted production line is capped at the reference speed; at 70B it is not.
    assert _estimate("llama3-405b").time_breakdown_hours["overhead"] == 0.0
    assert _estimate("llama3-70b").time_breakdown_hours["overhead"] > 0.0


def _cli(capsys, model: str) -> str:
    argv = ["estimate", "--model", model, "--tokens", "15T", "--gpus", "16384", "--system", "h100"]
    assert main([*argv, "--precision", "fp8"]) == 0
    return capsys.readouterr().out


def test_the_cli_time_breakdown_says_none_and_why(capsys):
    out = _cli(capsys, "llama3-405b")
    overhead = next(line for line in out.splitlines() if line.strip().startswith("production overhead"))
    assert "none" in overhead and "0 min" not in overhead
    assert "the production line, fitted on published end-to-end runs," in " ".join(out.split())
    assert "406B" in out


def test_a_run_with_overhead_shows_its_duration_and_no_note(capsys):
    out = _cli(capsys, "llama3-70b")
    overhead = next(line for line in out.splitlines() if line.strip().startswith("production overhead"))
    assert "days" in overhead or " h " in overhead
    assert "the production line, fitted" not in " ".join(out.split())


def test_the_report_says_none_and_why():
    scenario = Scenario.model_validate(
        {
            "name": "405B",
            "workload": {"model": "llama3-405b", "tokens": 15e12, "gpus": 16384, "precision": "fp8"},
            "systems": ["h100", "b200"],
        }
    )
    report = build_report(scenario, CATALOG, load_rules(), today=date(2026, 12, 1), version="test")
    text = render_markdown(report)
    time = text.split("## Time to result breakdown", 1)[1].split("\n## ", 1)[0]
    assert "0 min" not in time.split("| Total |", 1)[1]
    assert "| none |" in time
    assert "the production line, fitted on published end-to-end runs," in time and "406B" in time
