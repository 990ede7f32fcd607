"""How much a software release moved MFU on a system, measured on configurations published in both.

A configuration's figure from another release than the one asked for is carried to it by the ratio the
same two releases show on the system's other configurations (same model, sequence length and GPU count
published in both): the geometric mean of their MFU ratios shrunk toward 1 by `PRIOR_PAIRS` (one
configuration's change between two releases is partly its own recipe's), over configurations of the
figure's own family (dense or MoE: MoE kernels moved faster than dense ones in 2024, Mixtral × 1.45
between Megatron-Core 0.6 and 0.9), at the same precision if any pair exists there, else over every
precision of the system. A pair is two releases of one configuration in one publication: figures of
the same configuration from different publications (DGX Cloud Benchmarking's first DeepSeek-V3 recipe
and Megatron-Bridge's tuned one, 3.3x apart on GB200) differ by recipe and measurement, not by software
release. Releases within `RELEASE_TOLERANCE_MONTHS` of each other count as one (a
container is dated by its month of publication, which differs by a month between tables). Without a
pair the figure is used as published (ratio 1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

RELEASE_TOLERANCE_MONTHS = 1
"""Releases this many months apart or less count as the same release."""


def months(release: str) -> int:
    """A `YYYY-MM` release as a month count."""
    year, month = release.split("-")
    return int(year) * 12 + int(month)


@dataclass(frozen=True)
class Figure:
    """One calibration point, reduced to what the ratio compares."""

    system: str
    precision: str
    config: tuple[str, int, int]
    """Model, sequence length, GPUs."""
    release: str
    mfu: float
    family: str = ""
    """The model's family (dense or MoE): a figure is carried only by its own family's pairs."""
    publication: str = ""
    """Where the figure was published: only figures of one publication pair up."""


PRIOR_PAIRS = 0.5
"""A release ratio measured on n configurations is shrunk toward 1 (no software change):
exp(sum of the log ratios / (n + PRIOR_PAIRS)), so one pair carries two thirds of its change (in log)
and ten carry 95%. One configuration's change between two releases mixes the release's gain with that
configuration's own recipe changes; its mean over few pairs overstates what another configuration
gains. Checked leave-one-out on the full `advisor validate` set (docs/calibration.md): 0.25-1 give the
same median (1.70%, 1.82% without) and worst; 0.5 keeps coverage at 83% (0.75 and 1: 82%)."""


class ReleaseRatios:
    """Release-to-release MFU ratios of one catalog's calibration points."""

    def __init__(self, figures: Iterable[Figure]) -> None:
        by_config: dict[tuple[str, str, str, tuple[str, int, int], str], dict[int, list[float]]] = {}
        for f in figures:
            by_config.setdefault((f.system, f.precision, f.family, f.config, f.publication), {}).setdefault(
                months(f.release), []
            ).append(f.mfu)
        self._series: dict[str, list[tuple[str, str, dict[int, float]]]] = {}
        for (system, precision, family, _, _), by_month in by_config.items():
            if len(by_month) > 1:
                means = {m: sum(v) / len(v) for m, v in by_month.items()}
                self._series.setdefault(system, []).append((precision, family, means))
        self.ratio = lru_cache(maxsize=1024)(self._ratio)

    def _ratio(
        self, system: str, precision: str, source: str, target: str, family: str = ""
    ) -> tuple[float, int]:
        """(MFU at `target` ÷ MFU at `source` on `system`, configurations it rests on); (1, 0) unknown.
        With a `family`, only that family's configurations count (see the module docstring)."""
        src, dst = months(source), months(target)
        if abs(dst - src) <= RELEASE_TOLERANCE_MONTHS:
            return 1.0, 0
        series = [(p, s) for p, f, s in self._series.get(system, []) if not family or f == family]
        for chosen in ([s for p, s in series if p == precision], [s for _, s in series]):
            logs = [r for r in (_pair(means, src, dst) for means in chosen) if r is not None]
            if logs:
                return math.exp(sum(logs) / (len(logs) + PRIOR_PAIRS)), len(logs)
        return 1.0, 0


def _nearest(means: dict[int, float], month: int) -> int | None:
    near = [m for m in means if abs(m - month) <= RELEASE_TOLERANCE_MONTHS]
    return min(near, key=lambda m: (abs(m - month), m)) if near else None


def _pair(means: dict[int, float], src: int, dst: int) -> float | None:
    """log(MFU at dst ÷ MFU at src) of one configuration, if it was published at both releases."""
    a, b = _nearest(means, src), _nearest(means, dst)
    if a is None or b is None or a == b:
        return None
    return math.log(means[b] / means[a])
