"""Shared helpers for the app's Pilot and snapshot tests (no tests here)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from datetime import date

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, Tabs

from advisor.core.scenario import Scenario
from advisor.tui.app import AdvisorApp, make_app
from advisor.tui.questions import QUESTION_BY_KEY
from advisor.tui.screens.choice_picker import ChoicePicker
from advisor.tui.settings import Settings
from advisor.tui.widgets.drawn_when_shown import DrawnWhenShown

TODAY = date(2026, 11, 29)
"""A fixed date: price ages, and so the snapshots, do not change with the clock."""
SIZE = (100, 30)


def pilot_test(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio (the suite has no async plugin); fixtures pass through."""

    @functools.wraps(test)
    def run(*args: object, **kwargs: object) -> None:
        asyncio.run(test(*args, **kwargs))  # type: ignore[arg-type]

    return run


LLAMA_70B = Scenario.model_validate(
    {
        "schema": 1,
        "name": "llama3-70b",
        "workload": {"model": "llama3-70b", "tokens": "15T", "gpus": 2048, "precision": "fp8"},
    }
)
"""A 70B pretrain: 15T tokens on 2,048 GPUs in FP8."""


@pytest.fixture(scope="module")
def fewer_collections() -> Iterator[None]:
    """Collect garbage less often while a module of app tests runs (a third faster; restored after)."""
    before = gc.get_threshold()
    gc.set_threshold(50_000, 50, 100)
    yield
    gc.set_threshold(*before)


@pytest.fixture
def quick_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ranges wait 0.4 s for typing to pause; a snapshot need not wait that long."""
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 0.05)


@pytest.fixture
def no_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flows that do not look at the ranges skip their 0.1 s of work after each pause in typing
    (Pilot waits for the process to be idle after every key, so it would wait for them too)."""
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 3600.0)


def app_for_test(**kwargs: object) -> AdvisorApp:
    """The app as the CLI builds it, with default settings (never the developer's) and a fixed date."""
    kwargs.setdefault("settings", Settings())
    return make_app(today=TODAY, **kwargs)  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def running(
    *,
    size: tuple[int, int] = SIZE,
    answers: Mapping[str, str] | None = None,
    settled: bool = True,
    analysis: bool = False,
    **kwargs: object,
) -> AsyncIterator[tuple[AdvisorApp, Pilot]]:
    """The app of `app_for_test(**kwargs)` running headless at `size`, its first advice shown (unless
    `settled` is False; with `analysis`, its ranges too) and then `answers` given as a user gives them
    (`{"kind": "inf"}`: a choice's list opened and part of an option typed; a text field typed into)."""
    app = app_for_test(**kwargs)
    async with app.run_test(size=size) as pilot:
        if settled:
            await settle(pilot, analysis=analysis)
        for key, typed in (answers or {}).items():
            if QUESTION_BY_KEY[key].control == "choice":
                await choose(pilot, key, typed)
            else:
                await type_into(pilot, f"#input-{key}", typed)
                await settle(pilot)
        yield app, pilot


async def choose(pilot: Pilot, key: str, typed: str) -> None:
    """Open a choice's list, type part of an option and press Enter, as a user would."""
    app = pilot.app
    assert isinstance(app, AdvisorApp)
    app.main.form.focus_question(key)
    await pilot.pause()
    await pilot.press("enter", *typed)
    await until(pilot, lambda: isinstance(app.screen, ChoicePicker), f"the list of {key} open")
    await pilot.press("enter")
    await settle(pilot)


async def serve_70b_at_50k(pilot: Pilot) -> None:
    """Llama 3 70B served at 50k tokens/s, chosen in the form, the answer settled."""
    await choose(pilot, "model", "llama 3 70")
    await choose(pilot, "kind", "inf")
    await type_into(pilot, "#input-target_tokens_per_second", "50k")
    await settle(pilot)


async def until(pilot: Pilot, condition: Callable[[], bool], what: str, seconds: float = 6.0) -> None:
    """Wait until `condition()` holds (a loaded machine handles keys late); fail naming `what`."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def settle(pilot: Pilot, *, analysis: bool = False) -> None:
    """Wait until what was typed is taken and the advice (and, if asked, the ranges) match the answers
    shown."""
    app = pilot.app
    assert isinstance(app, AdvisorApp)
    main = app.main
    for _ in range(300):
        await pilot.pause(0.02)
        typed_taken = not main.typing  # what was typed is taken once the typing pauses (SETTLE_S)
        advice_done = typed_taken and main.advice is not None and main.advice.scenario == main.scenario
        analysis_done = main.analysis is not None and main.analysis.scenario == main.scenario
        mounted = main.form.complete and bool(main.query("#sensitivity-view"))
        if mounted and advice_done and (analysis_done or not analysis):
            await pilot.pause()
            return
    raise AssertionError("the app did not finish computing")


def tab_shown(app: AdvisorApp, tab: str) -> bool:
    """The result tab `tab` is the active one, drawn for the latest answer, its label on screen whole in
    the tab bar (scrolled into view), and the focus moved into it (or onto the bar, or nowhere, for a
    tab with nothing to focus now)."""
    main = app.main
    tabs = main.query_one("#tabs", TabbedContent)
    if tabs.active != tab:
        return False
    pane = tabs.get_pane(tab)
    shown_views = [view for view in pane.query("*") if isinstance(view, DrawnWhenShown) and view._displayed()]
    if any(view._draw_pending for view in shown_views):  # a view in a hidden inner tab draws when shown
        return False
    focused = app.focused
    if focused is not None and pane not in focused.ancestors and not isinstance(focused, Tabs):
        return False
    bar = main.query_one("#tabs Tabs", Tabs)
    label = str(bar.active_tab.label) if bar.active_tab else ""
    line = f" {screen_lines(app)[bar.region.y]} "
    return bool(label) and any(f"{before}{label} " in line for before in (" ", "▕"))


async def show_tab(pilot: Pilot, tab: str) -> None:
    """Choose result tab `tab` and wait until it is shown and focused (see `tab_shown`)."""
    app = pilot.app
    assert isinstance(app, AdvisorApp)
    app.main.show_tab(tab)
    await until(pilot, lambda: tab_shown(app, tab), f"the {tab!r} tab shown, focused and scrolled into view")
    await pilot.pause()


def plain(widget: Widget) -> str:
    """What a Static (or a widget that renders Rich content) shows, as plain text."""
    console = Console(width=400, file=io.StringIO(), color_system=None)
    console.print(widget.content if isinstance(widget, Static) else widget.render())
    return console.file.getvalue()  # type: ignore[attr-defined]


async def type_into(pilot: Pilot, selector: str, text: str) -> None:
    """Focus a text field, clear it and type `text`, key by key, as a user would."""
    pilot.app.screen.query_one(selector).focus()
    await pilot.pause()
    await pilot.press("home", "ctrl+k", *text)


async def fill(pilot: Pilot, selector: str, text: str) -> None:
    """Focus a text field and replace its text at once (for long file paths: typing them is slow)."""
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = text
    field.cursor_position = len(text)
    await pilot.pause()


def screen_lines(app: AdvisorApp) -> list[str]:
    """The screen as the user sees it, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
