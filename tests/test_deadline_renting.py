"""Deadline sizing when buying misses the deadline: whether renting meets it, and if not, why."""

from __future__ import annotations

import re

from advisor.core.analysis.deadline import gpus_for_deadline
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Workload
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()


def _bought(system: str, deadline_days: float, margin: float = 0.0):
    work = Workload(model=CATALOG.model("llama3-70b"), tokens=15e12, precision="fp8", pricing="own", gpus=64)
    return gpus_for_deadline(work, system, CATALOG, deadline_days, margin=margin)


def test_renting_that_cannot_meet_the_deadline_says_why_with_the_largest_rentable_size():
    # 15T tokens of Llama 3 70B in 20 days: b300 bought arrives after the deadline and, rented, even the
    # largest reservable cluster takes longer than 20 days.
    found = _bought("b300", 20)
    assert found.binding == "lead time" and found.on_hand is not None and found.rental is None
    said = found.reason.split("; renting cannot meet it either", 1)[1]
    capacity = CATALOG.system("b300").availability.capacity_gpus("rent")
    node = CATALOG.system("b300").interconnect.gpus_per_node
    assert f"{capacity // node:,} x {node}-GPU node(s)" in said
    took = re.search(r"takes (\d+\.\d) days to result", said)
    assert took is not None and float(took.group(1)) > 20
    assert "over the 20-day deadline" in said


def test_the_margin_is_named_when_it_is_what_renting_misses():
    found = _bought("b300", 20, margin=0.1)
    said = found.reason.split("; renting cannot meet it either", 1)[1]
    assert "18.0 days the 20-day deadline allows with its 10% margin" in said


def test_renting_that_meets_the_deadline_gives_its_size_and_cost():
    found = _bought("h100", 60)
    assert found.rental is not None
    assert found.rental.time_to_result_hours <= 60 * HOURS_PER_DAY
    assert "; renting, " in found.reason and "cannot meet" not in found.reason
