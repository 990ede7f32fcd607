"""Pilot tests of the result tabs as new users met them: Enter in Sizing, the tab bar at 80 columns,
the Serving plan's rows at 100 × 30, and what buying each system costs up front in Compare."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.geometry import Size
from textual.widgets import DataTable, Static, TabbedContent, Tabs

from advisor.core.scenario import Scenario
from advisor.io.scenario_files import load_scenario
from advisor.present.purchase import up_front
from advisor.tui.widgets.question_row import QuestionRow
from advisor.tui.widgets.results_panel import MORE_TABS, TABS
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
    type_into,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


@pilot_test
async def test_enter_in_sizing_uses_the_count_while_each_system_is_sized():
    """Sized to the deadline, the GPU count given is not used: Enter on a row used to set it and change
    nothing else. It now stops the sizing, so every system is costed at the row's count."""
    async with running() as (app, pilot):
        await type_into(pilot, "#input-deadline_days", "30")
        await settle(pilot)
        app.main.form.focus_question("size_to_deadline")
        await pilot.press("space")
        await settle(pilot)
        assert app.main.scenario.size_to_deadline
        app.main.show_tab("sizing")
        table = app.main.query_one("#sizing-table", DataTable)
        await until(pilot, lambda: app.focused is table and table.row_count > 0, "the Sizing table's focus")
        sizes = {g.system: g.gpus for g in app.main.advice.sizing if g.gpus}
        row = next(i for i in range(table.row_count) if table.get_row_at(i)[0] in sizes)
        system = table.get_row_at(row)[0]
        await pilot.press(*["down"] * row, "enter")
        await until(pilot, lambda: not app.main.scenario.size_to_deadline, "sizing to stop")
        await settle(pilot)
        assert app.main.scenario.workload.gpus == sizes[system]
        assert not app.main.query_one("#q-gpus", QuestionRow).disabled
        estimates = [c.estimate for c in app.main.advice.recommendation.candidates if c.estimate]
        assert estimates and {e.gpus for e in estimates if e.system == system} == {sizes[system]}
        assert any("Size to it is off" in n.message for n in app._notifications)


def _active_tab_in_sight(app: App[None]) -> bool:
    """Whether the active tab's label lies wholly on screen, in the tab bar, clear of its "…" hints."""
    active = app.screen.query_one(Tabs).active_tab
    bar = app.screen.query_one("#tabs-scroll").region
    if active is None or not active.region.width:
        return False
    hints = [hint.region for hint in app.screen.query(".tabs-hint") if hint.display]
    inside = bar.contains_region(active.region) and app.screen.region.contains_region(active.region)
    return inside and not any(active.region.overlaps(hint) for hint in hints)


