"""Goodput: the share of wall-clock time that trains, once failures and checkpoints are paid for.

Model (Young 1974, Daly 2006): interruptions arrive at λ = GPUs / MTBF-per-GPU per hour. Each costs a
restart R plus, on average, half a checkpoint interval T of lost work; each checkpoint stalls training
for δ. With Young's optimal interval T = sqrt(2δ/λ), the overhead per productive hour is
w = δ/T + λ(R + T/2) = sqrt(2δλ) + λR, and goodput = 1 / (1 + w).

Calibration: the Llama 3 paper (arXiv 2407.21783, §3.3.4) reports 466 interruptions in 54 days on
16,384 H100 and "over 90% effective training time"; the catalog's H100 MTBF and restart time give
0.91 at that scale (pinned by a test).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Goodput:
    """Goodput and the failure figures behind it."""

    fraction: float
    interruptions_per_day: float
    checkpoint_interval_minutes: float
    overhead_per_productive_hour: float


def interruptions_per_hour(gpus: int, mtbf_gpu_hours: float) -> float:
    """Cluster interruption rate λ: each GPU fails independently with mean time `mtbf_gpu_hours`."""
    return gpus / mtbf_gpu_hours


@lru_cache(maxsize=1024)
def goodput_fraction(
    gpus: int, mtbf_gpu_hours: float, restart_minutes: float, stall_seconds: float
) -> Goodput:
    """Productive share of wall time for a job on `gpus` GPUs (see the module docstring). Cached: pure,
    and the result is immutable."""
    rate = interruptions_per_hour(gpus, mtbf_gpu_hours)
    stall_hours = stall_seconds / 3600.0
    interval_hours = math.sqrt(2 * stall_hours / rate)
    overhead = math.sqrt(2 * stall_hours * rate) + rate * restart_minutes / 60.0
    return Goodput(1.0 / (1.0 + overhead), rate * 24.0, interval_hours * 60.0, overhead)


def fixed_goodput(fraction: float) -> Goodput:
    """A goodput the user set (1.0 switches the failure model off, as in the published cost tables)."""
    return Goodput(fraction, 0.0, math.inf, 1.0 / fraction - 1.0)
