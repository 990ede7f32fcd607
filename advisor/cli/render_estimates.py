"""`advisor estimate`'s table: a row per figure, a column per system.

On a terminal too narrow for every system, the systems are split over as many tables as it takes, each
as wide as the terminal allows, with every cell whole (a number is never cut to `$667.…` or wrapped
over three lines); into a pipe there is no width to fit, so one table holds them all.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.measure import Measurement
from rich.table import Table

from advisor.cli.console import PIPE_WIDTH, console
from advisor.cli.render import render_breakdowns
from advisor.core import fmt
from advisor.core.model.serving_plan import as_released
from advisor.present import numbers
from advisor.present.purchase import up_front
from advisor.present.sanitise import plain_markup as escape
from advisor.present.serving import SERVING_HEADINGS, TRAINING_ONLY, rate_text
from advisor.present.styles import FAILED, WARNING

Row = tuple[str, Callable[[Any], str]]

MEMORY_NOTE = (
    f"memory, GiB per GPU: what each GPU needs of the memory it holds usable ({numbers.MEMORY_UNIT})"
)
"""Said under the table: the memory row's unit, kept out of its label so the label column stays narrow."""


def _precision_run(e: Any) -> str:
    """The precision that runs; a serving job's weights too when they differ from its math (FP4 weight-only),
    marked where they are served as the model is released (no precision given)."""
    fallback = "" if e.precision == e.precision_requested else " (fallback)"
    s = e.serving
    if s is None or not s.weight_precision:
        return e.precision.upper() + fallback
    released = " as released" if s.weights_as_released else ""
    if s.weight_precision != s.activation_precision:
        return f"{s.weight_precision.upper()} weights{released}, {s.activation_precision.upper()} math"
    return s.activation_precision.upper() + (released or fallback)


def _rows(serving: bool, production: bool = False) -> list[Row]:
    """The figures of every job; a serving job's in its own words, without the training-only ones. At
    production efficiency the MFU and tokens/s are the reference's (what `--mfu` sets), and a row shows
    the MFU the time to train works at, the production overhead included (the reports' `MFU (production)`)."""
    at = ", reference" if production else ""
    rows: list[tuple[str, str, Callable[[Any], str]]] = [
        (
            "precision",
            "precision run",
            _precision_run,
        ),
        ("mfu", f"MFU{at}", lambda e: numbers.percent(e.mfu) + (" (published)" if e.mfu_basis.exact else "")),
        *(
            [("mfu_effective", "MFU, production run", lambda e: numbers.percent(e.mfu_effective))]
            if production
            else []
        ),
        (
            "tokens_per_second_per_gpu",
            f"tokens/s per GPU{at}",
            lambda e: f"{e.tokens_per_second_per_gpu:,.0f}",
        ),
        ("goodput", "goodput", lambda e: numbers.percent(e.goodput)),
        ("time_to_train_hours", "time to train", lambda e: numbers.duration(e.time_to_train_hours)),
        ("wait", "wait for capacity", lambda e: numbers.duration(e.time_breakdown_hours["wait"])),
        ("gpu_hours", "GPU-hours", lambda e: numbers.count(e.gpu_hours)),
        ("price", "$ per GPU-hour", lambda e: numbers.price_per_gpu_hour(e.price_usd_per_gpu_hour)),
        ("cost_usd", "total cost", lambda e: numbers.money(e.cost_usd)),
        (
            "cost_per_million_tokens_usd",
            "cost per 1M tokens",
            lambda e: numbers.cents_or_dollars(e.cost_per_million_tokens_usd),
        ),
        ("power", "power per GPU, all-in", lambda e: f"{e.power_w_per_gpu_all_in:,.0f} W"),
        ("energy", "energy", lambda e: numbers.energy(e.energy_kwh)),
        ("joules", "joules per token", lambda e: f"{e.joules_per_token:.3g} J"),
        ("households", "US household-years", lambda e: numbers.significant(e.household_years)),
        ("co2", "CO2", lambda e: numbers.tonnes(e.co2_tonnes)),
        (
            "memory",
            "memory, GiB per GPU",
            lambda e: (
                numbers.memory_per_gpu(e, unit=False).removeprefix("fits: ")
                if e.memory.fits
                else f"[{FAILED}]needs ≥ {e.memory.min_gpus} GPUs[/]"
                if e.memory.min_gpus
                else f"[{FAILED}]does not fit[/]"
            ),
        ),
    ]
    if not serving:
        return [(label, cell) for _, label, cell in rows]
    return [
        (_lower_first(SERVING_HEADINGS.get(key, label)), cell)
        for key, label, cell in rows
        if key not in TRAINING_ONLY
    ]


