"""`advisor recommend` and `advisor sensitivity`: the recommendation with its ranges, and what flips it."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from typing import Any

from advisor.cli.args import add_scenario_inputs, number
from advisor.cli.command import add_command
from advisor.cli.tabular import add_format_flags, chosen_format, write_delimited
from advisor.core.analysis import SAMPLES
from advisor.core.model.inputs import Limits
from advisor.present.sanitise import printable


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, cmd_recommend)
    add_scenario_inputs(p)
    add_format_flags(p, json_help="print the recommendation as JSON")
    p.add_argument("--save", metavar="FILE", help="write the inputs as a scenario file (TOML)")
    p.add_argument("--force", action="store_true", help="replace an existing --save file")

    p = add_command(sub, cmd_sensitivity)
    add_scenario_inputs(p)
    p.add_argument(
        "--widen",
        type=number("--widen", Limits(0, 10, above=True)),
        default=1.0,
        help="scale every input's range (default 1)",
    )
    p.add_argument(
        "--samples",
        type=number("--samples", Limits(10, 100_000), integer=True),
        default=SAMPLES,
        help=f"samples for P10-P90 and the winner's robustness (default {SAMPLES:,})",
    )
    add_format_flags(p)


def _analyse(
    args: argparse.Namespace, *, break_evens: bool, widen: float = 1.0, samples: int = SAMPLES
) -> Any:
    from advisor.cli.loading import load_catalog, load_rules, scenario_from_args, unused_flags
    from advisor.core.run import run_scenario

    catalog = load_catalog(args)
    rules = load_rules(args, catalog)
    scenario = scenario_from_args(args, catalog)
    if getattr(args, "save", None):
        from advisor.io.scenario_files import save_scenario

        save_scenario(scenario, args.save, force=args.force)
        print(printable(f"advisor: saved scenario to {args.save}"), file=sys.stderr)
    result = run_scenario(
        scenario, catalog, rules, today=date.today(), break_evens=break_evens, samples=samples, widen=widen
    )
    return result.recommendation, result.sensitivity, catalog, unused_flags(args, scenario, catalog)


def cmd_recommend(args: argparse.Namespace) -> int:
    """which system to rent or buy, and why

    Recommend a system: every candidate estimated, rules applied, ranked, with ranges.
    """
    from advisor.cli.loading import print_json, with_warnings

    fmt = chosen_format(args)
    rec, sens, catalog, notes = _analyse(args, break_evens=True)
    if fmt in ("csv", "tsv"):
        from advisor.cli.listings import CANDIDATE_COLUMNS

        write_delimited(CANDIDATE_COLUMNS, rec.candidates, fmt)  # type: ignore[arg-type]
        return answered(rec)
    if fmt == "json":
        from advisor.core.analysis.sensitivity import recommendation_data
        from advisor.schemas import versioned

        print_json(versioned(with_warnings(recommendation_data(rec, sens), notes)))
        return answered(rec)
    from advisor.cli.prices import user_price_lines
    from advisor.cli.render import render_break_evens, render_ranges, render_recommendation, render_serving

    render_recommendation(rec)
    render_serving(rec)
    render_ranges(sens)
    render_break_evens(sens, rec)
    for line in user_price_lines(catalog, [c.system for c in rec.candidates]):
        print(printable(f"price: {line}"))
    return answered(rec)


def answered(rec: Any) -> int:
    """The exit status of a recommendation: 0 with a winner, 1 when nothing is feasible."""
    return 0 if rec.winner is not None else 1


def cmd_sensitivity(args: argparse.Namespace) -> int:
    """ranges, what moves the answer, and break-even points

    How sure is the answer: ranges of time, cost and energy, whether the winner holds across them, which
    inputs move the winner's cost most, and the values at which the answer flips.
    """
    from advisor.cli.loading import print_json

    fmt = chosen_format(args)
    rec, sens, _, _ = _analyse(args, break_evens=True, widen=args.widen, samples=args.samples)
    if fmt in ("csv", "tsv"):
        from advisor.cli.listings import RANGE_COLUMNS

        write_delimited(RANGE_COLUMNS, list(sens.ranges.values()), fmt)  # type: ignore[arg-type]
        return answered(rec)
    if fmt == "json":
        from advisor.schemas import versioned

        print_json(
            versioned(
                {
                    "recommendation": {
                        "winner": rec.winner,
                        "objective": rec.objective,
                        "headline": rec.headline,
                        "verdict": rec.verdict.kind,
                        "why": rec.verdict.why,
                    },
                    **sens.to_dict(),
                }
            )
        )
        return answered(rec)
    from advisor.cli.render import render_sensitivity

    render_sensitivity(rec, sens)
    return answered(rec)
