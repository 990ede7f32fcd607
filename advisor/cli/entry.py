"""The `advisor` console script's entry: `advisor.cli.main` imported inside it, so a Ctrl-C while the
command is still loading (its first ~0.2 s) ends as one interrupted with status 130, as it does once
running, never as a `KeyboardInterrupt` traceback from the import."""

from __future__ import annotations

from advisor.errors import INTERRUPTED


def run() -> int:
    """Import the command line and run it; interrupted while importing: status 130, quietly."""
    try:
        from advisor.cli.main import main
    except KeyboardInterrupt:
        return INTERRUPTED
    return main()
