"""The reports' MFU is the one the time to train works at, and says which (production or reference)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from advisor.core.costing.estimate import estimate
from advisor.core.model.workload import Workload
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.present import numbers
from advisor.report import build_report, render_report
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()


def _workload(efficiency: str) -> Workload:
    model = CATALOG.model("llama3-8b")
    return Workload(
        model=model, tokens=1e12, gpus=512, precision="bf16", pricing="rent", efficiency=efficiency
    )


def test_production_mfu_is_what_the_time_works_at():
    # A production run computes at the reference MFU, then adds the overhead hours: the MFU over both
    # is the reference MFU times compute / (compute + overhead), and the same work at reference
    # efficiency at that MFU takes the compute plus overhead hours.
    est = estimate(_workload("production"), "a100", CATALOG)
    hours = est.time_breakdown_hours
    assert hours["overhead"] > 0 and est.mfu_effective < est.mfu  # the premise: a production run
    assert est.mfu_effective == pytest.approx(
        est.mfu * hours["compute"] / (hours["compute"] + hours["overhead"])
    )
    reference = estimate(_workload("reference"), "a100", CATALOG)
    assert reference.mfu_effective == reference.mfu


@pytest.mark.parametrize("efficiency", ["production", "reference"])
def test_report_mfu_column_shows_the_mfu_the_time_used(efficiency: str):
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "workload": {
                "model": "llama3-8b",
                "tokens": 1e12,
                "gpus": 512,
                "pricing": "rent",
                "efficiency": efficiency,
            },
            "systems": ["a100", "h100"],
        },
        context={"catalog": CATALOG},
    )
    report = build_report(scenario, CATALOG, load_rules(), today=date(2026, 6, 1), version="test")
    md = render_report(report, "md")
    header = next(line for line in md.splitlines() if line.startswith("| System | Status"))
    heading = f"MFU ({efficiency})"
    assert heading in header
    column = [cell.strip() for cell in header.split("|")].index(heading)
    est = report.recommendation.candidate("a100").estimate
    assert est is not None
    row = next(line for line in md.splitlines() if line.startswith("| a100 |"))
    assert [cell.strip() for cell in row.split("|")][column] == numbers.percent(est.mfu_effective)
    data = json.loads(render_report(report, "json"))
    shown = next(c for c in data["candidates"] if c["system"] == "a100")["estimate"]
    assert shown["mfu_effective"] == pytest.approx(est.mfu_effective) and shown["mfu"] == pytest.approx(
        est.mfu
    )
