"""Reports and comparisons: pure renderers from `ReportData` to Markdown, HTML, JSON or TOML text.

Nothing here reads or writes files; the CLI and the app write the text with `write_atomic`.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from advisor import lazy_attributes
from advisor.report.formats import COMPARISON_FORMATS, REPORT_FORMATS, render_comparison, render_report

FORMATS = tuple(REPORT_FORMATS)
"""Report formats, named by their file extension."""
COMPARE_FORMATS = tuple(COMPARISON_FORMATS)
"""Comparison formats."""

if TYPE_CHECKING:
    from pathlib import Path

    from advisor.report.compare import ComparisonData, build_comparison
    from advisor.report.data import ReportData, build_report

_LAZY = {
    "ComparisonData": "advisor.report.compare",
    "build_comparison": "advisor.report.compare",
    "ReportData": "advisor.report.data",
    "build_report": "advisor.report.data",
}
"""The builders, imported on first use so that the CLI's start-up does not pay for them."""

__getattr__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "COMPARE_FORMATS",
    "FORMATS",
    "ComparisonData",
    "ReportData",
    "build_comparison",
    "build_report",
    "render_comparison",
    "render_report",
]


class _ReportPackage(ModuleType):
    """This package, callable as `advisor.report(scenario, path)`: once imported it is the attribute
    `advisor.report`, which the Python API documents as the function `advisor.api.report`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Path:
        from advisor.api import report

        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _ReportPackage
