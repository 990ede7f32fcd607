"""The questions, in five numbered sections: a guided flow top to bottom, any field reachable by Tab."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.present import numbers
from advisor.tui.answers import (
    CUSTOM,
    JOB_QUESTIONS,
    NOT_ASKED_BECAUSE,
    Answer,
    applicable,
    read_answers,
    same_answer,
    unused,
)
from advisor.tui.placeholders import placeholders
from advisor.tui.questions import QUESTIONS, SECTIONS, SERVING, numbered_sections
from advisor.tui.widgets.question_row import QuestionRow


def model_choices(catalog: Catalog) -> tuple[tuple[str, str], ...]:
    """Each preset with its size (and active size for MoE), then the custom choice."""
    presets = []
    for model in sorted(catalog.models.values(), key=lambda m: (m.params_total, m.id)):
        size = numbers.params(model.params_total)
        if model.family == "moe":
            size += f", {numbers.params(model.params_active)} active"
        presets.append((f"{model.name} ({size})", model.id))
    return (*presets, ("Custom size", CUSTOM))


FIRST_SECTIONS = 2
"""Sections composed with the screen; the others are mounted right after it is first drawn."""
LABEL_COLUMN = 16
"""The label column's width in a narrow form; a longer label takes two lines ("Electricity", "($/kWh)")."""
FIELD_ROOM = 22
"""The least a field keeps beside its label when the label column widens in a wider form."""
LONGEST_LABEL = max(len(q.title) for q in QUESTIONS)
"""The longest label, with its unit (`Wait for capacity (hours)`)."""


