"""Rich tables for the command line (imported only for human output)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from advisor.core.decision.facts import JOB_VERBS
from advisor.present import numbers
from advisor.present.headline import VERDICT_STYLES
from advisor.present.parts import part_label
from advisor.present.reasons import reason_markup
from advisor.present.styles import FAILED, WARNING

console = Console()


def _rows(estimates: Sequence[Any]) -> list[tuple[str, Callable[[Any], str]]]:
    return [
        (
            "precision run",
            lambda e: e.precision.upper() + ("" if e.precision == e.precision_requested else " (fallback)"),
        ),
        ("MFU", lambda e: numbers.percent(e.mfu) + (" (published)" if e.mfu_basis.exact else "")),
        ("tokens/s per GPU", lambda e: f"{e.tokens_per_second_per_gpu:,.0f}"),
        ("goodput", lambda e: numbers.percent(e.goodput)),
        ("time to train", lambda e: numbers.duration(e.time_to_train_hours)),
        ("wait for capacity", lambda e: numbers.duration(e.time_breakdown_hours["wait"])),
        ("GPU-hours", lambda e: numbers.count(e.gpu_hours)),
        ("$ per GPU-hour", lambda e: numbers.price_per_gpu_hour(e.price_usd_per_gpu_hour)),
        ("total cost", lambda e: numbers.money(e.cost_usd)),
        ("cost per 1M tokens", lambda e: numbers.cents_or_dollars(e.cost_per_million_tokens_usd)),
        ("power per GPU, all-in", lambda e: f"{e.power_w_per_gpu_all_in:,.0f} W"),
        ("energy", lambda e: numbers.energy(e.energy_kwh)),
        ("joules per token", lambda e: f"{e.joules_per_token:.3g} J"),
        ("US household-years", lambda e: f"{e.household_years:,.3g}"),
        ("CO2", lambda e: f"{e.co2_tonnes:,.3g} t"),
        (
            "memory",
            lambda e: (
                f"fits ({e.memory.required_gib:,.0f} of {e.memory.available_gib:,.0f} GiB)"
                if e.memory.fits
                else f"[{FAILED}]needs ≥ {e.memory.min_gpus} GPUs[/]"
                if e.memory.min_gpus
                else f"[{FAILED}]does not fit[/]"
            ),
        ),
    ]


def render_estimates(estimates: Sequence[Any], workload: Any) -> None:
    """A column per system; breakdowns too when there is one system."""
    first = estimates[0]
    title = (
        f"{first.model.name}: {numbers.count(workload.tokens)} tokens on {workload.gpus} GPUs, "
        f"{workload.precision.upper()}, {workload.pricing}"
    )
    table = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column("")
    for est in estimates:
        table.add_column(est.system, justify="right")
    rows = _rows(estimates)
    if first.serving is not None:
        rows += [
            ("replica (GPUs)", lambda e: f"{e.serving.replica_gpus} ({e.serving.decode_bound}-bound)"),
            ("batch (limit)", lambda e: f"{e.serving.batch:,} ({e.serving.binding_limit})"),
            ("TTFT / TPOT", lambda e: f"{e.serving.ttft_ms:,.0f} / {e.serving.tpot_ms:,.1f} ms"),
            ("fleet tokens/s", lambda e: f"{e.serving.tokens_per_second:,.0f}"),
            (
                "$/1M input / output",
                lambda e: (
                    f"{e.serving.usd_per_million_input_tokens:,.3f} / "
                    f"{e.serving.usd_per_million_output_tokens:,.3f}"
                ),
            ),
            ("$/month", lambda e: f"{e.serving.usd_per_month:,.0f}"),
        ]
        if first.serving.target_tokens_per_second:
            rows.append(("GPUs for target rate", lambda e: f"{e.serving.gpus_for_target:,}"))
    for label, cell in rows:
        table.add_row(label, *(cell(e) for e in estimates))
    console.print(table)
    if len(estimates) == 1:
        render_breakdowns(first)
    for est in estimates:
        for warning in est.warnings:
            console.print(f"[{WARNING}]warning[/] {est.system}: {warning}")
    for est in estimates:
        label = f"{est.system}: " if len(estimates) > 1 else ""
        console.print(f"[dim]MFU {label}{escape(est.mfu_basis.basis)}[/]")


def render_breakdowns(est: Any) -> None:
    """Cost, time and energy by part: side by side when the terminal is wide, else one under another."""
    tables = (
        _breakdown("cost", est.cost_breakdown_usd, numbers.money),
        _breakdown("time", est.time_breakdown_hours, numbers.duration),
        _breakdown("energy", est.energy_breakdown_kwh, numbers.energy),
    )
    if console.width >= 110:
        grid = Table.grid(padding=(0, 4))
        grid.add_row(*tables)
        console.print(grid)
    else:
        for table in tables:
            console.print(table)


def _breakdown(title: str, parts: dict[str, float], show: Callable[[float], str]) -> Table:
    table = Table(title=title, box=box.MINIMAL, title_justify="left", show_header=False)
    table.add_column("part")
    table.add_column("value", justify="right")
    table.add_column("share", justify="right")
    total = sum(parts.values()) or 1.0
    for name, value in parts.items():
        table.add_row(part_label(name), show(value), numbers.percent(value / total, 0))
    return table


def render_models(catalog: Any) -> None:
    table = Table(box=box.SIMPLE, title="model presets", title_justify="left")
    for column in ("id", "name", "params", "active", "layers", "hidden", "seq len", "source"):
        table.add_column(column)
    for m in catalog.models.values():
        table.add_row(
            m.id,
            m.name,
            numbers.count(m.params_total),
            numbers.count(m.params_active),
            str(m.layers),
            str(m.hidden),
            f"{m.seq_len:,}",
            m.source,
        )
    console.print(table)


def render_systems(catalog: Any) -> None:
    table = Table(box=box.SIMPLE, title="systems", title_justify="left")
    for column in (
        "id",
        "name",
        "BF16 TFLOPS",
        "FP8",
        "FP4",
        "HBM GB",
        "NVLink domain",
        "rent $/GPU-h",
        "maturity",
    ):
        table.add_column(column)
    for s in catalog.systems.values():
        c = s.compute
        table.add_row(
            s.id,
            s.name,
            f"{c.bf16_dense_tflops:g}",
            f"{c.fp8_dense_tflops or 0:g}" if c.fp8_dense_tflops else "–",
            f"{c.fp4_dense_tflops:g}" if c.fp4_dense_tflops else "–",
            f"{s.memory.hbm_gb:g}",
            str(s.interconnect.nvlink_domain_gpus),
            f"{s.default_rental.price_usd_per_gpu_hour:.2f}",
            s.maturity,
        )
    console.print(table)


def render_recommendation(rec: Any) -> None:
    """The winner, a table of every system, the reasons and what would change the answer."""
    console.print(f"[bold]{escape(rec.headline)}[/]")
    style = VERDICT_STYLES[rec.verdict.kind]
    label, _, rest = rec.verdict.sentence().partition(": ")
    console.print(f"[bold {style}]{label}[/]: {escape(rest)}")
    if rec.cheaper_option is not None:
        console.print(escape(rec.cheaper_option.sentence))
    table = Table(box=box.SIMPLE_HEAVY, pad_edge=False)
    kind = next((c.estimate.kind for c in rec.candidates if c.estimate), "pretrain")
    for column, justify in (
        ("#", "right"),
        ("system", "left"),
        (JOB_VERBS[kind], "right"),
        ("to result", "right"),
        ("cost", "right"),
        ("/1M tok", "right"),
        ("energy", "right"),
        ("score", "right"),
    ):
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for cand in rec.candidates:
        est = cand.estimate
        name = f"[bold]{cand.system}[/]" if cand.system == rec.winner else cand.system
        if est is None:
            table.add_row("–", name, *(["–"] * 6))
            continue
        table.add_row(
            str(cand.rank) if cand.rank else f"[{FAILED}]no[/]",
            name,
            numbers.duration(est.time_to_train_hours),
            numbers.duration(est.time_to_result_hours),
            numbers.money(est.cost_usd),
            numbers.cents_or_dollars(est.cost_per_million_tokens_usd),
            numbers.energy(est.energy_kwh),
            f"{cand.score:.3f}" if cand.score is not None else "–",
        )
    console.print(table)
    console.print(
        f"[dim]#: rank among feasible systems (no = infeasible); score: {rec.objective} relative to the best,"
        " times rule weights; lower wins[/]"
    )
    for cand in rec.candidates:
        if not cand.reasons:
            continue
        console.print(f"\n[bold]{cand.system}[/]" + (" (recommended)" if cand.system == rec.winner else ""))
        for reason in cand.reasons:
            console.print(f"  {reason_markup(reason)}")
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


def render_rules(rules: Sequence[Any]) -> None:
    console.print(f"[bold]{len(rules)} rules[/]")
    for rule in rules:
        console.print(f"\n[bold]{rule.id}[/]  {escape(rule.title)}  [dim]({rule.effect_names})[/]")
        console.print(f"  [dim]source:[/] {escape(rule.source)}", soft_wrap=True)


def render_serving(rec: Any) -> None:
    """The serving table of an inference recommendation: layout, limit, fleet for the target, prices."""
    from advisor.report.tables import serving_table

    header, rows = serving_table(rec)
    if not rows:
        return
    # The report's columns less batch, TTFT and utilisation (in --json and reports), to fit 80 columns.
    keep = {"System": "system", "Replica GPUs": "TP", "Limit": "limit", "TPOT": "TPOT"}
    keep |= {"GPUs for target": "GPUs", "$/1M input": "$/1M in", "$/1M output": "$/1M out"}
    keep |= {"$/month": "$/month"}
    index = [header.index(name) for name in keep]
    table = Table(title="serving", box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for i, (short, column) in enumerate(zip(keep.values(), index, strict=True)):
        width = max(len(short), *(len(row[column]) for row in rows))
        table.add_column(short, justify="left" if i == 0 else "right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*(escape(row[i]) for i in index))
    console.print(table)


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
            sid,
            numbers.duration_span(t.p10, t.p90),
            numbers.money_span(c.p10, c.p90),
            numbers.energy_span(e.p10, e.p90),
        )
    console.print(table)
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
            f"\n[bold]what moves {sens.winner}'s cost most[/] (each input alone at the ends of its "
            f"range; expected {numbers.money(expected)})"
        )
        widest = max(bar.cost_swing for bar in sens.tornado) or 1.0
        table = Table(box=None, show_header=True, pad_edge=False)
        for column in ("input", "range", "", "cost", "time"):
            table.add_column(column, no_wrap=True)
        for bar in sens.tornado:
            table.add_row(
                bar.input,
                f"{numbers.input_value(bar.input, bar.low)}–{numbers.input_value(bar.input, bar.high)}",
                "█" * max(0, round(16 * bar.cost_swing / widest)),
                f"{numbers.money(bar.cost_at_low)} → {numbers.money(bar.cost_at_high)}",
                f"{numbers.duration(bar.hours_at_low)} → {numbers.duration(bar.hours_at_high)}",
            )
        console.print(table)
    if sens.break_evens:
        console.print(f"\n[bold]break-even points[/] ({sens.winner} against {sens.runner_up})")
        for item in sens.break_evens:
            console.print(f"  {escape(item.sentence)}")
    for line in sens.speed_for_price:
        console.print(f"  {escape(line)}")
