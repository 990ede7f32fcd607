"""Pilot tests: dialogs put typed text where a person expects, and nothing unsaved is lost without asking
(issue 13.2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from advisor.tui.screens.confirm_dialog import ConfirmDialog
from advisor.tui.screens.export_dialog import ExportDialog
from advisor.tui.screens.path_dialog import PathDialog
from tests.test_tui_helpers import (
    SIZE,
    app_for_test,
    fewer_collections,
    no_ranges,
    pilot_test,
    settle,
    type_into,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


@pilot_test
async def test_typing_in_the_save_dialog_replaces_the_default_name():
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, PathDialog)
        await pilot.press(*"plans/x.toml")
        assert app.screen.query_one("#path", Input).value == "plans/x.toml"


@pilot_test
async def test_the_export_name_follows_the_format_and_typing_replaces_it():
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+e")
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("down", "enter")  # HTML
        field = app.screen.query_one("#path", Input)
        assert field.value == "report.html"
        await pilot.press("tab", *"team.html")
        assert field.value == "team.html"


@pilot_test
async def test_new_open_and_quit_ask_before_losing_changes(tmp_path: Path):
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")  # nothing changed: no question
        assert not isinstance(app.screen, ConfirmDialog)
        await type_into(pilot, "#input-gpus", "96")
        await settle(pilot)
        for key in ("ctrl+n", "ctrl+o", "ctrl+q"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDialog), key
            await pilot.press("escape")  # keep working
            await pilot.pause()
            assert app.main.scenario.workload.gpus == 96 and app.is_running
        await pilot.press("ctrl+n")
        await pilot.click("#go")
        await settle(pilot)
        assert app.main.scenario.workload.gpus == 64
        await pilot.press("ctrl+q")  # nothing unsaved now: quits at once
        await pilot.pause()
    assert not app.is_running


@pilot_test
async def test_going_to_a_question_not_asked_says_why():
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.form.focus_question("capex_override")  # renting: the capex question is not asked
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("not asked now" in m and "Pricing: own" in m for m in messages)
        assert app.focused is None or app.focused.id != "input-capex_override"


@pilot_test
async def test_typing_in_a_choice_list_jumps_to_the_option():
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.form.focus_question("model")
        await pilot.press("enter", *"llama 3 70")  # open the model list and type part of a name
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario.workload.model == "llama3-70b"
