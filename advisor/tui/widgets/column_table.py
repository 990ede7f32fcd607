"""A row-cursor table that ←/→ scroll a whole column at a time, its first columns kept in view, and
that never shows a column cut at its edges."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate, pairwise

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

MORE_LEFT, MORE_RIGHT = "◂", "▸"
"""Drawn in the header over the space a cut column leaves, while there are columns beyond it."""


class WholeCellTable(DataTable[str]):
    """A DataTable whose cells are redrawn once their columns are measured (never left cut)."""

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        """Measure the new rows, and drop what was drawn at the old widths. Textual's DataTable sizes
        new rows' columns when idle but keeps the cells drawn before then: painted between `add_row`
        and idle (a loaded machine), the cells stayed cut at the header's width (`gb300-` for
        gb300-nvl72, `$2.6` for $2.62M) until the table was next filled."""
        widths = [column.content_width for column in self.ordered_columns]
        super()._update_dimensions(new_rows)
        if widths != [column.content_width for column in self.ordered_columns]:
            self._clear_caches()
            self.refresh()


class ColumnTable(WholeCellTable):
    """A DataTable whose ←/→ scroll sideways by whole columns (a plain row table moves one cell).

    A column the width left beside the fixed columns cannot show whole is left blank until scrolled in
    (`…up` and `$` of a cut "up front" read as other figures); only one wider than all that width is
    shown cut, since it never fits."""

    def _column_starts(self) -> list[int]:
        """Where each scrolling (not fixed) column starts, in cells from the first of them."""
        widths = [column.get_render_width(self) for column in self.ordered_columns[self.fixed_columns :]]
        return [0, *accumulate(widths)]

    def _fixed_width(self) -> int:
        return sum(column.get_render_width(self) for column in self.ordered_columns[: self.fixed_columns])

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

    def shown_whole(self) -> tuple[int, int]:
        """The cells of the scrolling area (from its left edge) that hold whole columns, or the whole
        area when a column is cut only because it is wider than the area."""
        fixed = self._fixed_width()
        area = self.size.width - fixed
        x = round(self.scroll_x)
        starts = self._column_starts()
        spans = list(pairwise(starts))
        left, right = 0, area
        for start, end in spans:
            if start < x < end and end - start <= area:  # cut at the left edge, and it would fit
                left = end - x
            if start < x + area < end and end - start <= area:  # cut at the right edge
                right = start - x
        return max(0, left), max(left, right)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        fixed, width = self._fixed_width(), self.size.width
        left, right = self.shown_whole()
        area = width - fixed
        if left == 0 and right >= area:
            return strip
        style = self.rich_style
        header = self.show_header and y == 0
        more_left = MORE_LEFT if header and left and self.scroll_x > 0 else ""
        more_right = MORE_RIGHT if header and right < area else ""
        blank_left = Strip([Segment(more_left.ljust(left), style)]) if left else Strip([])
        blank_right = Strip([Segment(more_right.rjust(area - right), style)])
        parts = [strip.crop(0, fixed), blank_left, strip.crop(fixed + left, fixed + right), blank_right]
        return Strip.join(parts).adjust_cell_length(width, style)
