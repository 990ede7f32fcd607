"""Breakdown: where the money, the time and the energy of one system's run go, as bar charts."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from advisor.present import numbers
from advisor.present.serving import SERVING_TIME_TITLE, shown_parts
from advisor.present.styles import PART_STYLES
from advisor.tui.advice import Advice
from advisor.tui.bar_chart import bar_chart
from advisor.tui.widgets.drawn_when_shown import AdviceView

TIME_ORDER = ("compute", "downtime", "setup", "wait")
"""Time parts in the order a run spends them, waiting last (it comes before the run, but is not paid)."""
LABEL_WIDTH = 40
"""Cells taken by a chart's label, value and share columns; the bar gets the rest."""


def _ordered(parts: dict[str, float], order: tuple[str, ...]) -> dict[str, float]:
    return {key: parts[key] for key in (*order, *parts) if key in parts}


def breakdown_content(advice: Advice, system: str | None, bar_width: int) -> RenderableType:
    """TCO or rental cost, time and energy charts of `system` (default: the recommended one)."""
    candidate = advice.candidate(system)
    if candidate is None or candidate.estimate is None:
        return Text("No system to break down: nothing is feasible and none was picked in Compare.")
    est = candidate.estimate
    rec = advice.recommendation
    role = (
        "recommended"
        if candidate.system == rec.winner
        else ("feasible" if candidate.feasible else "not feasible")
    )
    owning = est.pricing == "own"
    title = Text.assemble(
        (f"{candidate.system}", "bold"),
        f" ({role}), {est.gpus:,} GPUs · ${est.price_usd_per_gpu_hour:.2f} per GPU-hour",
        (" · Enter on a row in Compare picks another", "dim"),
    )
    cost = bar_chart(
        "TCO (owning)" if owning else "Cost (renting)",
        est.cost_breakdown_usd,
        numbers.money,
        width=bar_width,
        style=PART_STYLES["cost"],
    )
    time = bar_chart(
        SERVING_TIME_TITLE if est.kind == "inference" else "Time to result",
        _ordered(shown_parts(est.time_breakdown_hours, est.kind), TIME_ORDER),
        numbers.duration,
        width=bar_width,
        style=PART_STYLES["time"],
    )
    energy = bar_chart(
        f"Energy ({numbers.significant(est.household_years)} US household-years)",
        est.energy_breakdown_kwh,
        numbers.energy,
        width=bar_width,
        style=PART_STYLES["energy"],
    )
    return Group(title, Text(""), cost, Text(""), time, Text(""), energy)


class BreakdownView(AdviceView, VerticalScroll):
    """Charts for the system picked in Compare, else the recommended one."""

    selected_system: reactive[str | None] = reactive(None)
    """The system picked in Compare (bound to the screen's)."""

    def compose(self) -> ComposeResult:
        yield Static(id="breakdown-charts")

    def watch_selected_system(self) -> None:
        self.request_draw()

    def on_resize(self, event: events.Resize) -> None:
        self.request_draw()

    def draw_advice(self, advice: Advice) -> None:
        bar_width = max(6, self.content_size.width - LABEL_WIDTH)
        content = breakdown_content(advice, self.selected_system, bar_width)
        self.query_one("#breakdown-charts", Static).update(content)
