"""Compare: every system in a sortable table (feasible or not, and why not), with the highlighted
system's reasons below it."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from advisor.core.decision.facts import JOB_VERBS
from advisor.core.decision.gaps import LEVEL, gap
from advisor.core.decision.recommendation import Candidate
from advisor.present import numbers
from advisor.present.purchase import up_front
from advisor.present.ranking import closest_first, ranking_sentence
from advisor.present.reasons import reason_lines, reason_text
from advisor.present.serving import job_gpus_note
from advisor.tui.advice import Advice
from advisor.tui.widgets.column_table import ColumnTable
from advisor.tui.widgets.drawn_when_shown import AdviceView

WHY_NOT_WIDTH = 48


def why_not(candidate: Candidate) -> str:
    """The first reason a system is not feasible (empty for a feasible one)."""
    if candidate.feasible:
        return ""
    reason = next((r for r in candidate.reasons if r.kind in ("infeasible", "exclude")), None)
    return reason.text if reason else "not feasible"


@dataclass(frozen=True)
class Column:
    """A table column: header, the number it sorts by, and how a cell reads."""

    key: str
    label: str
    value: Callable[[Candidate], float | str]
    show: Callable[[Candidate], str]


def _est(
    attr: str, show: Callable[[float], str]
) -> tuple[Callable[[Candidate], float], Callable[[Candidate], str]]:
    def value(c: Candidate) -> float:
        return getattr(c.estimate, attr) if c.estimate else math.inf

    def cell(c: Candidate) -> str:
        return show(getattr(c.estimate, attr)) if c.estimate else "–"

    return value, cell


def _bought() -> tuple[Callable[[Candidate], float], Callable[[Candidate], str]]:
    """The capital a system's purchase needs up front, as the CLI's "what buying means" says it."""

    def value(c: Candidate) -> float:
        return c.estimate.purchase.capex_usd if c.estimate and c.estimate.purchase else math.inf

    def cell(c: Candidate) -> str:
        return up_front(c.estimate.purchase) if c.estimate and c.estimate.purchase else "–"

    return value, cell


COLUMNS = (
    Column("rank", "#", lambda c: c.rank or math.inf, lambda c: str(c.rank) if c.rank else "no"),
    Column("system", "system", lambda c: c.system, lambda c: c.system),
    Column("cost", "cost", *_est("cost_usd", numbers.money)),
    Column("up_front", "up front", *_bought()),  # buying only (`shown_columns`)
    Column("result", "to result", *_est("time_to_result_hours", numbers.duration)),
    Column("train", "train", *_est("time_to_train_hours", numbers.duration)),
    Column("gpus", "GPUs", *_est("gpus", lambda v: f"{v:,}")),
    Column("per_m", "/1M tok", *_est("cost_per_million_tokens_usd", numbers.cents_or_dollars)),
    Column("energy", "energy", *_est("energy_kwh", numbers.energy)),
    Column("score", "vs best", lambda c: c.score or math.inf, lambda c: "–"),  # drawn by score_cell
    Column("why_not", "why not", why_not, lambda c: _clip(why_not(c))),
)
"""In the order a reader decides by: what it costs (and buying, the outlay), when the result comes, then
the rest; ←/→ bring in what the pane cannot show."""
FIRST_SEEN = ("rank", "system", "cost", "up_front", "result")
"""The columns shown as Compare opens, even on the narrowest screen; the rank is the first left out
(the rows are in rank order until sorted otherwise, and one not ranked is dimmed)."""


def shown_columns(advice: Advice | None, width: int | None = None) -> tuple[Column, ...]:
    """The columns for the advice: "up front" only when buying (renting pays nothing up front); "#"
    only when `width` (the table's, if known) holds it beside the others of `FIRST_SEEN`."""
    buying = advice is not None and advice.scenario.workload.pricing == "own"
    columns = tuple(c for c in COLUMNS if buying or c.key != "up_front")
    if advice is None or width is None:
        return columns
    first = [c for c in columns if c.key in FIRST_SEEN]
    rows = advice.recommendation.candidates
    needed = sum(max(cell_len(c.label), *(cell_len(c.show(r)) for r in rows)) + 2 for c in first)
    return columns if needed <= width else tuple(c for c in columns if c.key != "rank")


def score_gap(candidate: Candidate, best: float | None) -> float | None:
    """How far the best feasible score is ahead of the candidate's (`gaps.gap`: 0.107, the best's
    score is 10.7% lower)."""
    if candidate.score is None or not best:
        return None
    return max(gap(best, candidate.score), 0.0)


def score_cell(candidate: Candidate, best: float | None) -> str:
    """The score in the table: `best`, `10.7% behind`, or `–` when not ranked."""
    behind = score_gap(candidate, best)
    if behind is None:
        return "–"
    return "best" if behind < LEVEL else f"{behind * 100:.1f}% behind"


def score_words(candidate: Candidate, best: float | None, objective: str) -> str:
    """The score in words: `10.7% behind the best on cost, after rule adjustments (the best's score is
    10.7% lower)`."""
    behind = score_gap(candidate, best)
    if behind is None:
        return ""
    on = "on cost, time and energy together" if objective == "balanced" else f"on {objective}"
    ruled = "" if candidate.rule_factor == 1 else " after rule adjustments"
    if behind < LEVEL:
        return f"Score: the best {on}{ruled}."
    share = f"{behind * 100:.1f}%"
    return f"Score: {share} behind the best {on}{ruled} (the best's score is {share} lower)."


def best_score(candidates: tuple[Candidate, ...]) -> float | None:
    """The lowest score of the feasible candidates (None when none is feasible)."""
    scores = [c.score for c in candidates if c.feasible and c.score is not None]
    return min(scores) if scores else None


def _clip(text: str) -> str:
    return text if len(text) <= WHY_NOT_WIDTH else text[: WHY_NOT_WIDTH - 1] + "…"


class ComparisonView(AdviceView, Vertical):
    """The comparison table; `s` changes the sort column, `r` reverses it; Enter opens the breakdown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "next_sort", "Sort"),
        Binding("r", "reverse_sort", "Reverse"),
    ]

    sort_key: reactive[str] = reactive("rank")
    """The column the rows are sorted by."""
    sort_reverse: reactive[bool] = reactive(False)
    """Whether the sort is descending."""

    @dataclass
    class SystemHighlighted(Message):
        """The cursor moved to a system's row."""

        system: str

    @dataclass
    class SystemChosen(Message):
        """Enter on a system's row: show its breakdown."""

        system: str

    def compose(self) -> ComposeResult:
        table = ColumnTable(id="compare-table", cursor_type="row", zebra_stripes=True, fixed_columns=2)
        # the rank (where shown) and system stay in view when ←/→ scroll the table sideways
        yield table
        with VerticalScroll(id="compare-detail-scroll"):
            yield Static(id="compare-detail")

    @property
    def table(self) -> DataTable[str]:
        return self.query_one("#compare-table", DataTable)

    _from_top = False
    """Whether the next answer drawn starts at its first row, not at the system the cursor was on."""

    def read_from_top(self) -> None:
        """A new or opened scenario's table starts at its first row (the cursor stays on its system
        between redraws of one scenario's answers)."""
        self._from_top = True
        self.request_draw()

    def on_resize(self) -> None:
        """Narrower or wider, the rank column may go or come back (`shown_columns`)."""
        self.request_draw()

    def watch_sort_key(self) -> None:
        self.request_draw()

    def watch_sort_reverse(self) -> None:
        self.request_draw()

    def action_next_sort(self) -> None:
        keys = [c.key for c in shown_columns(self.advice)]
        at = keys.index(self.sort_key) if self.sort_key in keys else -1
        self.sort_key = keys[(at + 1) % len(keys)]

    def action_reverse_sort(self) -> None:
        self.sort_reverse = not self.sort_reverse

    @on(DataTable.HeaderSelected)
    def _header_clicked(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        key = str(event.column_key.value)
        if key == self.sort_key:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_key = key

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None:
            self._show_detail(event.row_key.value)
            if self.table.has_focus:  # the user moved the cursor, not a refill
                self.post_message(self.SystemHighlighted(event.row_key.value))

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.SystemChosen(event.row_key.value))

    def _sorted(self, advice: Advice) -> list[Candidate]:
        column = next((c for c in shown_columns(advice) if c.key == self.sort_key), COLUMNS[0])
        if column.key == "rank":  # the systems not ranked by how close they come, as in Why
            order = closest_first(advice.recommendation)
            return list(reversed(order) if self.sort_reverse else order)
        return sorted(
            advice.recommendation.candidates,
            key=lambda c: (isinstance(column.value(c), str), column.value(c), c.system),
            reverse=self.sort_reverse,
        )

    def draw_advice(self, advice: Advice) -> None:
        table = self.table
        current = None
        if self._from_top:
            self._from_top = False
        elif table.row_count and table.cursor_row < table.row_count:
            current = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.clear(columns=True)
        arrow = " ▼" if self.sort_reverse else " ▲"
        verb = JOB_VERBS[advice.scenario.workload.kind]  # the job's own time: train, fine-tune, serve
        columns = shown_columns(advice, self.size.width)
        table.fixed_columns = 2 if columns[0].key == "rank" else 1
        for column in columns:
            label = verb if column.key == "train" else column.label
            if column.key == "per_m" and advice.scenario.workload.kind == "inference":
                label = "/1M out"  # the serving price per 1M output tokens, as the Serving tab's "$/1M out"
            table.add_column(label + (arrow if column.key == self.sort_key else ""), key=column.key)
        rows = self._sorted(advice)
        best = best_score(advice.recommendation.candidates)
        for candidate in rows:
            style = "bold" if candidate.system == advice.recommendation.winner else ""
            style = "dim" if not candidate.feasible else style
            shown = [score_cell(candidate, best) if c.key == "score" else c.show(candidate) for c in columns]
            cells = [Text(cell, style=style) for cell in shown]
            table.add_row(*cells, key=candidate.system)  # type: ignore[arg-type]
        systems = [c.system for c in rows]
        table.move_cursor(row=systems.index(current) if current in systems else 0)
        self._show_detail(current if current in systems else systems[0] if systems else None)

    def _show_detail(self, system: str | None) -> None:
        advice = self.advice
        detail = self.query_one("#compare-detail", Static)
        if advice is None or system is None:
            detail.update("")
            return
        candidate = advice.recommendation.candidate(system)
        lines = [
            Text(
                f"{candidate.system_name} ({'feasible' if candidate.feasible else 'not feasible'})",
                style="bold",
            )
        ]
        rec = advice.recommendation
        words = score_words(candidate, best_score(rec.candidates), rec.objective)
        if words:
            lines.append(Text(words))
        lines.append(Text(ranking_sentence(rec) + ".", style="dim"))
        job_gpus = job_gpus_note(rec, "the fleet in the Serving tab")
        if job_gpus is not None:
            lines.append(Text(job_gpus + ".", style="dim"))
        lines.extend(reason_text(line) for line in reason_lines(candidate.reasons))
        if not candidate.reasons:
            lines.append(Text("no rule fired", style="dim"))
        others = [c for c in advice.recommendation.candidates if not c.feasible and c.system != system]
        if others:
            lines.append(Text("\nWhy not the others", style="bold"))
            lines.extend(Text.assemble((f"{c.system}: ", "bold"), why_not(c)) for c in others)
        detail.update(Group(*lines))
