"""The headline: the recommended system, its numbers, their likely range and its top reasons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from advisor.core import fmt
from advisor.core.decision.recommendation import Reason
from advisor.tui.advice import Advice

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult  # imported when the ranges are computed

TOP_REASONS = 1
_REASON_ORDER = {"prefer": 0, "penalize": 1, "warn": 2, "note": 3}
KIND_STYLES = fmt.REASON_STYLES
"""How each kind of reason is marked wherever reasons are shown."""


def reason_text(reason: Reason) -> Text:
    """`prefer 0.1  H200's 141 GB ...` with the kind coloured."""
    weight = f" {reason.weight:g}" if reason.weight else ""
    return Text.assemble((f"{reason.kind}{weight}", KIND_STYLES.get(reason.kind, "")), " ", reason.text)


def ranking_line(advice: Advice) -> Text:
    """Why it won: the ranking's margin over the runner-up (the scores `advise` gave)."""
    rec = advice.recommendation
    feasible = [c for c in rec.candidates if c.feasible]
    text = Text(f"• best on {rec.objective} of {len(feasible)} feasible")
    if len(feasible) > 1 and feasible[0].score and feasible[1].score:
        behind = feasible[1].score / feasible[0].score - 1
        text.append(f"; {feasible[1].system} next, {fmt.percent(behind)} behind")
    return text


def top_reasons(advice: Advice) -> list[Reason]:
    """The winner's rule reasons that explain it best: preferences, penalties, warnings, then notes."""
    winner = advice.winner
    if winner is None:
        return []
    return sorted(winner.reasons, key=lambda r: _REASON_ORDER.get(r.kind, 9))[:TOP_REASONS]


def range_line(advice: Advice, analysis: ScenarioResult | None) -> Text | None:
    """The winner's P10-P90 cost and time, and whether it stays the winner across them."""
    winner = advice.winner
    if analysis is None or winner is None or analysis.scenario != advice.scenario:
        return Text("ranges: computing…", style="dim") if winner is not None else None
    sens = analysis.sensitivity
    found = sens.ranges.get(winner.system)
    if found is None:
        return None
    cost, time = found.cost_usd, found.time_to_result_hours
    text = Text.assemble(
        ("P10–P90 ", "dim"),
        f"{fmt.money(cost.p10)}–{fmt.money(cost.p90)}",
        " · ",
        fmt.duration_span(time.p10, time.p90),
    )
    robust = sens.robustness
    if robust is not None:
        text.append(f" · wins {fmt.percent(robust.share, 0)} of samples", style="dim")
    return text


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
        lines: list[RenderableType] = []
        if self.status:
            lines.append(Text.assemble((" STALE ", "bold reverse yellow"), " ", self.status))
        rec = advice.recommendation
        winner = advice.winner
        if winner is None or winner.estimate is None:
            lines.append(Text(rec.headline, style="bold red"))
            if advice.sizing and not advice.scenario.size_to_deadline:
                lines.append(Text("Sizing lists GPU counts that meet the deadline."))
            lines.extend(Text(f"• {line}") for line in rec.what_would_change[:2])
            return Group(*lines)
        est = winner.estimate
        verb = "Rent" if advice.scenario.workload.pricing == "rent" else "Buy"
        lines.append(
            Text.assemble(
                (f"{verb} {est.gpus:,}× {winner.system}", "bold reverse"),
                " ",
                (fmt.duration(est.time_to_train_hours), "bold"),
                " to train · ",
                (fmt.money(est.cost_usd), "bold"),
                " · ",
                (fmt.cents_or_dollars(est.cost_per_million_tokens_usd), "bold"),
                "/1M tokens",
            )
        )
        lines.append(
            Text.assemble(
                (fmt.energy(est.energy_kwh), "bold"),
                f" = {est.household_years:,.3g} household-years · ",
                f"{fmt.duration(est.time_to_result_hours)} to result incl. wait",
            )
        )
        ranges = range_line(advice, self.analysis)
        if ranges is not None:
            lines.append(ranges)
        lines.append(ranking_line(advice))
        lines.extend(Text.assemble("• ", reason_text(r)) for r in top_reasons(advice))
        return Group(*lines)
