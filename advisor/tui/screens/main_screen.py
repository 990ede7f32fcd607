"""The main screen: the questions, the live recommendation, and the files behind them.

It owns the state: the scenario as last accepted, the advice computed for it, the answers not
accepted (with why) and the system picked in Compare. Edits make a new scenario; a thread worker
computes the advice and posts it back; the handler stores it and the views follow by data binding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Header, Static, TabbedContent, TabPane, Tabs
from textual.worker import get_current_worker

from advisor.core.catalog import Catalog
from advisor.core.rules import Rule
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.tui.advice import Advice, compute_advice, compute_analysis
from advisor.tui.answers import AnswerError, applicable, apply_answer
from advisor.tui.questions import QUESTION_BY_KEY
from advisor.tui.screens import file_actions
from advisor.tui.widgets.assumptions_view import AssumptionsView
from advisor.tui.widgets.breakdown_view import BreakdownView
from advisor.tui.widgets.comparison_view import ComparisonView
from advisor.tui.widgets.headline import Headline
from advisor.tui.widgets.question_row import QuestionRow
from advisor.tui.widgets.questions_form import QuestionsForm
from advisor.tui.widgets.rules_trace import RulesTrace
from advisor.tui.widgets.sensitivity_view import SensitivityView
from advisor.tui.widgets.sizing_view import SizingView
from advisor.tui.widgets.why_view import WhyView

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult  # imported when the ranges are computed

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""Smallest terminal the layout is made for; below it the screen says so instead."""
TABS = {
    "why": "Why",
    "compare": "Compare",
    "breakdown": "Breakdown",
    "rules": "Rules",
    "assumptions": "Assumptions",
    "sizing": "Sizing",
    "sensitivity": "Sensitivity",
}
"""Result tabs by id, in order."""
ANALYSIS_DELAY_S = 0.4
"""The ranges (about 0.1 s of work) start once the answers have been still this long."""


