"""A row-cursor table that ←/→ scroll a whole column at a time, its first columns kept in view."""

from __future__ import annotations

from itertools import accumulate

from textual.widgets import DataTable


class ColumnTable(DataTable[str]):
    """A DataTable whose ←/→ scroll sideways by whole columns (a plain row table moves one cell)."""

    def _column_starts(self) -> list[int]:
        """Where each scrolling (not fixed) column starts, in cells from the first of them."""
        widths = [column.get_render_width(self) for column in self.ordered_columns[self.fixed_columns :]]
        return [0, *accumulate(widths)]

    def _scroll_columns(self, step: int) -> None:
        x = round(self.scroll_x)
        starts = [s for s in self._column_starts() if s <= self.max_scroll_x] + [int(self.max_scroll_x)]
        target = (
            min((s for s in starts if s > x), default=x)
            if step > 0
            else max((s for s in starts if s < x), default=0)
        )
        self.scroll_to(x=target, animate=False)

    def action_cursor_right(self) -> None:
        if self.cursor_type == "row":
            self._scroll_columns(1)
        else:
            super().action_cursor_right()

    def action_cursor_left(self) -> None:
        if self.cursor_type == "row":
            self._scroll_columns(-1)
        else:
            super().action_cursor_left()
