"""`advisor` on the command line. With no command (or a scenario file) it opens the app.

Errors a user can cause print one clear line (or a few) on stderr and exit with status 2; nothing
here lets a traceback through. Textual is imported only when the app starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from advisor import __version__
from advisor.errors import AdvisorError
from advisor.present.sanitise import printable

COMMANDS = (
    "estimate",
    "recommend",
    "report",
    "compare",
    "sensitivity",
    "rules",
    "models",
    "systems",
    "validate",
    "prices",
    "app",
    "serve",
)


class Parser(argparse.ArgumentParser):
    """argparse with errors raised (so the caller decides how to print and exit)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageFailure(f"{self.prog}: {message}\n(see `{self.prog} --help`)")


class UsageFailure(Exception):
    """A command-line usage error (exit status 2)."""


def build_parser() -> Parser:
    from advisor.cli import analysis, commands, prices, reports, serve, validate

    parser = Parser(
        prog="advisor",
        description="Which accelerator to buy or rent for a training or inference job, and what it costs "
        "in money, time and energy. Run with no command to open the app.",
    )
    parser.add_argument("--version", action="version", version=f"advisor {__version__}")
    parser.add_argument(
        "--catalog", metavar="DIR", help="a user catalog folder that overrides or adds entries"
    )
    parser.add_argument(
        "--rules", metavar="DIR", help="use the rule files in DIR instead of the shipped rules"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.register_estimate(sub)
    analysis.register(sub)
    commands.register_listings(sub)
    reports.register(sub)
    validate.register(sub)
    prices.register(sub)
    serve.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `advisor` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not any(arg in COMMANDS for arg in argv if not arg.startswith("-")) and not _wants_help(argv):
            return _open_app(argv)
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            return _open_app(argv)
        return int(args.handler(args) or 0)
    except UsageFailure as exc:
        print(printable(exc), file=sys.stderr)
        return 2
    except AdvisorError as exc:
        print(printable(f"advisor: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _wants_help(argv: list[str]) -> bool:
    return any(arg in ("-h", "--help", "--version") for arg in argv)


def _open_app(argv: list[str]) -> int:
    """`advisor [--catalog DIR] [--rules DIR] [scenario.toml]`: the Textual app."""
    parser = Parser(prog="advisor", add_help=False)
    parser.add_argument("--catalog")
    parser.add_argument("--rules")
    parser.add_argument("scenario", nargs="?")
    args = parser.parse_args(argv)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageFailure(
            "advisor: the app needs a terminal (standard input and output are not one); "
            "for scripts use a command, e.g. `advisor estimate --help` (see `advisor --help`)"
        )
    from advisor.tui.launch import run_app

    return run_app(catalog_dir=args.catalog, rules_dir=args.rules, scenario_path=args.scenario)


if __name__ == "__main__":
    raise SystemExit(main())
