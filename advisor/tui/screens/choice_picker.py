"""The list a choice field opens: every option, the current one highlighted; Enter picks, Esc keeps;
typing jumps to the first option whose words start with what was typed (`70` finds Llama 3 70B)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option


def _compact(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def first_match(labels: Sequence[str], typed: str, ids: Sequence[str] = ()) -> int | None:
    """The first label that starts with `typed`; else the first label or id that does with spaces and
    punctuation ignored (`llama3-70` finds Llama 3 70B by its id `llama3-70b`); else the first label
    with a word that does (case ignored everywhere)."""
    typed = typed.casefold()
    folded = [label.casefold() for label in labels]
    for index, label in enumerate(folded):
        if label.startswith(typed):
            return index
    short = _compact(typed)
    if short:
        keys = [(label, ids[i] if i < len(ids) else "") for i, label in enumerate(labels)]
        for index, (label, key) in enumerate(keys):
            if _compact(label).startswith(short) or _compact(key).startswith(short):
                return index
    for index, label in enumerate(folded):
        words = label.replace("(", " ").split()
        if any(word.startswith(typed) for word in words) or f" {typed}" in f" {label}":
            return index
    return None


class ChoicePicker(ModalScreen[str | None]):
    """Dismiss with the value picked, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Keep")]

    SEARCH_PAUSE_S = 1.0
    """Keys typed within this long of each other make one search; a longer pause starts a new one."""

    def __init__(self, options: tuple[tuple[str, str], ...], value: str, near: Region) -> None:
        super().__init__(classes="picker")
        self.options = options
        self.value = value
        self.near = near
        self._typed = ""
        self._typed_at = 0.0

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

    def on_key(self, event: events.Key) -> None:
        """Type to search: highlight the first option with a word starting with the keys typed."""
        now = time.monotonic()
        typed = self._typed if now - self._typed_at < self.SEARCH_PAUSE_S else ""
        if not event.is_printable or not event.character or (event.character == " " and not typed):
            return
        self._typed = typed + event.character
        self._typed_at = now
        event.stop()
        labels, ids = zip(*self.options, strict=True) if self.options else ((), ())
        index = first_match(labels, self._typed, ids)
        if index is not None:
            self.query_one("#choices", OptionList).highlighted = index

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
