"""The report as one self-contained HTML file: inline CSS, inline SVG charts, no scripts, no network.

Every user or catalog string goes through `esc` (`html.escape(..., quote=True)`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from advisor.core.decision.recommendation import FiredRule
from advisor.present.parts import part_label
from advisor.present.serving import serving_line, shown_parts
from advisor.report.assumptions import AssumptionUsed
from advisor.report.breakdowns import Breakdown, breakdown_title
from advisor.report.data import ReportData, generated_line
from advisor.report.html_style import STYLE
from advisor.report.inputs import assumption_rows
from advisor.report.outline import (
    TableSection,
    breakdown_sections,
    inputs_section,
    range_sections,
    systems_sections,
)
from advisor.report.svg import Bar, responsive_chart
from advisor.report.tables import certainty_lines, reason_lines, status

HOURS_AND_DAYS = (1.0, 24.0)
"""Time charts (in hours) tick on round hours, or on round days when the bars are days long."""
CSP = "default-src 'none'; style-src 'unsafe-inline'"
"""Content security policy: the page may load nothing (self-contained even if a string slipped through)."""


def esc(text: object) -> str:
    """User or catalog text, safe in HTML text and attribute values."""
    return escape(str(text), quote=True)


def table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    numeric_from: int = 1,
    cls: str = "",
    win: str = "",
    stack: bool = False,
    stack_on_phone: bool = False,
) -> str:
    """An HTML table; columns from `numeric_from` on are right-aligned; the row for `win` highlighted;
    with `stack`, a table of sentences whose rows stack on a narrow screen (`labelled`); with
    `stack_on_phone`, a table whose rows stack on a phone's screen (a column per scenario)."""
    labels = stack or stack_on_phone

    def cell(tag: str, i: int, text: str) -> str:
        label = f' data-label="{esc(header[i])}"' if labels and tag == "td" else ""
        if i < numeric_from:
            return f"<{tag}{label}>{esc(text)}</{tag}>"
        pair = _PAIR.fullmatch(text) if tag == "td" else None
        if pair is None:
            return f'<{tag}{label} class="num">{esc(text)}</{tag}>'
        value, aside = pair.groups()
        return f'<td{label} class="num pair"><span>{esc(value)}</span> <span>{esc(aside)}</span></td>'

    head = "".join(cell("th", i, h) for i, h in enumerate(header))
    body = []
    for row in rows:
        attr = ' class="win"' if win and row and row[0] == win else ""
        body.append(f"<tr{attr}>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>")
    stacking = "stack" if stack else "stack-phone" if stack_on_phone else ""
    classes = " ".join(c for c in (cls, stacking) if c)
    cls_attr = f' class="{esc(classes)}"' if classes else ""
    return scroll(
        f"<table{cls_attr}><thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(body) + "\n</tbody></table>"
    )


_PAIR = re.compile(r"(\S.*?) (\(.+\))")
"""A figure and its parenthesis (`$2.67M (1.0% of its life)`, a value and its range): the parenthesis
may go under the figure when the column is narrow, neither is broken."""


def labelled(header: Sequence[str], cells: Sequence[str]) -> str:
    """A row of a stacking table: each cell (HTML already) with its column's name, shown beside it when
    the row stacks on a narrow screen."""
    return (
        "<tr>"
        + "".join(f'<td data-label="{esc(h)}">{c}</td>' for h, c in zip(header, cells, strict=True))
        + "</tr>"
    )


def scroll(table_html: str) -> str:
    """A table in a box that scrolls sideways when the table is wider than the page (never the page)."""
    return f'<div class="scroll">{table_html}</div>'


_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")


