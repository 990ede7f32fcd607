"""`advisor` on the command line. With no command (or a scenario file) it opens the app.

Exit status: 0 an answer; 1 no answer (nothing feasible, or a check found a problem); 2 bad input (a
flag, file or id; one clear message on stderr, never a traceback); 130 interrupted. Output cut short by
its reader (`advisor models | head -1`) is not an error: status 0. Textual is imported only when the app
starts.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from advisor import __version__
from advisor.errors import INTERRUPTED, AdvisorError, InfeasibleError, os_reason, shown
from advisor.present.sanitise import printable

# Global options that take a value (the value is not the command).
_GLOBAL_VALUES = ("--catalog", "--rules")


class Parser(argparse.ArgumentParser):
    """argparse with errors raised (so the caller decides how to print and exit), and negative human
    amounts (`--tokens -5T`) read as values, so the range check names them, not as unknown options."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._negative_number_matcher = re.compile(r"^-(\$?\.?\d|inf(inity)?$|nan$)", re.IGNORECASE)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageFailure(f"{self.prog}: {message}\n(see `{self.prog} --help`)")


class UsageFailure(Exception):
    """A command-line usage error (exit status 2)."""


_REGISTRARS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("commands", "register_estimate", ("estimate",)),
    ("analysis", "register", ("recommend", "sensitivity")),
    ("commands", "register_listings", ("rules", "models", "systems")),
    ("reports", "register", ("report", "compare")),
    ("validate", "register", ("validate",)),
    ("prices", "register", ("prices",)),
    ("serve", "register", ("serve",)),
    ("machine", "register", ("schema", "examples")),
)
"""The registrars (module in `advisor.cli`, function) and the commands each adds, in `advisor --help`
order (completion last)."""

COMMANDS = (*(command for _, _, commands in _REGISTRARS for command in commands), "completion")


def build_parser(command: str | None = None) -> Parser:
    """The `advisor` parser with every command, or with only `command` (a known command's module is
    then the only one imported and its flags the only ones built: start-up time, see
    docs/performance.md). `completion` needs every command, so it always gets the full parser."""
    import importlib

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
    wanted = [registrar for registrar in _REGISTRARS if command in registrar[2]]
    for module, name, _ in wanted or _REGISTRARS:
        getattr(importlib.import_module(f"advisor.cli.{module}"), name)(sub)
    if not wanted:
        from advisor.cli import completion

        completion.register(sub, parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `advisor` console script; returns the exit status.

    Called as the process's entry (`argv` None: the console script, `python -m advisor`), a command
    ends the process once its output is flushed (`exit_now`), skipping the interpreter's teardown:
    about a sixth of a short command's CPU time (docs/performance.md)."""
    words = list(sys.argv[1:] if argv is None else argv)
    command = first_positional(words)
    if not _wants_help(words) and (command is None or _is_scenario_path(command)):
        return _status_of(_open_app, words)
    status = _status_of(_run_command, words)
    if argv is None:
        exit_now(status)
    return status


def _run_command(argv: list[str]) -> int:
    """Parse `argv` and run its command."""
    command = first_positional(argv)
    if command is not None and command not in COMMANDS:
        raise UsageFailure(unknown_command(command))
    args, unknown = build_parser(command).parse_known_args(argv)
    if unknown:
        # argparse reports these from the top parser ("advisor: … see `advisor --help`"), which does
        # not list the command's own flags: name the command whose help does.
        prog = f"advisor {command}" if command else "advisor"
        raise UsageFailure(f"{prog}: unrecognized arguments: {' '.join(unknown)}\n(see `{prog} --help`)")
    status = int(args.handler(args) or 0)
    sys.stdout.flush()  # a closed pipe shows here, inside `_status_of`, not at exit
    return status


def _status_of(run: Callable[[list[str]], int], argv: list[str]) -> int:
    """`run(argv)`'s exit status; a failure becomes one message on stderr and its status (see above)."""
    try:
        return run(argv)
    except UsageFailure as exc:
        print(printable(exc), file=sys.stderr)
        return 2
    except InfeasibleError as exc:
        print(f"advisor: {exc}", file=sys.stderr)
        return 1
    except AdvisorError as exc:
        print(printable(f"advisor: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:  # the output could not be written (a full disk, /dev/full, a lost terminal)
        where = f"{shown(exc.filename)}: " if exc.filename else "could not write the output: "
        print(printable(f"advisor: {where}{os_reason(exc)}"), file=sys.stderr)
        _silence_stdout()
        return 1


def exit_now(status: int) -> None:
    """End the process with `status` now, output flushed, skipping the interpreter's teardown (freeing
    every module and object), unless something is owed at exit: an `atexit` handler (coverage, logging
    and temporary folders register one), another thread or a handler for their end, `-X dev` (it
    reports unclosed files at teardown) or `python -i`; then, or if the output cannot be flushed, it
    returns."""
    import atexit

    threading = sys.modules.get("threading")
    handlers = getattr(atexit, "_ncallbacks", None)  # CPython; elsewhere the normal exit
    if handlers is None or handlers() or sys.flags.dev_mode or sys.flags.inspect:
        return
    if threading is not None and (
        threading.active_count() > 1 or getattr(threading, "_threading_atexits", 0)
    ):
        return  # another thread, or a handler for the threads' end (concurrent.futures registers one)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # the normal exit reports or silences it, as before
    os._exit(status)


def first_positional(argv: Sequence[str]) -> str | None:
    """The command (or scenario file) in `argv`: the first word that is neither an option nor its value."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _GLOBAL_VALUES:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def _is_scenario_path(word: str) -> bool:
    """`advisor plan.toml` opens the app on a scenario; any other non-command word is a typo."""
    return word not in COMMANDS and (word.lower().endswith(".toml") or Path(word).is_file())


def unknown_command(word: str) -> str:
    """The message for a word that is no command: the closest command, and every command."""
    import difflib

    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (
        f"advisor: unknown command {word!r}{hint}; the commands are {', '.join(COMMANDS)}; "
        "with no command, or a scenario file (.toml), advisor opens the app (see `advisor --help`)"
    )


def _wants_help(argv: list[str]) -> bool:
    return any(arg in ("-h", "--help", "--version") for arg in argv)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush into the closed pipe is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout has no file descriptor (a test's capture): nothing will be flushed at exit


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
