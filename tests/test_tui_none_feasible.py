"""Pilot tests: with no system feasible, Why lists the systems by how close each comes, as the CLI's
recommend does (new-user walk, app27 item 4): a tiny budget listed them alphabetically (a100 first, at
$192k, above mi300x at $75.11k, the one the verdict names as the first to become feasible)."""

from __future__ import annotations

import re

import pytest

from advisor.cli.main import main
from advisor.core.scenario import Scenario
from advisor.present.ranking import closest_first
from tests.test_tui_helpers import (
    fewer_collections,
    no_ranges,
    pilot_test,
    plain,
    running,
    show_tab,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

FLAGS = ["--model", "llama3-8b", "--tokens", "1T", "--gpus", "64"]
CASES = {"budget": ["--budget-usd", "100"], "deadline": ["--deadline-days", "2"]}


def _scenario(extra: list[str]) -> Scenario:
    flag, value = extra
    table = {"--budget-usd": "budget_usd", "--deadline-days": "deadline_days"}[flag]
    return Scenario.model_validate(
        {
            "schema": 1,
            "name": "none feasible",
            "workload": {"model": "llama3-8b", "tokens": "1T", "gpus": 64},
            "constraints": {table: float(value)},
        }
    )


def _cli_order(capsys: pytest.CaptureFixture[str], extra: list[str]) -> list[str]:
    """The systems in the order `advisor recommend` lists them in its table."""
    assert main(["recommend", *FLAGS, *extra]) == 1
    out = capsys.readouterr().out
    return re.findall(r"^no\s+(\S+)", out, flags=re.MULTILINE)


@pytest.mark.parametrize("case", list(CASES))
@pilot_test
async def test_why_lists_the_systems_by_how_close_they_come_as_the_cli_does(case, capsys):
    async with running(scenario=_scenario(CASES[case])) as (app, pilot):
        rec = app.main.advice.recommendation
        assert rec.winner is None
        await show_tab(pilot, "why")
        text = plain(app.main.query_one("#why-view").query_one("Static"))
    shown = re.findall(r"^(\S+) \(not feasible\)", text, flags=re.MULTILINE)
    assert shown == [c.system for c in closest_first(rec)]
    assert shown != sorted(shown), "not alphabetical"
    first = rec.what_would_change[0] if rec.what_would_change else ""
    if "becomes feasible, and the best choice" in first:
        assert first.startswith(shown[0] + " "), (first, shown)
    assert _cli_order(capsys, CASES[case]) == shown, "the CLI's recommend lists them in the same order"


@pilot_test
async def test_compares_rank_order_puts_the_closest_unranked_first():
    from textual.widgets import DataTable

    async with running(scenario=_scenario(CASES["budget"])) as (app, pilot):
        await show_tab(pilot, "compare")
        table = app.main.query_one("#compare-table", DataTable)
        rows = [str(key.value) for key in table.rows]
        assert rows == [c.system for c in closest_first(app.main.advice.recommendation)]
