"""Pilot tests: the app never changes what is typed, and saves exactly what the screen shows (issue 13.1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from advisor.io.scenario_files import load_scenario
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


async def _type_slowly(pilot, selector: str, text: str, pause: float = 0.05) -> None:
    """Clear a field, then type `text` a key at a time with a pause after each (the app computes between)."""
    pilot.app.screen.query_one(selector).focus()
    await pilot.pause()
    await pilot.press("home", "ctrl+k")
    for key in text:
        await pilot.press(key)
        await pilot.pause(pause)
        await settle(pilot)


@pytest.mark.parametrize(
    ("field", "typed", "value"),
    [
        ("tokens", "13421772800", 13421772800),
        ("tokens", "1234567", 1234567),
        ("tokens", "9999999", 9999999),
        ("budget_usd", "1234567", 1234567),
        ("price_usd_per_gpu_hour", "h100=1.5", None),
    ],
)
@pilot_test
async def test_a_field_being_typed_is_never_rewritten(field: str, typed: str, value: float | None):
    async with running() as (app, pilot):
        await _type_slowly(pilot, f"#input-{field}", typed)
        assert app.main.query_one(f"#input-{field}", Input).value == typed
        assert not app.main.errors
        if value is not None:
            assert getattr(app.main.scenario.workload, field, None) == value or (
                app.main.scenario.constraints.budget_usd == value
            )


@pilot_test
async def test_pasted_text_is_kept_and_formatting_on_leaving_loses_no_digit():
    async with running() as (app, pilot):
        field = app.main.query_one("#input-tokens", Input)
        field.focus()
        await pilot.pause()
        await pilot.press("home", "ctrl+k")
        field.insert_text_at_cursor("13421772800")  # as a paste does
        await settle(pilot)
        assert field.value == "13421772800"
        await pilot.press("tab")  # leaving the field: shown in short form, every digit kept
        await settle(pilot)
        assert field.value != "" and not field.has_focus
        from advisor.core.model.inputs import parse_amount

        assert parse_amount(field.value) == 13421772800 == app.main.scenario.workload.tokens


@pilot_test
async def test_save_and_export_refuse_while_an_answer_is_not_accepted(tmp_path: Path):
    async with running() as (app, pilot):
        await _type_slowly(pilot, "#input-tokens", "12x", pause=0)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, PathDialog)
        messages = [n.message for n in app._notifications]
        assert any("Tokens" in m and "not saved" in m.lower() for m in messages)
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert not isinstance(app.screen, PathDialog)
        assert any(
            "Tokens" in m and "not exported" in m.lower() for m in (n.message for n in app._notifications)
        )


@pilot_test
async def test_what_is_saved_is_what_the_screen_shows(tmp_path: Path):
    target = tmp_path / "typed.toml"
    async with running() as (app, pilot):
        await _type_slowly(pilot, "#input-tokens", "13421772800", pause=0.02)
        await pilot.press("ctrl+s")
        await fill(pilot, "#path", str(target))
        await pilot.press("enter")
        await pilot.pause()
        assert load_scenario(target).workload.tokens == 13421772800
        shown = app.main.query_one("#input-tokens", Input).value
        from advisor.core.model.inputs import parse_amount

        assert parse_amount(shown) == 13421772800
        assert "Saved" in " ".join(n.message for n in app._notifications)
        assert not plain(app.main.query_one("#q-tokens .note", Static)).startswith("'")


@pilot_test
async def test_keys_typed_right_after_tab_or_enter_go_to_the_next_question():
    """In a terminal the keys arrive together when typing outpaces the app (seen in tmux: `Tab 2000`
    left the 2 in the field being left); each key is posted at once, as the terminal driver does."""
    from textual import events

    async with running() as (app, pilot):
        app.main.form.focus_question("gpus")
        await pilot.pause()
        keys = [("9", "9"), ("6", "6"), ("tab", None), ("3", "3"), ("0", "0"), ("enter", None)]
        keys += [("shift+tab", None), ("shift+tab", None), ("1", "1"), ("2", "2"), ("8", "8")]
        for key, character in keys:
            app.post_message(events.Key(key, character))
        gpus = app.main.query_one("#input-gpus", Input)
        handled = lambda: app.focused is gpus and gpus.value == "128"  # noqa: E731
        await until(
            pilot, handled, "the keys handled: Shift+Tab twice back to GPUs, its text replaced by 128"
        )
        await settle(pilot)
        assert app.main.scenario.constraints.deadline_days == 30
        assert app.main.scenario.workload.gpus == 128, "Shift+Tab twice: back to GPUs, its text selected"
