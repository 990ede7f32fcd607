"""Assumptions: every number behind the recommendation, with its source and date; old prices flagged.

The rows are the reports' own (`advisor.report.assumptions.assumptions_used`), so the app and an
exported report always list the same figures.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from advisor.core.model.units import format_si
from advisor.report.assumptions import AssumptionUsed
from advisor.tui.advice import Advice
from advisor.tui.widgets.drawn_when_shown import AdviceText


def _value(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, float | int):
        return str(value)
    return format_si(value, digits=4) if abs(value) >= 1e6 else f"{value:,.6g}"


def assumption_block(row: AssumptionUsed) -> Text:
    """Subject and topic, its flags, the figures, then the source and date."""
    text = Text.assemble((row.subject, "bold"), " · ", row.topic)
    if row.stale:
        text.append("  ⚠ price older than a year", style="bold yellow")
    if row.set_by_user:
        text.append("  set by you", style="cyan")
    elif row.assumption:
        text.append("  assumption", style="magenta")
    figures = " · ".join(f"{name} {_value(value)}" for name, value in row.values)
    text.append(f"\n  {figures}")
    dated = f" ({row.as_of})" if row.as_of else ""
    text.append(f"\n  source: {row.source}{dated}", style="dim")
    if row.note:
        text.append(f"\n  note: {row.note}", style="dim")
    return text


def assumptions_content(advice: Advice) -> RenderableType:
    """A summary line, then one block per group of figures."""
    rows = advice.assumptions
    stale = sum(1 for row in rows if row.stale)
    summary = Text.assemble(
        (f"{len(rows)} groups of figures", "bold"),
        f" behind this recommendation; {stale} price(s) older than a year" if stale else "; no old prices",
        style="",
    )
    blocks: list[RenderableType] = [summary]
    for row in rows:
        blocks.extend((Text(""), assumption_block(row)))
    return Group(*blocks)


class AssumptionsView(AdviceText):
    """Scrollable list of the assumptions used."""

    def content(self, advice: Advice) -> RenderableType:
        return assumptions_content(advice)
