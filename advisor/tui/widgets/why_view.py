"""Why: every reason for the recommendation, notes about the workload, warnings, what would change it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from advisor.tui.widgets.drawn_when_shown import AdviceText

if TYPE_CHECKING:
    from advisor.tui.advice import Advice  # the core's answer: imported once the first one is computed


def _heading(text: str) -> Text:
    return Text(f"\n{text}", style="bold")


def why_content(advice: Advice) -> RenderableType:
    """The reasons, as the CLI's `recommend` prints them, grouped for reading."""
    from advisor.present.ranking import closest_first
    from advisor.present.reasons import reason_lines, reason_text
    from advisor.present.styles import REASON_STYLES

    rec = advice.recommendation
    # What the team already owns comes first: it is what a buyer weighs the answer against.
    owned = [Text(f"{rec.verdict.owned}.", style="bold"), Text("")] if rec.verdict.owned else []
    parts: list[RenderableType] = [*owned, *([Text(rec.verdict.why), Text("")] if rec.winner else [])]
    for candidate in closest_first(rec):  # with none feasible, the nearest to being so first
        title = candidate.system + (" (recommended)" if candidate.system == rec.winner else "")
        if not candidate.feasible:
            title += " (not feasible)"
        parts.append(_heading(title) if parts else Text(title, style="bold"))
        if not candidate.reasons:
            parts.append(Text("  no rule fired", style="dim"))
        parts.extend(Text.assemble("  ", reason_text(line)) for line in reason_lines(candidate.reasons))
    workload_rules = [fired for fired in rec.rules_fired if fired.system is None]
    if workload_rules:
        parts.append(_heading("About the workload"))
        parts.extend(
            Text.assemble("  ", (fired.effect, "dim"), " ", fired.because) for fired in workload_rules
        )
    if rec.warnings:
        parts.append(_heading("Warnings"))
        warn = ("warn", REASON_STYLES["warn"])
        parts.extend(Text.assemble("  ", warn, " ", warning) for warning in rec.warnings)
    if rec.what_would_change:
        parts.append(_heading("What would change the answer"))
        parts.extend(Text(f"  {line}") for line in rec.what_would_change)
    return Group(*parts)


class WhyView(AdviceText):
    """Scrollable reasons for the current advice."""

    def content(self, advice: Advice) -> RenderableType:
        return why_content(advice)
