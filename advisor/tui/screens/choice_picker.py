"""The list a choice field opens: every option, the current one highlighted; Enter picks, Esc keeps.
Typing filters the list to the options whose words (or the other words declared for them: `serving` for
inference) start with what is typed (`70`: every 70B model),
the query shown in the list's border; Backspace takes a character back (`option_search.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from advisor.tui.option_search import best_match, matching

TYPE_TO_FILTER = "type to filter"
"""The list's border title before anything is typed."""
NO_MATCH = "no match"
"""The one line of a list filtered to nothing (it cannot be picked)."""


class ChoicePicker(ModalScreen[str | None]):
    """Dismiss with the value picked, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Keep")]

    def __init__(
        self,
        options: tuple[tuple[str, str], ...],
        value: str,
        near: Region,
        words: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(classes="picker")
        self.options = options
        self.words = words or {}
        """Other words that find an option (value: words): `serving` finds `inference`."""
        self.value = value
        self.near = near
        self.typed = ""
        """What is typed to filter the list."""

    def compose(self) -> ComposeResult:
        yield OptionList(*(Option(label, id=value) for label, value in self.options), id="choices")

    def on_mount(self) -> None:
        choices = self.query_one("#choices", OptionList)
        values = [value for _, value in self.options]
        choices.highlighted = values.index(self.value) if self.value in values else 0
        height = min(len(self.options) + 2, max(3, self.size.height - 2))
        top = max(0, min(self.near.y, self.size.height - height))
        scrollbar = 2 if len(self.options) + 2 > height else 0  # a label is never wrapped beside it
        widest = max(len(label) for label, _ in self.options) + 4 + scrollbar
        width = min(max(self.near.width, widest, len(TYPE_TO_FILTER) + 6), self.size.width)  # title shown
        choices.styles.offset = (max(0, min(self.near.x, self.size.width - width)), top)  # long labels fit
        choices.styles.width = width
        choices.styles.max_height = height
        choices.border_title = TYPE_TO_FILTER
        choices.focus()

    async def on_key(self, event: events.Key) -> None:
        """Type to filter; Backspace takes back the last character typed. The list opens as Enter arrives,
        before it has the focus: a key of the list's (Enter, ↑, ↓) typed meanwhile reaches the screen, and
        is the list's."""
        choices = self.query_one("#choices", OptionList)
        if event.key == "backspace" and self.typed:
            self._filter(self.typed[:-1])
        elif event.is_printable and event.character and (event.character != " " or self.typed):
            self._filter(self.typed + event.character)
        elif self.focused is not choices and (action := _list_action(event.key)):
            await choices.run_action(action)
        else:
            return
        event.stop()
        event.prevent_default()

    def _filter(self, typed: str) -> None:
        """Show the options that match `typed`, the best of them highlighted (`best_match`)."""
        self.typed = typed
        choices = self.query_one("#choices", OptionList)
        found = matching(self.options, typed, self.words)
        choices.clear_options()
        if found:
            choices.add_options([Option(self.options[i][0], id=self.options[i][1]) for i in found])
            best = best_match(self.options, found, self.value)
            choices.highlighted = found.index(best) if best is not None else 0
        else:
            choices.add_option(Option(NO_MATCH, disabled=True))
        choices.border_title = Content(f"{typed}▏") if typed else TYPE_TO_FILTER  # `[b]` is text, not markup

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _list_action(key: str) -> str | None:
    """The option list's action for `key` (`enter`: select), if it binds one."""
    bindings = (binding for binding in OptionList.BINDINGS if isinstance(binding, Binding))
    return next((binding.action for binding in bindings if key in binding.key.split(",")), None)
