"""Pilot tests of what a new user found walking the app (issue 13): the palette numbers sections as
the form does, job-specific questions and columns follow the job, focus lands visibly, the tab bar
and footer at 80x24, and a verdict that does not flip while the ranges compute."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from advisor.tui.widgets.headline import Headline
from tests.test_tui_helpers import (
    LLAMA_70B,
    SIZE,
    app_for_test,
    fewer_collections,
    no_ranges,
    pilot_test,
    plain,
    settle,
)
from tests.test_tui_serving import _choose

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__)


def _palette(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {command.title: command.help for command in app.get_system_commands(app.main)}


def _titles(app) -> list[str]:  # type: ignore[no-untyped-def]
    form = app.main.form
    return [plain(t).strip() for t in form.query(".section-title").results(Static) if t.display]


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_the_palette_numbers_sections_as_the_form_and_offers_serving_for_inference_only():
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for kind in ("pre", "inf"):
            await _choose(pilot, "kind", kind)
            palette = _palette(app)
            shown = {" ".join(title.split()) for title in _titles(app)}
            risk = palette["Go to question: Risk appetite"]
            number = next(title for title in shown if title.endswith("Availability and risk"))
            assert risk.startswith(number + ":"), (risk, shown)
            assert ("Show Serving" in palette) == (kind == "inf")
        assert "5 Availability and risk" not in shown  # with Serving shown, risk is the 6th


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_job_specific_questions_and_the_compare_time_column_follow_the_job():
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form = app.main.form
        shown = {"pre": ("mfu", "efficiency"), "fine": ("finetune_method", "mfu", "efficiency"), "inf": ()}
        headed = {"pre": "train", "fine": "fine-tune", "inf": "serve"}
        for kind, asked in shown.items():
            await _choose(pilot, "kind", kind)
            for key in ("finetune_method", "mfu", "efficiency"):
                assert form.row(key).display == (key in asked), (kind, key)
            app.main.show_tab("compare")
            await pilot.pause(0.1)
            table = app.main.query_one("#compare-table", DataTable)
            labels = [str(column.label).rstrip(" ▲▼") for column in table.columns.values()]
            assert labels[3] == headed[kind], labels


@pilot_test
async def test_a_clear_verdict_reads_as_provisional_until_the_ranges_settle_it(monkeypatch):
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 3600.0)  # ranges never come
    app = app_for_test(scenario=LLAMA_70B)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.main.advice.recommendation.verdict.kind == "clear"
        text = plain(app.main.query_one(Headline))
        verdict = next(line for line in text.splitlines() if line.startswith("• Clear"))
        assert verdict.startswith("• Clear on expected values: ") and verdict.endswith("checking ranges…")
        assert "ranges: computing…" in text
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 0.05)
    app = app_for_test(scenario=LLAMA_70B)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, analysis=True)
        text = plain(app.main.query_one(Headline))
        assert "checking ranges" not in text and "on expected values" not in text
        assert "• Clear: " in text or "• Close call: " in text
