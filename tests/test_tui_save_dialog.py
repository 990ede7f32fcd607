"""Pilot tests: the Save dialog's keys (new-user walk, app27 item 2). Enter saves from any field of the
dialog, the Replace box too (Space ticks it); Escape cancels; an existing file is replaced only once the
box is ticked, and then whole (the write is atomic)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox, Static

from advisor.io import atomic
from advisor.tui.screens.path_dialog import PathDialog
from tests.test_tui_helpers import (
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


@pilot_test
async def test_enter_on_the_replace_box_saves_and_space_ticks_it(tmp_path: Path):
    target = tmp_path / "plan.toml"
    target.write_text("old\n")
    async with running() as (app, pilot):
        await type_into(pilot, "#input-gpus", "96")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the Save dialog")
        await fill(pilot, "#path", str(target))
        await pilot.press("enter")  # an existing file: not replaced, the dialog says how to
        error = app.screen.query_one("#dialog-error", Static)
        await until(pilot, lambda: "already exists" in plain(error), "the question before replacing")
        assert target.read_text() == "old\n"
        box = app.screen.query_one("#overwrite", Checkbox)
        box.focus()
        await pilot.press("space")
        await until(pilot, lambda: box.value, "the box ticked by Space")
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, PathDialog), "Enter on the box to save")
        assert box.value, "Enter saved; it did not untick the box"
        assert app.main.scenario_path == target
        assert "gpus = 96" in target.read_text()


@pilot_test
async def test_escape_cancels_the_save_and_writes_nothing(tmp_path: Path):
    async with running() as (app, pilot):
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the Save dialog")
        await fill(pilot, "#path", str(tmp_path / "plan.toml"))
        app.screen.query_one("#overwrite", Checkbox).focus()
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PathDialog), "Escape to close the dialog")
        assert list(tmp_path.iterdir()) == []
        assert app.main.scenario_path is None


@pilot_test
async def test_a_failed_replace_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    target = tmp_path / "plan.toml"
    target.write_text("old\n")

    def full(*_args: object) -> None:  # the disk fills as the new file takes the old one's place
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", full)
    async with running() as (app, pilot):
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the Save dialog")
        await fill(pilot, "#path", str(target))
        box = app.screen.query_one("#overwrite", Checkbox)
        box.focus()
        await pilot.press("space", "enter")
        error = app.screen.query_one("#dialog-error", Static)
        await until(pilot, lambda: "cannot write" in plain(error), "the failure said in the dialog")
        assert isinstance(app.screen, PathDialog), "the dialog stays open, saying why"
        assert target.read_text() == "old\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.toml"], "no temporary file left"
