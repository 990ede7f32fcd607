"""A one-line choice: the chosen option with ◂ ▸. ←/→ step through the options; Enter, Space or a
click opens the full list. Much lighter than a Select (a form of twenty fields starts faster)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from advisor.tui.screens.choice_picker import ChoicePicker


def fitted(label: str, room: int) -> str:
    """`label` in `room` columns: the bracketed details dropped first (`Llama 3 70B (70.5B)` shows as
    `Llama 3 70B`), so a name is cut only when even it does not fit."""
    while len(label) > room and label.endswith(")") and " (" in label:
        label = label[: label.rindex(" (")]
    return label if len(label) <= room else label[: room - 1] + "…"


class ChoiceField(Widget, can_focus=True):
    """Pick one of a few options; posts `ChoiceField.Changed` when the user picks another."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right", "step(1)", "Next", show=False),
        # The list opens as the key arrives (priority), so the keys typed next go to it: opened later,
        # when this field's turn came, it lost the first letters typed after a quick Enter.
        Binding("enter,space", "open_list", "Choose", show=False, priority=True),
    ]

    value: reactive[str] = reactive("")
    """The chosen option's value."""

    @dataclass
    class Changed(Message):
        """The user chose another option."""

        field: ChoiceField
        value: str

        @property
        def control(self) -> ChoiceField:
            return self.field

    def __init__(
        self,
        options: tuple[tuple[str, str], ...],
        value: str,
        *,
        words: Mapping[str, str] | None = None,
        **kwargs: object,
    ) -> None:
        """`words`: other words that find an option in the list (value: words)."""
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.options = options
        self.words = dict(words or {})
        self.set_reactive(ChoiceField.value, value)

    @property
    def label(self) -> str:
        """The chosen option's label; one written `value: explanation` shows as its value."""
        label = next((label for label, value in self.options if value == self.value), self.value)
        return self.value if label.startswith(f"{self.value}: ") else label

    def render(self) -> Text:
        label = fitted(self.label, max(1, self.size.width - 4))
        return Text.assemble(("◂ ", "dim"), label, (" ▸", "dim"), no_wrap=True, overflow="ellipsis")

    def relabel(self, value: str, label: str) -> None:
        """Show option `value` as `label` (a default option saying what applies now)."""
        options = tuple((label if v == value else old, v) for old, v in self.options)
        if options != self.options:
            self.options = options
            self.refresh()

    def choose(self, value: str) -> None:
        """Take `value` as the user's choice (reported if it changed)."""
        if value != self.value and any(v == value for _, v in self.options):
            self.value = value
            self.post_message(self.Changed(self, value))

    def action_step(self, step: int) -> None:
        values = [value for _, value in self.options]
        index = values.index(self.value) if self.value in values else 0
        self.choose(values[(index + step) % len(values)])

    def action_open_list(self) -> None:
        picker = ChoicePicker(self.options, self.value, self.region, self.words)
        self.app.push_screen(picker, lambda value: self.choose(value) if value is not None else None)

    def on_click(self, event: events.Click) -> None:
        self.focus()
        self.action_open_list()
