"""The headline: the recommended system, its numbers, their likely range and its top reasons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult  # imported when the ranges are computed
    from advisor.tui.advice import Advice


def range_line(advice: Advice, analysis: ScenarioResult | None) -> Text | None:
    """The winner's P10-P90 cost and time once computed for this advice; `computing…` until then."""
    from advisor.present import headline

    winner = advice.winner
    if analysis is None or winner is None or analysis.scenario != advice.scenario:
        return headline.COMPUTING_RANGES if winner is not None else None
    per_month = winner.estimate is not None and winner.estimate.serves_a_rate
    return headline.range_line(analysis.sensitivity, winner.system, per_month=per_month)


class Headline(Widget):
    """The answer in a few lines; marked stale while it does not match the answers shown.

    Its height is fixed by the stylesheet, so an update repaints it without a new layout.
    """

    advice: reactive[Advice | None] = reactive(None)
    """The latest computed advice (bound to the screen's)."""
    analysis: reactive[ScenarioResult | None] = reactive(None)
    """Ranges and robustness for the latest scenario (bound to the screen's)."""
    status: reactive[str] = reactive("")
    """Why the advice is stale, or empty when it is current (bound to the screen's)."""

    def watch_status(self, status: str) -> None:
        self.set_class(bool(status), "-stale")

    def render(self) -> RenderableType:
        advice = self.advice
        if advice is None:
            return Text(self.status or "Computing the first recommendation…", style="italic")
        lines = self.full_lines()
        if advice.winner is None or advice.winner.estimate is None:
            return Group(*lines)
        return self._fitted(lines)

    def full_lines(self) -> list[RenderableType]:
        """Every line of the headline for the current advice, before it is fitted to its rows."""
        advice = self.advice
        if advice is None:
            return []
        from advisor.present import headline  # after the first screen: it imports the core's analysis

        lines: list[RenderableType] = [headline.stale_line(self.status)] if self.status else []
        winner = advice.winner
        if winner is None or winner.estimate is None:
            sized_elsewhere = bool(advice.sizing) and not advice.scenario.size_to_deadline
            lines.extend(headline.no_winner_lines(advice.recommendation, sized_elsewhere))
            return lines
        lines.extend(headline.figure_lines(winner, advice.scenario))
        ranges = range_line(advice, self.analysis)
        if ranges is not None:
            lines.append(ranges)
        analysis = self.analysis if self.analysis and self.analysis.scenario == advice.scenario else None
        sens = analysis.sensitivity if analysis else None
        lines.append(headline.verdict_line(advice.recommendation, sens, checking=analysis is None))
        lines.extend(headline.reason_lines(winner))
        return lines

    def _fitted(self, lines: list[RenderableType]) -> RenderableType:
        """The lines; when they need more rows than the headline has, the line at its last row is cut
        there and ends in `… (see Why)` rather than mid-sentence (every reason is on the Why tab)."""
        width, height = self.content_size
        if width <= 0 or height <= 0 or not all(isinstance(line, Text) for line in lines):
            return Group(*lines)
        wrapped = [(line, line.wrap(self.app.console, width)) for line in lines if isinstance(line, Text)]
        if sum(len(rows) for _, rows in wrapped) <= height:
            return Group(*lines)
        shown: list[RenderableType] = []
        left = height
        for line, rows in wrapped:
            if len(rows) < left:
                shown.append(line)
                left -= len(rows)
                continue
            more = Text(" … (see Why)", style="italic")
            last = rows[left - 1]
            room = max(0, width - more.cell_len)
            if last.cell_len > room:  # cut at a word's end, not inside a word ("cheaper tha")
                space = last.plain.rfind(" ", 0, room + 1)
                last.truncate(space if space > 0 else room)
            last.rstrip()
            # The rows as wrapped, one per line: joined end to end, the words either side of each
            # wrap ran together ("years to" + "result" read "toresult").
            shown.append(Text("\n").join([*rows[: left - 1], Text.assemble(last, more)]))
            break
        return Group(*shown)
