"""Pilot tests: hostile files and names never crash the app, lose the answers or reach the screen as
markup or control characters (the app items of issue 16)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Static

from advisor.core.scenario import Scenario
from advisor.tui.screens.path_dialog import PathDialog
from advisor.tui.settings import settings_path
from tests.test_tui_helpers import (
    SIZE,
    app_for_test,
    fewer_collections,
    fill,
    no_ranges,
    pilot_test,
    plain,
    running,
    settle,
    type_into,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


def _messages(app) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("value", ["[/]", "[@click=app.quit]CLICK ME[/]", "\x1b]2;PWNED\x07"])
@pilot_test
async def test_a_hostile_settings_value_is_shown_as_plain_text(value: str):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(
        f"pricing = {value!r}\n".replace("'", '"').replace("\\x", "\\u00"), encoding="utf-8"
    )
    async with running(settings=None, settled=False) as (app, pilot):
        # read before the app settles: a loaded machine can take longer than the notice's 10 s to settle
        await until(pilot, lambda: any("settings ignored" in m for m in _messages(app)), "the notice")
        shown = [n for n in app._notifications if "settings ignored" in n.message]
        assert shown and not any(n.markup for n in shown)
        await settle(pilot)
        assert all("\x1b" not in n.message for n in app._notifications)
        assert app.is_running


@pilot_test
async def test_a_catalog_warning_with_markup_is_shown_as_text():
    app = app_for_test()
    app.startup_messages = ("catalog: [/] odd name [link=https://x.example]here[/link]",)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: any("[/] odd name" in m for m in _messages(app)), "the warning")
        await settle(pilot)
        assert app.is_running


@pilot_test
async def test_saving_into_a_folder_with_a_bracket_in_its_name(tmp_path: Path):
    folder = tmp_path / "d["
    folder.mkdir()
    async with running() as (app, pilot):
        await pilot.press("ctrl+s")
        await fill(pilot, "#path", str(folder / "x.toml"))
        await pilot.press("enter")
        await pilot.pause()
        assert (folder / "x.toml").exists()
        assert any("d[" in m for m in _messages(app))
        assert app.is_running


@pytest.mark.parametrize("kind", ["nested", "device", "huge", "fifo"])
@pilot_test
async def test_opening_a_hostile_file_keeps_the_answers(tmp_path: Path, kind: str):
    if kind == "nested":
        path = tmp_path / "deep.toml"
        path.write_text("a = " + "[" * 2000 + "]" * 2000 + "\n", encoding="utf-8")
    elif kind == "huge":
        path = tmp_path / "huge.toml"
        path.write_text("# " + "x" * 2_000_000 + "\n", encoding="utf-8")
    elif kind == "fifo":  # reading it would wait forever for a writer
        path = tmp_path / "plan.toml"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    async with running() as (app, pilot):
        await type_into(pilot, "#input-gpus", "96")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await pilot.click("#go")  # the change is unsaved: open anyway (and keep it if that fails)
        await fill(pilot, "#path", str(path))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PathDialog)  # the dialog says why and stays open
        error = plain(app.screen.query_one("#dialog-error", Static))
        assert str(path) in error
        assert kind != "fifo" or "not a regular file" in error
        await pilot.press("escape")
        assert app.main.scenario.workload.gpus == 96


@pilot_test
async def test_the_scenario_name_in_the_header_is_escaped(tmp_path: Path):
    scenario = Scenario.model_validate(
        {"schema": 1, "name": "[/]\x1b]2;PWNED\x07\u202e", "workload": {"model": "llama3-8b", "tokens": "1T"}}
    )
    async with running(scenario=scenario) as (app, _pilot):
        assert "\x1b" not in app.main.sub_title and "\u202e" not in app.main.sub_title
        assert "[/]" in app.main.sub_title and "\\x1b" in app.main.sub_title


def test_the_help_explains_every_term_the_app_shows():
    from advisor.tui.glossary import glossary_markdown

    terms = [
        "MFU",
        "Goodput",
        "Training stack",
        "PUE",
        "P10–P90",
        "TCO",
        "Score",
        "penalize",
        "Household-years",
    ]
    glossary = glossary_markdown()
    for term in (*terms, "STALE", "Wait", "Capex/node", "FP8 stack"):
        assert f"**{term}" in glossary or f" {term} " in glossary, term
