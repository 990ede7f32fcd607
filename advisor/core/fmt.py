"""Number formats for people (money, time, energy, counts, shares): pure text, so the core's messages use
them too. The surfaces read them, with ranges and styles, through `advisor.present`."""

from __future__ import annotations

import math

MONEY_STEPS = (
    (1e12, 1e12, ".3g", "T"),
    (1e9, 1e9, ".3g", "B"),
    (1e6, 1e6, ".3g", "M"),
    (1e4, 1e3, ".4g", "k"),
    (100, 1, ",.0f", ""),
    (1, 1, ",.2f", ""),
)
"""Money below $1000T: (at least, divided by, format, suffix); thousands keep four digits ($162.7k)."""


def money(usd: float) -> str:
    """$162.7k, $1.63M, $0.542, $12.30; past $1000T, $1.86e+23."""
    if not math.isfinite(usd):
        return "n/a"
    sign = "-" if usd < 0 else ""
    usd = abs(usd)
    if usd >= 1e15:
        return f"{sign}${usd:.3g}"
    for floor, factor, spec, suffix in MONEY_STEPS:
        if usd >= floor:
            return f"{sign}${usd / factor:{spec}}{suffix}"
    return f"{sign}${usd:.3g}"


def cents_or_dollars(usd: float) -> str:
    """Cost per 1M tokens: 54.2¢ below a dollar, $3.10 above. Float noise is rounded off first, so one
    value computed two ways (0.1375 and 0.13749999999999998) reads the same (13.8¢) everywhere."""
    if usd < 1:
        return f"{round(usd * 100, 9):.3g}¢"
    return money(usd)


def duration(hours: float) -> str:
    """12 min, 5.2 h, 37.5 days, 1.4 years, 12,345 years; past a million years, 6.65e+17 years."""
    if not math.isfinite(hours):
        return "n/a"
    if hours < 1:
        return f"{hours * 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    days = hours / 24
    if days < 730:
        return f"{days:.1f} days"
    return years(days / 365)


YEAR_STEPS = ((1000, 1, ".1f", "years"), (1e6, 1, ",.0f", "years"), (math.inf, 1, ".3g", "years"))
"""Years: (below, divided by, format, unit)."""


def years(value: float) -> str:
    """1.4 years, 12,345 years, 6.65e+17 years."""
    return _stepped(value, YEAR_STEPS)


def _stepped(value: float, steps: tuple[tuple[float, float, str, str], ...]) -> str:
    """`value` in the first of `steps` (below, divided by, format, unit) it is below."""
    for below, factor, spec, unit in steps:
        if value < below or below == math.inf:
            return f"{value / factor:{spec}} {unit}"
    raise ValueError(f"the last step of {steps} must end at infinity")


def energy(kwh: float) -> str:
    """850 kWh, 12.3 MWh, 4.91 GWh, 1.2 TWh (and 8.32e+13 TWh)."""
    for factor, unit in ((1e9, "TWh"), (1e6, "GWh"), (1e3, "MWh")):
        if kwh >= factor:
            return f"{kwh / factor:.3g} {unit}"
    return f"{kwh:.3g} kWh"


TONNE_STEPS = (
    (9.995e-4, 1e-6, ".3g", "g"),
    (0.9995, 1e-3, ".3g", "kg"),
    (999.5, 1, ".3g", "t"),
    (999_999.5, 1, ",.0f", "t"),
    (999.5e6, 1e6, ".3g", "Mt"),
    (999.5e9, 1e9, ".3g", "Gt"),
    (math.inf, 1, ".3g", "t"),
)
"""CO2 mass from 1 g: (below, divided by, format, unit); each step ends where its rounding would show the
next unit's 1 (999.5 kg is 1 t, not 1e+03 kg)."""


def tonnes(value: float) -> str:
    """CO2 mass: under 1 g, 12 g, 420 kg, 2.14 t, 2,140 t, 2.14 Mt, 2.14 Gt (2.14e+12 t from 999.5 Gt)."""
    if not math.isfinite(value):
        return "n/a"
    if value == 0:
        return "0 t"
    if value < 9.995e-7:
        return "under 1 g"
    return _stepped(value, TONNE_STEPS)


def count(value: float) -> str:
    """15T, 70B, 2.05k; past 1000T, 1e+30."""
    # Each step starts where three significant digits of the one below would round to 1000 (999.5B is
    # 1T, not 1e+03B).
    if abs(value) >= 0.9995e15:
        return f"{value:.3g}"
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= 0.9995 * factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:.3g}"


def significant(value: float) -> str:
    """Three significant digits without an exponent: 0.5, 12.3, 537, 1,650, 23,800; from a million as
    `count` writes it (1.2M)."""
    if abs(value) >= 0.9995e6:
        return count(value)
    if abs(value) >= 100:
        return f"{float(f'{value:.3g}'):,.0f}"
    return f"{value:.3g}"


def gpus(n: int) -> str:
    """`1 GPU`, `2,048 GPUs`."""
    return f"{n:,} GPU" if n == 1 else f"{n:,} GPUs"


def percent(fraction: float, digits: int = 1) -> str:
    """38.4%: a fraction as a percentage."""
    return f"{fraction * 100:.{digits}f}%"


INPUT_LABELS = {
    "mfu": "MFU",
    "pue": "PUE",
    "cost_of_capital": "cost of capital",
    "utilization": "utilisation",
}
"""An uncertain input's name for people where it is not its key (`cost_of_capital`)."""


def input_label(name: str) -> str:
    """`cost_of_capital` as `cost of capital`, `pue` as `PUE`; others as they are."""
    return INPUT_LABELS.get(name, name)
