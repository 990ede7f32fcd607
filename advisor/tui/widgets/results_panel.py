"""The right-hand side: the headline over the result tabs. The hidden tabs' views are mounted once the
first screen is drawn, so the app starts faster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import ScrollableContainer, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane, Tabs

from advisor.tui.widgets.drawn_when_shown import DrawnWhenShown
from advisor.tui.widgets.headline import Headline
from advisor.tui.widgets.why_view import WhyView

if TYPE_CHECKING:
    from textual.timer import Timer

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
TAB_SCROLL_S = 0.25
"""After the tab bar's own scroll animation (0.2 s), the chosen tab is scrolled into view."""
MORE_TABS, LESS_TABS = " …▸", "◂… "
"""Drawn over the tab bar's ends while tabs are scrolled out of sight beyond them."""


class ResultTabs(TabbedContent):
    """The result tabs. A tab is chosen by the app (`ResultsPanel.show_tab`) or from the bar; focusing a
    widget in a pane never chooses its tab. TabbedContent switches to a pane when something in it takes
    the focus (a TabPane.Focused message, a few messages after the focus); the app focuses only into the
    tab it has just chosen, so that message came late, after the code had chosen another tab (Enter on
    a Compare row as Compare took the focus, two choices within a refresh on a loaded machine), and
    switched back to the old one."""

    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        event.prevent_default()  # TabbedContent's own handler would switch to the pane
        event.stop()


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

    _tab_scroll: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Headline(id="headline").data_bind(
            ResultsPanel.advice, ResultsPanel.analysis, ResultsPanel.status
        )
        with ResultTabs(id="tabs"):
            with TabPane(TABS["why"], id="why"):
                yield WhyView(id="why-view").data_bind(ResultsPanel.advice)
            for tab in list(TABS)[1:]:
                yield TabPane(TABS[tab], id=tab)

    def on_mount(self) -> None:
        self.query_one(TabbedContent).hide_tab("serving")
        # The hints are docked to the bar's ends in a layer of their own (app.tcss), so the layout puts
        # them where the bar is in the same frame; offsets set from code after a Resize message came a
        # frame or more late, drawn over a tab label mid-bar.
        self.query_one(Tabs).mount(
            Static(MORE_TABS, id="tabs-more", classes="tabs-hint"),
            Static(LESS_TABS, id="tabs-less", classes="tabs-hint"),
        )
        self.watch(self.query_one("#tabs-scroll"), "scroll_x", self._tab_hints, init=False)
        # The bar's width changed (the Serving tab came or went): once it is laid out, the active tab back
        # in sight. `virtual_size` is the reactive that changes (`max_scroll_x` is a property derived from
        # it, which no watcher ever hears).
        self.watch(self.query_one("#tabs-scroll"), "virtual_size", self._bar_resized, init=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self._scroll_to_active_tab)

    def on_tabbed_content_tab_activated(self, _event: TabbedContent.TabActivated) -> None:
        """The bar shows the tab chosen (from the palette too) at 80 columns: TabbedContent flicks the bar
        back to the old tab and forward again, and the old tab's scroll animation (0.2 s) can win; so
        once the activations stop, the active tab is scrolled into view."""
        if self._tab_scroll is not None:
            self._tab_scroll.stop()
        self._tab_scroll = self.set_timer(TAB_SCROLL_S, self._scroll_to_active_tab)

    def _bar_resized(self, _size: object) -> None:
        self.call_after_refresh(self._scroll_to_active_tab)

    def _scroll_to_active_tab(self, _value: object = None) -> None:
        """The active tab in the middle of the bar (as far as the bar scrolls), and the hints to match."""
        active = self.query_one(Tabs).active_tab
        if active is not None:
            self.query_one("#tabs-scroll").scroll_to_center(active, force=True, animate=False)
        self._tab_hints()

    def _tab_hints(self, _value: object = None) -> None:
        """`…▸` at the end of the tab bar while tabs are beyond it (narrow screens), `◂…` at its start."""
        scroll = self.query_one("#tabs-scroll")
        self.query_one("#tabs-more").display = scroll.scroll_x < scroll.max_scroll_x - 0.5
        self.query_one("#tabs-less").display = scroll.scroll_x > 0.5

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
            # the tabs after Serving moved by its width: keep the active one in sight (80 columns)
            self.call_after_refresh(self._scroll_to_active_tab)

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
            "sensitivity": SensitivityView(id="sensitivity-view").data_bind(
                ResultsPanel.analysis, ResultsPanel.advice
            ),
        }
        tabs = self.query_one(TabbedContent)
        mounting = [tabs.get_pane(tab).mount(view) for tab, view in views.items()]  # one layout for all
        for mounted in mounting:
            await mounted

    def read_from_top(self) -> None:
        """A new or opened scenario's answer is read from its top, not where the last one was left."""
        for view in self.query(ScrollableContainer):
            view.scroll_home(animate=False, immediate=True)
        from advisor.tui.widgets.comparison_view import ComparisonView

        for table in self.query(ComparisonView):
            table.read_from_top()

    @property
    def active_tab(self) -> str:
        return str(self.query_one(TabbedContent).active)

    def show_tab(self, tab: str) -> None:
        """Show a result tab and, once it is drawn, focus what is in it."""
        self.query_one(TabbedContent).active = tab
        self.call_after_refresh(self._focus_tab, tab)

    def _focus_tab(self, tab: str) -> None:
        tabs = self.query_one(TabbedContent)
        if tabs.active != tab:
            return  # another tab was chosen since: focusing into this one would switch back to it
        pane = tabs.get_pane(tab)
        for view in pane.query("*"):
            if isinstance(view, DrawnWhenShown):
                view.draw_now()  # what it holds, drawn for the latest answer, takes the focus
        focusable = [w for w in pane.query("*") if w.focusable and _displayed_in(w, pane)]
        if focusable:
            focusable[0].focus()
        else:
            tabs.query_one(Tabs).focus()


def _displayed_in(widget: Widget, pane: Widget) -> bool:
    """Whether `widget` and its containers up to `pane` are displayed (Sizing hides its table when there
    is no deadline: focusing it would leave the focus nowhere)."""
    node: Widget | None = widget
    while node is not None and node is not pane:
        if not node.display:
            return False
        node = node.parent if isinstance(node.parent, Widget) else None
    return True