def _lower_first(text: str) -> str:
    """`time to serve the tokens` from a heading: the table's labels are lower case."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _utilisation(est: Any) -> str:
    """`72.3% (25% spare)`: the target rate's share of the fleet's capacity, and the headroom kept."""
    serving = est.serving
    if serving is None or serving.headroom is None:
        return "—"
    return f"{numbers.percent(serving.utilisation)} ({numbers.percent(serving.headroom, 0)} spare)"


def _serving_rows(first: Any) -> list[Row]:
    """The serving plan's rows (an inference job), with the fleet's when it serves a target rate."""
    rows: list[Row] = [
        ("replica (GPUs)", lambda e: f"{e.serving.replica_gpus} ({e.serving.decode_bound}-bound)"),
        ("batch (limit)", lambda e: f"{e.serving.batch:,} ({e.serving.binding_limit})"),
        ("TTFT / TPOT", lambda e: f"{numbers.ttft(e.serving.ttft_ms)} / {numbers.tpot(e.serving.tpot_ms)}"),
        ("fleet tokens/s", lambda e: f"{e.serving.tokens_per_second:,.0f}"),
        (
            "$/1M in / out at full load",
            lambda e: (
                f"{numbers.cents_or_dollars(e.serving.usd_per_million_input_tokens_at_full_load)} / "
                f"{numbers.cents_or_dollars(e.serving.usd_per_million_output_tokens_at_full_load)}"
            ),
        ),
        ("$/month", lambda e: numbers.money(e.serving.usd_per_month)),
    ]
    if first.serving.target_tokens_per_second:
        rows.append(("GPUs for target rate", lambda e: f"{e.serving.gpus_for_target:,}"))
        rows.append(("utilisation (headroom)", _utilisation))
    return rows


def _purchase_rows(estimates: Sequence[Any]) -> list[Row]:
    """What owning costs: the units bought, the money up front and a month, and the effective price."""
    rows: list[Row] = [
        ("bought", lambda e: f"{e.purchase.units:,} {e.purchase.unit}(s), {e.purchase.gpus_idle:,} idle"),
        ("up front", lambda e: up_front(e.purchase)),
        ("to own, a month", lambda e: numbers.money(e.purchase.monthly_usd)),
        ("runs a year", lambda e: numbers.runs_per_year(e.purchase.runs_per_year)),
        ("effective $/GPU-h", lambda e: numbers.price_per_gpu_hour(e.effective_price_usd_per_gpu_hour)),
    ]
    if any(e.purchase is not None and e.purchase.gpus_owned for e in estimates):
        rows.insert(-5, ("already owned", lambda e: f"{e.purchase.gpus_owned:,} GPUs"))
    return rows


def _table(title: str, labels: Sequence[str], columns: Sequence[tuple[str, list[str]]]) -> Table:
    """One table of the given systems' columns; no cell is wrapped or cut."""
    table = Table(title=title or None, box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("", no_wrap=True)
    for system, _ in columns:
        table.add_column(escape(system), justify="right", no_wrap=True)
    for index, label in enumerate(labels):
        table.add_row(label, *(cells[index] for _, cells in columns))
    return table


def fitted_tables(title: str, labels: Sequence[str], columns: Sequence[tuple[str, list[str]]]) -> list[Table]:
    """The columns over as few tables as fit the console's width, in order and shared out evenly (ten
    systems at 100 columns: 4, 3 and 3, not 4, 4 and 2); the title on the first. A single system wider
    than the console still gets a table of its own."""
    for count in range(1, len(columns) + 1):
        size, extra = divmod(len(columns), count)
        bounds = [index * size + min(index, extra) for index in range(count + 1)]
        chunks = [columns[start:end] for start, end in itertools.pairwise(bounds)]
        tables = [_table("" if index else title, labels, chunk) for index, chunk in enumerate(chunks)]
        if all(_natural_width(table) <= console.width for table in tables):
            break
    return tables


def _natural_width(table: Table) -> int:
    """The columns a table takes with every cell whole (the console's own measure stops at its width)."""
    return Measurement.get(console, console.options.update(max_width=PIPE_WIDTH), table).maximum


def _job(first: Any, workload: Any) -> str:
    """`15T tokens on 1,024 GPUs`; serving at a rate, the rate and the tokens it makes (each system's
    fleet is sized to the rate, so the workload's GPU count is not the job's)."""
    serving = first.serving
    if serving is not None and serving.target_tokens_per_second:
        made = f"{numbers.count(first.tokens)} output tokens in {numbers.duration(first.time_to_train_hours)}"
        rate = rate_text(serving.target_tokens_per_second)
        return f"serving {rate} ({made}), each system's GPUs sized to the rate"
    return f"{numbers.count(workload.tokens)} tokens on {fmt.gpus(workload.gpus)}"


def render_estimates(estimates: Sequence[Any], workload: Any) -> None:
    """A column per system (over several tables on a narrow terminal); breakdowns too for one system."""
    first = estimates[0]
    released = as_released(workload.model, workload)
    precision = f"{released.label} weights as released" if released else workload.precision.upper()
    title = f"{escape(first.model.name)}: {_job(first, workload)}, {escape(precision)}, " + escape(
        workload.pricing
    )
    rows = _rows(first.serving is not None, production=first.efficiency == "production")
    if first.serving is not None:
        rows += _serving_rows(first)
    if first.purchase is not None:
        rows += _purchase_rows(estimates)
    columns = [(est.system, [cell(est) for _, cell in rows]) for est in estimates]
    for table in fitted_tables(title, [label for label, _ in rows], columns):
        console.print(table)
    console.print(f"[dim]{MEMORY_NOTE}[/]")
    if len(estimates) == 1:
        render_breakdowns(first)
    for est in estimates:
        for warning in est.warnings:
            console.print(f"[{WARNING}]warning[/] {escape(est.system)}: {escape(warning)}")
    for est in estimates:
        label = f"{escape(est.system)}: " if len(estimates) > 1 else ""
        console.print(f"[dim]MFU {label}{escape(est.mfu_basis.basis)}[/]")
