"""The format registry: every output format by file extension, with its name and renderer.

The CLI's `report` and `compare`, and the app's export dialog, offer exactly what is registered here.
Renderers are named as `module:function` and imported on first use, so start-up does not pay for them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from advisor.errors import UsageError
from advisor.present.sanitise import report_text


@dataclass(frozen=True)
class Format:
    """One output format: its file extension, its name for people, and the renderer to text."""

    extension: str
    name: str
    renderer: str
    """`module:function`; the function takes the report (or comparison) and returns the text."""

    def render(self, data: Any) -> str:
        """`data` as text in this format, control characters and bidi overrides written as escapes."""
        module, function = self.renderer.split(":")
        render: Callable[[Any], str] = getattr(importlib.import_module(module), function)
        return report_text(render(data))


def _registry(*formats: Format) -> dict[str, Format]:
    return {f.extension: f for f in formats}


REPORT_FORMATS: Mapping[str, Format] = _registry(
    Format("md", "Markdown", "advisor.report.markdown:render_markdown"),
    Format("html", "HTML", "advisor.report.html:render_html"),
    Format("json", "JSON", "advisor.report.json_report:render_json"),
    Format("toml", "TOML", "advisor.report.toml_report:render_toml"),
)
"""Report formats (`advisor report`, the app's export)."""

COMPARISON_FORMATS: Mapping[str, Format] = _registry(
    Format("md", "Markdown", "advisor.report.compare_markdown:render_comparison_markdown"),
    Format("html", "HTML", "advisor.report.compare_html:render_comparison_html"),
    Format("json", "JSON", "advisor.report.compare:render_comparison_json"),
)
"""Comparison formats (`advisor compare`)."""

ALIASES = {"markdown": "md", "htm": "html"}
"""Other file extensions taken to mean a registered one."""


def format_names(registry: Mapping[str, Format]) -> str:
    """`Markdown, HTML, JSON or TOML`: the registered formats' names, for help text."""
    names = [f.name for f in registry.values()]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def find_format(registry: Mapping[str, Format], extension: str, what: str = "report") -> Format:
    """The registered format for `extension` (or an alias of it); UsageError naming the valid ones."""
    found = registry.get(ALIASES.get(extension, extension))
    if found is None:
        raise UsageError(f"unknown {what} format {extension!r}; valid: {', '.join(registry)}")
    return found


def render_report(report: Any, fmt: str) -> str:
    """The report (`ReportData`) as text in `fmt` (an extension in REPORT_FORMATS)."""
    return find_format(REPORT_FORMATS, fmt).render(report)


def render_comparison(comp: Any, fmt: str) -> str:
    """The comparison (`ComparisonData`) as text in `fmt` (an extension in COMPARISON_FORMATS)."""
    return find_format(COMPARISON_FORMATS, fmt, "comparison").render(comp)
