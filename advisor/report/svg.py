"""Inline SVG bar charts for the HTML reports: one stacked horizontal bar per system (or scenario).

Pure string building; every label is escaped. Colours are the Okabe–Ito palette (readable with
colour-blindness and in greyscale print, with the legend's order matching the stacking order).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999")
WIDTH = 760
"""The chart's width in its own units (12 of them a character): a page shows it at most this many px."""
NARROW_WIDTH = 360
"""The narrow layout's width (labels above the bars, the legend wrapped), for a phone: at 360 px its
text is still 11 px."""
LABEL_W = 170
VALUE_W = 110
BAR_H = 20
BAR_GAP = 10
LABEL_ABOVE_H = 18
LEGEND_ROW_H = 20
CHAR_W = 7.0
"""Approximate width of a 12px character, for laying out the legend and clipping labels."""
AXIS_H = 24
"""Room under the bars for the axis: tick marks and their labels."""
TICKS = 4
"""About how many intervals the axis shows."""
NICE_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
"""Tick intervals are one of these times a power of ten."""


@dataclass(frozen=True)
class Bar:
    """One bar: a label, its parts (name, value) in stacking order, and the text shown after it."""

    label: str
    parts: tuple[tuple[str, float], ...]
    total_text: str
    highlight: bool = False
    """Drawn in bold (the recommended system)."""


def _e(text: str) -> str:
    return escape(str(text), quote=True)


def _clip(text: str, width: float) -> str:
    limit = max(int(width / CHAR_W), 4)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _legend(names: Sequence[str], colors: dict[str, str], width: float) -> tuple[list[str], float]:
    """The legend's items, wrapped onto as many rows as `width` needs, and the height they take."""
    items, x, y = [], 0.0, 0.0
    for name in names:
        item_w = 18 + len(name) * CHAR_W + 16
        if x and x + item_w - 16 > width:
            x, y = 0.0, y + LEGEND_ROW_H
        items.append(
            f'<rect x="{x:.0f}" y="{y + 3:.0f}" width="12" height="12" fill="{colors[name]}"/>'
            f'<text x="{x + 18:.0f}" y="{y + 13:.0f}">{_e(name)}</text>'
        )
        x += item_w
    return items, y + LEGEND_ROW_H + 8


def nice_ticks(maximum: float, count: int = TICKS, units: Sequence[float] = (1.0,)) -> list[float]:
    """Round tick values from 0 to at most `maximum`, about `count` intervals (1, 2, 2.5 or 5 x 10^k),
    counted in the largest of `units` that `maximum` holds `count` times (hours -> days, say)."""
    if maximum <= 0:
        return [0.0]
    unit = max((u for u in units if maximum / u >= count), default=units[0])
    return [tick * unit for tick in _round_ticks(maximum / unit, count)]


def _round_ticks(maximum: float, count: int) -> list[float]:
    raw = maximum / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in NICE_STEPS if m * magnitude >= raw * (1 - 1e-9))
    return [i * step for i in range(int(maximum / step * (1 + 1e-9)) + 1)]


_ROUND = re.compile(r"(\d)\.0+(?=\D|$)")
"""A tick's trailing zero decimals ("100.0 days" -> "100 days"): tick values are round."""
AXIS_INK = "#59636e"
GRID_INK = "#e3e7eb"


def _axis(
    left: float,
    area: float,
    top: float,
    y: float,
    scale_max: float,
    value_text: Callable[[float], str],
    units: Sequence[float],
) -> list[str]:
    """The value axis under the bars: a baseline, and per round value a faint gridline, a tick, a label."""
    out = [f'<line x1="{left}" y1="{y:.0f}" x2="{left + area:.0f}" y2="{y:.0f}" stroke="{AXIS_INK}"/>']
    for tick in nice_ticks(scale_max, units=units):
        x = left + tick / scale_max * area
        anchor = "start" if tick == 0 and left < 40 else "middle"
        label = _ROUND.sub(r"\1", value_text(tick))
        out.append(
            f'<line x1="{x:.1f}" y1="{top:.0f}" x2="{x:.1f}" y2="{y:.0f}" stroke="{GRID_INK}"/>'
            f'<line x1="{x:.1f}" y1="{y:.0f}" x2="{x:.1f}" y2="{y + 4:.0f}" stroke="{AXIS_INK}"/>'
            f'<text class="tick" x="{x:.1f}" y="{y + 17:.0f}" text-anchor="{anchor}" fill="{AXIS_INK}">'
            f"{_e(label)}</text>"
        )
    return out


