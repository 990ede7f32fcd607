"""SVG snapshots of every screen of the app at 100 × 30 (pytest-textual-snapshot).

A fixed date, default settings and the dark theme keep them stable; each waits until the recommendation
and its ranges are computed. Update after a deliberate change with `pytest --snapshot-update`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from advisor.tui.app import AdvisorApp
from tests.test_tui_helpers import LLAMA_70B, SIZE, app_for_test, fewer_collections, quick_ranges, settle

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, quick_ranges.__name__)

Step = Callable[[Pilot], Awaitable[None]]


def _app(*, llama70b: bool = True) -> AdvisorApp:
    """The app with the 70B pretrain already answered (or a new user's defaults)."""
    return app_for_test(scenario=LLAMA_70B) if llama70b else app_for_test()


def _run(steps: Step | None = None) -> Step:
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot, analysis=True)
        if steps is not None:
            await steps(pilot)
        await settle(pilot, analysis=True)  # typing may have started a new computation
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a steady cursor: the same picture every time
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return run_before


def _tab(tab: str) -> Step:
    async def show(pilot: Pilot) -> None:
        pilot.app.main.show_tab(tab)  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.pause()

    return show


def _keys(*keys: str) -> Step:
    async def press(pilot: Pilot) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    return press


async def _bad_tokens(pilot: Pilot) -> None:
    pilot.app.main.form.focus_question("tokens")  # type: ignore[attr-defined]
    field = pilot.app.screen.query_one("#input-tokens", Input)
    field.value = "15 trillion"  # as if typed (the Pilot tests type key by key)
    field.cursor_position = len(field.value)
    await pilot.pause()


@pytest.mark.parametrize("tab", ["compare", "breakdown", "rules", "assumptions", "sizing", "sensitivity"])
def test_main_screen_tabs(snap_compare, tab):
    assert snap_compare(_app(), terminal_size=SIZE, run_before=_run(_tab(tab)))


def test_first_screen_of_a_new_user(snap_compare):
    """The Why tab, with the defaults a new user starts from."""
    assert snap_compare(_app(llama70b=False), terminal_size=SIZE, run_before=_run())


def test_invalid_answer(snap_compare):
    assert snap_compare(_app(), terminal_size=SIZE, run_before=_run(_bad_tokens))


def test_choice_list(snap_compare):
    async def open_precision(pilot: Pilot) -> None:
        pilot.app.main.form.focus_question("precision")  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(_app(), terminal_size=SIZE, run_before=_run(open_precision))


@pytest.mark.parametrize(
    ("name", "keys"),
    [
        ("help", ("escape", "question_mark")),
        ("save", ("ctrl+s",)),
        ("export", ("ctrl+e",)),
        ("settings", ("f2",)),
    ],
)
def test_dialogs(snap_compare, name, keys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the dialogs offer a path in the working folder
    # The help names the settings file: show a fixed path, not this run's temporary folder.
    monkeypatch.setattr(
        "advisor.tui.screens.help_screen.user_config_dir", lambda: Path("/home/you/.config/advisor")
    )
    assert snap_compare(_app(), terminal_size=SIZE, run_before=_run(_keys(*keys)))


def test_terminal_too_small(snap_compare):
    assert snap_compare(_app(), terminal_size=(70, 20), run_before=_run())
