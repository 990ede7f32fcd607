"""Pilot tests: a number being typed is taken once the typing settles, not key by key (app29, item 2).
Typing "1000" in GPUs estimated 1, 10 and 100 GPUs on the way, each shown in turn (the screen flickered
through results for values the user never meant). A text field's answer is now taken when the typing
pauses (`SETTLE_S`), the field is left, or Enter is pressed; meanwhile the headline says it is updating,
and a save or export takes what is typed first. The pause is set long here, so no test depends on how
fast keys arrive; one test waits for the real pause."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from advisor.core.scenario import Scenario
from tests.test_tui_helpers import (
    fewer_collections,
    no_ranges,
    pilot_test,
    running,
    screen_lines,
    settle,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


@pytest.fixture
def long_pause(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The typing never pauses long enough by itself: only leaving the field or Enter takes it."""
    monkeypatch.setattr("advisor.tui.screens.main_screen.SETTLE_S", 3600.0)
    yield


def _taken(app) -> list[int]:  # type: ignore[no-untyped-def]
    """Every GPU count the screen takes from now on, in order (the scenarios it computes advice for)."""
    seen: list[int] = []
    app.main.watch(app.main, "scenario", lambda s: seen.append(s.workload.gpus), init=False)
    return seen


async def _type(pilot, key: str, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.main.form.focus_question(key)
    await pilot.pause()
    await pilot.press("home", "ctrl+k")
    for char in text:
        await pilot.press(char)
        await pilot.pause(0.05)  # a person's pace, still quicker than the pause that takes it


@pytest.mark.usefixtures(long_pause.__name__)
@pytest.mark.parametrize("leave", ["tab", "enter"])
@pilot_test
async def test_a_number_typed_is_taken_whole_when_the_field_is_left(leave):
    async with running() as (app, pilot):
        seen = _taken(app)
        await _type(pilot, "gpus", "1000")
        assert seen == [], f"taken while typing: {seen}"
        assert app.main.scenario.workload.gpus == 64
        headline = "\n".join(screen_lines(app))
        assert "GPUs: updating…" in headline, "the result shown is marked as not yet matching"
        await pilot.press(leave)
        await settle(pilot)
        assert seen == [1000], seen
        assert app.main.advice.scenario.workload.gpus == 1000
        assert app.main.status == ""
        assert app.main.form.row("gpus").control.value == "1000"


@pytest.mark.usefixtures(long_pause.__name__)
@pilot_test
async def test_a_save_takes_what_is_typed_first(tmp_path):
    async with running() as (app, pilot):
        await _type(pilot, "gpus", "512")
        app.main.action_save()
        await pilot.pause()
        assert app.main.scenario.workload.gpus == 512, "the file would hold the count on screen"


@pilot_test
async def test_a_pause_in_typing_takes_the_answer(monkeypatch):
    monkeypatch.setattr("advisor.tui.screens.main_screen.SETTLE_S", 0.2)
    async with running() as (app, pilot):
        seen = _taken(app)
        await _type(pilot, "gpus", "256")
        await until(pilot, lambda: app.main.scenario.workload.gpus == 256, "the pause taken as an answer")
        await settle(pilot)
        assert seen[-1] == 256 and app.main.form.row("gpus").control.has_focus
        assert app.main.status == ""


@pytest.mark.usefixtures(long_pause.__name__)
@pilot_test
async def test_fields_typed_one_after_another_are_each_taken():
    scenario = Scenario.model_validate(
        {"schema": 1, "name": "t", "workload": {"model": "llama3-8b", "tokens": "1T", "gpus": 64}}
    )
    async with running(scenario=scenario) as (app, pilot):
        await _type(pilot, "tokens", "2T")
        await pilot.press("tab")  # quickly on to the next field
        await _type(pilot, "gpus", "128")
        await pilot.press("enter")
        await settle(pilot)
        assert (app.main.scenario.workload.tokens, app.main.scenario.workload.gpus) == (2e12, 128)


@pytest.mark.usefixtures(long_pause.__name__)
@pilot_test
async def test_a_refused_answer_is_said_once_typed():
    async with running() as (app, pilot):
        await _type(pilot, "gpus", "abc")
        assert "gpus" not in app.main.errors, "not judged while being typed"
        await pilot.press("tab")
        await until(pilot, lambda: "gpus" in app.main.errors, "letters refused once the field is left")
        assert app.main.form.row("gpus").control.value == "abc", "what was typed stays to be corrected"


@pytest.mark.usefixtures(long_pause.__name__)
@pytest.mark.parametrize(("key", "arrives_at"), [("tab", "size_to_deadline"), ("shift+tab", "gpus")])
@pilot_test
async def test_tab_moves_on_through_the_questions_the_answer_typed_brings_in(key, arrives_at):
    # app30: a deadline typed, then Tab, skipped Size to it and Sizing margin (greyed until a deadline
    # is taken) and landed on Rent or own: Tab moved on before the answer was taken
    async with running() as (app, pilot):
        await _type(pilot, "deadline_days", "30")
        await pilot.press(key)
        await settle(pilot)
        assert app.focused is app.main.form.row(arrives_at).control
        assert app.main.scenario.constraints.deadline_days == 30
