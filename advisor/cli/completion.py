"""`advisor completion SHELL`: a completion script for bash, zsh or fish, written by shtab from the parser.

The script is generated from the same argparse parser the command line runs, so every command, action
and flag completes, and a new flag completes without a hand-kept list; `--model` and `--system` complete
to the catalog's ids.
"""

from __future__ import annotations

import argparse
import sys

SHELLS = ("bash", "zsh", "fish")

INSTALL = {
    "bash": 'eval "$(advisor completion bash)"   # in ~/.bashrc',
    "zsh": "advisor completion zsh > ~/.zfunc/_advisor   # with fpath+=(~/.zfunc) before compinit",
    "fish": "advisor completion fish > ~/.config/fish/completions/advisor.fish",
}

# Positionals and options that name a file or a folder complete as paths.
_FILE_DESTS = {"scenario", "scenarios", "file", "files", "output", "evidence", "serving_evidence"}

# `--model` and `--system` complete to the ids the catalog holds now (the user's catalog included), read
# from the listing the shell runs at each completion.
_ID_LISTINGS = {"model": "models", "system": "systems"}


def ids_command(listing: str) -> str:
    """The shell command that prints one id a line: the first column of `advisor LISTING --format tsv`."""
    return f"advisor {listing} --format tsv 2>/dev/null | tail -n +2 | cut -f1"


def register(sub: argparse._SubParsersAction, root: argparse.ArgumentParser) -> None:
    """The `completion` subcommand, completing the commands and flags of `root`."""
    p = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for SHELL on stdout. Install it with: "
        + "; ".join(INSTALL.values()),
    )
    p.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")
    p.set_defaults(handler=lambda args: cmd_completion(root, args))


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for `shell`, generated from the `advisor` parser."""
    import shtab

    _mark_paths(parser)
    return str(shtab.complete(parser, shell=shell))


def _mark_paths(parser: argparse.ArgumentParser) -> None:
    """Tell shtab which arguments are files (scenarios, outputs), folders (`--catalog DIR`) or ids."""
    import shtab

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_paths(sub)
        elif action.metavar == "DIR":
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
        elif action.dest in _FILE_DESTS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.dest in _ID_LISTINGS and action.option_strings:
            action.complete = shtab.cmd(ids_command(_ID_LISTINGS[action.dest]))  # type: ignore[attr-defined]


def cmd_completion(root: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    sys.stdout.write(completion_script(root, args.shell))
    return 0
