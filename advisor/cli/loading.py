"""What every subcommand shares: the catalog, the rules and the scenario from the flags, and JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from advisor.cli.args import scenario_data_from_args
from advisor.errors import UsageError
from advisor.present.sanitise import printable


def load_catalog(args: argparse.Namespace) -> Any:
    """The shipped catalog with `--catalog DIR` on top; load warnings go to stderr."""
    from advisor.io.catalog_files import load_catalog as _load

    catalog = _load(user_dir=args.catalog) if getattr(args, "catalog", None) else _load()
    for warning in catalog.load_warnings:
        print(printable(f"advisor: warning: {warning}"), file=sys.stderr)
    return catalog


def load_rules(args: argparse.Namespace, catalog: Any) -> Any:
    """The rule set (`--rules DIR` or the shipped one), checked against the catalog's system ids."""
    from advisor.core.decision.rules import check_systems
    from advisor.io.rule_files import load_rules as _load

    rules = _load(getattr(args, "rules", None))
    check_systems(rules, catalog.systems)
    return rules


def scenario_from_args(args: argparse.Namespace, catalog: Any, *, system: str | None = None) -> Any:
    """The scenario given by a file and/or flags, with every id checked against the catalog."""
    from advisor.io.scenario_files import scenario_from_data

    check_flag_ids(args, catalog, system=system)
    base = loaded = None
    if getattr(args, "scenario", None):
        from advisor.io.scenario_files import load_scenario

        loaded = load_scenario(args.scenario, catalog)
        base = loaded.to_data()
    data = scenario_data_from_args(args, base, system=system)
    if loaded is not None and {k: v for k, v in data.items() if v != {}} == base:
        scenario = loaded  # no flag changed the file: it is validated already
    else:
        scenario = scenario_from_data(data, args.scenario or "command line")
        scenario.check_ids(catalog)
    for note in unused_flags(args, scenario, catalog):
        print(printable(f"advisor: warning: {note}"), file=sys.stderr)
    return scenario


def unused_flags(args: argparse.Namespace, scenario: Any, catalog: Any) -> list[str]:
    """`--flag is not used: why`, for each flag given that the answer does not use, then `FILE:LINE: key
    is not used: why` for each such key of the scenario file: one list for the warnings on stderr and the
    `--json` output's warnings. The reasons are the inputs' declared conditions (`core.unused`), and the
    sizing margin that a risk appetite judging the deadline at a quantile (the catalog's `[risk]`)
    replaces."""
    from advisor.core.unused import unused_answers

    notes = []
    given = set()
    for flag, why in unused_answers(scenario).values():
        if getattr(args, flag.removeprefix("--").replace("-", "_"), None) is not None:
            given.add(flag)
            notes.append(f"{flag} is not used: {why}")
    if getattr(args, "scenario", None):
        from advisor.io.scenario_files import unused_in_file

        notes.extend(unused_in_file(args.scenario, scenario, given))
    if getattr(args, "sizing_margin", None) is not None and (replaced := _margin_replaced(scenario, catalog)):
        notes.append(f"--sizing-margin is not used: {replaced}")
    return notes


def _margin_replaced(scenario: Any, catalog: Any) -> str:
    """Why the sizing margin is not applied when the risk appetite holds the deadline at a quantile (the
    risk allowance itself), else empty."""
    from advisor.core.analysis.time_quantile import deadline_quantile
    from advisor.core.decision.constraints import margin_not_added

    constraints = scenario.constraints
    if constraints.deadline_days is None:
        return ""
    quantile = deadline_quantile(catalog, constraints.risk)
    left_out = margin_not_added(constraints, quantile)
    if not left_out or quantile is None:
        return ""
    return (
        f"a {constraints.risk} risk appetite holds the deadline at the P{quantile * 100:g} time to result, "
        f"which is the allowance for risk itself ({left_out})"
    )


def with_warnings(data: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """JSON output `data` with `notes` first among its `warnings`."""
    return {**data, "warnings": [*notes, *data.get("warnings", ())]} if notes else data


def check_flag_ids(args: argparse.Namespace, catalog: Any, *, system: str | None = None) -> None:
    """The model, system and offer ids given as flags exist, or a UsageError with the closest id."""
    offers = sorted({offer.offer for s in catalog.systems.values() for offer in s.rental})
    for flag, given, what, valid, listing in (
        ("--model", getattr(args, "model", None), "model", list(catalog.models), "advisor models"),
        ("--system", None if system == "all" else system, "system", list(catalog.systems), "advisor systems"),
        ("--rental-offer", getattr(args, "rental_offer", None), "offer", offers, "advisor prices list"),
    ):
        if given is None or given in valid or (what == "model" and _names_a_file(given)):
            continue
        raise UsageError(f"{flag} {given!r}: unknown {what}{_closest(given, valid)}; see `{listing}`")
    _check_per_system_flags(args, list(catalog.systems))
    from advisor.core.scenario import software_beyond

    if beyond := software_beyond(getattr(args, "software", None), catalog):
        raise UsageError(f"--software {beyond}")


def _check_per_system_flags(args: argparse.Namespace, systems: list[str]) -> None:
    """The systems named in per-system flags (`--owned h100=1024`) exist: the message names the flag."""
    from advisor.core.model.inputs import ALL_SYSTEMS
    from advisor.core.scenario import INPUTS

    for item in INPUTS.values():
        given = getattr(args, item.dest, None) if item.kind == "per_system" else None
        for key in (key for pairs in given or () for key in pairs):
            if key != ALL_SYSTEMS and key not in systems:
                raise UsageError(
                    f"{item.meta.flag} {key!r}: unknown system{_closest(key, systems)}; see `advisor systems`"
                )


def _names_a_file(text: str) -> bool:
    """A `--model` value that names a file (a model config) rather than a preset id."""
    from pathlib import Path

    return text.endswith(".json") or "/" in text or Path(text).is_file()


def _closest(name: str, valid: list[str]) -> str:
    """` (did you mean 'x'?)`, else the valid ids when they are few."""
    from advisor.io.toml_read import suggest

    hint = suggest(name, valid)
    return hint if "did you mean" in hint or len(valid) <= 12 else ""


def print_json(data: Any) -> None:
    """`data` as indented JSON on stdout (tuples and sets as lists; NaN refused)."""
    json.dump(data, sys.stdout, indent=2, allow_nan=False, default=_json_default)
    sys.stdout.write("\n")


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