async def _visit_every_tab(pilot, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """From the first tab, → on the tab bar to each tab shown in turn; each must come into sight."""
    app = pilot.app
    tabs = app.main.query_one(TabbedContent)
    app.main.show_tab("why")
    why = tabs.get_pane("why")
    await until(pilot, lambda: app.focused is not None and why in app.focused.ancestors, "the Why tab")
    app.main.query_one(Tabs).focus()
    await until(pilot, lambda: isinstance(app.focused, Tabs), "the tab bar's focus")
    shown = [tab for tab in TABS if tabs.get_tab(tab).display]
    for tab in shown:
        if tab != "why":
            await pilot.press("right")
        await until(pilot, lambda: tabs.active == tab, f"the {tab} tab chosen")  # noqa: B023 (awaited here)
        await until(pilot, lambda: _active_tab_in_sight(app), f"the {tab} tab in sight at {size}")


async def _still_in_sight(pilot, what: str) -> None:  # type: ignore[no-untyped-def]
    """The active tab comes into sight, and stays there once everything has moved."""
    await until(pilot, lambda: _active_tab_in_sight(pilot.app), what)
    for _ in range(10):
        await pilot.pause()
    assert _active_tab_in_sight(pilot.app), what


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
@pilot_test
async def test_the_active_tab_stays_in_sight(size):
    """Every tab, chosen in turn, is in sight in the tab bar, for training and for serving; so is the
    active one when the Serving tab comes or goes before it (making the job inference pushed Sensitivity
    off the bar at 80 and 100 columns)."""
    async with running(scenario=LLAMA_70B, size=size) as (app, pilot):
        await _visit_every_tab(pilot, size)
        assert app.main.query_one(TabbedContent).active == "sensitivity"
        await choose(pilot, "kind", "inf")
        await _still_in_sight(pilot, f"Sensitivity in sight once the job serves, at {size}")
        await _visit_every_tab(pilot, size)
        await choose(pilot, "kind", "pre")
        await _still_in_sight(pilot, f"Sensitivity in sight once the job trains again, at {size}")


@pilot_test
async def test_sizing_without_a_deadline_leaves_the_focus_on_the_tab_bar():
    """With no deadline the sizing table is hidden; the tab used to focus it, leaving the focus nowhere
    (←/→ then switched no tab). The bar takes it, so ← goes on to Assumptions."""
    async with running() as (app, pilot):
        app.main.show_tab("sizing")
        tabs = app.main.query_one(TabbedContent)
        await until(pilot, lambda: isinstance(app.focused, Tabs), "the tab bar's focus")
        await pilot.press("left")
        await until(pilot, lambda: tabs.active == "assumptions", "Assumptions chosen with ←")


@pilot_test
async def test_the_serving_plan_comes_first_and_every_row_shows_at_100x30():
    """The plan's explanation above it left 3 of 10 rows in sight at 100 × 30; the plan now comes first,
    every row on screen without scrolling, and the explanation follows under it."""
    async with running(scenario=load_scenario(Path("examples/llama3-70b-serving.toml")), size=(100, 30)) as (
        app,
        pilot,
    ):
        app.main.show_tab("serving")
        table = app.main.query_one("#serving-table", DataTable)
        await until(pilot, lambda: app.focused is table and table.row_count >= 5, "the serving plan's focus")
        await pilot.pause()
        bar = app.main.query_one(Tabs).region
        assert table.region.y == bar.bottom  # the first thing in the tab
        assert table.max_scroll_y == 0 and table.region.bottom <= app.screen.region.bottom
        note = app.main.query_one("#serving-note")
        assert note.region.y > table.region.y and note.region.height > 0


@pilot_test
async def test_compare_shows_each_systems_outlay_up_front_when_buying():
    """Buying, a buyer comparing systems needs each one's outlay, not the winner's alone: Compare has an
    "up front" column, as the CLI's "what buying means" says it; renting, it has none."""
    data = LLAMA_70B.to_data()
    data["workload"]["pricing"] = "own"
    async with running(scenario=Scenario.model_validate(data)) as (app, pilot):
        app.main.show_tab("compare")
        table = app.main.query_one("#compare-table", DataTable)
        await until(pilot, lambda: app.focused is table and table.row_count > 0, "Compare's focus")
        labels = [str(column.label) for column in table.columns.values()]
        assert "up front" in labels
        at = labels.index("up front")
        bought = 0
        for candidate in app.main.advice.recommendation.candidates:
            cell = table.get_row(candidate.system)[at].plain
            purchase = candidate.estimate.purchase if candidate.estimate else None
            assert cell == (up_front(purchase) if purchase else "–"), candidate.system
            bought += purchase is not None and purchase.capex_usd > 0
        assert bought >= 3  # a real outlay for most systems, not one column of dashes
        await choose(pilot, "pricing", "rent")
        app.main.show_tab("compare")
        await until(pilot, lambda: table.row_count > 0 and app.focused is table, "Compare's focus again")
        assert "up front" not in [str(column.label) for column in table.columns.values()]


@pilot_test
async def test_a_new_scenario_is_read_from_the_top_of_why():
    """Why scrolled down, then Ctrl+N: the new answer's Why opened mid-list, at the old scroll position,
    instead of at its verdict (new-user walk)."""
    from tests.test_tui_helpers import show_tab

    async with running(size=(100, 30)) as (app, pilot):
        await show_tab(pilot, "why")
        why = app.main.query_one("#tabs").get_pane("why").query_one("WhyView")
        why.scroll_end(animate=False, immediate=True)
        await until(pilot, lambda: why.scroll_y > 0, "Why scrolled down")
        await pilot.press("ctrl+n")  # nothing changed: a new scenario at once
        await until(pilot, lambda: why.scroll_y == 0, "the new answer's Why at its top")
        await settle(pilot)
        assert why.scroll_y == 0


@pytest.mark.parametrize("wider", [100, 120])
@pilot_test
async def test_the_tab_bar_hints_move_with_the_bar_in_the_frame_after_a_resize(wider):
    """At 80 columns "…▸" marks the tabs beyond the bar's end. The app placed it with offsets computed
    after a resize, once the results panel had handled its Resize message: a real terminal draws the new
    layout before that (a quarter of a second later in tmux), so widened to 100 or 120 the hint was drawn
    over a tab label mid-bar. Laid out with the bar, it is at the bar's end in the first frame drawn."""
    async with running(size=(80, 30)) as (app, pilot):
        more = app.main.query_one("#tabs-more")
        await until(pilot, lambda: more.display and more.region.width > 0, "the '…▸' hint at 80 columns")
        app.screen._refresh_layout(Size(wider, 30))  # as Screen._on_resize lays out, before any Resize
        bar = app.main.query_one("#tabs-scroll").region
        line = screen_lines(app)[bar.y][bar.x : bar.right]
        assert MORE_TABS.strip() not in line[: -len(MORE_TABS)], line


@pilot_test
async def test_a_new_scenario_is_read_from_the_top_of_compare():
    """Compare's cursor moved down the table, then Ctrl+N: the new answer's Compare kept the old row and
    its detail pane spoke of that system instead of the new answer's first (new-user try, stop 30)."""
    async with running(size=(100, 30)) as (app, pilot):
        app.main.show_tab("compare")
        table = app.main.query_one("#compare-table", DataTable)
        await until(pilot, lambda: app.focused is table and table.row_count > 2, "Compare's focus")
        await pilot.press("down", "down")
        await until(pilot, lambda: table.cursor_row == 2, "the cursor on the third row")
        await pilot.press("ctrl+n")  # nothing changed: a new scenario at once
        await settle(pilot)
        first = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        assert table.cursor_row == 0, first
        detail = plain(app.main.query_one("#compare-detail", Static))
        assert detail.startswith(app.main.advice.recommendation.candidate(first).system_name)
