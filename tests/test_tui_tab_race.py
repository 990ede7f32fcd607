"""Pilot test: a tab chosen from code stays chosen (app27 item 6). Focusing a widget inside a result
pane makes Textual's TabbedContent post TabPane.Focused, and on it switch to that pane; when the code
chose another tab before that message was handled (Enter on a Compare row right after Compare took the
focus, or two choices within one refresh on a loaded machine), the late message switched back."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from tests.test_tui_helpers import (
    fewer_collections,
    no_ranges,
    pilot_test,
    running,
    show_tab,
    tab_shown,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

PAIRS = [("compare", "breakdown"), ("why", "sizing"), ("rules", "compare"), ("assumptions", "sensitivity")]


@pilot_test
async def test_a_tab_chosen_from_code_is_not_switched_back_by_a_late_focus():
    async with running() as (app, pilot):
        tabs = app.main.query_one("#tabs", TabbedContent)
        switched_back = []
        for _ in range(3):
            for first, then in PAIRS:
                await show_tab(pilot, first)
                focusable = [w for w in tabs.get_pane(first).query("*") if w.focusable and w.display]
                assert focusable, first
                app.screen.set_focus(
                    focusable[-1]
                )  # the focus moves inside the pane (its messages in flight)
                app.main.show_tab(then)  # and the code chooses another tab before they are handled
                await pilot.pause()
                await pilot.pause(0.1)
                if tabs.active != then:
                    switched_back.append((first, then, tabs.active))
                await until(pilot, lambda: tab_shown(app, then), f"{then!r} shown")  # noqa: B023
        assert not switched_back, switched_back