def notes_html(notes: str) -> str:
    """Free text as paragraphs: blank lines split them, wrapped lines join, list lines keep their breaks."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", notes.strip()):
        html_lines: list[str] = []
        for line in block.splitlines():
            if html_lines and _LIST_ITEM.match(line):
                html_lines.append("<br>")
            elif html_lines:
                html_lines.append(" ")
            html_lines.append(esc(line.strip()))
        paragraphs.append("<p>" + "".join(html_lines) + "</p>")
    return '<div class="notes">' + "".join(paragraphs) + "</div>"


def items(lines: Sequence[str], empty: str = "None.", cls: str = "") -> str:
    if not lines:
        return f"<p>{esc(empty)}</p>"
    cls_attr = f' class="{esc(cls)}"' if cls else ""
    return f"<ul{cls_attr}>" + "".join(f"<li>{esc(line)}</li>" for line in lines) + "</ul>"


def html_section(
    section: TableSection, winner: str = "", *, figure: str = "", cls: str = "", after: Sequence[str] = ()
) -> list[str]:
    """A table under its heading and blurb (or the section's text when it has no rows): a `<section>` with
    `after` at its end, or for a part (level 3) its heading and table. A `figure` goes above the table,
    kept on one page with the heading."""
    heading = f"<h{section.level}>{esc(section.heading)}</h{section.level}>"
    head = [f'<p class="blurb">{esc(section.blurb)}</p>'] if section.blurb else []
    if figure:
        heading = f'<div class="keep">{heading}'
        head.append(f"<figure>{figure}</figure></div>")
    if section.rows or not section.empty:
        win = winner if section.marks_winner else ""
        body = table(
            section.header,
            section.rows,
            numeric_from=section.numeric_from,
            cls=cls,
            win=win,
            stack=section.stacks,
            stack_on_phone=section.stacks_on_phone,
        )
    else:
        body = f"<p>{esc(section.empty)}</p>"
    if section.level > 2:
        return [heading + "".join(head), body]
    return [f'<section id="{esc(section.key)}">{heading}', *head, body, *after, "</section>"]


def breakdown_chart(breakdown: Breakdown, report: ReportData) -> str:
    """A stacked bar per system with an estimate, on one scale."""
    winner = report.recommendation.winner
    bars = [
        Bar(
            label=c.system,
            parts=tuple(shown_parts(getattr(c.estimate, breakdown.key), c.estimate.kind).items()),
            total_text=breakdown.text(breakdown.total(c.estimate)),
            highlight=c.system == winner,
        )
        for c in report.estimated
        if c.estimate is not None
    ]
    title = breakdown_title(breakdown, report.scenario.workload.pricing, report.scenario.workload.kind)
    units = HOURS_AND_DAYS if breakdown.key == "time_breakdown_hours" else (1.0,)
    return responsive_chart(
        f"{title} per system", bars, breakdown.text, part_label=part_label, tick_units=units
    )


def page(title: str, version: str, body: Sequence[str]) -> str:
    """The HTML document around `body`."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="advisor {esc(version)}">\n'
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


NAV = (
    ("recommendation", "Recommendation"),
    ("inputs", "Inputs"),
    ("systems", "All systems"),
    ("serving", "Serving"),
    ("ranges", "Ranges"),
    ("sizing", "Sizing"),
    ("cost", "Cost"),
    ("time", "Time"),
    ("energy", "Energy"),
    ("warnings", "Warnings"),
    ("rules", "Rules"),
    ("assumptions", "Assumptions"),
)


def render_html(report: ReportData) -> str:
    """The whole report as one HTML document."""
    meta = generated_line(report.today, report.version, report.scenario.schema_)
    sections = (_recommendation, _inputs, _systems, _ranges_and_sizing, _breakdowns, _rules, _assumptions)
    shown = [part for section in sections for part in section(report)]
    drawn = "".join(shown)  # the nav links the sections this report has (serving, sizing: when they apply)
    links = "".join(
        f'<a href="#{key}">{esc(label)}</a>' for key, label in NAV if f'<section id="{key}"' in drawn
    )
    body = [
        f"<header><h1>Advisor report: {esc(report.title)}</h1>",
        f'<p class="meta">{esc(meta)}</p></header>',
        f"<nav>{links}</nav>",
    ]
    if report.scenario.notes.strip():
        body.append(notes_html(report.scenario.notes))
    body.extend(shown)
    body.append(f"<footer>advisor {esc(report.version)}, {esc(report.today.isoformat())}</footer>")
    return page(f"Advisor report: {report.title}", report.version, body)


def _recommendation(report: ReportData) -> list[str]:
    rec = report.recommendation
    body = ['<section id="recommendation"><h2>Recommendation</h2><div class="answer">']
    body.append(f'<p class="headline">{esc(rec.headline)}</p>')
    if rec.verdict.owned:
        body.append(f'<p class="owned">{esc(rec.verdict.owned)}.</p>')
    fleet = serving_line(rec)
    if fleet is not None:
        body.append(f'<p class="fleet">{esc(fleet)}</p>')
    winner = rec.winner_candidate
    if winner is None:
        body.append(f'<p class="verdict">{esc(rec.verdict.sentence())}</p>')
    else:
        body.append(f"<p>Why {esc(winner.system)}:</p>")
        body.append(items([rec.verdict.sentence(), *reason_lines(winner)]))
    if rec.cheaper_option is not None:
        sentence = rec.cheaper_option.sentence
        body.append(f'<p class="cheaper">{esc(sentence[:1].upper() + sentence[1:])}.</p>')
    if rec.what_would_change:
        body.append("<p>What would change the answer:</p>" + items(rec.what_would_change))
    certainty = certainty_lines(report)
    if certainty:
        body.append("<p>How sure the answer is:</p>" + items(certainty))
    body.append("</div></section>")
    return body


def _inputs(report: ReportData) -> list[str]:
    return html_section(inputs_section(report), cls="inputs")


def _systems(report: ReportData) -> list[str]:
    rec = report.recommendation
    winner = rec.winner or ""
    systems, *parts = systems_sections(report)
    after = [line for part in parts for line in html_section(part, winner)]
    after.append("<h3>Reasons per system</h3><ul>")
    for cand in rec.candidates:
        state = status(cand, rec.winner)
        tag = state if state in ("recommended", "infeasible", "excluded") else "rank"
        lines = reason_lines(cand)
        reasons = items(lines) if lines else ' <span class="blurb">(no reasons recorded)</span>'
        after.append(
            f'<li><strong>{esc(cand.system)}</strong> <span class="tag {tag}">{esc(state)}</span> '
            f"{esc(cand.system_name)}{reasons}</li>"
        )
    after.append("</ul>")
    return html_section(systems, winner, after=after)


def _ranges_and_sizing(report: ReportData) -> list[str]:
    winner = report.recommendation.winner or ""
    return [line for section in range_sections(report) for line in html_section(section, winner)]


def _breakdowns(report: ReportData) -> list[str]:
    winner = report.recommendation.winner or ""
    body = []
    for section in breakdown_sections(report):
        figure = breakdown_chart(section.breakdown, report) if section.breakdown else ""
        body += html_section(section, winner, figure=figure)
    return body


def _rules(report: ReportData) -> list[str]:
    rec = report.recommendation
    body = ['<section id="warnings"><h2>Warnings</h2>' + items(rec.warnings, cls="warnings") + "</section>"]
    body.append('<section id="rules"><h2>Rules that fired</h2>')
    fired = [[r.id, r.system or "workload", r.effect, r.because, r.source] for r in rec.rules_fired]
    body.append(
        _rules_table(["Rule", "For", "Effect", "Because", "Source"], fired, rec.rules_fired)
        if fired
        else "<p>None.</p>"
    )
    body.append(f'<p class="blurb">{len(rec.rules_checked)} rule evaluations in all.</p></section>')
    return body


def _rules_table(header: Sequence[str], rows: Sequence[Sequence[str]], fired: Sequence[FiredRule]) -> str:
    """The rules that fired, each source linked to where it can be read."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = []
    for row, rule in zip(rows, fired, strict=True):
        cells = [esc(c) for c in row[:-1]] + [source_cell(row[-1], (rule.url,) if rule.url else ())]
        body.append(labelled(header, cells))
    return scroll(
        f'<table class="stack"><thead><tr>{head}</tr></thead><tbody>\n'
        + "\n".join(body)
        + "\n</tbody></table>"
    )


def _assumptions(report: ReportData) -> list[str]:
    header, rows = assumption_rows(report)
    return [
        '<section id="assumptions"><h2>Assumptions used</h2>',
        '<p class="blurb">Every figure behind the numbers, with its source and date. Values set in the '
        "scenario replace the catalog's; prices over a year old are flagged.</p>",
        _assumptions_table(header, rows, report.assumptions) + "</section>",
    ]


def source_cell(source: str, urls: Sequence[str]) -> str:
    """A source's text linked to its first address, with any further addresses as numbered links."""
    if not urls:
        return esc(source)
    first = f'<a href="{esc(urls[0])}">{esc(source)}</a>'
    more = "".join(f' <a href="{esc(u)}">[{i}]</a>' for i, u in enumerate(urls[1:], start=2))
    return first + more


def _assumptions_table(
    header: Sequence[str], rows: Sequence[Sequence[str]], assumptions: Sequence[AssumptionUsed]
) -> str:
    """The assumptions table (`rows`, one per assumption), with each assumption's flags as tags."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = []
    for row, assumption in zip(rows, assumptions, strict=True):
        cells = [esc(c) for c in row[:-1]]
        cells[3] = source_cell(row[3], assumption.urls)
        tags = "".join(
            f'<span class="tag{" stale" if flag.field == "stale" else ""}">{esc(flag.label)}</span>'
            for flag in assumption.flags
        )
        body.append(labelled(header, [*cells, tags]))
    return scroll(
        f'<table class="assumptions stack"><thead><tr>{head}</tr></thead><tbody>\n'
        + "\n".join(body)
        + "\n</tbody></table>"
    )
