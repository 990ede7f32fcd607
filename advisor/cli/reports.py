"""`advisor report`, `advisor compare` and `advisor sensitivity`."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Report commands (filled in by the reports issue)."""
