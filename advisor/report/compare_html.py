"""A comparison as one self-contained HTML file, with charts of each scenario's recommendation."""

from __future__ import annotations

from advisor.present import numbers
from advisor.present.parts import part_label
from advisor.report.compare import ComparisonData, shown_source, table_sections
from advisor.report.data import generated_line
from advisor.report.html import esc, html_section, items, notes_html, page
from advisor.report.svg import Bar, responsive_chart


def _per_million(values: dict[str, float], tokens: float) -> tuple[tuple[str, float], ...]:
    return tuple((part, value / tokens * 1e6) for part, value in values.items())


def _charts(comp: ComparisonData) -> list[str]:
    """One bar per scenario, its recommended system's parts: cost and energy per 1M tokens (so runs of
    different sizes compare), and time to result."""
    charts = (
        ("Cost per 1M tokens", "cost_breakdown_usd", numbers.cents_or_dollars, True),
        ("Time to result", "time_breakdown_hours", numbers.duration, False),
        ("Energy per 1M tokens", "energy_breakdown_kwh", numbers.energy, True),
    )
    out = []
    for title, key, text, per_million in charts:
        bars = []
        for label, report in zip(comp.labels, comp.reports, strict=True):
            est = report.winner_estimate
            if est is None:
                continue
            values = getattr(est, key)
            parts = _per_million(values, est.tokens) if per_million else tuple(values.items())
            total = sum(v for _, v in parts)
            bars.append(Bar(label=f"{label}: {est.system}", parts=parts, total_text=text(total)))
        if bars:
            chart = responsive_chart(
                f"{title} of each scenario's recommendation",
                bars,
                text,
                part_label=part_label,
                labels_above=True,
                tick_units=(1.0, 24.0) if key == "time_breakdown_hours" else (1.0,),
            )
            out.append(f"<h3>{esc(title)}</h3><figure>{chart}</figure>")
    return out


def render_comparison_html(comp: ComparisonData) -> str:
    """The whole comparison as one HTML document."""
    title = f"Advisor comparison: {len(comp.reports)} scenarios"
    meta = generated_line(comp.today, comp.version)
    body = [f"<header><h1>{esc(title)}</h1>", f'<p class="meta">{esc(meta)}</p></header>']

    body.append('<section id="scenarios"><h2>Scenarios</h2>')
    for label, source, report in zip(comp.labels, comp.sources, comp.reports, strict=True):
        shown = shown_source(label, source)
        where = f' <span class="meta">({esc(shown)})</span>' if shown else ""
        body.append(f"<h3>{esc(label)}{where}</h3>")
        rec = report.recommendation
        body.append(
            f'<div class="answer"><p class="headline">{esc(rec.headline)}</p>'
            f"<p>{esc(rec.verdict.sentence())}</p></div>"
        )
        if report.scenario.notes.strip():
            body.append(notes_html(report.scenario.notes))
    body.append("</section>")

    for section in table_sections(comp):
        body += html_section(section, after=_charts(comp) if section.key == "outcome" else ())

    body.append('<section id="warnings"><h2>Warnings</h2>')
    for label, report in zip(comp.labels, comp.reports, strict=True):
        body.append(f"<h3>{esc(label)}</h3>" + items(report.recommendation.warnings, cls="warnings"))
    body.append("</section>")
    body.append(f"<footer>advisor {esc(comp.version)}, {esc(comp.today.isoformat())}</footer>")
    return page(title, comp.version, body)
