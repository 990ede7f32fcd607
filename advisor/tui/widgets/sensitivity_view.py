"""Sensitivity: how sure the answer is. Ranges per system, whether the winner holds across them, what
moves its cost most, and the values at which the answer flips (all computed by the core)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from advisor.present import numbers, ranges
from advisor.tui.bar_chart import bar
from advisor.tui.widgets.drawn_when_shown import DrawnWhenShown

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult  # imported when the ranges are computed
    from advisor.tui.advice import Advice

COMPUTING = "Computing ranges and break-even points…"

TORNADO_WIDTH = 10


def _ranges(analysis: ScenarioResult) -> list[Text]:
    lines = [Text("P10–P90 of the sampled inputs", style="bold")]
    for system, found in analysis.sensitivity.ranges.items():
        t, c, e = found.time_to_result_hours, found.cost_usd, found.energy_kwh
        lines.append(
            Text.assemble(
                (f"{system:<12}", "bold"),
                f" {numbers.money(c.p10)}–{numbers.money(c.p90)} · {numbers.duration_span(t.p10, t.p90)} · ",
                numbers.energy_span(e.p10, e.p90),
            )
        )
    note = ranges.outside_note(analysis.sensitivity.ranges)
    return [*lines, Text(note, style="dim")] if note else lines


def _tornado(analysis: ScenarioResult) -> Table | None:
    sens = analysis.sensitivity
    if not sens.tornado or sens.winner is None:
        return None
    widest = max(b.cost_swing for b in sens.tornado) or 1.0
    table = Table.grid(padding=(0, 1))
    table.title = f"What moves {sens.winner}'s cost most (each input alone, low → high end)"
    table.title_justify = "left"
    table.title_style = "bold"
    table.add_column("input", no_wrap=True)
    table.add_column("bar", no_wrap=True)
    table.add_column("cost")
    for item in sens.tornado:
        span = "–".join(numbers.input_value(item.input, end) for end in (item.low, item.high))
        table.add_row(
            f"{numbers.input_label(item.input)} {span}",
            Text(bar(item.cost_swing / widest, TORNADO_WIDTH), style="magenta"),
            f"{numbers.money(item.cost_at_low)} → {numbers.money(item.cost_at_high)}",
        )
    return table


def sensitivity_content(analysis: ScenarioResult) -> RenderableType:
    """Ranges, robustness, tornado, break-even points and price-for-speed lines."""
    sens = analysis.sensitivity
    parts: list[RenderableType] = [*_ranges(analysis)]
    if sens.robustness is not None:
        parts.append(Text.assemble("\n", ("Robustness ", "bold"), sens.robustness.verdict))
    tornado = _tornado(analysis)
    if tornado is not None:
        parts.extend((Text(""), tornado))
    if sens.break_evens:
        parts.append(Text(f"\nBreak-even points ({sens.winner} against {sens.runner_up})", style="bold"))
        parts.extend(Text(f"  {item.sentence}") for item in sens.break_evens)
    if sens.speed_for_price:
        parts.append(Text("\nSpeed for the price", style="bold"))
        parts.extend(Text(f"  {line}") for line in sens.speed_for_price)
    parts.extend(Text(f"\n{note}", style="dim") for note in sens.notes)
    return Group(*parts)


class SensitivityView(DrawnWhenShown, VerticalScroll):
    """Scrollable sensitivity analysis of the current answers."""

    analysis: reactive[ScenarioResult | None] = reactive(None)
    """Ranges, robustness and break-evens (bound to the screen's)."""
    advice: reactive[Advice | None] = reactive(None)
    """The advice shown (bound to the screen's): ranges computed for other answers are not shown."""

    def compose(self) -> ComposeResult:
        yield Static(COMPUTING, id="sensitivity-text")

    def watch_analysis(self) -> None:
        self.request_draw()

    def watch_advice(self) -> None:
        self.request_draw()

    def draw(self) -> None:
        """The ranges of the answers the headline shows; until they are computed, says so (the ranges of
        the previous answers, shown under the new headline, read as the new answer's)."""
        analysis, advice = self.analysis, self.advice
        current = analysis is not None and (advice is None or analysis.scenario == advice.scenario)
        text = self.query_one("#sensitivity-text", Static)
        text.update(sensitivity_content(analysis) if current and analysis is not None else COMPUTING)
