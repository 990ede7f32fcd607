"""The report's and the comparison's tables as every writer lays them out: an anchor, a heading, a
blurb and the rows (or the text said when there are none). The Markdown and HTML writers each walk
the same sections, so a heading, blurb or 'none' text is written once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from advisor.report.breakdowns import BREAKDOWNS, Breakdown, breakdown_blurb, breakdown_rows, breakdown_title
from advisor.report.data import ReportData
from advisor.report.inputs import input_rows
from advisor.report.tables import (
    PURCHASE_BLURB,
    PURCHASE_HEADER,
    comparison_blurb,
    comparison_rows,
    purchase_rows,
    range_blurb,
    range_rows,
    serving_blurb,
    serving_rows,
    sizing_blurb,
    sizing_note,
    sizing_rows,
)


@dataclass(frozen=True)
class TableSection:
    """One table as every format writes it: its anchor, heading, blurb and rows."""

    key: str
    """The HTML section's id."""
    heading: str
    blurb: str
    header: Sequence[str]
    rows: Sequence[Sequence[str]]
    numeric_from: int = 1
    """Columns from this one on are numbers (right-aligned)."""
    empty: str = ""
    """The text instead of the table when it has no rows (empty: the table, even without rows)."""
    marks_winner: bool = False
    """The recommended system's row is highlighted (HTML)."""
    level: int = 2
    """2: a section of the document; 3: a part of the section before it."""
    breakdown: Breakdown | None = None
    """A breakdown's table: the one charted above it (HTML)."""
    stacks: bool = False
    """A table of sentences: its rows stack on a narrow screen (HTML), so no sentence is squeezed."""
    stacks_on_phone: bool = False
    """A table with a column per scenario: its rows stack on a phone's screen (HTML), where the columns
    cannot all fit side by side."""


def inputs_section(report: ReportData) -> TableSection:
    """The scenario's inputs, one row each."""
    return TableSection("inputs", "Inputs", "", ["Input", "Value"], input_rows(report), numeric_from=2)


def systems_sections(report: ReportData) -> list[TableSection]:
    """Every system's figures, then (when buying) what buying means for each."""
    header, rows = comparison_rows(report)
    blurb = comparison_blurb(report.recommendation)
    sections = [
        TableSection("systems", "Comparison of all systems", blurb, header, rows, 2, marks_winner=True)
    ]
    bought = purchase_rows([c.estimate for c in report.estimated if c.estimate])
    if bought:
        sections.append(
            TableSection(
                "buying",
                "What buying means",
                PURCHASE_BLURB,
                PURCHASE_HEADER,
                bought,
                2,
                marks_winner=True,
                level=3,
            )
        )
    return sections


def range_sections(report: ReportData) -> list[TableSection]:
    """Those of serving, ranges and sizing to the deadline that the report has."""
    sections = []
    header, rows = serving_rows(report)
    if rows:
        sections.append(
            TableSection("serving", "Serving", serving_blurb(report.recommendation), header, rows)
        )
    header, rows = range_rows(report)
    if rows:
        blurb = range_blurb(report)
        sections.append(TableSection("ranges", "Ranges", blurb, header, rows, marks_winner=True))
    if report.sizing:
        header, rows = sizing_rows(report)
        sections.append(
            TableSection(
                "sizing",
                "Sizing to the deadline",
                sizing_blurb(report) + sizing_note(report),
                header,
                rows,
                numeric_from=2,
                stacks=True,
            )
        )
    return sections


def breakdown_sections(report: ReportData) -> list[TableSection]:
    """Cost, time and energy per system, by part."""
    sections = []
    for key, breakdown in zip(("cost", "time", "energy"), BREAKDOWNS, strict=True):
        header, rows = breakdown_rows(breakdown, report.estimated)
        estimates = [c.estimate for c in report.estimated if c.estimate is not None]
        title = breakdown_title(breakdown, report.scenario.workload.pricing, report.scenario.workload.kind)
        sections.append(
            TableSection(
                key,
                f"{title} breakdown",
                breakdown_blurb(breakdown, report.scenario.workload.kind, estimates),
                header,
                rows,
                marks_winner=True,
                breakdown=breakdown,
            )
        )
    return sections
