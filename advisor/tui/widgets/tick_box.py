"""A checkbox whose box is empty when unticked, so its state reads without colour."""

from __future__ import annotations

from textual.widgets import Checkbox


class TickBox(Checkbox):
    """`▐X▌ label` when ticked, `▐ ▌ label` when not."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "X" if self.value else " "
