"""A yes/no question before something that loses work (new, open or quit with unsaved answers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ConfirmDialog(ModalScreen[bool]):
    """Ask before discarding; dismiss with True to go ahead, False to keep the work."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "keep", "Keep working")]

    def __init__(self, question: str, go_label: str) -> None:
        super().__init__()
        self.question = question
        self.go_label = go_label

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Label("Unsaved changes", classes="dialog-title")
            yield Static(self.question, markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep working", variant="primary", id="keep")
                yield Button(self.go_label, variant="error", id="go")

    def on_mount(self) -> None:
        self.query_one("#keep").focus()

    @on(Button.Pressed, "#keep")
    def action_keep(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        self.dismiss(True)


def ask_to_discard(app: App[Any], what: str, then: Callable[[], object], *, saved: bool) -> None:
    """Ask whether to `what` ("Quit") and lose the unsaved answers; do `then` only if the user says so.
    `saved`: the answers were opened from or saved to a file (else they were never saved)."""

    def chosen(go: bool | None) -> None:
        if go:
            then()

    since = "they were last saved or opened" if saved else "you started, and are not saved"
    question = f"The answers have changed since {since}. {what} and lose the changes?"
    app.push_screen(ConfirmDialog(question, what), chosen)
