"""A radio button whose dot shows only when chosen, so the choice reads without colour."""

from __future__ import annotations

from textual.widgets import RadioButton


class RadioDot(RadioButton):
    """`▐●▌ label` when chosen, `▐ ▌ label` when not."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "●" if self.value else " "
