"""Pilot tests of the app's main flows: answer, watch the recommendation, bad input, files, settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.fuzzy import Matcher
from textual.widgets import DataTable, Input, OptionList, Static

from advisor.core import fmt
from advisor.core.decision.advise import advise
from advisor.core.decision.request import AdviceRequest
from advisor.core.scenario import Scenario
from advisor.io.scenario_files import load_scenario, save_scenario
from advisor.tui.screens.export_dialog import ExportDialog
from advisor.tui.screens.help_screen import HelpScreen
from advisor.tui.screens.path_dialog import PathDialog
from advisor.tui.settings import settings_path
from advisor.tui.widgets.headline import Headline
from advisor.tui.widgets.question_row import QuestionRow
from advisor.tui.widgets.questions_form import model_choices
from tests.test_tui_helpers import (
    LLAMA_70B,
    SIZE,
    TODAY,
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


def _expected(catalog, rules, **workload):
    """What the core recommends for a workload, computed without the app."""
    scenario = Scenario.model_validate({"schema": 1, "workload": workload})
    return advise(
        AdviceRequest(
            scenario.workload.workload(catalog),
            catalog,
            rules,
            constraints=scenario.constraints,
            objective=scenario.objective,
            assumptions=scenario.assumptions,
            today=TODAY,
        )
    )


@pilot_test
async def test_answering_for_a_70b_pretrain_then_changing_the_precision(catalog):
    async with running() as (app, pilot):
        choices = [value for _, value in model_choices(catalog)]
        steps = choices.index("llama3-70b") - choices.index("llama3-8b")
        await pilot.press("enter", *["down"] * steps, "enter")  # Model: open the list, pick Llama 3 70B
        await pilot.press("tab", "tab", *"15T", "enter")  # Job (pretrain), then Tokens; Enter moves on
        await pilot.press("enter", "down", "enter")  # Precision: FP8
        # FP8 stack, Training stack, MFU, then GPUs
        await pilot.press("tab", "tab", "tab", "tab", "ctrl+a", "ctrl+k", *"2048")
        await settle(pilot)
        workload = app.main.scenario.workload
        assert (workload.model, workload.tokens, workload.precision, workload.gpus) == (
            "llama3-70b",
            15e12,
            "fp8",
            2048,
        )
        expected = _expected(catalog, app.rules, model="llama3-70b", tokens=15e12, gpus=2048, precision="fp8")
        assert app.main.advice.recommendation.winner == expected.winner
        shown = plain(app.main.query_one(Headline))
        est = expected.winner_candidate.estimate
        assert f"2,048× {expected.winner}" in shown
        assert fmt.money(est.cost_usd) in shown and fmt.energy(est.energy_kwh) in shown
        assert "household-years" in shown
        assert re.search(r"• (Clear|Clear on expected values|Close call): .*cheaper than", shown), (
            "the verdict and its margin"
        )

        app.main.form.focus_question("precision")  # back to BF16: the numbers change at once
        await pilot.press("left")
        await settle(pilot)
        assert app.main.scenario.workload.precision == "bf16"
        bf16 = _expected(catalog, app.rules, model="llama3-70b", tokens=15e12, gpus=2048)
        assert app.main.advice.winner.estimate.cost_usd == bf16.winner_candidate.estimate.cost_usd
        assert plain(app.main.query_one(Headline)) != shown


@pilot_test
async def test_bad_input_shows_its_message_and_blocks_nothing_else():
    async with running() as (app, pilot):
        await type_into(pilot, "#input-tokens", "lots")
        row = app.main.query_one("#q-tokens", QuestionRow)

        def refused() -> bool:  # under load a key can come after the pause: 'lot' is refused first
            return row.has_class("-invalid") and "'lots'" in plain(row.query_one(".note", Static))

        await until(pilot, refused, "letters refused once the typing pauses")
        note = plain(row.query_one(".note", Static))
        assert "'lots' is not a number" in note and "must be from 1 to 1e18" in note
        assert "STALE" in plain(app.main.query_one(Headline))
        await type_into(pilot, "#input-gpus", "16")  # another answer still works
        await settle(pilot)
        assert app.main.advice.scenario.workload.gpus == 16
        assert app.main.scenario.workload.tokens == 1e12  # the last valid tokens
        assert "Tokens: not accepted" in plain(app.main.query_one(Headline))
        await type_into(pilot, "#input-tokens", "2T")
        await settle(pilot)
        assert not row.has_class("-invalid") and app.main.status == ""
        assert app.main.scenario.workload.tokens == 2e12

        app.main.answer("model", "custom")  # an answer refused now is taken once it fits
        app.main.answer("family", "moe")
        await pilot.pause()
        await type_into(pilot, "#input-active_params", "20B")  # more than the 8B total
        await until(pilot, lambda: "active_params" in app.main.errors, "20B active of 8B refused")
        assert "must not exceed" in app.main.errors["active_params"]
        await type_into(pilot, "#input-params", "100B")
        await settle(pilot)
        assert not app.main.errors
        custom = app.main.scenario.workload.custom
        assert (custom.params, custom.active_params) == (100e9, 20e9)


@pilot_test
async def test_save_reopen_and_export(tmp_path: Path):
    scenario_file = tmp_path / "plan.toml"
    report_file = tmp_path / "plan.md"
    async with running() as (app, pilot):
        await pilot.press("ctrl+s")  # a folder that does not exist: said in the dialog
        await fill(pilot, "#path", str(tmp_path / "missing" / "plan.toml"))
        await pilot.press("enter")
        assert isinstance(app.screen, PathDialog)
        assert "no such folder" in plain(app.screen.query_one("#dialog-error", Static))
        await fill(pilot, "#path", str(scenario_file))
        await pilot.press("enter")
        assert not isinstance(app.screen, PathDialog)
        saved = load_scenario(scenario_file)
        assert saved.workload.gpus == 64 and saved.name == "plan"

        await type_into(pilot, "#input-gpus", "8")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await pilot.click("#go")  # the change is unsaved: open anyway
        await fill(pilot, "#path", str(scenario_file))
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario == saved
        assert app.main.query_one("#input-gpus", Input).value == "64"

        await pilot.press("ctrl+e")
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.query_one("#path", Input).value == str(report_file)
        await pilot.press("tab", "enter")  # from the formats (Markdown) to the path; Enter exports
        assert not isinstance(app.screen, ExportDialog)
        text = report_file.read_text(encoding="utf-8")
        assert app.main.advice.recommendation.winner in text and "Llama 3 8B" in text

        await pilot.press("ctrl+e")  # the same file again: refused until "replace" is ticked
        await pilot.press("tab", "enter")
        assert isinstance(app.screen, ExportDialog)
        assert "already exists" in plain(app.screen.query_one("#dialog-error", Static))
        await pilot.press("tab", "space", "tab", "enter")  # tick "replace", then the Export button
        assert not isinstance(app.screen, ExportDialog)

        await pilot.press("ctrl+e", "down", "down", "space")  # JSON: the file name follows the format
        json_file = report_file.with_suffix(".json")
        assert app.screen.query_one("#path", Input).value == str(json_file)
        await pilot.click("#submit")
        assert json_file.exists() and not isinstance(app.screen, ExportDialog)
        assert '"winner"' in json_file.read_text(encoding="utf-8")


@pilot_test
async def test_starting_with_a_scenario_file_and_a_corrupt_settings_file(tmp_path: Path):
    path = tmp_path / "start.toml"
    save_scenario(LLAMA_70B, path)
    settings_path().write_text("pricing = 'lease'\n", encoding="utf-8")
    async with running(scenario_path=path, settings=None, settled=False) as (app, pilot):
        # read before the notification's 10 s are up (settling can take longer on a loaded machine)
        messages = [n.message for n in app._notifications]
        assert any("settings ignored" in m and "pricing" in m for m in messages)
        await settle(pilot)
        assert app.main.scenario == LLAMA_70B
        assert app.main.query_one("#input-tokens", Input).value == "15T"
        assert app.main.sub_title == f"llama3-70b ({path})"


@pilot_test
async def test_a_deadline_sizes_each_system():
    async with running() as (app, pilot):
        await type_into(pilot, "#input-deadline_days", "20")
        await settle(pilot)
        app.main.show_tab("sizing")
        await pilot.pause()
        table = app.main.query_one("#sizing-table", DataTable)
        assert table.row_count == len(app.main.advice.recommendation.candidates)
        app.main.form.focus_question("size_to_deadline")
        await pilot.press("space")
        await settle(pilot)
        assert app.main.scenario.size_to_deadline
        assert app.main.query_one("#q-gpus", QuestionRow).disabled
        sizes = {g.system: g.gpus for g in app.main.advice.sizing if g.gpus}
        for candidate in app.main.advice.recommendation.candidates:
            if candidate.system in sizes and candidate.estimate:
                assert candidate.estimate.gpus == sizes[candidate.system]


@pilot_test
async def test_compare_sorts_and_picks_a_system_for_the_breakdown():
    async with running() as (app, pilot):
        app.main.show_tab("compare")
        view = app.main.query_one("#compare-view")
        # the tab takes the focus after its redraw: a loaded machine may not have drawn it after one pause
        await until(
            pilot, lambda: app.focused is not None and view in app.focused.ancestors, "Compare's focus"
        )
        await pilot.press("s")
        assert view.sort_key == "system"
        table = app.main.query_one("#compare-table", DataTable)
        systems = [table.get_row_at(i)[1].plain for i in range(table.row_count)]
        assert systems == sorted(systems)
        await pilot.press("r", "down")
        picked = table.get_row_at(table.cursor_row)[1].plain
        assert [table.get_row_at(i)[1].plain for i in range(table.row_count)] == sorted(systems, reverse=True)
        await pilot.press("enter")
        await until(
            pilot, lambda: app.main.query_one("TabbedContent").active == "breakdown", "the Breakdown tab"
        )
        assert app.main.selected_system == picked
        assert plain(app.main.query_one("#breakdown-charts", Static)).startswith(picked)


@pilot_test
async def test_help_theme_settings_and_the_command_palette():
    async with running() as (app, pilot):
        await pilot.press("escape")  # out of the questions, so ? is not typed into a field
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.theme == "textual-light"
        assert 'theme = "textual-light"' in settings_path().read_text(encoding="utf-8")
        titles = [command.title for command in app.get_system_commands(app.main)]
        for title in (
            "Save scenario",
            "Open scenario",
            "Export report",
            "Show Sensitivity",
            "Go to question: Tokens",
            "Go to question: Rent or own (pricing)",  # found by the scenario key and --pricing too
        ):
            assert title in titles
        assert "Go to question: Risk appetite" in titles, "no key where the label says it"
        finds = Matcher("pricing")
        assert [t for t in titles if finds.match(t) > 0] == ["Go to question: Rent or own (pricing)"]

        await pilot.press("f2")
        app.screen.query_one("#pricing").value = "own"
        await type_into(pilot, "#pue", "1.2")
        await pilot.click("#submit")
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert app.main.scenario.workload.pricing == "own"
        assert app.main.scenario.assumptions.pue == 1.2
        assert "pue = 1.2" in settings_path().read_text(encoding="utf-8")


@pilot_test
async def test_a_terminal_too_small_gets_a_message():
    async with running(size=(70, 20), settled=False) as (app, pilot):
        await pilot.pause()
        message = app.main.query_one("#too-small", Static)
        assert message.display and "at least 80 × 24" in plain(message) and "70 × 20" in plain(message)
        assert not app.main.query_one("#body").display


@pilot_test
async def test_a_bug_in_a_computation_is_reported_not_fatal(monkeypatch):
    async with running() as (app, pilot):

        def broken(*args, **kwargs):
            raise RuntimeError("simulated bug")

        monkeypatch.setattr("advisor.tui.advice.compute_advice", broken)
        await type_into(pilot, "#input-gpus", "8")
        await until(pilot, lambda: "internal error" in app.main.status, "the bug reported once typing pauses")
        assert "simulated bug" in app.main.status
        assert "STALE" in plain(app.main.query_one(Headline))  # the last result stays, marked
        assert app.main.advice is not None and app.main.advice.scenario.workload.gpus == 64


@pilot_test
async def test_the_training_stack_question_explains_its_choices():
    async with running() as (app, pilot):
        app.main.form.focus_question("efficiency")
        await pilot.press("enter")  # open the list
        await pilot.pause()
        choices = app.screen.query_one("#choices", OptionList)
        labels = [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]
        assert labels[0] == "reference: a vendor-tuned recipe, as in published benchmarks"
        assert labels[1].startswith("production: a team's end-to-end run")
        assert choices.region.right <= SIZE[0], "the list fits on the screen"
        await pilot.press("up", "enter")
        await settle(pilot)
        assert app.main.scenario.workload.efficiency == "reference"
        assert app.main.form.row("efficiency").control.label == "reference"