def _bar_label(label: str, y: float, weight: str, above_width: float | None) -> str:
    """A bar's label: on its own line above the bar (`above_width` wide), or right-aligned left of it."""
    if above_width is not None:
        return f'<text x="0" y="{y - 5:.0f}"{weight}>{_e(_clip(label, above_width))}</text>'
    return (
        f'<text x="{LABEL_W - 8}" y="{y + 14:.0f}" text-anchor="end"{weight}>'
        f"{_e(_clip(label, LABEL_W - 8))}</text>"
    )


def stacked_bars(
    title: str,
    bars: Sequence[Bar],
    value_text: Callable[[float], str],
    *,
    part_label: Callable[[str], str] = str,
    labels_above: bool = False,
    tick_units: Sequence[float] = (1.0,),
    width: int = WIDTH,
    cls: str = "chart",
) -> str:
    """An SVG chart of `bars` on one linear scale from zero, with a legend of the parts and a value
    axis with round ticks under the bars, `width` units wide; it scales to its box (a viewBox, no size).

    Labels sit left of the bars, or with `labels_above` on a line of their own (for long labels).
    `tick_units` lets ticks fall on round multiples of a larger unit (e.g. (1, 24) for hours and days).
    """
    names = list(dict.fromkeys(name for bar in bars for name, _ in bar.parts))
    colors = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}
    labels = {part_label(n): colors[n] for n in names}
    legend, top = _legend(list(labels), labels, width)
    scale_max = max((sum(max(v, 0.0) for _, v in bar.parts) for bar in bars), default=0.0) or 1.0
    left = 0 if labels_above else LABEL_W
    label_h = LABEL_ABOVE_H if labels_above else 0
    row_h = label_h + BAR_H + BAR_GAP
    area = width - left - VALUE_W
    bars_bottom = top + len(bars) * row_h
    height = bars_bottom + AXIS_H
    out = [
        f'<svg class="{_e(cls)}" viewBox="0 0 {width} {height:.0f}" role="img" aria-label="{_e(title)}" '
        'preserveAspectRatio="xMinYMin meet">',
        f"<title>{_e(title)}</title>",
        *legend,
        '<g class="axis">',
        *_axis(left, area, top, bars_bottom, scale_max, value_text, tick_units),
        "</g>",
    ]
    for index, bar in enumerate(bars):
        y = top + index * row_h + label_h
        weight = ' class="win"' if bar.highlight else ""
        out.append(_bar_label(bar.label, y, weight, width if labels_above else None))
        x = float(left)
        for name, value in bar.parts:
            part_w = max(value, 0.0) / scale_max * area
            if part_w <= 0:
                continue
            out.append(
                f'<rect x="{x:.2f}" y="{y:.0f}" width="{part_w:.2f}" height="{BAR_H}" fill="{colors[name]}">'
                f"<title>{_e(bar.label)}, {_e(part_label(name))}: {_e(value_text(value))}</title></rect>"
            )
            x += part_w
        out.append(f'<text x="{x + 6:.2f}" y="{y + 14:.0f}"{weight}>{_e(bar.total_text)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def responsive_chart(
    title: str,
    bars: Sequence[Bar],
    value_text: Callable[[float], str],
    *,
    part_label: Callable[[str], str] = str,
    labels_above: bool = False,
    tick_units: Sequence[float] = (1.0,),
) -> str:
    """The chart twice: laid out `WIDTH` wide (class `wide`), and `NARROW_WIDTH` wide with its labels
    above the bars (class `narrow`); the page's stylesheet shows the one that fits its width, so the
    text stays legible on a phone without the chart scrolling."""
    layouts = ((labels_above, WIDTH, "chart wide"), (True, NARROW_WIDTH, "chart narrow"))
    return "\n".join(
        stacked_bars(
            title,
            bars,
            value_text,
            part_label=part_label,
            labels_above=above,
            tick_units=tick_units,
            width=width,
            cls=cls,
        )
        for above, width, cls in layouts
    )
