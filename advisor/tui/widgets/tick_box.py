"""A checkbox whose box is empty when unticked, so its state reads without colour."""

from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Checkbox


class TickBox(Checkbox):
    """`▐X▌ label` when ticked, `▐ ▌ label` when not; styled to wrap (`text-wrap: wrap`, as the
    questions' ticks are), its words take the lines they need rather than one cut line."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "X" if self.value else " "

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.render().get_height(self.styles, width)  # type: ignore[arg-type]  # as Widget does