class MainScreen(Screen[None]):
    """Questions on the left, the recommendation and its views on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "open", "Open"),
        Binding("ctrl+e", "export", "Export", priority=True),
        Binding("escape", "switch_pane", "Questions/Results"),
    ]

    scenario: reactive[Scenario | None] = reactive(None, always_update=False)
    """The scenario as last accepted: every answer the core took."""
    advice: reactive[Advice | None] = reactive(None)
    """The advice computed for the latest scenario that finished computing."""
    analysis: reactive[ScenarioResult | None] = reactive(None)
    """Ranges, robustness and break-evens for the latest scenario (computed after the advice)."""
    errors: reactive[Mapping[str, str]] = reactive(dict)
    """Answers not accepted, by question key, with the reason shown under the field."""
    status: reactive[str] = reactive("")
    """Why the advice shown is stale (empty when it matches the answers)."""
    selected_system: reactive[str | None] = reactive(None)
    """The system highlighted in Compare (the breakdown shows it)."""
    scenario_path: reactive[Path | None] = reactive(None)
    """The file the scenario was opened from or saved to."""

    class AdviceReady(Message):
        """The worker finished computing the advice for computation number `generation`."""

        def __init__(self, generation: int, advice: Advice) -> None:
            super().__init__()
            self.generation = generation
            self.advice = advice

    class AnalysisReady(Message):
        """The worker finished the ranges and break-evens for computation number `generation`."""

        def __init__(self, generation: int, analysis: ScenarioResult) -> None:
            super().__init__()
            self.generation = generation
            self.analysis = analysis

    class AdviceFailed(Message):
        """The worker could not compute the advice (the core rejected the scenario)."""

        def __init__(self, generation: int, error: str) -> None:
            super().__init__()
            self.generation = generation
            self.error = error

    def __init__(
        self,
        catalog: Catalog,
        rules: Sequence[Rule],
        scenario: Scenario,
        today: date,
        scenario_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.catalog = catalog
        self.rules = tuple(rules)
        self.today = today
        self.set_reactive(MainScreen.scenario, scenario)
        self.set_reactive(MainScreen.scenario_path, scenario_path)
        self._rejected: dict[str, object] = {}
        self._failure = ""
        self._generation = 0
        self._analysis_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        assert self.scenario is not None
        yield Header()
        with Horizontal(id="body"):
            yield QuestionsForm(self.catalog, self.scenario, id="form").data_bind(
                MainScreen.scenario, MainScreen.errors
            )
            with Vertical(id="results"):
                yield Headline(id="headline").data_bind(
                    MainScreen.advice, MainScreen.analysis, MainScreen.status
                )
                with TabbedContent(id="tabs"):
                    with TabPane(TABS["why"], id="why"):
                        yield WhyView(id="why-view").data_bind(MainScreen.advice)
                    for tab in list(TABS)[1:]:
                        yield TabPane(TABS[tab], id=tab)
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        self._title()
        self._recompute()  # in a thread, while the first screen is laid out
        self.form.focus_question("model")
        self.call_after_refresh(self._mount_views)

    async def _mount_views(self) -> None:
        """The hidden result tabs' views, mounted once the first screen is drawn (a faster start)."""
        if not self.is_attached:
            return
        views: dict[str, Widget] = {
            "compare": ComparisonView(id="compare-view").data_bind(MainScreen.advice),
            "breakdown": BreakdownView(id="breakdown-view").data_bind(
                MainScreen.advice, MainScreen.selected_system
            ),
            "rules": RulesTrace(id="rules-view").data_bind(MainScreen.advice),
            "assumptions": AssumptionsView(id="assumptions-view").data_bind(MainScreen.advice),
            "sizing": SizingView(id="sizing-view").data_bind(MainScreen.advice),
            "sensitivity": SensitivityView(id="sensitivity-view").data_bind(MainScreen.analysis),
        }
        tabs = self.query_one(TabbedContent)
        mounting = [tabs.get_pane(tab).mount(view) for tab, view in views.items()]  # one layout for all
        for mounted in mounting:
            await mounted

    @property
    def form(self) -> QuestionsForm:
        return self.query_one(QuestionsForm)

    # --- state ---------------------------------------------------------------------------------------

    def load(self, scenario: Scenario, path: Path | None) -> None:
        """Replace every answer (a file opened, or a new scenario)."""
        self._rejected = {}
        self.errors = {}
        self.scenario = scenario
        self.scenario_path = path
        self.selected_system = None
        self.form.show_all(scenario)
        self._title()

    def watch_scenario(self) -> None:
        self._recompute()

    def watch_scenario_path(self) -> None:
        self._title()

    def _title(self) -> None:
        name = self.scenario.name if self.scenario else "untitled"
        self.title = "advisor"
        self.sub_title = f"{name} ({self.scenario_path})" if self.scenario_path else name

    def _recompute(self) -> None:
        """Advise at once; the slower ranges follow once the answers have been still for a moment."""
        if self.scenario is None:
            return
        self._generation += 1
        self._advise_in_thread(self._generation, self.scenario)
        if self._analysis_timer is not None:
            self._analysis_timer.stop()
        self._analysis_timer = self.set_timer(ANALYSIS_DELAY_S, self._start_analysis)

    def _start_analysis(self) -> None:
        assert self.scenario is not None
        self._analyse_in_thread(self._generation, self.scenario)

    @work(thread=True, exclusive=True, group="advice", exit_on_error=False)
    def _advise_in_thread(self, generation: int, scenario: Scenario) -> None:
        """Advise off the event loop and post the result (a worker never touches a widget)."""
        worker = get_current_worker()
        try:
            advice = compute_advice(scenario, self.catalog, self.rules, self.today)
        except (AdvisorError, ValueError) as exc:
            if not worker.is_cancelled:
                self.post_message(self.AdviceFailed(generation, str(exc)))
            return
        if not worker.is_cancelled:
            self.post_message(self.AdviceReady(generation, advice))

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _analyse_in_thread(self, generation: int, scenario: Scenario) -> None:
        """Ranges, robustness and break-evens off the event loop; posts the result."""
        worker = get_current_worker()
        try:
            analysis = compute_analysis(scenario, self.catalog, self.rules, self.today)
        except (AdvisorError, ValueError):
            return  # the advice step reports the same problem
        if not worker.is_cancelled:
            self.post_message(self.AnalysisReady(generation, analysis))

    @on(AdviceReady)
    def _advice_ready(self, message: AdviceReady) -> None:
        if message.generation != self._generation:
            return
        self._failure = ""
        self.advice = message.advice
        self._update_status()

    @on(AnalysisReady)
    def _analysis_ready(self, message: AnalysisReady) -> None:
        if message.generation == self._generation:
            self.analysis = message.analysis

    @on(AdviceFailed)
    def _advice_failed(self, message: AdviceFailed) -> None:
        if message.generation == self._generation:
            self._failure = message.error
            self._update_status()

    def _update_status(self) -> None:
        if self.errors:
            labels = ", ".join(QUESTION_BY_KEY[key].label for key in self.errors)
            self.status = f"{labels}: not accepted; showing the result for the last valid answers"
        elif self._failure:
            self.status = f"could not compute: {self._failure}"
        else:
            self.status = ""

    @on(QuestionRow.Answered)
    def _answered(self, message: QuestionRow.Answered) -> None:
        self.answer(message.key, message.answer)

    def answer(self, key: str, answer: str | bool) -> bool:
        """Take one answer: a new scenario if the core accepts it, else an error on that field only."""
        assert self.scenario is not None
        rejected = dict(self._rejected)
        errors = dict(self.errors)
        try:
            scenario = apply_answer(self.scenario, self.catalog, key, answer)
        except AnswerError as exc:
            rejected[key], errors[key] = answer, str(exc)
            self._rejected, self.errors = rejected, errors
            self._update_status()
            return False
        rejected.pop(key, None)
        errors.pop(key, None)
        scenario = self._retry(scenario, rejected, errors)
        self._rejected, self.errors = rejected, errors
        self.scenario = scenario
        self._update_status()
        return True

    def _retry(self, scenario: Scenario, rejected: dict[str, object], errors: dict[str, str]) -> Scenario:
        """Answers rejected earlier may fit now (or no longer apply): take or drop them."""
        relevant = applicable(scenario)
        for key, answer in list(rejected.items()):
            if not relevant.get(key, True):
                del rejected[key], errors[key]
                continue
            try:
                scenario = apply_answer(scenario, self.catalog, key, answer)  # type: ignore[arg-type]
            except AnswerError as exc:
                errors[key] = str(exc)
            else:
                del rejected[key], errors[key]
        return scenario

    # --- results -------------------------------------------------------------------------------------

    @on(ComparisonView.SystemHighlighted)
    def _system_highlighted(self, message: ComparisonView.SystemHighlighted) -> None:
        self.selected_system = message.system

    @on(ComparisonView.SystemChosen)
    def _system_chosen(self, message: ComparisonView.SystemChosen) -> None:
        self.selected_system = message.system
        self.show_tab("breakdown")

    @on(SizingView.CountChosen)
    def _count_chosen(self, message: SizingView.CountChosen) -> None:
        if self.answer("gpus", str(message.gpus)):
            self.notify(f"GPUs set to {message.gpus:,} ({message.system}'s size for the deadline)")

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

    def action_switch_pane(self) -> None:
        """Esc: from the questions to the results, and back."""
        focused = self.focused
        if focused is not None and self.form in focused.ancestors_with_self:
            self.show_tab(str(self.query_one(TabbedContent).active))
        else:
            self.form.focus_question(next(iter(self.errors), "model"))

    # --- files ---------------------------------------------------------------------------------------

    def action_save(self) -> None:
        file_actions.save(self)

    def action_open(self) -> None:
        file_actions.open_file(self)

    def action_export(self) -> None:
        file_actions.export(self, self.today)

    def on_resize(self, event: events.Resize) -> None:
        """Below the smallest size, a message instead of a squeezed layout."""
        width, height = event.size
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        for widget in self.query("#body, Header, Footer"):
            widget.display = not too_small
        message = self.query_one("#too-small", Static)
        message.display = too_small
        message.update(
            f"advisor needs a terminal of at least {MIN_WIDTH} × {MIN_HEIGHT}; "
            f"this one is {width} × {height}.\nMake the window larger, or press Ctrl+Q to quit."
        )
