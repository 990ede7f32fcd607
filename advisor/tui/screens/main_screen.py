"""The main screen: the questions, the live recommendation, and the files behind them.

It owns the state: the scenario as last accepted, the advice computed for it, the answers not
accepted (with why) and the system picked in Compare. Edits make a new scenario; a thread worker
computes the advice and posts it back; the handler stores it and the views follow by data binding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.present.sanitise import printable
from advisor.tui.answers import Answer
from advisor.tui.questions import QUESTION_BY_KEY
from advisor.tui.refused import stale_reason, take_answer
from advisor.tui.screens.screen_fit import SHORT_FOOTER_WIDTH, fit_screen
from advisor.tui.widgets.question_row import QuestionRow
from advisor.tui.widgets.questions_form import QuestionsForm
from advisor.tui.widgets.results_panel import ResultsPanel

if TYPE_CHECKING:  # the core's computation loads after the first screen is drawn (a faster start)
    from advisor.core.run import ScenarioResult
    from advisor.tui.advice import Advice
    from advisor.tui.widgets.comparison_view import ComparisonView
    from advisor.tui.widgets.sizing_view import SizingView

REST_DELAY_S = 1.0
"""The later questions and the hidden tabs are mounted once the first advice is shown, or after this."""
ANALYSIS_DELAY_S = 0.4
"""The ranges (about 0.1 s of work) start once the answers have been still this long."""
SETTLE_S = 0.4
"""A text field's answer is taken once the typing has paused this long (or the field is left, or Enter
pressed): typing "1000" is never estimated as 1, 10 and 100 on the way."""


class MainScreen(Screen[None]):
    """Questions on the left, the recommendation and its views on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "open", "Open"),
        Binding("ctrl+e", "export", "Export", priority=True),
        Binding("escape", "switch_pane", "Questions/Results"),
        Binding("escape", "switch_pane('narrow')", "Switch pane"),  # the same, in a narrow footer
        # Moving on is decided as the key arrives (priority), before the keys typed after it are
        # handed to the focused field: else a fast "Tab 2" can put the 2 in the field being left.
        Binding("tab", "app.focus_next", "Next", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous", show=False, priority=True),
        Binding("enter", "next_question", "Next question", show=False, priority=True),
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
    typing: reactive[Mapping[str, Answer]] = reactive(dict)
    """Answers typed in text fields and not yet taken, by question key (see SETTLE_S)."""
    scenario_path: reactive[Path | None] = reactive(None)
    """The file the scenario was opened from or saved to."""

    @dataclass
    class AdviceReady(Message):
        """The worker finished computation number `generation`: the advice, or (None) why the core
        rejected the scenario."""

        generation: int
        advice: Advice | None
        error: str = ""

    @dataclass
    class AnalysisReady(Message):
        """The worker finished the ranges and break-evens for computation number `generation`."""

        generation: int
        analysis: ScenarioResult

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
        self.saved_scenario = scenario
        """The scenario as last opened, saved or started: what quitting would not lose."""
        self._refused: dict[str, Answer] = {}
        self._failure = ""
        self._generation = 0
        self._advised_generation = -1
        self._analysis_due = False
        self._analysis_timer: Timer | None = None
        self._typing_timer: Timer | None = None
        self._rest_mounted = False

    def compose(self) -> ComposeResult:
        assert self.scenario is not None
        yield Header()
        with Horizontal(id="body"):
            yield QuestionsForm(self.catalog, self.scenario, id="form").data_bind(
                MainScreen.scenario, MainScreen.errors, MainScreen.typing
            )
            yield ResultsPanel(id="results").data_bind(
                MainScreen.advice, MainScreen.analysis, MainScreen.status, MainScreen.selected_system
            )
        yield Static(id="too-small")
        yield Footer()

    def on_mount(self) -> None:
        self._title()
        self.form.focus_question("model")
        self.call_after_refresh(self._after_first_paint)

    def _after_first_paint(self) -> None:
        """The questions are on screen, taking keys: start the first advice (in a thread); the rest of
        the screen is mounted once it is shown (or at the latest after REST_DELAY_S)."""
        self._recompute()
        self.set_timer(REST_DELAY_S, self._mount_rest)

    def _mount_rest(self) -> None:
        """Mount the later questions and the hidden tabs' views, once (each in its own widget's turn,
        so their data binds to it)."""
        if self._rest_mounted or not self.is_attached:
            return
        self._rest_mounted = True
        self.form.call_later(self.form.mount_later_sections)
        panel = self.query_one(ResultsPanel)
        panel.call_later(panel.mount_views)

    @property
    def form(self) -> QuestionsForm:
        return self.query_one(QuestionsForm)

    # --- state ---------------------------------------------------------------------------------------

    def load(self, scenario: Scenario, path: Path | None) -> None:
        """Replace every answer (a file opened, or a new scenario)."""
        self.typing = {}
        self._refused = {}
        self.errors = {}
        self.scenario = scenario
        self.saved_scenario = scenario
        self.scenario_path = path
        self.selected_system = None
        self.query_one(ResultsPanel).read_from_top()
        self.form.show_all(scenario)
        self._title()
        # the question that had the focus may now be hidden (a serving one): start again at the top,
        # once the dialog that asked is gone (the screen gives its old focus back when it closes)
        self.call_after_refresh(self.form.focus_top_unless_moved, self.form.focus_moves)

    @property
    def unsaved(self) -> bool:
        """Whether the answers on screen differ from those last opened, saved or started with."""
        return bool(self.errors) or self.scenario != self.saved_scenario

    def confirm_discard(self, what: str, then: Callable[[], object]) -> None:
        """Do `then` at once if nothing is unsaved, else only once the user says to discard the changes."""
        self.take_typed()
        if not self.unsaved:
            then()
            return
        from advisor.tui.screens.confirm_dialog import ask_to_discard

        ask_to_discard(self.app, what, then, saved=self.scenario_path is not None)

    def watch_scenario(self) -> None:
        self._recompute()

    def watch_scenario_path(self) -> None:
        self._title()

    def _title(self) -> None:
        name = printable(self.scenario.name) if self.scenario else "untitled"
        self.title = "advisor"
        self.sub_title = f"{name} ({printable(str(self.scenario_path))})" if self.scenario_path else name

    def _recompute(self) -> None:
        """Advise at once; the slower ranges follow once the answers have been still for a moment."""
        if self.scenario is None:
            return
        self._generation += 1
        self._analysis_due = False
        self._advise_in_thread(self._generation, self.scenario)
        if self._analysis_timer is not None:
            self._analysis_timer.stop()
        self._analysis_timer = self.set_timer(ANALYSIS_DELAY_S, self._analysis_wanted)

    def _analysis_wanted(self) -> None:
        """The answers have been still: analyse the advice for them, now or as soon as it is ready."""
        self._analysis_due = True
        self._start_analysis()

    def _start_analysis(self) -> None:
        if self._analysis_due and self._advised_generation == self._generation and self.advice is not None:
            self._analysis_due = False
            self._analyse_in_thread(self._generation, self.advice)

    @work(thread=True, exclusive=True, group="advice", exit_on_error=False)
    def _advise_in_thread(self, generation: int, scenario: Scenario) -> None:
        """Advise off the event loop and post the result (a worker never touches a widget)."""
        from advisor.tui.advice import compute_advice

        worker = get_current_worker()
        try:
            ready = self.AdviceReady(
                generation, compute_advice(scenario, self.catalog, self.rules, self.today)
            )
        except (AdvisorError, ValueError) as exc:
            ready = self.AdviceReady(generation, None, str(exc))
        if not worker.is_cancelled:
            self.post_message(ready)

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _analyse_in_thread(self, generation: int, advice: Advice) -> None:
        """Ranges, robustness and break-evens of `advice` off the event loop; posts the result."""
        from advisor.tui.advice import compute_analysis

        worker = get_current_worker()
        try:
            analysis = compute_analysis(advice)
        except (AdvisorError, ValueError):
            return  # the advice step reports the same problem
        if not worker.is_cancelled:
            self.post_message(self.AnalysisReady(generation, analysis))

    @on(AdviceReady)
    def _advice_ready(self, message: AdviceReady) -> None:
        if message.generation != self._generation:
            return
        self._failure = message.error
        if message.advice is not None:
            self.advice = message.advice
            self._advised_generation = message.generation
            self._start_analysis()
        self._update_status()
        self.call_after_refresh(self._mount_rest)  # the first answer is painted: the rest follows

    @on(AnalysisReady)
    def _analysis_ready(self, message: AnalysisReady) -> None:
        if message.generation == self._generation:
            self.analysis = message.analysis

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A bug in a computation is reported, not fatal: the app keeps working with the last result."""
        if event.state == WorkerState.ERROR:
            self._failure = f"internal error: {event.worker.error!r}"
            self._update_status()
            self.notify(self._failure, severity="error", timeout=10)

    def _update_status(self) -> None:
        self.status = stale_reason(self.errors, self._failure, self.typing)

    @on(QuestionRow.Answered)
    def _answered(self, message: QuestionRow.Answered) -> None:
        """A choice or a tick is taken at once; a text field's answer once the typing settles."""
        if QUESTION_BY_KEY[message.key].control != "text":
            self.answer(message.key, message.answer)
            return
        self.typing = {**self.typing, message.key: message.answer}
        self._update_status()
        if self._typing_timer is not None:
            self._typing_timer.stop()  # the pause is counted from the last key
        self._typing_timer = self.set_timer(SETTLE_S, self.take_typed)

    def on_descendant_blur(self, _event: events.DescendantBlur) -> None:
        """A field was left: what was typed in it is taken now."""
        self.take_typed()

    def take_typed(self) -> None:
        """Take the answers typed and not yet taken (the typing paused, the field was left, Enter, a save)."""
        if self._typing_timer is not None:
            self._typing_timer.stop()
        typed, self.typing = self.typing, {}
        for key, answer in typed.items():
            self._take(key, answer)

    def answer(self, key: str, answer: Answer, *then: tuple[str, Answer]) -> bool:
        """Take one answer (and any `then` after it, as one change) after those typed: a new scenario if
        the core accepts them, else an error on the field refused only (and those after it not taken)."""
        self.take_typed()
        return self._take(key, answer, *then)

    def _take(self, key: str, answer: Answer, *then: tuple[str, Answer]) -> bool:
        assert self.scenario is not None
        taken = take_answer(self.scenario, self.catalog, self._refused, key, answer)
        for next_key, next_answer in then:
            if not taken.accepted:
                break
            taken = take_answer(taken.scenario, self.catalog, taken.refused, next_key, next_answer)
        self._refused = dict(taken.refused)
        self.errors = dict(taken.errors)
        self.scenario = taken.scenario
        self._update_status()
        return taken.accepted

    # --- results -------------------------------------------------------------------------------------

    # Handlers by name (not @on): the views' modules load after the first screen.
    def on_comparison_view_system_highlighted(self, message: ComparisonView.SystemHighlighted) -> None:
        self.selected_system = message.system

    def on_comparison_view_system_chosen(self, message: ComparisonView.SystemChosen) -> None:
        self.selected_system = message.system
        self.show_tab("breakdown")

    def on_sizing_view_count_chosen(self, message: SizingView.CountChosen) -> None:
        """Enter in Sizing uses that row's GPU count; while each system is sized to the deadline, the
        count given is not used, so sizing stops and every system is costed at the count chosen."""
        assert self.scenario is not None
        sized = self.scenario.size_to_deadline
        then = [("size_to_deadline", False)] if sized else []
        if self.answer("gpus", str(message.gpus), *then):
            self.notify(
                f"GPUs set to {message.gpus:,} ({message.system}'s size for the deadline)"
                + ("; Size to it is off: every system is costed at that count" if sized else "")
            )

    def show_tab(self, tab: str) -> None:
        """Show a result tab and focus what is in it."""
        self.query_one(ResultsPanel).show_tab(tab)

    def action_next_question(self) -> None:
        """Enter in a question's text field: the next question (else Enter does what it does there)."""
        focused = self.focused
        if not isinstance(focused, Input) or self.form not in focused.ancestors:
            raise SkipAction()
        self.take_typed()
        self.focus_next()

    def action_switch_pane(self, _width: str = "") -> None:
        """Esc: from the questions to the results, and back (`_width` names the footer hint shown)."""
        focused = self.focused
        if focused is not None and self.form in focused.ancestors_with_self:
            self.show_tab(self.query_one(ResultsPanel).active_tab)
        else:
            self.form.focus_question(next(iter(self.errors), "model"))

    # --- files ---------------------------------------------------------------------------------------

    def action_save(self) -> None:
        from advisor.tui.screens.file_actions import save  # the dialogs load when first used

        self.take_typed()
        save(self)

    def action_open(self) -> None:
        from advisor.tui.screens.file_actions import open_file

        self.confirm_discard("Open another", lambda: open_file(self))

    def action_export(self) -> None:
        from advisor.tui.screens.file_actions import export

        self.take_typed()
        export(self, self.today)

    def on_resize(self, event: events.Resize) -> None:
        """Below the smallest size, a message instead of a squeezed layout."""
        fit_screen(self, *event.size)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc has a long hint for a wide footer and a short one for a narrow footer; one shows."""
        if action == "switch_pane":
            return (parameters == ("narrow",)) == (self.size.width < SHORT_FOOTER_WIDTH)
        return True
