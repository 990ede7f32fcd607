"""Number formats for people, in one place for the CLI, the app and the reports: the core's own
(`advisor.core.fmt`, which its messages use) and the ranges and input values only the surfaces show."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.core.fmt import (
    MONEY_STEPS,
    cents_or_dollars,
    count,
    duration,
    energy,
    gpus,
    input_label,
    money,
    percent,
    significant,
    tonnes,
)
from advisor.core.model.units import format_si

__all__ = [
    "MEMORY_UNIT",
    "catalog_value",
    "cents_or_dollars",
    "count",
    "duration",
    "duration_span",
    "energy",
    "energy_span",
    "gpus",
    "input_label",
    "input_value",
    "memory_per_gpu",
    "money",
    "money_span",
    "params",
    "percent",
    "price_per_gpu_hour",
    "runs_per_year",
    "significant",
    "tonnes",
    "tpot",
    "ttft",
]


def price_per_gpu_hour(usd: float) -> str:
    """$2.22 (per GPU-hour)."""
    return f"${usd:.2f}"


def params(value: float) -> str:
    """A model's parameter count: 70.55B, 405.9B, 8.03B, 671B (four significant digits, as the catalog
    and the app's model field write it, not 70.5B)."""
    return format_si(value, digits=4)


def catalog_value(value: object) -> str:
    """A catalog figure as written: 45,565; 2,250; 0.0862; 70.55B (from a million, as `params`); true."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if not isinstance(value, int | float):
        return str(value)
    if abs(value) >= 1e6 and abs(value) < 1e18:
        return format_si(value, digits=4)
    if float(value).is_integer() and abs(value) < 1e18:
        return f"{value:,.0f}"
    return f"{value:,.6g}"


def ttft(ms: float) -> str:
    """Time to first token: 121 ms."""
    return f"{ms:,.0f} ms"


def tpot(ms: float) -> str:
    """Time per output token: 99.9 ms."""
    return f"{ms:,.1f} ms"


def runs_per_year(runs: float) -> str:
    """Runs like this one an owned fleet does in a year: 16.7."""
    return f"{runs:,.1f}"


def _span(low: str, high: str, unit: str = "") -> str:
    """`low–high unit`, or one value when both ends read the same (a range of no width: `30.5 days`)."""
    return f"{low}{unit}" if low == high else f"{low}–{high}{unit}"


def duration_span(low_hours: float, high_hours: float) -> str:
    """`3.8–4.2 days`: both ends in the unit of the larger one."""
    if high_hours < 1:
        return _span(f"{low_hours * 60:.0f}", f"{high_hours * 60:.0f}", " min")
    if high_hours < 48:
        return _span(f"{low_hours:.1f}", f"{high_hours:.1f}", " h")
    if high_hours < 730 * 24:
        return _span(f"{low_hours / 24:.1f}", f"{high_hours / 24:.1f}", " days")
    if high_hours < 1000 * 8760:
        return _span(f"{low_hours / 8760:.1f}", f"{high_hours / 8760:.1f}", " years")
    return _span(f"{low_hours / 8760:.3g}", f"{high_hours / 8760:.3g}", " years")


def money_span(low: float, high: float) -> str:
    """`$12.93k–$20.13k`, `$1,524–$2,270`, `$2.32M–$2.72M`: both ends as `money` writes the larger one
    (its scale and digits), so a P10 reads here as in the reports' `$18.07k ($12.93k to $20.13k)`."""
    if high >= 1e15:
        return _span(f"${low:.3g}", f"${high:.3g}")
    for floor, factor, spec, suffix in MONEY_STEPS:
        if high >= floor:
            return _span(f"${low / factor:{spec}}{suffix}", f"${high / factor:{spec}}{suffix}")
    return _span(f"${low:.3g}", f"${high:.3g}")


def energy_span(low_kwh: float, high_kwh: float) -> str:
    """`1.22–1.51 MWh`."""
    for factor, unit in ((1e9, "TWh"), (1e6, "GWh"), (1e3, "MWh")):
        if high_kwh >= factor:
            return _span(f"{low_kwh / factor:.3g}", f"{high_kwh / factor:.3g}", f" {unit}")
    return _span(f"{low_kwh:.3g}", f"{high_kwh:.3g}", " kWh")


INPUT_UNITS: dict[str, Callable[[float], str]] = {
    "mfu": percent,
    "goodput": percent,
    "efficiency": lambda v: percent(v, 0),
    "price": lambda v: f"${v:.2f}/GPU-h",
    "capex": money,
    "electricity": lambda v: f"{v * 100:.2f}¢/kWh",
    "depreciation": lambda v: f"{v:.3g} years",
    "cost_of_capital": lambda v: f"{percent(v)}/year",
    "maintenance": lambda v: f"{percent(v)} of capex/year",
    "utilization": lambda v: f"{percent(v, 0)} of hours",
    "colocation": lambda v: f"${v:,.0f}/kW-month",
}
"""Each uncertain input's value in its own unit, by the input's name (others as a plain number)."""


def input_value(name: str, value: float) -> str:
    """An uncertain input's value in its own unit: MFU and goodput as %, prices and capex in dollars,
    the owner's finance inputs in years, % a year, % of hours or dollars per kW-month."""
    shown = INPUT_UNITS.get(name)
    return shown(value) if shown is not None else f"{value:.3g}"


MEMORY_UNIT = "GiB = 2^30 bytes"
"""The unit every surface counts memory in, said where memory is shown (HBM's "GB" is binary)."""


def memory_per_gpu(est: Any, *, unit: bool = True) -> str:
    """Memory as one GPU sees it: "fits: 48.2 of 72.0 GiB per GPU" (usable HBM; `MEMORY_UNIT` says the GiB);
    "fits: 48.2 of 72.0" without `unit`, for a row whose label names it.

    The sum over all GPUs says nothing about whether each one fits. Training shards its state over
    every GPU of the run; a serving replica holds its weights and KV cache over its own GPUs.
    """
    memory = est.memory
    holders = memory.min_gpus if est.serving is not None and memory.min_gpus else est.gpus
    need = memory.required_gib / holders
    have = memory.available_gib / est.gpus
    shown = f"{'fits' if memory.fits else 'does not fit'}: {need:,.1f} of {have:,.1f}"
    return f"{shown} GiB per GPU" if unit else shown
