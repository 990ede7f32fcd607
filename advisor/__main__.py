"""`python -m advisor`: the same as the `advisor` command."""

from advisor.cli.entry import run

raise SystemExit(run())
