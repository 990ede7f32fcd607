"""Serving: for an inference job, the plan per system: replicas × GPUs for the target rate, what each
replica's batch is limited by, the latencies, utilisation and what the tokens and the month cost."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from advisor.core.costing.results import Estimate, ServingSummary
from advisor.present import numbers
from advisor.present.serving import PER_MILLION_NOTE, fleet_text, headroom_note, job_gpus_note
from advisor.tui.advice import Advice
from advisor.tui.widgets.column_table import ColumnTable
from advisor.tui.widgets.drawn_when_shown import AdviceView

COLUMNS = (
    "system",
    "replicas × GPUs",
    "$/1M out",
    "$/month",
    "utilisation",
    "limited by",
    "TTFT",
    "TPOT",
    "$/1M in, full load",
    "$/1M out, full load",
)
"""The serving plan's columns (the system stays put when the table scrolls sideways)."""
LIMITS = (
    "“limited by” is what caps each replica's batch: memory, the TPOT or TTFT limit, or throughput "
    "(the target needs no more). " + PER_MILLION_NOTE[0].upper() + PER_MILLION_NOTE[1:] + "."
)


def plan_row(estimate: Estimate, serving: ServingSummary) -> list[str]:
    """One system's serving plan as the table shows it."""
    return [
        estimate.system,
        fleet_text(serving),
        numbers.cents_or_dollars(estimate.cost_per_million_tokens_usd),
        numbers.money(serving.usd_per_month),
        numbers.percent(serving.utilisation),
        serving.binding_limit + ("" if serving.meets_limits else " (misses limits)"),
        f"{serving.ttft_ms:,.0f} ms",
        f"{serving.tpot_ms:,.1f} ms",
        numbers.cents_or_dollars(serving.usd_per_million_input_tokens_at_full_load),
        numbers.cents_or_dollars(serving.usd_per_million_output_tokens_at_full_load),
    ]


def plan_note(advice: Advice) -> Text:
    """What the plan is sized for: the target rate, or the GPUs given when there is none."""
    w = advice.scenario.workload
    if w.target_tokens_per_second is not None:
        target = f"{numbers.count(w.target_tokens_per_second)} generated tokens/s"
    elif w.requests_per_second is not None:
        target = f"{w.requests_per_second:,.6g} requests/s × {w.output_tokens:,} output tokens"
    else:
        return Text.assemble(
            ("No target rate: each system's plan uses the GPUs you gave. ", "bold"),
            "Give Target tokens/s or requests/s under “Serving” to size the fleet for it. ",
            LIMITS,
        )
    job = job_gpus_note(advice.recommendation, "this fleet")
    tie = f"In Compare, {job}. " if job else ""
    headroom = headroom_note(advice.recommendation)
    spare = f"{headroom[0].upper()}{headroom[1:]}. " if headroom else ""
    return Text.assemble((f"Fleet for {target}", "bold"), f", per system. {spare}{tie}{LIMITS}")


class ServingView(AdviceView, Vertical):
    """The serving plan of an inference job, one row per system that can serve it."""

    def compose(self) -> ComposeResult:
        # the plan first, its explanation under it (scrolled): at 100 × 30 the note above left 3 rows
        table = ColumnTable(id="serving-table", cursor_type="row", fixed_columns=1)
        for label in COLUMNS:
            table.add_column(label, key=label)
        yield table
        with VerticalScroll(id="serving-note-scroll"):
            yield Static(id="serving-note")

    def draw_advice(self, advice: Advice) -> None:
        table = self.query_one("#serving-table", DataTable)
        table.clear()
        self.query_one("#serving-note", Static).update(plan_note(advice))
        winner = advice.recommendation.winner
        for candidate in advice.recommendation.candidates:
            estimate = candidate.estimate
            serving = estimate.serving if estimate else None
            if estimate is None or serving is None:
                continue
            style = "bold" if candidate.system == winner else "" if candidate.feasible else "dim"
            table.add_row(
                *(Text(cell, style=style) for cell in plan_row(estimate, serving)), key=candidate.system
            )
