"""Golden files: reports pinned byte for byte, one file per format with its real extension.

Regenerate after an intended change (then review the diff like any other):
    ADVISOR_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_reports.py tests/test_compare.py
"""

from __future__ import annotations

import difflib
import os
from datetime import date
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent
UPDATE_ENV = "ADVISOR_UPDATE_GOLDEN"
TODAY = date(2026, 6, 1)
"""A fixed report date, so price ages (and the golden files) do not move with the calendar."""
VERSION = "0.0.0-golden"
"""A fixed version string, so a release does not change every golden file."""


def check_golden(name: str, text: str) -> None:
    """`text` equals `tests/golden/<name>` byte for byte (or rewrites it with ADVISOR_UPDATE_GOLDEN=1)."""
    path = GOLDEN / name
    data = text.encode("utf-8")
    if os.environ.get(UPDATE_ENV):
        path.write_bytes(data)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; create it with {UPDATE_ENV}=1 pytest {_tests()}")
    expected = path.read_bytes()
    if data != expected:
        diff = difflib.unified_diff(
            expected.decode("utf-8").splitlines(),
            text.splitlines(),
            f"golden/{name}",
            "rendered",
            lineterm="",
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(
            f"{name} differs from its golden file (first lines of the diff below). If the change is "
            f"intended, regenerate with {UPDATE_ENV}=1 pytest {_tests()} and review the diff.\n{shown}"
        )


def _tests() -> str:
    return "tests/test_reports.py tests/test_compare.py"
