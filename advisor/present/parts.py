"""Plain names of the cost, time and energy parts the core reports (`cost_breakdown_usd` keys, ...)."""

from __future__ import annotations

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
