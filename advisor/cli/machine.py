"""`advisor schema` (the shipped JSON Schemas) and `advisor examples` (the shipped example scenarios)."""

from __future__ import annotations

import argparse
import sys

from advisor.cli.command import add_command
from advisor.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """The `schema` and `examples` subcommands."""
    from advisor.schemas import SCHEMA_NAMES

    p = add_command(sub, cmd_schema)
    p.add_argument("name", nargs="?", metavar="NAME", help=f"one of: {', '.join(SCHEMA_NAMES)}")
    p.add_argument("--path", action="store_true", help="print where the schema file is installed instead")
    p = add_command(sub, cmd_examples)
    p.add_argument("name", nargs="?", metavar="NAME", help="an example's name (see `advisor examples`)")
    p.add_argument("dest", nargs="?", metavar="DEST", help="where to copy it (default: ./NAME.toml)")
    p.add_argument("--force", action="store_true", help="replace DEST if it exists")


def cmd_schema(args: argparse.Namespace) -> int:
    """print a JSON Schema (scenario files, estimate, recommend, report, compare JSON)

    Print the JSON Schema NAME; with no name, list them and where they are installed.
    """
    from advisor.schemas import SCHEMA_NAMES, schema_path, schema_text

    if args.name is None:
        for name in SCHEMA_NAMES:
            print(f"{name}\t{schema_path(name)}")
        return 0
    if args.name not in SCHEMA_NAMES:
        raise UsageError(f"no schema {args.name!r}; valid: {', '.join(SCHEMA_NAMES)}")
    if args.path:
        print(schema_path(args.name))
    else:
        sys.stdout.write(schema_text(args.name))
    return 0


def cmd_examples(args: argparse.Namespace) -> int:
    """list the example scenarios, or copy one out

    With no NAME, list the shipped example scenarios; with NAME, copy that one to DEST (a file or
    folder; default: the current folder).
    """
    from advisor.io.examples import copy_example, example_scenarios

    if args.name is None:
        for example in example_scenarios():
            print(f"{example.name}\t{example.title}")
        return 0
    written = copy_example(args.name, args.dest, force=args.force)
    print(f"advisor: wrote {written}", file=sys.stderr)
    return 0
