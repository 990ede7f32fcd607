"""`advisor validate`: the cost model against published runs, leave-one-out."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from advisor.cli.command import add_command
from advisor.core import fmt

if TYPE_CHECKING:
    from rich.table import Table


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, cmd_validate)
    p.add_argument(
        "--evidence",
        metavar="DIR",
        help="held-out published runs, one TOML file each (format: docs/calibration.md)",
    )
    p.add_argument(
        "--serving-evidence",
        metavar="DIR",
        help="held-out serving benchmarks, one TOML file each (predicted with the shipped constants)",
    )
    p.add_argument("--kind", choices=("production", "benchmark"), help="show only runs of this kind")
    p.add_argument("--json", action="store_true", help="print JSON: cases, summary and fitted constants")


def cmd_validate(args: argparse.Namespace) -> int:
    """the model against published training runs, leave-one-out

    Predict every shipped calibration point and published run, each with the constants fitted without
    it, and print model vs published, the error, and whether the P10-P90 holds the outcome. With
    --evidence DIR, predict the runs in DIR instead, with the shipped constants (a held-out check:
    nothing in DIR was fitted on).
    """
    from advisor.cli.loading import load_catalog
    from advisor.core.analysis.validation import held_out, validate
    from advisor.io.evidence_files import evidence_dir, load_evidence

    catalog = load_catalog(args)
    known = set(catalog.systems), set(catalog.models)
    if sys.stderr.isatty():  # it takes seconds: say what is happening (never into a pipe or a file)
        what = "the runs in " + args.evidence if args.evidence else "every published figure, leave-one-out"
        print(f"advisor: predicting {what}…", file=sys.stderr)
    if args.evidence:
        result = held_out(load_evidence(Path(args.evidence), *known), catalog)
    else:
        result = validate(load_evidence(evidence_dir(), *known), catalog)
    if args.kind:
        result = replace(result, cases=tuple(c for c in result.cases if c.run.kind == args.kind))
    result = replace(result, serving=_serving(args, catalog))
    if not result.cases:
        print("advisor: no runs of that kind", file=sys.stderr)
        return 1
    if args.json:
        from advisor.schemas import versioned

        print(json.dumps(versioned(result.to_dict()), indent=2))
    else:
        _render(result)
    return 0


def _serving(args: argparse.Namespace, catalog: Any) -> Any:
    """The serving section: the shipped points leave-one-out, or a held-out folder with shipped constants."""
    from advisor.core.analysis.serving_fit import held_out_serving, validate_serving
    from advisor.io.serving_evidence_files import load_serving_evidence, serving_evidence_dir

    known = set(catalog.systems), set(catalog.models)
    if args.serving_evidence:
        return held_out_serving(load_serving_evidence(Path(args.serving_evidence), *known), catalog)
    if args.evidence:
        return None
    return validate_serving(load_serving_evidence(serving_evidence_dir(), *known), catalog)


_QUANTITY = {
    "gpu_hours": ("GPU-h", fmt.count),
    "days": ("days", lambda v: f"{v:,.1f}"),
    "tokens_per_s_per_gpu": ("tok/s/GPU", lambda v: f"{v:,.0f}"),
    "tflops_per_gpu": ("TFLOP/s/GPU", lambda v: f"{v:,.0f}"),
    "mfu": ("MFU", fmt.percent),
}


def _published_table(what: str, held_out: bool, case: str, figures: tuple[str, ...]) -> Table:
    """A table of published cases against the model: a column naming each case, then its figures."""
    from rich import box
    from rich.table import Table

    method = "held out" if held_out else "leave-one-out"
    table = Table(title=f"Published {what}, {method}", box=box.SIMPLE_HEAVY, title_justify="left")
    table.add_column(case, overflow="fold", min_width=18)
    for name in figures:
        table.add_column(name, justify="right", overflow="fold")
    return table


def _render(result: Any) -> None:
    from advisor.cli.render import console

    _render_runs(result)
    _render_summary(result)
    _render_constants(result)
    console.print(
        "Held out: each row was predicted with the shipped constants, none of them fitted on these runs."
        if result.held_out
        else "Each row was predicted with constants fitted without it (leave-one-out)."
    )
    if result.serving is not None:
        _render_serving(result.serving)


def _render_runs(result: Any) -> None:
    from advisor.cli.render import console
    from advisor.present.sanitise import plain_markup as escape

    table = _published_table(
        "runs", result.held_out, "run: system, GPUs, figure", ("published", "model", "error")
    )
    table.add_column("P10-P90", justify="right", no_wrap=True)
    table.add_column("")
    for case in result.cases:
        run = case.run
        unit, show = _QUANTITY[run.published.quantity]
        kind = "" if run.kind == "benchmark" else ", production"
        table.add_row(
            f"{escape(run.id)}\n[dim]{escape(run.system)}, {run.gpus:,}, {unit}{kind}[/]",
            show(case.published),
            show(case.predicted),
            f"{case.error:+.0%}",
            f"{show(case.p10)}-{show(case.p90)}",
            "in" if case.inside else "[red]out[/]",
        )
    console.print(table)


def _render_summary(result: Any) -> None:
    from rich import box
    from rich.table import Table

    from advisor.cli.render import console

    summary = Table(title="Summary (absolute error)", box=box.SIMPLE_HEAVY, title_justify="left")
    for name in ("group", "runs", "median", "worst", "inside P10-P90"):
        summary.add_column(name, justify="left" if name == "group" else "right")
    for group in result.groups():
        summary.add_row(
            group.name,
            str(group.runs),
            f"{group.median_abs_error:.1%}",
            f"{group.worst_abs_error:.1%}",
            f"{group.coverage:.0%}",
        )
    console.print(summary)


def _render_constants(result: Any) -> None:
    from advisor.cli.render import console
    from advisor.core.model.mfu_points import LOSS_PIVOT_GPUS

    p = result.production
    if p is not None:
        console.print(
            f"Production efficiency, fitted on {p.runs} end-to-end runs: {p.throughput_factor:.3f} of "
            f"reference throughput at {p.reference_params:.3g} parameters, x (parameters / that)"
            f"^{p.size_exponent:.3f}; spread x{p.spread_low:.3f}-x{p.spread_high:.3f}."
        )
    losses = ", ".join(f"{k} {v:.2%}" for k, v in result.scaling.loss_per_doubling.items())
    console.print(
        f"Weak-scaling loss per doubling beyond a published cluster size: {losses} up to "
        f"{LOSS_PIVOT_GPUS:,} GPUs; above, x (GPUs / {LOSS_PIVOT_GPUS:,})^{result.scaling.loss_growth:.2f}."
    )
    exponents = ", ".join(f"{k} {v:.3f}" for k, v in result.scaling.small_model_exponent.items())
    console.print(f"Small-model MFU exponent (below the smallest published model): {exponents}.")
    floors = ("a smaller domain is never faster", "the proxy's figures stay a floor")
    domains = ", ".join(
        f"{k} {v:.3f}"
        + (f" (applied as 1: {floors[not k.rsplit('_per_', 1)[-1].isdigit()]})" if v > 1 else "")
        for k, v in result.scaling.scale_up_ratio.items()
    )
    console.print(
        "MFU on a smaller NVLink domain ÷ on a larger one, and of a system ÷ its same-domain proxy "
        f"(proxy ratio), for proxy systems: {domains}."
    )
    strong = result.strong_scaling
    console.print(
        f"Strong-scaling loss, fitted on {strong.runs} runs below one sequence per model replica per step: "
        f"throughput x (sequences per replica)^{strong.exponent:.3f}; spread ±{strong.spread:.1%}."
    )
    shares = ", ".join(f"{k.removeprefix('mfu_')} ±{v:.1%}" for k, v in result.reference_spreads.items())
    console.print(f"Reference MFU spread by how the MFU was found: {shares}.")


def _render_serving(serving: Any) -> None:
    from advisor.cli.render import console
    from advisor.core.analysis.fitting import serving_spread
    from advisor.core.analysis.serving_fit import fitted_values
    from advisor.present.sanitise import plain_markup as escape

    table = _published_table(
        "serving benchmarks",
        serving.held_out,
        "point: system, TP, precision, shape",
        ("published tok/s/GPU", "model", "error"),
    )
    for case in serving.cases:
        p = case.point
        table.add_row(
            f"{escape(p.id)}\n[dim]{escape(p.system)}, TP{p.tp}, {p.weight_precision.upper()}, "
            f"{p.prompt_tokens:,}/{p.output_tokens:,} {case.shape}[/]",
            f"{case.published_per_gpu:,.0f}",
            f"{case.predicted_per_gpu:,.0f}",
            f"{case.error:+.0%}",
        )
    console.print(table)
    systems = len({c.point.system for c in serving.cases})
    console.print(
        f"Serving: {len(serving.cases)} points on {systems} systems; absolute error median "
        f"{serving.median_abs_error:.1%}, worst {serving.worst_abs_error:.1%}; "
        f"{serving.within_25} within 25%."
    )
    fitted = ", ".join(f"{name} {value:g}" for name, value in fitted_values(serving.fitted).items())
    console.print(f"Serving constants {'shipped' if serving.held_out else 'fitted on all points'}: {fitted}.")
    low, high = serving_spread(serving)
    console.print(
        f"Serving spread (published ÷ model): x{low:.3f}-x{high:.3f}, triangular with the errors' P10-P90."
    )
