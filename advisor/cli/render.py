"""Rich tables for the command line (imported only for human output)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.table import Table

from advisor.cli.console import console
from advisor.core.decision.facts import JOB_VERBS
from advisor.present import numbers, ranges
from advisor.present.headline import VERDICT_STYLES
from advisor.present.parts import overhead_note, part_label, time_part_text
from advisor.present.purchase import up_front
from advisor.present.ranking import closest_first
from advisor.present.reasons import reason_lines, reason_markup
from advisor.present.sanitise import plain_markup as escape
from advisor.present.serving import (
    PER_MILLION_OUTPUT,
    fleet_note,
    fleet_text,
    job_gpus_note,
    serving_line,
    shown_parts,
)
from advisor.present.styles import FAILED, WARNING


def render_breakdowns(est: Any) -> None:
    """Cost, time and energy by part: side by side on a wide terminal, else one under another."""
    tables = (
        _breakdown("cost", est.cost_breakdown_usd, lambda usd, _: numbers.money(usd)),
        _breakdown(
            "time", shown_parts(est.time_breakdown_hours, est.kind), lambda h, k: time_part_text(k, h, est)
        ),
        _breakdown("energy", est.energy_breakdown_kwh, lambda kwh, _: numbers.energy(kwh)),
    )
    if console.is_terminal and console.width >= 110:
        grid = Table.grid(padding=(0, 4))
        grid.add_row(*tables)
        console.print(grid)
    else:
        for table in tables:
            console.print(table)
    note = overhead_note([est])
    if note is not None:
        console.print(f"[dim]{escape(note)}[/]")


def _breakdown(title: str, parts: dict[str, float], show: Callable[[float, str], str]) -> Table:
    """A part per row: its name, its value (`show(value, part)`) and its share of the total."""
    table = Table(title=title, box=box.MINIMAL, title_justify="left", show_header=False)
    table.add_column("part")
    table.add_column("value", justify="right")
    table.add_column("share", justify="right")
    total = sum(parts.values()) or 1.0
    for name, value in parts.items():
        table.add_row(part_label(name), show(value, name), numbers.percent(value / total, 0))
    return table


def render_recommendation(rec: Any) -> None:
    """The winner, a table of every system, the reasons and what would change the answer."""
    _print_answer(rec)
    console.print(_candidates_table(rec))
    console.print(
        f"[dim]#: rank among feasible systems (no = infeasible); score: {rec.objective} relative to the best,"
        " times rule weights; lower wins[/]"
    )
    job_gpus = job_gpus_note(rec, "the fleet in the serving table below")
    if job_gpus is not None:
        console.print(f"[dim]{escape(job_gpus)}[/]")
    render_purchase([cand.estimate for cand in rec.candidates if cand.estimate is not None])
    _print_reasons(rec)


def _print_answer(rec: Any) -> None:
    """The headline, the GPUs already owned, the verdict, a cheaper option and the serving fleet, each on
    its line."""
    console.print(f"[bold]{escape(rec.headline)}[/]")
    if rec.verdict.owned:
        console.print(f"{escape(rec.verdict.owned)}.")
    style = VERDICT_STYLES[rec.verdict.kind]
    label, _, rest = rec.verdict.sentence().partition(": ")
    console.print(f"[bold {style}]{label}[/]: {escape(rest)}")
    if rec.cheaper_option is not None:
        console.print(escape(rec.cheaper_option.sentence))
    fleet = serving_line(rec)
    if fleet is not None:
        console.print(f"[bold]{escape(fleet)}[/]")


def _candidates_table(rec: Any) -> Table:
    """Every system: rank, GPUs, time, cost, energy and score; the winner in bold."""
    table = Table(box=box.SIMPLE_HEAVY, pad_edge=False, show_edge=False, collapse_padding=True)
    kind = next((c.estimate.kind for c in rec.candidates if c.estimate), "pretrain")
    per_m = "/1M out" if kind == "inference" else "/1M tok"  # as the serving table's "$/1M out"
    for column in ("#", "system", "GPUs", JOB_VERBS[kind], "to result", "cost", per_m, "energy", "score"):
        table.add_column(column, justify="left" if column == "system" else "right", no_wrap=True)
    for cand in closest_first(rec):  # with none feasible, the nearest to being so first
        est = cand.estimate
        name = f"[bold]{escape(cand.system)}[/]" if cand.system == rec.winner else escape(cand.system)
        if est is None:
            table.add_row("–", name, *(["–"] * 7))
            continue
        table.add_row(
            str(cand.rank) if cand.rank else f"[{FAILED}]no[/]",
            name,
            f"{est.gpus:,}",
            numbers.duration(est.time_to_train_hours),
            numbers.duration(est.time_to_result_hours),
            numbers.money(est.cost_usd),
            numbers.cents_or_dollars(est.cost_per_million_tokens_usd),
            numbers.energy(est.energy_kwh),
            _score(cand.score),
        )
    return table


def _print_reasons(rec: Any) -> None:
    """Each system's reasons, the workload's rules, the other warnings and what would change it."""
    for cand in closest_first(rec):
        if not cand.reasons:
            continue
        console.print(
            f"\n[bold]{escape(cand.system)}[/]" + (" (recommended)" if cand.system == rec.winner else "")
        )
        for line in reason_lines(cand.reasons):
            console.print(f"  {reason_markup(line)}")
    workload_rules = [r for r in rec.rules_fired if r.system is None]
    if workload_rules:
        console.print("\n[bold]about the workload[/]")
        for fired in workload_rules:
            console.print(f"  [dim]{fired.effect}[/] {escape(fired.because)}")
    shown = {r.text for c in rec.candidates for r in c.reasons}
    for warning in (w for w in rec.warnings if w not in shown):
        console.print(f"[{WARNING}]warning[/] {escape(warning)}")
    if rec.what_would_change:
        console.print("\n[bold]what would change the answer[/]")
        for line in rec.what_would_change:
            console.print(f"  {escape(line)}")


def _score(score: float | None) -> str:
    """1.066, 10.81: five characters up to 99.99, so the table fits 80 columns."""
    if score is None:
        return "–"
    return f"{score:.{3 if score < 10 else 2}f}"


def render_rules(rules: Sequence[Any]) -> None:
    console.print(f"[bold]{len(rules)} rules[/]")
    for rule in rules:
        console.print(
            f"\n[bold]{escape(rule.id)}[/]  {escape(rule.title)}  [dim]({escape(rule.effect_names)})[/]"
        )
        console.print(f"  [dim]source:[/] {escape(rule.source)}", soft_wrap=True)


def render_purchase(estimates: Sequence[Any]) -> None:
    """When buying: what each system's purchase is (units, idle GPUs, outlay, monthly cost, fleet view)."""
    bought = [est for est in estimates if est.purchase is not None]
    if not bought:
        return
    table = Table(title="what buying means", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    headings = ("system", "buy", "idle", "up front", "/month", "runs/yr", "$/GPU-h")
    for i, heading in enumerate(headings):
        table.add_column(heading, justify="left" if i == 0 else "right", no_wrap=True)
    for est in bought:
        unit = est.purchase
        table.add_row(
            est.system,
            f"{unit.units:,} {unit.unit}{'s' if unit.units != 1 else ''}",
            f"{unit.gpus_idle:,}",
            up_front(unit),
            numbers.money(unit.monthly_usd),
            numbers.runs_per_year(unit.runs_per_year),
            numbers.price_per_gpu_hour(est.effective_price_usd_per_gpu_hour),
        )
    console.print(table)
    console.print(
        "[dim]bought in whole nodes or racks: idle GPUs are paid for, so $/GPU-h is the effective price per "
        "running GPU-hour; /month: owning them at the fleet's utilisation; runs/yr: runs like this one they "
        "do in a year[/]"
    )


def render_serving(rec: Any) -> None:
    """The serving table of an inference recommendation: layout, limit, fleet for the target, prices."""
    from advisor.report.tables import serving_table

    header, rows = serving_table(rec)
    if not rows:
        return
    # The report's columns less batch, TTFT, utilisation and the full-load split (in --json and reports),
    # to fit 80 columns; the fleet as one `replicas × GPUs each` column.
    at = {name: header.index(name) for name in header}
    columns = ("system", "fleet", "limit", "TPOT", "$/month", "$/1M out")
    fleets = {
        c.system: fleet_text(c.estimate.serving) for c in rec.candidates if c.estimate and c.estimate.serving
    }

    def cells(row: list[str]) -> tuple[str, ...]:
        named = ("Limit", "TPOT", "$/month", PER_MILLION_OUTPUT)
        return (row[at["System"]], fleets[row[at["System"]]], *(row[at[name]] for name in named))

    shown = [cells(row) for row in rows]
    table = Table(title="serving", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for i, short in enumerate(columns):
        width = max(len(short), *(len(row[i]) for row in shown))
        table.add_column(short, justify="left" if i == 0 else "right", no_wrap=True, min_width=width)
    for row in shown:
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)
    console.print(f"[dim]{escape(fleet_note(rec))}; limit: what caps the batch[/]")


def render_ranges(sens: Any) -> None:
    """Expected values with their sampled P10–P90, and whether the winner holds across them."""
    if not sens.ranges:
        return
    table = Table(
        box=box.SIMPLE, title="ranges (P10–P90 of sampled inputs)", title_justify="left", pad_edge=False
    )
    for column in ("system", "time to result", "cost", "energy"):
        table.add_column(column, no_wrap=True)
    for sid, r in sens.ranges.items():
        t, c, e = r.time_to_result_hours, r.cost_usd, r.energy_kwh
        table.add_row(
            escape(sid),
            numbers.duration_span(t.p10, t.p90),
            numbers.money_span(c.p10, c.p90),
            numbers.energy_span(e.p10, e.p90),
        )
    console.print(table)
    note = ranges.outside_note(sens.ranges)
    if note:
        console.print(f"[dim]{escape(note)}[/]")
    if sens.robustness is not None:
        console.print(f"[bold]robustness[/] {escape(sens.robustness.verdict)}")


def render_sensitivity(rec: Any, sens: Any) -> None:
    """Ranges, robustness, the winner's tornado and the break-even points."""
    console.print(f"[bold]{escape(rec.headline)}[/]")
    console.print(escape(rec.verdict.sentence()))
    render_ranges(sens)
    if sens.tornado:
        expected = sens.ranges[sens.winner].cost_usd.expected
        console.print(
            f"\n[bold]what moves {escape(sens.winner)}'s cost most[/] (each input alone at the ends of its "
            f"range; expected {numbers.money(expected)})"
        )
        widest = max(bar.cost_swing for bar in sens.tornado) or 1.0
        table = Table(box=None, show_header=True, pad_edge=False)
        for column in ("input", "range", "", "cost", "time"):
            table.add_column(column, no_wrap=True)
        for bar in sens.tornado:
            table.add_row(
                escape(numbers.input_label(bar.input)),
                f"{numbers.input_value(bar.input, bar.low)}–{numbers.input_value(bar.input, bar.high)}",
                "█" * max(0, round(16 * bar.cost_swing / widest)),
                f"{numbers.money(bar.cost_at_low)} → {numbers.money(bar.cost_at_high)}",
                f"{numbers.duration(bar.hours_at_low)} → {numbers.duration(bar.hours_at_high)}",
            )
        console.print(table)
    render_break_evens(sens)


def render_break_evens(sens: Any, rec: Any = None) -> None:
    """What would flip the answer within the ranges (the report's "How sure the answer is", after the
    robustness): the break-even points, then how much faster a dearer system must be to win per dollar;
    with `rec`, less the one its "what would change the answer" already says."""
    lines = ranges.break_even_lines(sens, rec)
    if not lines:
        return
    against = f" ({escape(sens.winner)} against {escape(sens.runner_up)})" if sens.runner_up else ""
    console.print(f"\n[bold]break-even points[/]{against}")
    for line in lines:
        console.print(f"  {escape(line)}")
