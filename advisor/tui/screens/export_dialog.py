"""The export dialog: a format, a path field, and whether to replace an existing file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, RadioSet, Static

from advisor.tui.exporting import FORMAT_NAMES
from advisor.tui.screens.path_dialog import expand
from advisor.tui.widgets.radio_dot import RadioDot
from advisor.tui.widgets.tick_box import TickBox

Export = Callable[[str, Path, bool], str | None]
"""Writes the report in a format to a path (with the overwrite choice); returns an error, or None."""


class ExportDialog(ModalScreen[str | None]):
    """Export the current result; dismiss with the written path, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, path: str, export: Export, fmt: str = "md") -> None:
        super().__init__()
        self.initial_path = path
        self.export = export
        self.initial_format = fmt

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Label("Export the current result", classes="dialog-title")
            with RadioSet(id="format"):
                for fmt, name in FORMAT_NAMES.items():
                    yield RadioDot(f"{name} (.{fmt})", value=fmt == self.initial_format, id=f"fmt-{fmt}")
            yield Label("File, in the current folder unless a path is given", classes="dialog-label")
            yield Input(self.initial_path, id="path", select_on_focus=False)
            yield TickBox("Replace the file if it exists", id="overwrite")
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Export", variant="primary", id="submit")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#format", RadioSet).focus()

    @property
    def fmt(self) -> str:
        pressed = self.query_one("#format", RadioSet).pressed_button
        return pressed.id.removeprefix("fmt-") if pressed and pressed.id else self.initial_format

    @on(RadioSet.Changed)
    def _format_changed(self) -> None:
        """Keep the file's extension in step with the format, if it was one of ours."""
        field = self.query_one("#path", Input)
        path = Path(field.value)
        if path.suffix.lstrip(".") in FORMAT_NAMES:
            field.value = str(path.with_suffix(f".{self.fmt}"))

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#submit")
    def _submit(self) -> None:
        text = self.query_one("#path", Input).value
        error = self.query_one("#dialog-error", Static)
        if not text.strip():
            error.update("Give a file name.")
            return
        path = expand(text)
        problem = self.export(self.fmt, path, self.query_one("#overwrite", Checkbox).value)
        if problem:
            error.update(problem)
            return
        self.dismiss(str(path))
