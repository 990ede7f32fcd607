"""Pilot tests: "GPUs already owned" (issue 12.1 and 13.5, app side), asked when buying, typed key by
key: never rewritten while typed, a misspelt system named, the cost lower, and kept through Save/Open."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from advisor.io.scenario_files import load_scenario
from advisor.tui.screens.choice_picker import ChoicePicker
from advisor.tui.screens.confirm_dialog import ConfirmDialog
from advisor.tui.screens.path_dialog import PathDialog
from tests.test_tui_helpers import (
    fewer_collections,
    fill,
    no_ranges,
    pilot_test,
    plain,
    running,
    settle,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

FIELD = "#input-owned_gpus"


async def _buy(pilot) -> None:  # type: ignore[no-untyped-def]
    """Answer "Rent or own" with own, as a user does: open its list, type, Enter."""
    pilot.app.main.form.focus_question("pricing")
    await pilot.pause()
    await pilot.press("enter", *"own")
    await until(pilot, lambda: isinstance(pilot.app.screen, ChoicePicker), "the list of Rent or own open")
    await pilot.press("enter")
    await settle(pilot)
    assert pilot.app.main.scenario.workload.pricing == "own"


async def _type_owned(pilot, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Clear the field and type `text` a key at a time, letting the app compute after each key; what
    the field held after each key."""
    field = pilot.app.main.query_one(FIELD, Input)
    field.focus()
    await pilot.pause()
    await pilot.press("home", "ctrl+k")
    held = []
    for key in text:
        await pilot.press("space" if key == " " else key)
        await settle(pilot)
        held.append(field.value)
    return held


def _h100_cost(app) -> float:  # type: ignore[no-untyped-def]
    candidate = app.main.advice.candidate("h100")
    assert candidate is not None and candidate.system == "h100" and candidate.estimate is not None
    return candidate.estimate.cost_usd


@pilot_test
async def test_owned_gpus_are_asked_when_buying_and_make_the_run_cheaper():
    async with running() as (app, pilot):
        row = app.main.form.row("owned_gpus")
        assert row.disabled, "renting: nothing owned to ask about"
        assert row.question.title == "GPUs already owned"
        await _buy(pilot)
        assert not row.disabled
        assert "e.g. h100=1024, a100=256" in plain(row.query_one(".note", Static))
        before = _h100_cost(app)
        typed = "h100=64, a100=8"
        held = await _type_owned(pilot, typed)
        assert held == [typed[: i + 1] for i in range(len(typed))], "the field is never rewritten"
        assert not app.main.errors
        assert app.main.scenario.assumptions.owned_gpus == {"h100": 64, "a100": 8}
        assert _h100_cost(app) < before, "64 h100 owned: the run pays no capex for them"


@pilot_test
async def test_a_misspelt_system_is_named_and_nothing_is_saved():
    async with running() as (app, pilot):
        await _buy(pilot)
        await _type_owned(pilot, "h10=64")
        field = app.main.query_one(FIELD, Input)
        assert field.value == "h10=64"
        note = plain(app.main.form.row("owned_gpus").query_one(".note", Static))
        assert "unknown system 'h10' (did you mean 'h100'?)" in " ".join(note.split())
        assert app.main.scenario.assumptions.owned_gpus == {}
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, PathDialog)
        messages = " ".join(n.message for n in app._notifications)
        assert "GPUs already owned" in messages and "not saved" in messages.lower()
        await _type_owned(pilot, "1024")  # no system named: said so, not read as every system
        assert "name the system" in plain(app.main.form.row("owned_gpus").query_one(".note", Static))


@pilot_test
async def test_owned_gpus_round_trip_through_save_and_open(tmp_path: Path):
    target = tmp_path / "owned.toml"
    async with running() as (app, pilot):
        await _buy(pilot)
        await _type_owned(pilot, "h100=1k")
        await pilot.press("tab")  # leaving the field: it means what the form would write, so it stays
        await settle(pilot)
        assert app.main.query_one(FIELD, Input).value == "h100=1k"
        await pilot.press("ctrl+s")
        await fill(pilot, "#path", str(target))
        await pilot.press("enter")
        await pilot.pause()
        assert load_scenario(target).assumptions.owned_gpus == {"h100": 1000}
        assert "owned_gpus" in target.read_text(encoding="utf-8")
        await _type_owned(pilot, "a100=8")
        assert app.main.scenario.assumptions.owned_gpus == {"a100": 8}
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog), "an unsaved edit: the app asks first"
        await pilot.click("#go")
        await pilot.pause()
        await fill(pilot, "#path", str(target))
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario.assumptions.owned_gpus == {"h100": 1000}
        assert app.main.query_one(FIELD, Input).value == "h100=1000"
