"""Rich style names, one per meaning, wherever the CLI and the app mark text."""

from __future__ import annotations

PASSED = "green"
"""A check that passed, a rule that fired."""
FAILED = "red"
"""A check that failed; infeasible."""
WARNING = "yellow"
"""A warning."""
PART_STYLES = {"cost": "green", "time": "cyan", "energy": "yellow"}
"""The bars of each breakdown."""

REASON_STYLES = {
    "infeasible": "red",
    "exclude": "red",
    "penalize": "yellow",
    "prefer": "green",
    "warn": "yellow",
    "note": "dim",
}
"""How each kind of reason is marked wherever reasons are shown."""

REASON_ORDER = {"prefer": 0, "penalize": 1, "warn": 2, "note": 3}
"""Which reasons explain a winner best, first: preferences, penalties, warnings, then notes."""

STALE_STYLE = "bold reverse yellow"
"""The STALE mark on a result that no longer matches the answers."""
EMPHASIS = "bold"
"""A figure the reader looks for first."""
PENDING = "dim"
"""Text standing in for something still being computed, or a quiet aside."""
