"""Pilot tests: keys that arrive in a burst edit a text field in the order they were typed (new-user try,
stop 33). Under load, Backspace and Ctrl+U took effect after the characters typed behind them: in tmux,
Ctrl+U then "50%" in Sizing margin left "0%", a valid answer the user never typed, which resized every
fleet; "1 2 Backspace 3" gave "12". The keys here are posted all at once, before the app handles any, as a
busy app receives them (Textualize/textual#6605)."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from advisor.tui.screens.path_dialog import PathDialog
from advisor.tui.widgets.ordered_input import OrderedInput
from tests.test_tui_helpers import fewer_collections, no_ranges, pilot_test, running, until

BURSTS = [
    (["1", "2", "backspace", "3"], "13"),
    (["backspace", "1", "2"], "12"),
    (["ctrl+u", "1", "2", "8"], "128"),
    (["1", "2", "home", "3"], "312"),
    (["1", "2", "3", "left", "left", "delete", "9"], "193"),
]


def _burst(app: App[object], keys: list[str]) -> None:
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


class _OneField(App[None]):
    def compose(self) -> ComposeResult:
        yield OrderedInput("7", id="field")


@pytest.mark.parametrize(("keys", "typed"), BURSTS)
@pilot_test
async def test_a_burst_of_keys_edits_the_field_in_order(keys, typed):
    app = _OneField()
    async with app.run_test() as pilot:
        field = app.query_one("#field", Input)
        field.focus()
        await pilot.press("end", "ctrl+u")
        await until(pilot, lambda: field.value == "", "the field emptied")
        _burst(app, keys)
        await until(pilot, lambda: field.value == typed, f"{keys} typed as {typed!r}", seconds=5)
        await pilot.pause(0.2)
        assert field.value == typed


@pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)
@pilot_test
async def test_a_burst_in_a_question_and_in_the_open_dialog():
    async with running() as (app, pilot):
        await pilot.press("ctrl+o")  # nothing changed yet: the dialog opens at once
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the Open dialog")
        path = app.screen.query_one("#path", Input)
        _burst(app, ["ctrl+u", *"plan.toml"])
        await until(pilot, lambda: path.value == "plan.toml", "the path typed whole", seconds=5)
        await pilot.pause(0.2)
        assert path.value == "plan.toml"
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PathDialog), "the dialog closed")
        app.main.form.focus_question("gpus")
        await pilot.pause()
        gpus = app.main.query_one("#input-gpus", Input)
        await pilot.press("end")
        _burst(app, ["ctrl+u", "1", "2", "backspace", "6"])
        await until(pilot, lambda: gpus.value == "16", "GPUs typed as 16", seconds=5)
        await pilot.pause(0.2)
        assert gpus.value == "16"
