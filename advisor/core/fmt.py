"""Human formatting of money, time, energy and counts, shared by the CLI, the app and the reports."""

from __future__ import annotations

import math

REASON_STYLES = {
    "infeasible": "red",
    "exclude": "red",
    "penalize": "yellow",
    "prefer": "green",
    "warn": "yellow",
    "note": "dim",
}
"""How each kind of reason is marked wherever reasons are shown (Rich style names)."""


def money(usd: float) -> str:
    """$162.7k, $1.63M, $0.542, $12.30."""
    if not math.isfinite(usd):
        return "n/a"
    sign = "-" if usd < 0 else ""
    usd = abs(usd)
    if usd >= 1e9:
        return f"{sign}${usd / 1e9:.3g}B"
    if usd >= 1e6:
        return f"{sign}${usd / 1e6:.3g}M"
    if usd >= 1e4:
        return f"{sign}${usd / 1e3:.4g}k"
    if usd >= 100:
        return f"{sign}${usd:,.0f}"
    if usd >= 1:
        return f"{sign}${usd:,.2f}"
    return f"{sign}${usd:.3g}"


def cents_or_dollars(usd: float) -> str:
    """Cost per 1M tokens: 54.2¢ below a dollar, $3.10 above."""
    if usd < 1:
        return f"{usd * 100:.3g}¢"
    return money(usd)


def duration(hours: float) -> str:
    """12 min, 5.2 h, 37.5 days, 1.4 years."""
    if not math.isfinite(hours):
        return "n/a"
    if hours < 1:
        return f"{hours * 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    days = hours / 24
    if days < 730:
        return f"{days:.1f} days"
    return f"{days / 365:.1f} years"


def energy(kwh: float) -> str:
    """850 kWh, 12.3 MWh, 4.91 GWh."""
    if kwh >= 1e6:
        return f"{kwh / 1e6:.3g} GWh"
    if kwh >= 1e3:
        return f"{kwh / 1e3:.3g} MWh"
    return f"{kwh:.3g} kWh"


def count(value: float) -> str:
    """15T, 70B, 2.05k."""
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:.3g}"


def percent(fraction: float, digits: int = 1) -> str:
    return f"{fraction * 100:.{digits}f}%"


def duration_span(low_hours: float, high_hours: float) -> str:
    """`3.8–4.2 days`: both ends in the unit of the larger one."""
    if high_hours < 1:
        return f"{low_hours * 60:.0f}–{high_hours * 60:.0f} min"
    if high_hours < 48:
        return f"{low_hours:.1f}–{high_hours:.1f} h"
    if high_hours < 730 * 24:
        return f"{low_hours / 24:.1f}–{high_hours / 24:.1f} days"
    return f"{low_hours / 8760:.1f}–{high_hours / 8760:.1f} years"


def money_span(low: float, high: float) -> str:
    """`$1.52k–$2.1k`, `$2.32M–$2.72M`: both ends at the scale of the larger one."""
    for factor, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if high >= factor:
            return f"${low / factor:.3g}{suffix}–${high / factor:.3g}{suffix}"
    return f"${low:,.2f}–${high:,.2f}"


def energy_span(low_kwh: float, high_kwh: float) -> str:
    """`1.22–1.51 MWh`."""
    for factor, unit in ((1e6, "GWh"), (1e3, "MWh")):
        if high_kwh >= factor:
            return f"{low_kwh / factor:.3g}–{high_kwh / factor:.3g} {unit}"
    return f"{low_kwh:.3g}–{high_kwh:.3g} kWh"


def input_value(name: str, value: float) -> str:
    """An uncertain input's value in its own unit: MFU and goodput as %, prices and capex in dollars."""
    if name in ("mfu", "goodput"):
        return percent(value)
    if name == "price":
        return f"${value:.2f}/GPU-h"
    if name == "capex":
        return money(value)
    if name == "electricity":
        return f"{value * 100:.2f}¢/kWh"
    return f"{value:.3g}"
