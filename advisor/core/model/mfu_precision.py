"""How much the precision moves MFU on a system, measured on configurations published at both.

A figure of the workload's configuration at another precision is carried by the MFU ratio the system
shows between the two precisions on configurations published at both (same model, sequence length, GPU
count and release month: one table's two columns, not two stacks a month apart): the geometric mean
over the workload's family if any pair exists there, else over every family on the system. Without a
pair, the published ratio (`precision_ratio_to_fp8` in `catalog/mfu/scaling.toml`) is used. GB300's
FP4 runs at 0.46 of its FP8 MFU (Llama 3 70B and 405B, Megatron-Bridge 26.04-26.06) where GB200's runs
at 0.63: one ratio for every system would carry the wrong one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from advisor.core.model.mfu_points import Calibrated


class PrecisionRatios:
    """Precision-to-precision MFU ratios measured on each system's calibration points."""

    def __init__(self, cals: Iterable[Calibrated]) -> None:
        by_config: dict[tuple[str, str, int, int], list[Calibrated]] = {}
        for cal in cals:
            p = cal.point
            by_config.setdefault((p.system, p.model, cal.seq_len, p.gpus), []).append(cal)
        # (system, family, to, from) -> log ratios
        self._logs: dict[tuple[str, str, str, str], list[float]] = {}
        for (system, *_), members in by_config.items():
            for a in members:
                for b in members:
                    if a.point.precision == b.point.precision:
                        continue
                    if a.point.software != b.point.software:
                        continue
                    key = (system, a.family, a.point.precision, b.point.precision)
                    self._logs.setdefault(key, []).append(math.log(a.mfu / b.mfu))

    def ratio(self, system: str, family: str, target: str, source: str) -> tuple[float, int, str]:
        """(MFU at `target` ÷ at `source` on `system`, pairs, which family's pairs); (1, 0, "") unknown."""
        own = self._logs.get((system, family, target, source), [])
        if own:
            return math.exp(sum(own) / len(own)), len(own), family
        pooled = [
            v
            for (s, _, t, f), logs in self._logs.items()
            if (s, t, f) == (system, target, source)
            for v in logs
        ]
        if pooled:
            return math.exp(sum(pooled) / len(pooled)), len(pooled), "every family"
        return 1.0, 0, ""

    def factor(
        self, system: str, family: str, target: str, source: str, published: Mapping[Any, float]
    ) -> tuple[float, str]:
        """MFU at `target` ÷ at `source`, measured on the system's pairs, else the `published` ratios to
        FP8; with the words a basis gives it."""
        ratio, pairs, among = self.ratio(system, family, target, source)
        if pairs:
            return ratio, f"{target}/{source} MFU ratio measured on {pairs} {among} pairs on {system}"
        return published[target] / published[source], f"published {target}/{source} MFU ratio"
