"""Horizontal bar charts in the terminal, as Rich renderables (used by the breakdown view)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.table import Table
from rich.text import Text

from advisor.present import numbers
from advisor.present.parts import part_label

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(fraction: float, width: int) -> str:
    """A bar `fraction` of `width` cells long, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, rest = divmod(eighths, 8)
    return ("█" * full + (_EIGHTHS[rest] if rest else "")).ljust(width)


def bar_chart(
    title: str,
    parts: Mapping[str, float],
    show: Callable[[float], str],
    *,
    width: int = 20,
    style: str = "",
) -> Table:
    """A titled chart: one row per part with its bar, value and share of the total."""
    total = sum(parts.values())
    table = Table.grid(padding=(0, 1))
    table.title = f"{title}: {show(total)}"
    table.title_justify = "left"
    table.title_style = "bold"
    table.add_column("part", no_wrap=True, min_width=20)
    table.add_column("bar", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("share", justify="right", no_wrap=True)
    for name, value in parts.items():
        share = value / total if total > 0 else 0.0
        table.add_row(
            part_label(name),
            Text(bar(share, width), style=style),
            show(value),
            numbers.percent(share, 0),
        )
    return table
