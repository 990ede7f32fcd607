"""A report's inputs table leaves out every answer the job does not use, the rows written by hand
(sequence length, software release, sizing margin) as well as the declared ones."""

from __future__ import annotations

from datetime import date

import pytest

from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.report import build_report
from advisor.report.inputs import input_rows
from tests.conftest import shipped_catalog

SERVE = {
    "kind": "inference",
    "target_tokens_per_second": 20_000,
    "seq_len": 4096,
    "software": "2024-01",
    "precision": "bf16",
}


def _rows(workload: dict, **top) -> dict[str, str]:
    data = {"name": "x", "systems": ["h100"], "workload": {"model": "llama3-8b", "tokens": "1T", **workload}}
    scenario = Scenario.model_validate({**data, **top})
    report = build_report(scenario, shipped_catalog(), load_rules(), today=date(2026, 6, 1), version="test")
    return dict(input_rows(report))


@pytest.mark.parametrize("job", ["serve", "train"])
def test_the_rows_a_serving_job_does_not_use_are_left_out(job):
    # A serving plan's report listed "Sequence length 8,192", the training sequence length it never uses,
    # and "Sizing margin" and "each system sized to meet it" at a target rate, which sizes the fleet.
    workload = SERVE if job == "serve" else {"seq_len": 4096, "software": "2024-01"}
    rows = _rows(workload, size_to_deadline=True, constraints={"deadline_days": 40})
    unused = {"Sequence length", "Software release", "Sizing margin"}
    if job == "serve":
        assert unused.isdisjoint(rows) and rows["Deadline"] == "40 days"
    else:
        assert unused <= rows.keys() and rows["Deadline"] == "40 days, each system sized to meet it"


def test_the_stack_without_fp8_is_said_only_where_it_matters():
    assert _rows({"fp8_stack": False, "precision": "fp8"})["Precision"] == "FP8 (software stack without FP8)"
    assert _rows({"fp8_stack": False, "precision": "bf16"})["Precision"] == "BF16"


@pytest.mark.parametrize("job", ["serve", "train"])
def test_a_training_override_set_for_a_serving_job_is_noted_as_not_used(job):
    # A serving scenario's goodput and MFU were listed as "set by you", as if applied: the command line
    # warned they were unused, the shared report did not.
    from advisor.report.inputs import assumption_rows

    workload = SERVE if job == "serve" else {}
    data = {"name": "x", "systems": ["h100"], "workload": {"model": "llama3-8b", "tokens": "1T", **workload}}
    scenario = Scenario.model_validate({**data, "assumptions": {"goodput": 0.9, "mfu": 0.4}})
    report = build_report(scenario, shipped_catalog(), load_rules(), today=date(2026, 6, 1), version="test")
    overrides = dict(input_rows(report))["Assumption overrides"]
    sources = {row[1]: row[3] for row in assumption_rows(report)[1] if row[0] == "all systems"}
    noted = [
        text
        for text in (overrides, sources["goodput"], sources["mfu"])
        if "not used: it applies to training" in text
    ]
    assert len(noted) == (3 if job == "serve" else 0)
    # The MFU map has a row of its own where it is used; unused, it has none, and the overrides row
    # notes it as it notes goodput (it was left out of both).
    mfu_noted = "mfu = 0.4 (all systems; not used: it applies to training" in overrides
    assert mfu_noted == (job == "serve")
    assert ("mfu = 0.4" in overrides) == (job == "serve")
