"""The `?` help screen: what the app does, how to move around, every key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from advisor.io.paths import user_config_dir
from advisor.report.formats import REPORT_FORMATS, format_names

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
| ← → on the tab bar | switch result tabs: Why, Compare, Breakdown, Rules, Assumptions, Sizing, Sensitivity |
| s / r in Compare | sort by the next column / reverse; a click on a header sorts too |
| Enter in Compare | show that system's breakdown |
| Enter in Sizing | use that system's GPU count for the deadline |
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

- **MFU**: model FLOPs utilisation: the share of the GPUs' peak arithmetic a training run really
  uses (40% is typical).
- **Goodput**: the share of the wall-clock time that is useful training, after failures, restarts
  and lost work.
- **Training stack: production / reference**: production adds the time a real team's run spends on
  evaluations, checkpoints, stalls and less-tuned software (the "overhead" part); reference is the
  vendor's benchmark recipe.
- **FP8 stack**: whether your software trains in FP8; if not, FP8 runs at BF16 speed.
- **PUE**: power usage effectiveness: the facility's total power over the IT power (1.3 means 30%
  more for cooling and the rest).
- **P10–P90**: the range the answer falls in 8 times out of 10 when the uncertain inputs (MFU,
  prices, failures) vary; P50 is the middle.
- **TCO**: total cost of ownership: buying, power, space, staff and maintenance, spread over the
  hours the hardware is used.
- **Capex/node**: the purchase price of one server (node) of GPUs.
- **Household-years**: the energy one average household uses in a year, to give MWh a scale.
- **Score**: how a system ranks: its cost (or time, energy) divided by the best system's, then
  adjusted by the rules; 1.00 is the best, 1.12 is 12% worse.
- **prefer / penalize 0.1**: a rule that makes a system's score 10% better (prefer) or 10% worse
  (penalize).
- **warn / note**: a caveat or a remark a rule adds; it does not change the ranking.
- **Feasible**: fits in memory, meets the deadline, budget and capacity you gave.
- **Wait**: hours before the GPUs can be had (capacity lead time), added to the time to result.
- **STALE**: the result shown is for the last accepted answers; an answer in red is not taken yet.

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
            yield Markdown(HELP.format(settings=settings, formats=format_names(REPORT_FORMATS)))

    def action_close(self) -> None:
        self.dismiss(None)
