"""The report as Markdown: readable as plain text in a code review, with tables for the numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence

from advisor.present.serving import serving_line
from advisor.report.data import ReportData, generated_line
from advisor.report.inputs import assumption_rows
from advisor.report.outline import (
    TableSection,
    breakdown_sections,
    inputs_section,
    range_sections,
    systems_sections,
)
from advisor.report.tables import certainty_lines, reason_lines, status

_SPECIAL = re.compile(r"([\\`*\[\]<>|])")
_LINE_START = re.compile(r"^(\s*)([#+=-])")


def md_text(text: str) -> str:
    """User or catalog text made inert: Markdown and HTML specials escaped, one line."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> list[str]:
    """A GitHub table; columns from `right_from` on are right-aligned (numbers)."""
    align = ["---" if i < right_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(md_text(h) for h in header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(md_text(cell) for cell in row) + " |" for row in rows]
    return lines


def md_quote(text: str) -> list[str]:
    """Free text (the scenario's notes) as a block quote, line breaks kept."""
    lines = []
    for line in text.strip().splitlines():
        escaped = _LINE_START.sub(r"\1\\\2", _SPECIAL.sub(r"\\\1", line.rstrip()))
        lines.append(f"> {escaped}".rstrip())
    return lines


def _with_urls(row: list[str], urls: Sequence[str]) -> list[str]:
    """The assumptions row with the source's addresses after its text (GitHub links bare URLs)."""
    return [*row[:3], _source_text(row[3], urls), *row[4:]]


def _source_text(source: str, urls: Sequence[str]) -> str:
    """A source's text, then the addresses it does not already name."""
    return " ".join([source, *(url for url in urls if url and url not in source)])


def md_list(items: Sequence[str], empty: str = "None.") -> list[str]:
    return [f"- {md_text(item)}" for item in items] or [empty]


def md_section(section: TableSection) -> list[str]:
    """A table under its heading and blurb (or the section's text when it has no rows)."""
    out = [f"{'#' * section.level} {md_text(section.heading)}", ""]
    out += [md_text(section.blurb), ""] if section.blurb else []
    if section.rows or not section.empty:
        return [*out, *md_table(section.header, section.rows, right_from=section.numeric_from), ""]
    return [*out, md_text(section.empty), ""]


def render_markdown(report: ReportData) -> str:
    """The whole report as Markdown text."""
    out = [f"# Advisor report: {md_text(report.title)}", ""]
    out += [md_text(generated_line(report.today, report.version, report.scenario.schema_)) + ".", ""]
    if report.scenario.notes.strip():
        out += [*md_quote(report.scenario.notes), ""]
    sections = (_recommendation, _inputs, _systems, _ranges_and_sizing, _breakdowns, _rules, _assumptions)
    for section in sections:
        out += section(report)
    out += ["---", "", f"advisor {md_text(report.version)}, {report.today.isoformat()}", ""]
    return "\n".join(out)


def _recommendation(report: ReportData) -> list[str]:
    rec = report.recommendation
    out = ["## Recommendation", "", f"**{md_text(rec.headline)}**", ""]
    if rec.verdict.owned:
        out += [md_text(rec.verdict.owned) + ".", ""]
    fleet = serving_line(rec)
    if fleet is not None:
        out += [md_text(fleet), ""]
    winner = rec.winner_candidate
    if winner is None:
        out += [md_text(rec.verdict.sentence()), ""]
    else:
        out += [f"Why {md_text(winner.system)}:", ""]
        out += [*md_list([rec.verdict.sentence(), *reason_lines(winner)]), ""]
    if rec.cheaper_option is not None:
        out += [md_text(rec.cheaper_option.sentence[:1].upper() + rec.cheaper_option.sentence[1:]) + ".", ""]
    if rec.what_would_change:
        out += ["What would change the answer:", "", *md_list(rec.what_would_change), ""]
    certainty = certainty_lines(report)
    if certainty:
        out += ["How sure the answer is:", "", *md_list(certainty), ""]
    return out


def _inputs(report: ReportData) -> list[str]:
    return md_section(inputs_section(report))


def _systems(report: ReportData) -> list[str]:
    rec = report.recommendation
    out = [line for section in systems_sections(report) for line in md_section(section)]
    out += ["### Reasons per system", ""]
    for cand in rec.candidates:
        out.append(f"- **{md_text(cand.system)}** ({status(cand, rec.winner)}): {md_text(cand.system_name)}")
        out += [f"  - {md_text(line)}" for line in reason_lines(cand)] or ["  - no reasons recorded"]
    out.append("")
    return out


def _ranges_and_sizing(report: ReportData) -> list[str]:
    return [line for section in range_sections(report) for line in md_section(section)]


def _breakdowns(report: ReportData) -> list[str]:
    return [line for section in breakdown_sections(report) for line in md_section(section)]


def _rules(report: ReportData) -> list[str]:
    rec = report.recommendation
    out = ["## Warnings", "", *md_list(rec.warnings), ""]
    out += ["## Rules that fired", ""]
    fired = [
        [r.id, r.system or "workload", r.effect, r.because, _source_text(r.source, (r.url,))]
        for r in rec.rules_fired
    ]
    if fired:
        out += md_table(["Rule", "For", "Effect", "Because", "Source"], fired, right_from=5)
    else:
        out.append("None.")
    out += ["", f"{len(rec.rules_checked)} rule evaluations in all.", ""]
    return out


def _assumptions(report: ReportData) -> list[str]:
    header, rows = assumption_rows(report)
    rows = [_with_urls(row, a.urls) for row, a in zip(rows, report.assumptions, strict=True)]
    out = ["## Assumptions used", ""]
    out += [
        "Every figure behind the numbers, with its source and date. "
        "Values set in the scenario replace the catalog's; prices over a year old are flagged."
    ]
    out += ["", *md_table(header, rows, right_from=6), ""]
    stale = report.stale_prices
    if stale:
        names = ", ".join(f"{a.subject} {a.topic} ({a.as_of})" for a in stale)
        out += [
            f"Prices over a year old on {report.today.isoformat()}: {md_text(names)}. Get current quotes.",
            "",
        ]
    return out
