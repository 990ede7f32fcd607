"""Pilot tests: Compare never shows a column cut off (new-user walk, app27 item 1). Buying at 100 × 30,
the "up front" column was cut at the pane's edge ("u" and "$" showing), and at 80 × 24 the cost was out
of sight behind GPUs and train. Now the columns a buyer decides on come first, a column the pane cannot
show whole is left blank (a ▸ in the header says there are more) until ←/→ bring it in whole, and at
80 × 24 the system, cost, up front and time to result show at once."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from textual.widgets import DataTable

from advisor.core.scenario import Scenario
from advisor.tui.widgets.column_table import ColumnTable
from advisor.tui.widgets.comparison_view import ComparisonView, shown_columns
from advisor.tui.widgets.sizing_view import SizingView
from tests.test_tui_helpers import (
    LLAMA_70B,
    fewer_collections,
    no_ranges,
    pilot_test,
    running,
    screen_lines,
    show_tab,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

SIZES = {(80, 24): ("system", "cost", "up front", "to result"), (100, 30): (), (120, 40): ()}
"""Each size, and the columns that must show at once when Compare opens."""


def _buying() -> Scenario:
    data = LLAMA_70B.to_data()
    data["workload"]["pricing"] = "own"
    return Scenario.model_validate(data)


def _header(app, table: DataTable) -> list[str]:  # type: ignore[no-untyped-def]
    """The column headers as the screen shows them, split where two spaces part them."""
    region = table.region
    line = screen_lines(app)[region.y][region.x : region.right]
    return [part.strip(" ▲▼◂▸") for part in re.split(r"\s{2,}", line) if part.strip(" ▲▼◂▸")]


def _labels(table: DataTable) -> list[str]:
    return [str(column.label).rstrip(" ▲▼") for column in table.ordered_columns]


def _drawn_whole(app, table: ColumnTable) -> bool:  # type: ignore[no-untyped-def]
    """The header on screen is the one for the table's position now: every header whole, and every
    column the table shows whole there (`shown_whole`) among them."""
    labels, fixed = _labels(table), table.fixed_columns
    x = round(table.scroll_x)
    left, right = table.shown_whole()
    starts = table._column_starts()
    inside = [
        label
        for label, (start, end) in zip(labels[fixed:], pairwise(starts), strict=False)
        if x + left <= start and end <= x + right
    ]
    drawn = _header(app, table)
    return all(part in labels for part in drawn) and set(labels[:fixed] + inside) <= set(drawn)


def _drawn_for_width(app, table: ColumnTable) -> bool:  # type: ignore[no-untyped-def]
    """The table holds the columns and rows the view draws at its width now: a layout pass that
    changes the width redraws it, and the rank column may come or go (`shown_columns`)."""
    view = app.main.query_one(ComparisonView)
    advice = app.main.advice
    keys = [column.key for column in shown_columns(advice, view.size.width)]
    return (
        not view._draw_pending
        and [column.key.value for column in table.ordered_columns] == keys
        and table.row_count == len(advice.recommendation.candidates)
    )


async def _drawn(pilot, table: ColumnTable, what: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the table is drawn for its width and position, and the screen shows that."""
    app = pilot.app
    await until(
        pilot,
        lambda: _drawn_for_width(app, table) and _drawn_whole(app, table),
        what,
        30,  # a limit for a hung test only: the wait ends as soon as the table is drawn
    )


@pytest.mark.parametrize("size", list(SIZES), ids=lambda s: f"{s[0]}x{s[1]}")
@pilot_test
async def test_every_compare_column_is_read_whole(size):
    """Each wait is on the state it needs, never a pause: read early on a loaded machine, the header
    was the one drawn before the table settled at its width (its columns since redrawn), or the one
    before a scroll that lands only after the next refresh, so a column was counted never shown."""
    async with running(scenario=_buying(), size=size) as (app, pilot):
        await show_tab(pilot, "compare")
        table = app.main.query_one("#compare-table", ColumnTable)
        await _drawn(pilot, table, f"the table drawn at {size}")
        first = _header(app, table)
        for wanted in SIZES[size]:
            assert wanted in first, f"{wanted!r} not shown at once at {size}: {first}"
        seen: set[str] = set(first)
        for _ in range(len(table.columns)):
            if table.scroll_x >= table.max_scroll_x:
                break
            before = table.scroll_x
            await pilot.press("right")
            await until(pilot, lambda: table.scroll_x > before, f"a scroll right from {before} at {size}")  # noqa: B023
            await _drawn(pilot, table, f"whole headers at {size}: {_header(app, table)}")
            seen.update(_header(app, table))
        labels = _labels(table)
        wide = {"why not"}  # wider than the pane beside the system: shown as far as it goes
        assert set(labels) - wide <= seen, f"never shown whole at {size}: {set(labels) - wide - seen}"
        # the cells are whole too: each row shows its system's outlay up front in full
        await pilot.press("home")
        await until(pilot, lambda: table.scroll_x == 0, "back to the first columns")
        await _drawn(pilot, table, f"the first columns drawn again at {size}")
        top = table.region.y + 1
        at = labels.index("up front")
        for line, row in zip(screen_lines(app)[top : top + 5], list(table.rows)[:5], strict=False):
            outlay = str(table.get_row(row)[at])
            if "up front" in first:
                assert f" {outlay} " in f"{line} ", (outlay, line)


@pytest.mark.parametrize("tab", ["compare", "sizing"])
@pilot_test
async def test_cells_painted_before_the_table_is_measured_are_redrawn_whole(tab):
    """Textual's DataTable measures new rows when idle; cells painted before then (a loaded machine)
    stayed cut at the headers' widths ("gb300-" for gb300-nvl72) until the table was filled again.
    This is why the 100 × 30 test above timed out under load, its headers never all whole."""
    data = _buying().to_data()
    data["constraints"] = {"deadline_days": 60}  # Sizing lists each system's count for a deadline
    async with running(scenario=Scenario.model_validate(data), size=(100, 30)) as (app, pilot):
        await show_tab(pilot, tab)
        view = app.main.query_one(ComparisonView if tab == "compare" else SizingView)
        table = app.main.query_one(f"#{tab}-table", DataTable)
        await until(pilot, lambda: table.row_count > 0, f"the {tab} table filled")
        view.draw_advice(app.main.advice)
        for y in range(table.size.height):
            table.render_line(y)  # a paint before the table is next idle
        systems = [str(row.value) for row in table.rows]
        assert "gb300-nvl72" in systems

        def whole() -> bool:
            shown = "\n".join(screen_lines(app))
            return all(f" {system} " in shown for system in systems)

        await until(pilot, whole, f"every system named whole in {tab}: {screen_lines(app)[12:16]}")
