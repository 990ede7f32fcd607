"""One question in the form: its label, its control, and a note (the hint, or why an answer is refused)."""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Static

from advisor.tui.answers import Answer
from advisor.tui.glossary import meanings_in
from advisor.tui.questions import DEFAULT_CHOICE, Question
from advisor.tui.widgets.choice_field import ChoiceField
from advisor.tui.widgets.ordered_input import OrderedInput
from advisor.tui.widgets.tick_box import TickBox


class QuestionRow(Widget):
    """A labelled input, choice or checkbox; it reports every change and shows the error it is given."""

    error: reactive[str] = reactive("", init=False)
    """Why the current answer is not accepted (empty when it is)."""
    unused: reactive[str] = reactive("", init=False)
    """Why the answer, still editable, is not used by the scenario as answered (empty when it is)."""

    class Answered(Message):
        """The user changed the answer to `key` (not yet validated)."""

        def __init__(self, key: str, answer: Answer) -> None:
            super().__init__()
            self.key = key
            self.answer = answer

    def __init__(
        self,
        question: Question,
        answer: Answer,
        *,
        choices: tuple[tuple[str, str], ...] = (),
        placeholder: str = "",
        wide: bool = False,
    ) -> None:
        """`wide`: the control on its own line under the label, as wide as the form (the model)."""
        wide_class = " -wide" if wide else ""
        super().__init__(id=f"q-{question.key}", classes=f"question -{question.control}{wide_class}")
        self.question = question
        self.choices = choices or question.choices
        self.placeholder = placeholder or question.placeholder
        self._last: Answer = answer
        """The answer last shown or reported: a change event that repeats it is not reported again."""

    def compose(self) -> ComposeResult:
        q = self.question
        answer = self._last
        label = Label(q.title, classes="question-label")
        label.tooltip = meanings_in(q.title) or None  # the glossary's words on the terms, on hover
        yield label
        control: Widget
        if q.control == "choice":
            control = ChoiceField(self.choices, str(answer), words=q.choice_words, id=f"input-{q.key}")
        elif q.control == "check":
            control = TickBox(q.check_label, bool(answer), id=f"input-{q.key}")
        else:
            control = OrderedInput(str(answer), placeholder=self.placeholder, id=f"input-{q.key}")
        control.tooltip = q.hint  # for the mouse: the hint on hover
        yield control
        yield Static(q.hint, classes="note", markup=False)

    @property
    def control(self) -> Input | ChoiceField | Checkbox:
        """The widget that holds the answer."""
        return self.query_one(f"#input-{self.question.key}")  # type: ignore[return-value]

    @property
    def answer(self) -> Answer:
        """The answer as the control holds it now."""
        return self.control.value

    @property
    def editing(self) -> bool:
        """Whether the user is typing in this field now (a text field with the focus)."""
        control = self.control
        return isinstance(control, Input) and control.has_focus

    def show(self, answer: Answer) -> None:
        """Put `answer` in the control without reporting it as a change."""
        control = self.control
        self._last = answer
        with control.prevent(Input.Changed, Checkbox.Changed):
            if isinstance(control, Checkbox):
                control.value = bool(answer)
            elif isinstance(control, ChoiceField):
                control.value = str(answer)
            else:
                control.value = str(answer)
                control.cursor_position = len(control.value)

    def show_placeholder(self, placeholder: str) -> None:
        """What a blank text field stands for now (`default: 100 ms`), the declared blank when empty; for
        an optional choice, the label of its default option (`default: FP8 (as weights)`)."""
        self.placeholder = placeholder or self.question.placeholder
        control = self.control
        if isinstance(control, Input):
            control.placeholder = self.placeholder
        elif isinstance(control, ChoiceField) and placeholder:
            control.relabel(DEFAULT_CHOICE, placeholder)

    def watch_error(self, error: str) -> None:
        """The note under the field: the error if there is one, else why the answer is not used (shown
        always), else the hint (shown when focused)."""
        self.set_class(bool(error), "-invalid")
        self.query_one(".note", Static).update(error or self.unused or self.question.hint)

    def watch_unused(self, unused: str) -> None:
        """Dim an answer the scenario does not use and say why under it."""
        self.set_class(bool(unused), "-unused")
        self.watch_error(self.error)

    @on(Input.Changed)
    @on(ChoiceField.Changed)
    @on(Checkbox.Changed)
    def _changed(self, event: Input.Changed | ChoiceField.Changed | Checkbox.Changed) -> None:
        event.stop()
        answer = self.answer
        if answer == self._last:
            return
        self._last = answer
        self.post_message(self.Answered(self.question.key, answer))

    def on_descendant_focus(self, _event: events.DescendantFocus) -> None:
        """The question with the focus is seen whole, with the hint that opens under it: Shift+Tab from
        the results lands on the last question, whose hint would otherwise open below the fold."""
        self.call_after_refresh(self.scroll_visible, animate=False)

    def on_resize(self, _event: events.Resize) -> None:
        """The hint opened (or an error grew) under the focused question: keep it all in view."""
        if self.has_focus_within:
            self.scroll_visible(animate=False)

    @on(Input.Submitted)
    def _next_question(self, event: Input.Submitted) -> None:
        """Enter moves on to the next question: the guided flow."""
        event.stop()
        self.screen.focus_next()
