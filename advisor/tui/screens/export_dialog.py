"""The export dialog: a format, a path field, and whether to replace an existing file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input, RadioButton, RadioSet

from advisor.report.formats import REPORT_FORMATS
from advisor.tui.screens.path_dialog import PathDialog
from advisor.tui.widgets.radio_dot import RadioDot

Export = Callable[[str, Path, bool], str | None]
"""Writes the report in a format to a path (with the overwrite choice); returns an error, or None."""


class FormatList(RadioSet):
    """The formats: ↑/↓ move, Space chooses one, Enter chooses the highlighted one and exports."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Choose", show=False),
        Binding("enter", "choose_and_export", "Export", show=False),
    ]

    @dataclass
    class ExportAsked(Message):
        """Enter on a format: export in it now."""

        fmt: str

    def action_choose_and_export(self) -> None:
        """Ask to export in the highlighted format (else the chosen one)."""
        index = self._selected
        button = self._nodes[index] if index is not None else self.pressed_button
        if isinstance(button, RadioButton) and button.id:
            self.post_message(self.ExportAsked(button.id.removeprefix("fmt-")))


class ExportDialog(PathDialog):
    """Export the current result; dismiss with the written path, or None when cancelled."""

    path_label = "File, in the current folder unless a path is given"
    first_focus = "#format"

    def __init__(self, path: str, export: Export, fmt: str = "md") -> None:
        super().__init__(
            "Export the current result",
            path,
            "Export",
            lambda target, overwrite: export(self.fmt, target, overwrite),
            overwrite_option=True,
        )
        self.fmt = fmt
        """The chosen format's extension."""
        self.suffixes = (f".{fmt}",)  # Tab offers files of the chosen format (to replace one)

    def extra_fields(self) -> ComposeResult:
        with FormatList(id="format"):
            for fmt in REPORT_FORMATS.values():
                yield RadioDot(
                    f"{fmt.name} (.{fmt.extension})",
                    value=fmt.extension == self.fmt,
                    id=f"fmt-{fmt.extension}",
                )

    def _choose(self, fmt: str) -> None:
        """Take `fmt`, and keep the file's extension in step with it if it was one of ours."""
        self.fmt = fmt
        self.suffixes = (f".{fmt}",)
        field = self.query_one("#path", Input)
        path = Path(field.value)
        if path.suffix.lstrip(".") in REPORT_FORMATS:
            field.value = str(path.with_suffix(f".{fmt}"))
            field.cursor_position = len(field.value)

    @on(RadioSet.Changed)
    def _format_changed(self, event: RadioSet.Changed) -> None:
        if event.pressed.id and self.is_attached:
            self._choose(event.pressed.id.removeprefix("fmt-"))

    @on(FormatList.ExportAsked)
    def _export_now(self, event: FormatList.ExportAsked) -> None:
        self.query_one(f"#fmt-{event.fmt}", RadioButton).value = True  # its Changed repeats _choose
        self._choose(event.fmt)
        self._submit()