class QuestionsForm(VerticalScroll):
    """Every question; shows the scenario it is bound to and the errors the screen reports."""

    scenario: reactive[Scenario | None] = reactive(None)
    """The scenario as last accepted (bound to the screen's)."""
    errors: reactive[Mapping[str, str]] = reactive(dict)
    """Rejected answers: question key to the reason (bound to the screen's)."""
    typing: reactive[Mapping[str, Answer]] = reactive(dict)
    """Answers typed and not yet taken (bound to the screen's): never rewritten from the scenario."""

    def __init__(self, catalog: Catalog, first: Scenario, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.catalog = catalog
        self.first = first
        self._rows: dict[str, QuestionRow] = {}
        self._label_column = LABEL_COLUMN
        self.complete = False
        """Every section is mounted (the later ones follow the first screen)."""
        self.focus_moves = 0
        """How many times a question took the focus (a greyed one picked does not)."""

    def compose(self) -> ComposeResult:
        yield from self._sections(range(FIRST_SECTIONS), self.first)

    def _sections(self, indices: range, scenario: Scenario) -> Iterator[Widget]:
        choices = model_choices(self.catalog)
        answers = read_answers(scenario, self.catalog)
        greyed = placeholders(self.catalog, scenario)
        for index in indices:
            yield Static(SECTIONS[index], id=f"section-{index}", classes="section-title")
            for q in QUESTIONS:
                if q.section == index:
                    model = q.key == "model"
                    row = QuestionRow(
                        q,
                        answers[q.key],
                        choices=choices if model else (),
                        placeholder=greyed.get(q.key, ""),
                        wide=model,
                    )
                    if not model:
                        row.styles.grid_columns = f"{self._label_column} 1fr"
                    yield row

    @property
    def rows(self) -> list[QuestionRow]:
        return list(self._rows.values())

    def row(self, key: str) -> QuestionRow:
        return self._rows[key]

    def on_mount(self) -> None:
        self._rows = {row.question.key: row for row in self.query(QuestionRow)}
        self._enable(self.first)

    def on_resize(self) -> None:
        """Where the form has room (a wide terminal), the label column is as wide as the longest label
        and a space, so no label wraps; in a narrow form it stays LABEL_COLUMN wide. A widened column
        keeps a space after each label (`-roomy`): a label that filled it would touch its field."""
        room = self.scrollable_content_region.width - 1 - FIELD_ROOM  # a row's left padding
        width = max(LABEL_COLUMN, min(LONGEST_LABEL + 1, room))
        self.set_class(width > LABEL_COLUMN, "-roomy")
        if width != self._label_column:
            self._label_column = width
            for row in self.query(QuestionRow):
                if not row.has_class("-wide"):
                    row.styles.grid_columns = f"{width} 1fr"

    async def mount_later_sections(self) -> None:
        """The sections below the first screen (the screen mounts them once it is drawn: a faster start)."""
        if not self.is_attached:
            return
        scenario = self.scenario or self.first
        await self.mount_all(list(self._sections(range(FIRST_SECTIONS, len(SECTIONS)), scenario)))
        self._rows = {row.question.key: row for row in self.query(QuestionRow)}
        self._enable(scenario)
        self.watch_errors(self.errors)
        self.complete = True

    def show_all(self, scenario: Scenario) -> None:
        """Show every answer of `scenario` (after opening a file), replacing what is typed."""
        answers = read_answers(scenario, self.catalog)
        for row in self.rows:
            row.show(answers[row.question.key])
        self._enable(scenario)

    def watch_scenario(self, scenario: Scenario | None) -> None:
        """Show answers that changed as a consequence of another; the field being edited is never
        rewritten (it is tidied when the focus leaves it)."""
        if scenario is None or not self._rows:
            return
        self._show_changed(scenario, keep_focused=True)
        self._enable(scenario)

    def _show_changed(self, scenario: Scenario, *, keep_focused: bool) -> None:
        answers = read_answers(scenario, self.catalog)
        for row in self.rows:
            key = row.question.key
            if key in self.errors or key in self.typing or (keep_focused and row.editing):
                continue
            if not same_answer(key, row.answer, answers[key]):
                row.show(answers[key])

    def on_descendant_blur(self) -> None:
        """The focus left a field: show what it holds in the form's own way (no digit lost)."""
        if self.scenario is not None and self._rows:
            self._show_changed(self.scenario, keep_focused=True)

    def watch_errors(self, errors: Mapping[str, str]) -> None:
        for row in self.rows:
            row.error = errors.get(row.question.key, "")

    def _enable(self, scenario: Scenario) -> None:
        """Grey out the questions that do not apply; show the serving section only for inference; say in
        each blank field what applies to it now (a serving default follows the rate)."""
        for key, enabled in applicable(scenario).items():
            if key in self._rows:
                self._rows[key].disabled = not enabled
        greyed, not_used = placeholders(self.catalog, scenario), unused(scenario)
        for row in self.rows:
            row.show_placeholder(greyed.get(row.question.key, ""))
            row.unused = not_used.get(row.question.key, "")
        serving = scenario.workload.kind == "inference"
        for row in self.rows:
            if row.question.section == SERVING:
                row.display = serving
            elif row.question.key in JOB_QUESTIONS:
                row.display = not row.disabled
        titles = numbered_sections(serving)
        for title in self.query(".section-title").results(Static):
            index = int(str(title.id).removeprefix("section-"))
            title.display = index in titles
            if title.display:
                title.update(titles[index])

    def _not_asked_because(self, key: str) -> str:
        """Why a question is not asked: the core's reason for a declared input (`advisor.core.unused`),
        the form's own for the custom model's questions."""
        from advisor.core.unused import unused_inputs

        reasons = unused_inputs(self.scenario) if self.scenario is not None else {}
        found = next((why for path, why in reasons.items() if path.rsplit(".", 1)[-1] == key), "")
        return found or NOT_ASKED_BECAUSE.get(key, "it does not apply to the answers given")

    def focus_top_unless_moved(self, moves_before: int) -> None:
        """Focus the first question, unless a question was focused since `focus_moves` was
        `moves_before`: one picked in the palette just after Ctrl+N is where the keys typed next go."""
        if self.focus_moves == moves_before:
            self.focus_question("model")

    def focus_question(self, key: str) -> None:
        """Move the focus to a question (from the command palette)."""
        row = self._rows.get(key)
        if row is None:
            return
        if row.disabled:
            # Centred after any scroll a focus change has queued, as Textual scrolls a focused widget:
            # scrolled at once, a greyed row was left off screen when the focus had just moved.
            self.screen.call_later(self.screen.scroll_to_center, row, origin_visible=True)
            why = self._not_asked_because(key)
            self.notify(f"{row.question.label} is not asked now: {why}.", title="Not asked now")
            return
        self.focus_moves += 1
        row.control.focus()
