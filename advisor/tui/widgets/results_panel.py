"""The right-hand side: the headline over the result tabs. The hidden tabs' views are mounted once the
first screen is drawn, so the app starts faster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane, Tabs

from advisor.tui.widgets.headline import Headline
from advisor.tui.widgets.why_view import WhyView

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult
    from advisor.tui.advice import Advice

TABS = {
    "why": "Why",
    "compare": "Compare",
    "serving": "Serving",
    "breakdown": "Breakdown",
    "rules": "Rules",
    "assumptions": "Assumptions",
    "sizing": "Sizing",
    "sensitivity": "Sensitivity",
}
"""Result tabs by id, in order (Serving only for an inference job)."""


class ResultsPanel(Vertical):
    """Headline and tabs; every view follows the panel's data, which follows the screen's."""

    advice: reactive[Advice | None] = reactive(None)
    """The latest computed advice (bound to the screen's)."""
    analysis: reactive[ScenarioResult | None] = reactive(None)
    """Ranges, robustness and break-evens (bound to the screen's)."""
    status: reactive[str] = reactive("")
    """Why the advice shown is stale (bound to the screen's)."""
    selected_system: reactive[str | None] = reactive(None)
    """The system picked in Compare (bound to the screen's)."""

    def compose(self) -> ComposeResult:
        yield Headline(id="headline").data_bind(
            ResultsPanel.advice, ResultsPanel.analysis, ResultsPanel.status
        )
        with TabbedContent(id="tabs"):
            with TabPane(TABS["why"], id="why"):
                yield WhyView(id="why-view").data_bind(ResultsPanel.advice)
            for tab in list(TABS)[1:]:
                yield TabPane(TABS[tab], id=tab)

    def on_mount(self) -> None:
        self.query_one(TabbedContent).hide_tab("serving")

    def watch_advice(self, advice: Advice | None) -> None:
        """The Serving tab is there for an inference job only."""
        if advice is None or not self.is_mounted:
            return
        tabs = self.query_one(TabbedContent)
        serving = advice.scenario.workload.kind == "inference"
        if serving != tabs.get_tab("serving").display:
            if serving:
                tabs.show_tab("serving")
            else:
                if tabs.active == "serving":
                    tabs.active = "why"
                tabs.hide_tab("serving")

    async def mount_views(self) -> None:
        """The hidden tabs' views (the screen mounts them once it is drawn: a faster start)."""
        if not self.is_attached:
            return
        from advisor.tui.widgets.assumptions_view import AssumptionsView  # the hidden tabs' views:
        from advisor.tui.widgets.breakdown_view import BreakdownView  # loaded after the first screen
        from advisor.tui.widgets.comparison_view import ComparisonView
        from advisor.tui.widgets.rules_trace import RulesTrace
        from advisor.tui.widgets.sensitivity_view import SensitivityView
        from advisor.tui.widgets.serving_view import ServingView
        from advisor.tui.widgets.sizing_view import SizingView

        views: dict[str, Widget] = {
            "compare": ComparisonView(id="compare-view").data_bind(ResultsPanel.advice),
            "serving": ServingView(id="serving-view").data_bind(ResultsPanel.advice),
            "breakdown": BreakdownView(id="breakdown-view").data_bind(
                ResultsPanel.advice, ResultsPanel.selected_system
            ),
            "rules": RulesTrace(id="rules-view").data_bind(ResultsPanel.advice),
            "assumptions": AssumptionsView(id="assumptions-view").data_bind(ResultsPanel.advice),
            "sizing": SizingView(id="sizing-view").data_bind(ResultsPanel.advice),
            "sensitivity": SensitivityView(id="sensitivity-view").data_bind(ResultsPanel.analysis),
        }
        tabs = self.query_one(TabbedContent)
        mounting = [tabs.get_pane(tab).mount(view) for tab, view in views.items()]  # one layout for all
        for mounted in mounting:
            await mounted

    @property
    def active_tab(self) -> str:
        return str(self.query_one(TabbedContent).active)

    def show_tab(self, tab: str) -> None:
        """Show a result tab and, once it is drawn, focus what is in it."""
        self.query_one(TabbedContent).active = tab
        self.call_after_refresh(self._focus_tab, tab)

    def _focus_tab(self, tab: str) -> None:
        tabs = self.query_one(TabbedContent)
        focusable = [w for w in tabs.get_pane(tab).query("*") if w.focusable]
        if focusable:
            focusable[0].focus()
        else:
            tabs.query_one(Tabs).focus()
