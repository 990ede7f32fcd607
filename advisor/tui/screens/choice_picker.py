"""The list a choice field opens: every option, the current one highlighted; Enter picks, Esc keeps."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class ChoicePicker(ModalScreen[str | None]):
    """Dismiss with the value picked, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Keep")]

    def __init__(self, options: tuple[tuple[str, str], ...], value: str, near: Region) -> None:
        super().__init__(classes="picker")
        self.options = options
        self.value = value
        self.near = near

    def compose(self) -> ComposeResult:
        yield OptionList(*(Option(label, id=value) for label, value in self.options), id="choices")

    def on_mount(self) -> None:
        choices = self.query_one("#choices", OptionList)
        values = [value for _, value in self.options]
        choices.highlighted = values.index(self.value) if self.value in values else 0
        height = min(len(self.options) + 2, max(3, self.size.height - 2))
        top = max(0, min(self.near.y, self.size.height - height))
        width = max(self.near.width, *(len(label) + 4 for label, _ in self.options))
        choices.styles.offset = (max(0, min(self.near.x, self.size.width - width)), top)  # long labels fit
        choices.styles.width = width
        choices.styles.max_height = height
        choices.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
