"""Pilot tests of the result tabs as new users met them: Enter in Sizing, the tab bar at 80 columns,
the Serving plan's rows at 100 × 30, and what buying each system costs up front in Compare."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, TabbedContent, Tabs

from advisor.tui.widgets.question_row import QuestionRow
from tests.test_tui_helpers import (
    SIZE,
    app_for_test,
    fewer_collections,
    no_ranges,
    pilot_test,
    settle,
    type_into,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


@pilot_test
async def test_enter_in_sizing_uses_the_count_while_each_system_is_sized():
    """Sized to the deadline, the GPU count given is not used: Enter on a row used to set it and change
    nothing else. It now stops the sizing, so every system is costed at the row's count."""
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
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


@pilot_test
async def test_sizing_without_a_deadline_leaves_the_focus_on_the_tab_bar():
    """With no deadline the sizing table is hidden; the tab used to focus it, leaving the focus nowhere
    (←/→ then switched no tab). The bar takes it, so ← goes on to Assumptions."""
    app = app_for_test()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main.show_tab("sizing")
        tabs = app.main.query_one(TabbedContent)
        await until(pilot, lambda: isinstance(app.focused, Tabs), "the tab bar's focus")
        await pilot.press("left")
        await until(pilot, lambda: tabs.active == "assumptions", "Assumptions chosen with ←")
