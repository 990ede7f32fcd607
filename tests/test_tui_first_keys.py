"""Pilot tests: keys typed as soon as the screen shows are never lost (app30, item 1). In a terminal,
`Enter l l a m a` typed quickly into the model question right after start-up lost its first letters:
Textual routes a key to the widget focused when the key arrives, and the list was opened only when the
choice field's turn came to handle the Enter, so the letters typed meanwhile went to the field, which
ignores them. The list now opens as Enter arrives (a priority binding), and the keys of the list typed
before it has the focus (Enter, the arrows) are the list's."""

from __future__ import annotations

import pytest
from textual import events

from advisor.tui.app import AdvisorApp
from advisor.tui.screens.choice_picker import ChoicePicker
from tests.test_tui_helpers import fewer_collections, no_ranges, pilot_test, running, settle, until

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


def _typed_at_once(app: AdvisorApp, *keys: str) -> None:
    """Keys as a terminal delivers them when typed fast: each queued on arrival, none waiting for the
    one before to be handled (`pilot.press` waits for the app to be idle after every key)."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


@pytest.mark.parametrize("settled", [False, True], ids=["at-start-up", "after-start-up"])
@pilot_test
async def test_letters_typed_right_after_enter_filter_the_list(settled):
    async with running(settled=settled) as (app, pilot):
        _typed_at_once(app, "enter", *"llama")
        await until(
            pilot, lambda: getattr(app.screen, "typed", "") == "llama", "'llama' in the list's filter"
        )
        assert isinstance(app.screen, ChoicePicker)
        await pilot.press("escape")
        await settle(pilot)  # the start-up finishes before the app closes


@pilot_test
async def test_enter_typed_before_the_list_has_the_focus_picks_the_match():
    async with running(settled=False) as (app, pilot):
        _typed_at_once(app, "enter", "4", "0", "5", "enter")
        await until(pilot, lambda: app.main.scenario.workload.model == "llama3-405b", "Llama 3 405B chosen")
        await settle(pilot)
        assert not isinstance(app.screen, ChoicePicker)


@pytest.mark.parametrize("key", ["enter", "down"])
@pilot_test
async def test_a_key_of_the_list_reaching_it_before_its_focus_is_the_lists(key):
    """The moment between the list opening and its focus landing, held open: the key is not lost."""
    async with running() as (app, pilot):
        picked: list[str | None] = []
        options = app.main.form.row("model").control.options
        values = [value for _, value in options]
        expected = values[values.index("llama3-8b") + (key == "down")]
        picker = ChoicePicker(options, "llama3-8b", app.main.region)
        await app.push_screen(picker, picked.append)
        await pilot.pause()
        picker.set_focus(None)
        await pilot.press(key)
        if key == "down":
            await pilot.press("enter")
        await until(pilot, lambda: picked == [expected], f"{expected} picked")


@pilot_test
async def test_a_question_picked_just_after_a_new_scenario_keeps_the_focus():
    # app30: Ctrl+N then the palette's "Go to question: Job" at once, and Enter opened the model's list:
    # the new scenario's deferred focus on the first question came after the palette's
    async with running() as (app, pilot):
        app.main.form.focus_question("gpus")
        await pilot.pause()
        app.action_new_scenario()
        app.main.form.focus_question("kind")  # as the palette does, before the screen is refreshed
        await pilot.pause(0.3)
        assert app.focused is app.main.form.row("kind").control
        app.main.form.focus_question("gpus")
        await pilot.pause()
        app.action_new_scenario()  # nothing picked after it: the focus starts again at the top
        await until(pilot, lambda: app.focused is app.main.form.row("model").control, "the model focused")


@pilot_test
async def test_a_greyed_question_picked_just_after_a_new_scenario_leaves_the_focus_at_the_top():
    # a greyed question takes no focus: the new scenario's focus on the first question still comes, where
    # counting the pick as a move left no question focused and the keys typed next went nowhere
    async with running() as (app, pilot):
        app.main.form.focus_question("gpus")
        await pilot.pause()
        app.action_new_scenario()
        app.main.form.focus_question("electricity_usd_per_kwh")  # greyed when renting, the default
        await until(pilot, lambda: app.focused is app.main.form.row("model").control, "the model focused")


@pilot_test
async def test_keys_that_arrive_while_the_screen_mounts_are_kept(monkeypatch):
    # In tmux, `Tab Tab BSpace BSpace 2 T Enter` sent 50 ms apart from start-up left Tokens at 1T (5 of
    # 5 runs): the Tabs were handled while the main screen still mounted (the focus went to the form
    # itself), then its first-question focus undid them, and `2T` went to the model's field. The keys
    # are posted here as the terminal's do, before the screen has mounted.
    screen_for = AdvisorApp.get_default_screen

    def screen_with_keys_typed(app: AdvisorApp):
        _typed_at_once(app, "tab", "tab", "backspace", "backspace", "2", "T", "enter")
        return screen_for(app)

    monkeypatch.setattr(AdvisorApp, "get_default_screen", screen_with_keys_typed)
    async with running(settled=False) as (app, pilot):
        await until(pilot, lambda: app.main.scenario.workload.tokens == 2e12, "2T tokens")
        await settle(pilot)
        assert app.main.scenario.workload.model == "llama3-8b"


def test_keys_typed_while_the_app_loads_reach_it_as_typed():
    # Before Textual takes the terminal (0.5-1.5 s of imports and loading), a line-editing terminal
    # erased `Tab Tab` with the two Backspaces and turned Enter into Ctrl+J: the app read `2T` and
    # Ctrl+J. From the start of `run_app` the bytes stay as typed, and the settings come back after.
    termios = pytest.importorskip("termios")
    import os
    import select

    from advisor.tui.launch import keys_kept_as_typed

    typed = b"\t\t\x7f\x7f2T\r"
    main, terminal = os.openpty()
    try:
        before = termios.tcgetattr(terminal)
        assert before[3] & termios.ICANON  # the premise: a line-editing terminal
        with keys_kept_as_typed(terminal):
            os.write(main, typed)
            got = b""
            while len(got) < len(typed) and select.select([terminal], [], [], 1.0)[0]:
                got += os.read(terminal, 64)
        assert got == typed
        assert termios.tcgetattr(terminal) == before
    finally:
        os.close(main)
        os.close(terminal)
