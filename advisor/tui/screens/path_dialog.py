"""A dialog with a path field: Save and Open a scenario. It stays open, showing why, until the action
it is given succeeds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from advisor.tui.path_completion import complete_path
from advisor.tui.widgets.ordered_input import OrderedInput
from advisor.tui.widgets.tick_box import TickBox

Submit = Callable[[Path, bool], str | None]
"""Does the dialog's action with the path and the overwrite choice; returns an error, or None."""


def expand(text: str) -> Path:
    """The path as typed, with `~` expanded."""
    return Path(text.strip()).expanduser()


def confine(path: Path, root: Path) -> Path | None:
    """`path` (relative to `root` unless absolute) resolved through `..` and symlinks; None if it is
    outside `root`."""
    resolved = (root / path.expanduser()).resolve()
    return resolved if resolved.is_relative_to(root.resolve()) else None


class PathInput(OrderedInput):
    """The path field: Tab completes the name typed (a shell's way); when there is nothing to add,
    Tab moves on as anywhere else."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "complete", "Complete", show=False)]

    def action_complete(self) -> None:
        root: Path | None = getattr(self.app, "file_root", None)
        completion = complete_path(self.value, root, self.screen_suffixes())
        hint = self.screen.query_one("#path-matches", Static)
        hint.update(completion.hint())
        hint.display = bool(completion.matches)
        if completion.text != self.value:
            self.value = completion.text
            self.cursor_position = len(self.value)
        elif not completion.matches:
            self.screen.focus_next()

    def screen_suffixes(self) -> tuple[str, ...]:
        """The file suffixes the dialog takes (all files when it names none)."""
        screen = self.screen
        return screen.suffixes if isinstance(screen, PathDialog) else ()


class ReplaceBox(TickBox):
    """“Replace the file if it exists”: Space ticks it; Enter does the dialog's action, as from the path
    field (a checkbox's own Enter would tick it instead, and a user who pressed Enter to save saw nothing
    saved)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Tick", show=False),
        Binding("enter", "screen.submit", "Save", show=False),
    ]


class PathDialog(ModalScreen[str | None]):
    """Ask for a file path; dismiss with the action's success message, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    path_label = "File (TOML), in the current folder unless a path is given"
    first_focus = "#path"
    suffixes: tuple[str, ...] = (".toml",)
    """Files Tab offers (folders always): a scenario is a TOML file."""

    def __init__(
        self, title: str, path: str, submit_label: str, submit: Submit, *, overwrite_option: bool = False
    ) -> None:
        super().__init__()
        self.title_text = title
        self.initial_path = path
        self.submit_label = submit_label
        self.submit = submit
        self.overwrite_option = overwrite_option

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield from self.extra_fields()
            yield Label(self.path_label, classes="dialog-label")
            yield PathInput(self.initial_path, id="path", select_on_focus=True)
            yield Static("", id="path-matches", markup=False)
            if self.overwrite_option:
                yield ReplaceBox("Replace the file if it exists", id="overwrite")
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.submit_label, variant="primary", id="submit")
                yield Button("Cancel", id="cancel")

    def extra_fields(self) -> ComposeResult:
        """Fields shown above the path (none here; the export dialog adds the format)."""
        yield from ()

    def on_mount(self) -> None:
        self.query_one(self.first_focus).focus()  # the path field selects its text: typing replaces it

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_submit(self) -> None:
        """Enter on the Replace box: the dialog's action, as Enter in the path field."""
        self._submit()

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#submit")
    def _submit(self) -> None:
        text = self.query_one("#path", Input).value
        error = self.query_one("#dialog-error", Static)
        if not text.strip():
            error.update("Give a file name.")
            return
        overwrite = bool(self.overwrite_option and self.query_one("#overwrite", Checkbox).value)
        path = expand(text)
        root: Path | None = getattr(self.app, "file_root", None)
        if root is not None:
            confined = confine(path, root)
            if confined is None:
                error.update("Refused: only files inside the shared folder can be used (give a name in it).")
                return
            path = confined
        problem = self.submit(path, overwrite)
        if problem:
            error.update(problem)
            return
        self.dismiss(str(path))
