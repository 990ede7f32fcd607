"""Reports and comparisons: pure renderers from `ReportData` to Markdown, HTML, JSON or TOML text.

Nothing here reads or writes files; the CLI and the app write the text with `write_atomic`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from advisor.errors import UsageError

FORMATS = ("md", "html", "json", "toml")
"""Report formats, named by their file extension."""
COMPARE_FORMATS = ("md", "html", "json")
"""Comparison formats."""

if TYPE_CHECKING:
    from advisor.report.compare import ComparisonData, build_comparison, render_comparison
    from advisor.report.data import ReportData, build_report

_LAZY = {
    "ComparisonData": "advisor.report.compare",
    "build_comparison": "advisor.report.compare",
    "render_comparison": "advisor.report.compare",
    "ReportData": "advisor.report.data",
    "build_report": "advisor.report.data",
}


def __getattr__(name: str) -> Any:
    """Import the builders on first use, so the CLI's start-up does not pay for them."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(name)


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


def render_report(report: ReportData, fmt: str) -> str:
    """The report as text in `fmt` (one of FORMATS)."""
    if fmt == "md":
        from advisor.report.markdown import render_markdown

        return render_markdown(report)
    if fmt == "html":
        from advisor.report.html import render_html

        return render_html(report)
    if fmt == "json":
        from advisor.report.json_report import render_json

        return render_json(report)
    if fmt == "toml":
        from advisor.report.toml_report import render_toml

        return render_toml(report)
    raise UsageError(f"unknown report format {fmt!r}; valid: {', '.join(FORMATS)}")
