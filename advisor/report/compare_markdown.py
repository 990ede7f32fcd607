"""A comparison as Markdown: what differs, how the answer and its costs move, every system in each."""

from __future__ import annotations

from advisor.report.compare import (
    ComparisonData,
    difference_rows,
    matrix_columns,
    outcome_blurb,
    outcome_rows,
    system_matrix,
)
from advisor.report.data import generated_line
from advisor.report.markdown import md_list, md_quote, md_table, md_text


def render_comparison_markdown(comp: ComparisonData) -> str:
    """The whole comparison as Markdown text."""
    out = [f"# Advisor comparison: {len(comp.reports)} scenarios", ""]
    out += [md_text(generated_line(comp.today, comp.version)) + ".", "", "## Scenarios", ""]
    for label, source, report in zip(comp.labels, comp.sources, comp.reports, strict=True):
        where = f" ({md_text(source)})" if source else ""
        rec = report.recommendation
        out += [f"### {md_text(label)}{where}", "", f"**{md_text(rec.headline)}**", ""]
        out += [md_text(rec.verdict.sentence()), ""]
        if report.scenario.notes.strip():
            out += [*md_quote(report.scenario.notes), ""]

    header, rows = difference_rows(comp)
    out += ["## What differs", ""]
    out += [*md_table(header, rows, right_from=len(header)), ""] if rows else ["The inputs are the same.", ""]

    header, rows = outcome_rows(comp)
    out += ["## How the answer moves", ""]
    out += [md_text(outcome_blurb(comp)), ""]
    out += [*md_table(header, rows), ""]

    for column in matrix_columns(comp):
        header, rows = system_matrix(comp, column)
        out += [f"## {column.heading} of every system", "", "Each scenario's recommendation is marked.", ""]
        out += [*md_table(header, rows), ""]

    out += ["## Warnings", ""]
    for label, report in zip(comp.labels, comp.reports, strict=True):
        out += [f"### {md_text(label)}", "", *md_list(report.recommendation.warnings), ""]
    out += ["---", "", f"advisor {md_text(comp.version)}, {comp.today.isoformat()}", ""]
    return "\n".join(out)
