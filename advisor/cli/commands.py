"""The subcommands: each parses its flags, calls the core, and renders (JSON or rich tables)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from advisor.cli.args import add_scenario_inputs
from advisor.cli.command import add_command
from advisor.cli.loading import (
    load_catalog,
    load_rules,
    print_json,
    scenario_from_args,
    unused_flags,
    with_warnings,
)
from advisor.cli.tabular import add_format_flags, chosen_format, emit, write_delimited
from advisor.errors import InfeasibleError
from advisor.present.sanitise import printable

if TYPE_CHECKING:
    from pydantic import BaseModel


def register_estimate(sub: argparse._SubParsersAction) -> None:
    """The `estimate` subcommand."""
    p = add_command(sub, cmd_estimate)
    add_scenario_inputs(p, constraints=False)
    p.add_argument("--system", help="system id, or 'all' (default: all)")
    add_format_flags(p, json_help="print JSON (an object, or a list for --system all)")


def register_listings(sub: argparse._SubParsersAction) -> None:
    """The `rules`, `models` and `systems` subcommands."""
    p = sub.add_parser("rules", help="list the decision rules, or check rule files")
    rules_sub = p.add_subparsers(dest="rules_command", metavar="ACTION", parser_class=type(p))
    q = rules_sub.add_parser("list", help="every loaded rule: id, title, source")
    add_format_flags(q)
    q.set_defaults(handler=cmd_rules_list)
    q = rules_sub.add_parser("check", help="check rule files for errors (exit 1 if any)")
    q.add_argument("files", nargs="+", metavar="FILE")
    q.set_defaults(handler=cmd_rules_check)
    rules = p
    rules.set_defaults(handler=lambda args: _missing_action(rules))

    p = sub.add_parser("models", help="list the model presets")
    add_format_flags(p, json_help="print every field of each preset as JSON, as in the catalog files")
    p.set_defaults(handler=cmd_models)
    p = sub.add_parser("systems", help="list the catalogued systems")
    add_format_flags(p, json_help="print every field of each system as JSON, as in the catalog files")
    p.set_defaults(handler=cmd_systems)


def _missing_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


# --- estimate ---------------------------------------------------------------------------------------


def cmd_estimate(args: argparse.Namespace) -> int:
    """time, cost and energy of a run on one system or all

    Estimate time-to-train, cost and energy of a workload.
    """
    from advisor.core.costing.estimate import estimate

    catalog = load_catalog(args)
    system = "all" if args.system is None else args.system  # an empty --system is refused, not all
    scenario = scenario_from_args(args, catalog, system=system)
    workload = scenario.workload.workload(catalog)
    notes = unused_flags(args, scenario, catalog)
    if scenario.size_to_deadline and workload.serving_rate is None:
        notes.append(SIZED_NOT_HERE.format(gpus=workload.gpus))
        print(printable(f"advisor: warning: {notes[-1]}"), file=sys.stderr)
    system_ids = scenario.system_ids(catalog) if system == "all" else (system,)
    compared = len(system_ids) > 1  # one system's estimate compares it with no other
    estimates = [
        estimate(workload, sid, catalog, scenario.assumptions, compared=compared) for sid in system_ids
    ]
    if system != "all" and not estimates[0].memory.fits:
        raise InfeasibleError(_memory_message(estimates[0]))
    fmt = chosen_format(args)
    if fmt in ("csv", "tsv"):
        from advisor.cli.listings import ESTIMATE_COLUMNS

        write_delimited(ESTIMATE_COLUMNS, estimates, fmt)  # type: ignore[arg-type]
        return 0
    if fmt == "json":
        from advisor.core.analysis.uncertainty import estimate_range, input_spreads

        payload = []
        for est in estimates:
            spreads = input_spreads(est, workload, catalog, scenario.assumptions)
            payload.append(
                with_warnings({**est.to_dict(), "range": estimate_range(est, spreads).to_dict()}, notes)
            )
        from advisor.schemas import listing, versioned

        print_json(listing("estimates", payload) if system == "all" else versioned(payload[0]))
        return 0
    from advisor.cli.render_estimates import render_estimates

    if len(estimates) == 1:  # serving at a rate runs on the fleet for it, not the GPUs given
        workload = workload.model_copy(update={"gpus": estimates[0].gpus})
    render_estimates(estimates, workload)
    return 0


SIZED_NOT_HERE = (
    "size_to_deadline is not used by estimate: every system runs on the scenario's {gpus:,} GPUs; "
    "`advisor recommend` and `advisor report` size each system to the deadline"
)
"""Said when `estimate` is given a scenario that sizes each system (it estimates the GPUs given)."""


def _memory_message(est: Any) -> str:
    from advisor.core.costing.results import fit_message

    return f"{est.model.name} {fit_message(est.memory, est.gpus, est.system, est.kind)} (--gpus)"


# --- rules ------------------------------------------------------------------------------------------


def cmd_rules_list(args: argparse.Namespace) -> int:
    from advisor.cli.listings import RULE_COLUMNS
    from advisor.cli.render import render_rules

    rules = load_rules(args, load_catalog(args))
    fmt = chosen_format(args)
    if fmt == "table":
        render_rules(rules)
    else:
        emit(RULE_COLUMNS, rules, fmt, json_key="rules")
    return 0


def cmd_rules_check(args: argparse.Namespace) -> int:
    from advisor.core.decision.rules import check_systems
    from advisor.errors import RuleError
    from advisor.io.rule_files import check_rule_files

    catalog = load_catalog(args)
    try:
        rules = check_rule_files(args.files)
        check_systems(rules, catalog.systems)
    except RuleError as exc:
        print(printable(f"advisor: {exc}"), file=sys.stderr)
        return 1
    print(f"ok: {len(rules)} rule(s) in {len(args.files)} file(s)")
    return 0


# --- listings ---------------------------------------------------------------------------------------


def cmd_models(args: argparse.Namespace) -> int:
    return _listing(args, "models")


def cmd_systems(args: argparse.Namespace) -> int:
    return _listing(args, "systems")


def _listing(args: argparse.Namespace, what: Literal["models", "systems"]) -> int:
    """The catalog's model presets or systems: a table, CSV, TSV, or JSON with every field."""
    from advisor.cli.listings import MODEL_COLUMNS, SYSTEM_COLUMNS

    catalog = load_catalog(args)
    entries: Mapping[str, BaseModel] = catalog.models if what == "models" else catalog.systems
    fmt = chosen_format(args)
    if fmt == "json":
        from advisor.schemas import listing

        print_json(listing(what, [entry.model_dump(mode="json") for entry in entries.values()]))
        return 0
    columns = MODEL_COLUMNS if what == "models" else SYSTEM_COLUMNS
    emit(columns, list(entries.values()), fmt, title="model presets" if what == "models" else "systems")
    return 0
