"""A comparison as Markdown: what differs, how the answer and its costs move, every system in each."""

from __future__ import annotations

from advisor.report.compare import ComparisonData, shown_source, table_sections
from advisor.report.data import generated_line
from advisor.report.markdown import md_list, md_quote, md_section, md_text


def render_comparison_markdown(comp: ComparisonData) -> str:
    """The whole comparison as Markdown text."""
    out = [f"# Advisor comparison: {len(comp.reports)} scenarios", ""]
    out += [md_text(generated_line(comp.today, comp.version)) + ".", "", "## Scenarios", ""]
    for label, source, report in zip(comp.labels, comp.sources, comp.reports, strict=True):
        shown = shown_source(label, source)
        where = f" ({md_text(shown)})" if shown else ""
        rec = report.recommendation
        out += [f"### {md_text(label)}{where}", "", f"**{md_text(rec.headline)}**", ""]
        out += [md_text(rec.verdict.sentence()), ""]
        if report.scenario.notes.strip():
            out += [*md_quote(report.scenario.notes), ""]

    for section in table_sections(comp):
        out += md_section(section)

    out += ["## Warnings", ""]
    for label, report in zip(comp.labels, comp.reports, strict=True):
        out += [f"### {md_text(label)}", "", *md_list(report.recommendation.warnings), ""]
    out += ["---", "", f"advisor {md_text(comp.version)}, {comp.today.isoformat()}", ""]
    return "\n".join(out)
