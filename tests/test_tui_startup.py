"""The app's start-up stays light (issue 13.7): what the first screen needs is imported at once, the
core's computation and the hidden tabs' views only after it is drawn (benchmarks/bench_tui.py times it)."""

from __future__ import annotations

import subprocess
import sys

DEFERRED = (
    "advisor.core.run",
    "advisor.core.analysis.sensitivity",
    "advisor.core.costing.estimate",
    "advisor.report.assumptions",
    "advisor.tui.advice",
    "advisor.tui.widgets.comparison_view",
    "advisor.tui.widgets.rules_trace",
    "textual.widgets._data_table",
)
"""Modules the first screen does without: the first advice loads them in its thread once it is drawn."""


def test_the_app_module_leaves_the_computation_for_after_the_first_screen():
    code = "import sys, advisor.tui.app; print('\\n'.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout.split()
    )
    assert "advisor.tui.app" in loaded
    assert not loaded & set(DEFERRED), f"imported before the first screen: {sorted(loaded & set(DEFERRED))}"
