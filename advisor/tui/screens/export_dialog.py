"""The export dialog: a format, a path field, and whether to replace an existing file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.widgets import Input, RadioSet

from advisor.report.formats import REPORT_FORMATS
from advisor.tui.screens.path_dialog import PathDialog
from advisor.tui.widgets.radio_dot import RadioDot

Export = Callable[[str, Path, bool], str | None]
"""Writes the report in a format to a path (with the overwrite choice); returns an error, or None."""


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
        self.initial_format = fmt

    def extra_fields(self) -> ComposeResult:
        with RadioSet(id="format"):
            for fmt in REPORT_FORMATS.values():
                yield RadioDot(
                    f"{fmt.name} (.{fmt.extension})",
                    value=fmt.extension == self.initial_format,
                    id=f"fmt-{fmt.extension}",
                )

    @property
    def fmt(self) -> str:
        pressed = self.query_one("#format", RadioSet).pressed_button
        return pressed.id.removeprefix("fmt-") if pressed and pressed.id else self.initial_format

    @on(RadioSet.Changed)
    def _format_changed(self) -> None:
        """Keep the file's extension in step with the format, if it was one of ours."""
        field = self.query_one("#path", Input)
        path = Path(field.value)
        if path.suffix.lstrip(".") in REPORT_FORMATS:
            field.value = str(path.with_suffix(f".{self.fmt}"))
            field.cursor_position = len(field.value)
