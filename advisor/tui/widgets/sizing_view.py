"""Sizing: for a deadline, the smallest GPU count per system that meets it (or why none does)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from advisor.present import numbers
from advisor.tui.widgets.column_table import WholeCellTable
from advisor.tui.widgets.drawn_when_shown import AdviceView

if TYPE_CHECKING:
    from advisor.tui.advice import Advice  # the core's answer: imported once the first one is computed

NO_DEADLINE = (
    "No deadline set. Give one under “Scale and time”: this tab then proposes, for every system, the "
    "smallest GPU count that finishes in time (wait for capacity and setup included)."
)


class SizingView(AdviceView, Vertical):
    """The deadline sizing table; Enter on a row uses that GPU count."""

    @dataclass
    class CountChosen(Message):
        """Enter on a system's row: use its GPU count for the workload."""

        system: str
        gpus: int

    def compose(self) -> ComposeResult:
        yield Static(NO_DEADLINE, id="sizing-note")
        table: DataTable[str] = WholeCellTable(id="sizing-table", cursor_type="row")
        for label in ("system", "GPUs", "to result", "cost", "how"):
            table.add_column(label, key=label)
        yield table

    def draw_advice(self, advice: Advice) -> None:
        note = self.query_one("#sizing-note", Static)
        table = self.query_one("#sizing-table", DataTable)
        table.clear()
        table.display = bool(advice.sizing)
        if not advice.sizing:
            note.update(NO_DEADLINE)
            return
        deadline = advice.scenario.constraints.deadline_days
        used = (
            "the recommendation uses these counts (Enter on a row sets every system to its count)"
            if advice.scenario.size_to_deadline
            else "Enter uses a row's count"
        )
        note.update(Text.assemble((f"Smallest GPU count that meets {deadline:g} days", "bold"), f"; {used}."))
        for found in advice.sizing:
            est = found.estimate
            ok = found.gpus is not None and est is not None
            table.add_row(
                found.system,
                f"{found.gpus:,}" if found.gpus else "none",
                numbers.duration(est.time_to_result_hours) if ok and est else "–",
                numbers.money(est.cost_usd) if ok and est else "–",
                found.reason,
                key=found.system,
            )

    @on(DataTable.RowSelected)
    def _use_count(self, event: DataTable.RowSelected) -> None:
        event.stop()
        advice = self.advice
        if advice is None or event.row_key.value is None:
            return
        found = next(g for g in advice.sizing if g.system == event.row_key.value)
        if found.gpus is not None:
            self.post_message(self.CountChosen(found.system, found.gpus))
