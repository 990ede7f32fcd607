"""A run that takes years is not called Clear without a word: beyond the turnover horizon
(catalog/economics.toml [turnover]) a rule warns, and the verdict says how many GPUs bring it within."""

from __future__ import annotations

import re
from datetime import date
from functools import cache

from advisor.cli.main import main
from advisor.core.analysis.deadline import gpus_for_deadline
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.run import ScenarioResult, run_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.report import build_report, render_report
from tests.conftest import shipped_catalog

TODAY = date(2026, 12, 1)
YEARS_ON_8 = {"model": "llama3-70b", "tokens": 15e12, "gpus": 8}


@cache
def _result(gpus: int = 8) -> ScenarioResult:
    data = {"schema": 1, "name": "years", "workload": {**YEARS_ON_8, "gpus": gpus}}
    return run_scenario(Scenario.model_validate(data), shipped_catalog(), load_rules(), today=TODAY)


def test_a_run_of_years_gets_a_warning_and_the_gpus_that_bring_it_within_the_horizon() -> None:
    result = _result()
    rec = result.recommendation
    assert rec.winner is not None
    est = rec.candidate(rec.winner).estimate
    assert est is not None and est.time_to_result_hours > 10 * 365 * HOURS_PER_DAY
    assert any("outlasts a GPU generation" in w and rec.winner in w for w in rec.warnings)
    caveat = rec.verdict.caveat
    assert caveat.startswith(f"{rec.winner} takes ") and "beyond the 365-day horizon" in caveat
    gpus = int(re.search(r"; ([\d,]+) GPUs finish in ", caveat).group(1).replace(",", ""))  # type: ignore[union-attr]
    # The count is the deadline sizing's, at the horizon: it finishes within it, and is more than 8.
    catalog = shipped_catalog()
    sized = gpus_for_deadline(
        result.workload, rec.winner, catalog, 365, margin=result.scenario.constraints.sizing_margin
    )
    assert sized.gpus == gpus and gpus > 8
    assert sized.estimate is not None and sized.estimate.time_to_result_hours <= 365 * HOURS_PER_DAY
    assert caveat in rec.verdict.sentence() and caveat in rec.verdict.short_sentence()


def test_a_run_within_the_horizon_has_no_caveat() -> None:
    rec = _result(2048).recommendation
    assert rec.verdict.caveat == ""
    assert not any("outlasts a GPU generation" in w for w in rec.warnings)


def test_the_cli_and_a_markdown_report_say_it(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["recommend", "--model", "llama3-70b", "--tokens", "15T", "--gpus", "8"]) == 0
    out = capsys.readouterr().out
    assert "beyond the 365-day horizon in which GPUs and models turn over" in out
    assert "outlasts a GPU generation" in out
    result = _result()
    report = build_report(result.scenario, shipped_catalog(), load_rules(), today=TODAY, version="test")
    markdown = render_report(report, "md")
    assert "beyond the 365-day horizon in which GPUs and models turn over" in markdown


def test_the_app_headline_says_it() -> None:
    from advisor.present.headline import verdict_line

    result = _result()
    line = verdict_line(result.recommendation, result.sensitivity).plain
    assert "beyond the 365-day horizon in which GPUs and models turn over" in line


def test_what_would_change_it_never_offers_a_deadline_past_the_horizon() -> None:
    # Rent 64 GPUs for 1T tokens in 60 days: the new-user walk was told "mi355x becomes feasible ... if
    # the run may take 866.8 days instead of 60" (15T tokens there), a deadline past the 365-day horizon
    # the same answer calls no plan. Relaxed deadlines stay within it; past it, none is offered.
    catalog = shipped_catalog()
    horizon = catalog.economics.turnover.horizon_days
    for tokens in (1e12, 15e12):
        data = {
            "schema": 1,
            "name": "deadline",
            "workload": {"model": "llama3-70b", "tokens": tokens, "gpus": 64},
            "constraints": {"deadline_days": 60},
        }
        rec = run_scenario(Scenario.model_validate(data), catalog, load_rules(), today=TODAY).recommendation
        days = [
            float(d) for line in rec.what_would_change for d in re.findall(r"may take ([\d.]+) days", line)
        ]
        assert all(d <= horizon for d in days), rec.what_would_change
        if tokens == 1e12:
            assert days, "deadlines within the horizon are still offered"
