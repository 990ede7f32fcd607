"""Pilot tests: dialogs put typed text where a person expects, and nothing unsaved is lost without asking
(issue 13.2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from advisor.io.scenario_files import save_scenario
from advisor.tui.path_completion import complete_path
from advisor.tui.screens.confirm_dialog import ConfirmDialog
from advisor.tui.screens.export_dialog import ExportDialog
from advisor.tui.screens.path_dialog import PathDialog
from tests.test_tui_helpers import (
    LLAMA_70B,
    fewer_collections,
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
async def test_typing_in_the_save_dialog_replaces_the_default_name():
    async with running() as (app, pilot):
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, PathDialog)
        await pilot.press(*"plans/x.toml")
        assert app.screen.query_one("#path", Input).value == "plans/x.toml"


@pilot_test
async def test_a_name_saved_without_an_extension_becomes_a_toml_file(tmp_path: Path):
    async with running() as (app, pilot):
        await pilot.press("ctrl+s", *str(tmp_path / "a70b"), "enter")
        await settle(pilot)
        assert not isinstance(app.screen, PathDialog)
        assert [p.name for p in tmp_path.iterdir()] == ["a70b.toml"]
        assert app.main.scenario_path == tmp_path / "a70b.toml"


@pilot_test
async def test_the_export_name_follows_the_format_and_typing_replaces_it():
    async with running() as (app, pilot):
        await pilot.press("ctrl+e")
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("down", "space")  # HTML
        field = app.screen.query_one("#path", Input)
        assert field.value == "report.html"
        await pilot.press("tab", *"team.html")
        assert field.value == "team.html"


@pilot_test
async def test_new_open_and_quit_ask_before_losing_changes(tmp_path: Path):
    async with running() as (app, pilot):
        await pilot.press("ctrl+n")  # nothing changed: no question
        assert not isinstance(app.screen, ConfirmDialog)
        await type_into(pilot, "#input-gpus", "96")
        await settle(pilot)
        for key in ("ctrl+n", "ctrl+o", "ctrl+q"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDialog), key
            # said as a person would ("have changed since they were started" read oddly)
            assert app.screen.question.startswith("The answers have changed since you started, and are not")
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
    async with running() as (app, pilot):
        app.main.form.focus_question("capex_usd_per_node")  # renting: the capex question is not asked
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any("not asked now" in m and "pricing: own" in m for m in messages)
        assert app.focused is None or app.focused.id != "input-capex_usd_per_node"


@pilot_test
async def test_going_to_the_gpus_at_a_target_rate_says_the_rate_sizes_the_fleet():
    # The form's own list once said "Size to the deadline is ticked" for any greyed GPU count.
    from advisor.core.scenario import Scenario

    served = {"kind": "inference", "target_tokens_per_second": 50_000, "tokens": "1T"}
    scenario = Scenario.model_validate({"workload": {"model": "llama3-8b", **served}})
    async with running(scenario=scenario) as (app, pilot):
        app.main.form.focus_question("gpus")
        await pilot.pause()
        messages = [n.message for n in app._notifications if "not asked now" in n.message]
        assert messages and "a target rate sizes the fleet" in messages[-1], messages


@pilot_test
async def test_typing_in_a_choice_list_jumps_to_the_option():
    async with running() as (app, pilot):
        app.main.form.focus_question("model")
        await pilot.press("enter", *"llama 3 70")  # open the model list and type part of a name
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario.workload.model == "llama3-70b"


@pilot_test
async def test_typing_a_model_id_in_the_choice_list_finds_it():
    # Found in tmux: `llama3-70` (the id a CLI user knows) picked Llama 3.2 1B, by the word "llama".
    async with running() as (app, pilot):
        app.main.form.focus_question("model")
        await pilot.press("enter")
        for key in "llama3-70":
            await pilot.press("minus" if key == "-" else key)
            await pilot.pause(0.05)
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario.workload.model == "llama3-70b"


@pilot_test
async def test_enter_on_a_format_exports_in_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    async with running() as (app, pilot):
        await pilot.press("ctrl+e")
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("down")  # HTML highlighted, then Enter: export in it
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ExportDialog)
        assert (tmp_path / "report.html").read_text(encoding="utf-8").lstrip().startswith("<!")
        assert not (tmp_path / "report.md").exists()
        await pilot.press("ctrl+e", "enter")  # Enter at once: the format shown chosen (Markdown)
        await pilot.pause()
        assert (tmp_path / "report.md").exists() and not isinstance(app.screen, ExportDialog)


@pilot_test
async def test_tab_completes_paths_in_the_open_and_save_dialogs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    (tmp_path / "plans").mkdir()
    save_scenario(LLAMA_70B, tmp_path / "plans" / "x.toml")
    (tmp_path / "plans" / "x.html").write_text("", encoding="utf-8")  # an exported report: not offered
    (tmp_path / "plan-a.toml").write_text("", encoding="utf-8")
    (tmp_path / "plan-b.md").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    async with running() as (app, pilot):
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, PathDialog)
        field = app.screen.query_one("#path", Input)
        await pilot.press(*"pla", "tab")  # plan-a.toml and plans/ share "plan": it goes that far
        assert field.value == "plan"
        hint = plain(app.screen.query_one("#path-matches", Static))
        assert "plans/" in hint and "plan-a.toml" in hint and "plan-b.md" not in hint
        assert app.screen.focused is field, "an ambiguous Tab stays in the field"
        await pilot.press("s", "tab")
        assert field.value == "plans/"
        await pilot.press("tab")  # the folder's one scenario (its report is not one)
        assert field.value == "plans/x.toml"
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario == LLAMA_70B
        await pilot.press("ctrl+s")
        field = app.screen.query_one("#path", Input)
        await pilot.press(*"new.toml", "tab")  # nothing to complete: Tab moves on, as elsewhere
        assert field.value == "new.toml" and app.screen.focused is not field


def test_completion_stays_inside_the_shared_folder(tmp_path: Path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "secret.toml").write_text("", encoding="utf-8")
    (tmp_path / "shared" / "team.toml").write_text("", encoding="utf-8")
    root = tmp_path / "shared"
    assert complete_path("te", root).text == "team.toml"
    assert complete_path("../se", root).text == "../se"
    assert complete_path(str(tmp_path / "se")).text == str(tmp_path / "secret.toml")
    assert complete_path(".hid", root).text == ".hid"


def test_completion_offers_only_the_files_a_dialog_takes(tmp_path: Path):
    for name in ("run.toml", "run.md", "run.html"):
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "runs").mkdir()
    assert complete_path("r", tmp_path).matches == ("run.html", "run.md", "run.toml", "runs/")
    toml = complete_path("r", tmp_path, (".toml",))
    assert (toml.text, toml.matches) == ("run", ("run.toml", "runs/"))
    assert complete_path("run.", tmp_path, (".md",)).text == "run.md"


@pytest.mark.parametrize(("key", "button"), [("ctrl+s", "#cancel"), ("ctrl+e", "#cancel"), ("f2", "#cancel")])
@pilot_test
async def test_a_dialogs_cancel_button_and_escape_both_close_it(key: str, button: str):
    async with running() as (app, pilot):
        main = app.screen
        for close in (button, "escape"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is not main, key
            await (pilot.click(close) if close.startswith("#") else pilot.press(close))
            await pilot.pause()
            assert app.screen is main, (key, close)


@pilot_test
async def test_keep_working_closes_the_question_and_keeps_the_change():
    async with running() as (app, pilot):
        await type_into(pilot, "#input-gpus", "96")
        await settle(pilot)
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.click("#keep")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        assert app.main.scenario.workload.gpus == 96


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [
        ("#electricity", "-2", "Electricity, USD per kWh: must be above 0, up to 10 (got -2)"),
        ("#electricity", "abc", "Electricity, USD per kWh: 'abc' is not a number"),
        ("#pue", "1e30", "PUE: must be from 1 to 3 (got 1e30)"),
    ],
)
@pilot_test
async def test_a_bad_setting_is_named_as_the_dialog_labels_it(field, typed, said):
    """Settings said 'electricity_usd_per_kwh: Input should be greater than 0' (new-user walk): a field
    name from the file and pydantic's words. It names the field as labelled, its range and what was typed."""
    async with running() as (app, pilot):
        await pilot.press("f2")
        await until(pilot, lambda: bool(app.screen.query(field)), "the Settings dialog")
        await type_into(pilot, field, typed)
        await pilot.click("#submit")
        error = app.screen.query_one("#dialog-error", Static)
        await until(pilot, lambda: bool(plain(error).strip()), "the error under the fields")
        assert plain(error).strip().startswith(said), plain(error)
        assert "_" not in plain(error) and "Input should" not in plain(error)


@pilot_test
async def test_settings_open_on_their_first_field():
    # app30: the dialog opened with the focus on its scrolling frame, so F2 Tab Tab reached Pricing, and
    # the electricity price typed there went into the pricing list
    async with running() as (app, pilot):
        await pilot.press("f2")
        await until(pilot, lambda: bool(app.screen.query("#electricity")), "the Settings dialog")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#theme")
        await pilot.press("tab", "tab", *"0.12", "enter")
        await until(
            pilot, lambda: app.settings.electricity_usd_per_kwh == 0.12, "the electricity price saved"
        )
