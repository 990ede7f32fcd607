"""The `?` help screen: what the app does, how to move around, every key."""

from __future__ import annotations

from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from advisor.io.paths import user_config_dir
from advisor.report.formats import REPORT_FORMATS, format_names
from advisor.tui.glossary import glossary_markdown
from advisor.tui.widgets.results_panel import TABS

HELP = """\
# advisor: which GPU system to rent or buy

Answer the questions on the left, top to bottom (or in any order). The recommendation
on the right updates as you type: the system, its GPU count, time to train, total cost,
cost per million tokens and energy, with its reasons. Nothing is computed here that
`advisor recommend` would not compute.

Numbers can be written as people write them: `70B`, `15T`, `1.5e12`, `$2.10`, `2k`.
Tokens also take *dataset × epochs*: `5T x 3`. An answer the app cannot take is
marked in red with the valid range; the other answers keep working and the result
stays on screen, marked **STALE**, until it is fixed.

## Moving around

| Key | Does |
|---|---|
| Tab / Shift+Tab | next / previous field (the guided order) |
| Enter | in a text field: next question; on a choice: open its list; in a table: pick the row |
| ← → on a choice | step through its options without opening the list |
| Esc | jump between the questions and the results |
| ← → on the tab bar | switch result tabs: {tabs} (Serving for an inference job) |
| ← → in Compare or Serving | scroll the table a column at a time (the system stays in view) |
| s / r in Compare | sort by the next column / reverse; a click on a header sorts too |
| Enter in Compare | show that system's breakdown |
| Enter in Sizing | use that system's GPU count for the deadline |
| Tab in a file name | complete the name, as a shell does |
| Ctrl+P | command palette: every action, "go to" any question or tab |

## Files and settings

| Key | Does |
|---|---|
| Ctrl+S | save the answers as a scenario file (TOML) |
| Ctrl+O | open a scenario file (also: `advisor scenario.toml`) |
| Ctrl+E | export the result as {formats} |
| Ctrl+N | start again from the defaults |
| F2 | settings: theme, default pricing, electricity price, PUE |
| Ctrl+T | switch between the light and dark theme |
| F1 or ? | this help; Esc closes it |
| q or Ctrl+Q | quit |

{settings}

## What the terms mean

{glossary}

The app needs a terminal of at least 80 × 24.
"""


class HelpScreen(ModalScreen[None]):
    """Keys and how-to, in a scrollable panel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
    ]

    def __init__(self, *, show_settings_path: bool = True) -> None:
        super().__init__()
        self.show_settings_path = show_settings_path

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            if self.show_settings_path:
                settings = f"Settings are kept in `{user_config_dir() / 'settings.toml'}`."
            else:
                settings = "Served in a browser: settings are not saved, files stay in the shared folder."
            text = HELP.format(
                settings=settings,
                formats=format_names(REPORT_FORMATS),
                glossary=glossary_markdown(),
                tabs=", ".join(TABS.values()),
            )
            yield Static(Markdown(text), classes="help-text")

    def action_close(self) -> None:
        self.dismiss(None)
