"""Plain names of the cost, time and energy parts the core reports (`cost_breakdown_usd` keys, ...)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from advisor.present import numbers

PART_LABELS = {
    "capex_amortisation": "capex (amortised)",
    "cost_of_capital": "cost of capital",
    "maintenance": "maintenance",
    "hosting": "hosting (colo)",
    "power": "power",
    "rental": "rental",
    "compute": "compute",
    "overhead": "production overhead",
    "downtime": "downtime (failures)",
    "setup": "setup",
    "wait": "waiting for capacity",
    "gpu": "GPU",
    "host": "host (CPU, memory)",
    "network_storage": "network, storage",
    "pue_overhead": "PUE overhead",
}
"""Each part's name for people, by the key the core uses."""


def part_label(key: str) -> str:
    """`pue_overhead` as `PUE overhead`; a part not listed with its underscores as spaces."""
    return PART_LABELS.get(key, key.replace("_", " "))


NO_OVERHEAD = "none"
"""A production run's overhead where the fitted line adds none, instead of a bare `0 min`."""


def adds_no_overhead(est: Any) -> bool:
    """Whether `est` is a production training run to which the fitted production line adds no time: its
    share of the reference speed, rising with model size, is capped at all of it (the largest models)."""
    return (
        est.kind != "inference"
        and est.efficiency == "production"
        and est.time_breakdown_hours.get("overhead") == 0.0
        and est.time_breakdown_hours.get("compute", 0.0) > 0.0
    )


def time_part_text(key: str, hours: float, est: Any) -> str:
    """A time part as shown: `none` for a production overhead the fitted line leaves out, else a duration."""
    if key == "overhead" and adds_no_overhead(est):
        return NO_OVERHEAD
    return numbers.duration(hours)


def overhead_note(estimates: Iterable[Any]) -> str | None:
    """Why the production overhead reads `none` (None when no estimate's does): the line fitted on
    published runs reaches the reference speed at this model size."""
    for est in estimates:
        if adds_no_overhead(est):
            size = numbers.count(est.model.params_total)
            return (
                f"production overhead: none at {size} parameters: the production line, fitted on published "
                "end-to-end runs, gives a run's share of the benchmark speed rising with model size; at this "
                "size it reaches the full benchmark speed (it is capped there), so it adds no time"
            )
    return None
