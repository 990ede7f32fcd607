"""A subcommand declared by its handler: the name, the one-line help and the description are read from
the handler, so each is written once (where the command is implemented)."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable
from typing import Any


def add_command(
    sub: argparse._SubParsersAction[Any],
    handler: Callable[[argparse.Namespace], int],
    name: str = "",
    **fill: str,
) -> argparse.ArgumentParser:
    """The subcommand `name` (default: the handler's name without `cmd_`) that runs `handler`.

    The handler's docstring is its help: the first paragraph is the line `advisor --help` lists, the
    rest the description `advisor NAME --help` shows (argparse rewraps both); `{key}` is filled from
    `fill`."""
    text = inspect.getdoc(handler) or ""
    paragraphs = (text.format(**fill) if fill else text).split("\n\n")
    parser = sub.add_parser(
        name or handler.__name__.removeprefix("cmd_"),
        help=" ".join(paragraphs[0].split()),
        description=" ".join(" ".join(paragraphs[1:]).split()) or None,
    )
    parser.set_defaults(handler=handler)
    return parser
