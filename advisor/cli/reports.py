"""`advisor report` and `advisor compare`: build with `advisor.report`, write atomically or print."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from datetime import date
from pathlib import Path

from advisor.cli.args import add_scenario_inputs
from advisor.cli.command import add_command
from advisor.errors import UsageError
from advisor.present.sanitise import printable
from advisor.report.formats import ALIASES, COMPARISON_FORMATS, REPORT_FORMATS, Format, format_names


def register(sub: argparse._SubParsersAction) -> None:
    """The `report` and `compare` subcommands."""
    p = add_command(sub, cmd_report, formats=format_names(REPORT_FORMATS))
    add_scenario_inputs(p)
    _add_output_flags(p, REPORT_FORMATS)

    p = add_command(sub, cmd_compare)
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario files (TOML), 2 to 8")
    _add_output_flags(p, COMPARISON_FORMATS)


def _add_output_flags(parser: argparse.ArgumentParser, formats: Mapping[str, Format]) -> None:
    names = ", ".join(f".{f}" for f in formats)
    parser.add_argument(
        "-o", "--output", metavar="OUT", help=f"file to write ({names}); default: Markdown on stdout"
    )
    parser.add_argument(
        "--format", choices=list(formats), help="output format (default: from the OUT extension)"
    )
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")


def output_format(output: str | None, chosen: str | None, formats: Mapping[str, Format]) -> Format:
    """The format given, else the one OUT's extension names, else Markdown (for stdout)."""
    if chosen:
        return formats[chosen]
    if output is None:
        return formats["md"]
    suffix = Path(output).suffix.lower().lstrip(".")
    found = formats.get(ALIASES.get(suffix, suffix))
    if found is None:
        names = ", ".join(f".{f}" for f in formats)
        shown = f"extension .{suffix}" if suffix else "no extension"
        raise UsageError(f"{output}: cannot tell the format ({shown}); name it {names}, or give --format")
    return found


def _emit(text: str, output: str | None, force: bool, what: str) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    from advisor.io.atomic import write_atomic

    write_atomic(output, text, force=force)
    print(printable(f"advisor: wrote {what} to {output}"), file=sys.stderr)


def cmd_report(args: argparse.Namespace) -> int:
    """write a report of a scenario ({formats})

    Write a report: the inputs, the recommendation and its reasons, every system compared, cost, time and
    energy breakdowns, warnings, and the assumptions used with their sources.
    """
    from advisor import __version__
    from advisor.cli.loading import load_catalog, load_rules, scenario_from_args
    from advisor.report.data import build_report

    fmt = output_format(args.output, args.format, REPORT_FORMATS)
    catalog = load_catalog(args)
    rules = load_rules(args, catalog)
    scenario = scenario_from_args(args, catalog)
    report = build_report(scenario, catalog, rules, today=date.today(), version=__version__)
    _emit(fmt.render(report), args.output, args.force, f"the {fmt.extension} report")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """compare 2 to 8 scenarios side by side

    Compare scenarios: what differs between them, and how the recommendation and its costs move.
    """
    from advisor import __version__
    from advisor.cli.loading import load_catalog, load_rules
    from advisor.io.scenario_files import load_scenario, unused_in_file
    from advisor.report.compare import build_comparison, check_count

    paths = args.scenarios
    check_count(len(paths))
    fmt = output_format(args.output, args.format, COMPARISON_FORMATS)
    catalog = load_catalog(args)
    rules = load_rules(args, catalog)
    scenarios = [load_scenario(path, catalog) for path in paths]
    for path, scenario in zip(paths, scenarios, strict=True):
        for note in unused_in_file(path, scenario):
            print(printable(f"advisor: warning: {note}"), file=sys.stderr)
    comparison = build_comparison(
        scenarios, catalog, rules, today=date.today(), version=__version__, sources=paths
    )
    _emit(fmt.render(comparison), args.output, args.force, f"the {fmt.extension} comparison")
    return 0
