"""Pilot tests of what a new user found walking the app (issue 13): the palette numbers sections as
the form does, job-specific questions and columns follow the job, focus lands visibly, the tab bar
and footer at 80x24, and a verdict that does not flip while the ranges compute."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static, TabbedContent, Tabs

from advisor.tui.widgets.headline import Headline
from tests.test_tui_helpers import (
    LLAMA_70B,
    choose,
    fewer_collections,
    no_ranges,
    pilot_test,
    plain,
    running,
    screen_lines,
    settle,
    show_tab,
    type_into,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__)


def _palette(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {command.title: command.help for command in app.get_system_commands(app.main)}


def _titles(app) -> list[str]:  # type: ignore[no-untyped-def]
    form = app.main.form
    return [plain(t).strip() for t in form.query(".section-title").results(Static) if t.display]


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_the_palette_numbers_sections_as_the_form_and_offers_serving_for_inference_only():
    async with running() as (app, pilot):
        for kind in ("pre", "inf"):
            await choose(pilot, "kind", kind)
            palette = _palette(app)
            shown = {" ".join(title.split()) for title in _titles(app)}
            risk = palette["Go to question: Risk appetite"]
            number = next(title for title in shown if title.endswith("Availability and risk"))
            assert risk.startswith(number + ":"), (risk, shown)
            assert ("Show Serving" in palette) == (kind == "inf")
        assert "5 Availability and risk" not in shown  # with Serving shown, risk is the 6th


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_job_specific_questions_and_the_compare_time_column_follow_the_job():
    async with running() as (app, pilot):
        form = app.main.form
        shown = {"pre": ("mfu", "efficiency"), "fine": ("finetune_method", "mfu", "efficiency"), "inf": ()}
        headed = {"pre": "train", "fine": "fine-tune", "inf": "serve"}
        for kind, asked in shown.items():
            await choose(pilot, "kind", kind)
            for key in ("finetune_method", "mfu", "efficiency"):
                assert form.row(key).display == (key in asked), (kind, key)
            await show_tab(pilot, "compare")
            table = app.main.query_one("#compare-table", DataTable)
            labels = [str(column.label).rstrip(" ▲▼") for column in table.columns.values()]
            assert labels[labels.index("to result") + 1] == headed[kind], labels


@pilot_test
async def test_a_clear_verdict_reads_as_provisional_until_the_ranges_settle_it(monkeypatch):
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 3600.0)  # ranges never come
    async with running(scenario=LLAMA_70B) as (app, _pilot):
        assert app.main.advice.recommendation.verdict.kind == "clear"
        text = plain(app.main.query_one(Headline))
        verdict = next(line for line in text.splitlines() if line.startswith("• Clear"))
        assert verdict.startswith("• Clear on expected values: ") and verdict.endswith("checking ranges…")
        assert "ranges: computing…" in text
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 0.05)
    async with running(scenario=LLAMA_70B, analysis=True) as (app, _pilot):
        text = plain(app.main.query_one(Headline))
        assert "checking ranges" not in text and "on expected values" not in text
        assert "• Clear: " in text or "• Close call: " in text


def _focus_is_seen(app) -> bool:  # type: ignore[no-untyped-def]
    """The focused widget and every container above it are displayed (a user can see where it is)."""
    focused = app.focused
    if focused is None:
        return False
    return all(node.display for node in [focused, *focused.ancestors_with_self] if hasattr(node, "display"))


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_a_new_scenario_puts_the_focus_on_the_first_question():
    async with running() as (app, pilot):
        await choose(pilot, "kind", "inf")  # an unsaved change, and the focus in the serving section
        app.main.form.focus_question("ttft_limit_ms")
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.click("#go")
        await settle(pilot)
        assert app.main.scenario.workload.kind == "pretrain"
        assert app.focused is app.main.form.row("model").control, app.focused
        assert _focus_is_seen(app)
        await pilot.press("tab")
        assert _focus_is_seen(app), app.focused


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_shift_tab_from_the_result_tabs_shows_the_question_it_lands_on_whole():
    async with running() as (app, pilot):
        app.main.query_one(Tabs).focus()
        await pilot.pause()
        await pilot.press("shift+tab")
        row = app.main.form.row("objective")
        note = row.query_one(".note", Static)

        def seen() -> bool:
            form = app.main.form.region
            whole = form.contains_region(row.control.region) and form.contains_region(note.region)
            return app.focused is row.control and note.display and _focus_is_seen(app) and whole

        await until(pilot, seen, "the objective question and its hint focused and scrolled into view")
        assert app.focused is row.control
        assert note.display and _focus_is_seen(app)
        form = app.main.form.region
        # the row and the hint under it (what ←/→ do to the answer) are on screen, not below the fold
        assert form.contains_region(row.control.region) and form.contains_region(note.region), (
            form,
            note.region,
        )


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)], ids=lambda s: f"{s[0]}x{s[1]}")
@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_the_tab_bar_says_there_are_more_tabs_and_the_footer_hints_fit(size):
    async with running(size=size) as (app, pilot):
        tabs = app.main.query_one("#tabs Tabs", Tabs)
        bar = lambda: screen_lines(app)[tabs.region.y]  # noqa: E731
        narrow = size[0] < 100
        assert bar().rstrip().endswith("…▸") == narrow, bar()
        hints = ("^s Save", "^o Open", "^e Export", "esc ", "f1 Help", "f2 Settings")
        hinted = lambda: all(h in screen_lines(app)[-1] for h in hints)  # noqa: E731
        for tab in ("compare", "sensitivity"):  # Compare adds its own keys to the footer
            app.main.show_tab(tab)
            # the footer is redrawn for the tab's keys (blank for a moment, longer on a loaded machine)
            await until(pilot, hinted, f"{hints} in the footer on {tab}")
        # at the last tab the bar has nothing more on the right, and says so on the left when narrow
        await until(pilot, lambda: not bar().rstrip().endswith("…▸"), f"no '…▸' at the last tab: {bar()!r}")
        assert ("◂…" in bar()) == narrow, bar()


@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_the_last_tab_chosen_stays_chosen_when_two_are_chosen_before_a_redraw():
    """A loaded machine (CI) draws late: choosing Compare and then Sensitivity before one redraw left
    Compare's deferred focus to pull the bar back to Compare."""
    async with running(size=(80, 24)) as (app, pilot):
        for tab in ("compare", "breakdown", "sensitivity"):
            app.main.show_tab(tab)
        await settle(pilot)
        await pilot.pause(0.5)
        assert app.main.query_one("#tabs", TabbedContent).active == "sensitivity"
        tabs = app.main.query_one("#tabs Tabs", Tabs)
        assert not screen_lines(app)[tabs.region.y].rstrip().endswith("…▸")


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=lambda s: f"{s[0]}x{s[1]}")
@pilot_test
@pytest.mark.usefixtures(no_ranges.__name__)
async def test_a_headline_too_long_for_its_rows_says_the_rest_is_on_why(size):
    # At 80x24 the reasons under the verdict need more rows than the headline has: the last row said
    # "• warn the mi300x price is derived, not" and stopped mid-sentence.
    async with running(size=size) as (app, _pilot):
        region = app.main.query_one(Headline).content_region
        rows = [
            line[region.x : region.right].rstrip() for line in screen_lines(app)[region.y : region.bottom]
        ]
        assert rows[-1].endswith("… (see Why)") == (size[0] < 100), rows
        # Every word shown is a word of the headline's own lines: none cut ("cheaper tha") or run
        # into the next row's ("toresult").
        whole = " ".join(str(line) for line in app.main.query_one(Headline).full_lines())
        words = set(whole.replace("…", " ").split())
        shown = " ".join(row.strip(" ▕") for row in rows).replace("… (see Why)", "").replace("…", " ").split()
        assert set(shown) <= words, set(shown) - words


@pilot_test
async def test_sensitivity_never_shows_the_previous_answers_ranges_as_the_new_ones(monkeypatch):
    """A LoRA fine-tune's tokens changed (new-user walk, 80x24 on a loaded machine): the headline said
    mi300x at $600.9k while Sensitivity still listed the pretrain's ranges, b300 first at $4.08M, unmarked,
    for seconds until the new ones came. Until they come it says they are being computed."""
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 0.05)
    async with running(scenario=LLAMA_70B, analysis=True) as (app, pilot):
        await show_tab(pilot, "sensitivity")
        text = app.main.query_one("#sensitivity-text", Static)
        assert "P10–P90" in plain(text)
        monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 3600.0)  # no new ranges
        await type_into(pilot, "#input-gpus", "512")
        await settle(pilot)
        assert app.main.analysis.scenario != app.main.scenario
        await until(pilot, lambda: "Computing ranges" in plain(text), "Sensitivity to say it is computing")
        assert "P10–P90" not in plain(text)
