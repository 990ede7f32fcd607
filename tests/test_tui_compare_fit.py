"""Pilot tests: Compare never shows a column cut off (new-user walk, app27 item 1). Buying at 100 × 30,
the "up front" column was cut at the pane's edge ("u" and "$" showing), and at 80 × 24 the cost was out
of sight behind GPUs and train. Now the columns a buyer decides on come first, a column the pane cannot
show whole is left blank (a ▸ in the header says there are more) until ←/→ bring it in whole, and at
80 × 24 the system, cost, up front and time to result show at once."""

from __future__ import annotations

import re

import pytest
from textual.widgets import DataTable

from advisor.core.scenario import Scenario
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


@pytest.mark.parametrize("size", list(SIZES), ids=lambda s: f"{s[0]}x{s[1]}")
@pilot_test
async def test_every_compare_column_is_read_whole(size):
    async with running(scenario=_buying(), size=size) as (app, pilot):
        await show_tab(pilot, "compare")
        table = app.main.query_one("#compare-table", DataTable)
        await until(pilot, lambda: table.row_count > 0 and bool(_header(app, table)), "the table drawn")
        labels = _labels(table)
        first = _header(app, table)
        for wanted in SIZES[size]:
            assert wanted in first, f"{wanted!r} not shown at once at {size}: {first}"
        seen: set[str] = set()
        for _ in range(len(labels) + 1):
            # the frame after a scroll (a loaded machine paints late): every header whole
            whole = lambda: all(part in labels for part in _header(app, table))  # noqa: E731
            await until(pilot, whole, f"whole headers at {size}: {_header(app, table)}")
            seen.update(_header(app, table))
            await pilot.press("right")
            await pilot.pause()
        wide = {"why not"}  # wider than the pane beside the system: shown as far as it goes
        assert set(labels) - wide <= seen, f"never shown whole at {size}: {set(labels) - wide - seen}"
        # the cells are whole too: each row shows its system's outlay up front in full
        await pilot.press("home")
        top = table.region.y + 1
        at = labels.index("up front")
        for line, row in zip(screen_lines(app)[top : top + 5], list(table.rows)[:5], strict=False):
            outlay = str(table.get_row(row)[at])
            if "up front" in first:
                assert f" {outlay} " in f"{line} ", (outlay, line)
