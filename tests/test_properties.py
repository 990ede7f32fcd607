"""Invariants of the cost model over random valid workloads (hypothesis)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.core.costing.estimate import estimate
from advisor.core.model.flops import custom_model
from advisor.core.model.workload import Workload
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
SYSTEMS = st.sampled_from(sorted(CATALOG.systems))


@st.composite
def workloads(draw):
    if draw(st.booleans()):
        model = CATALOG.model(draw(st.sampled_from(sorted(CATALOG.models))))
    else:
        params = draw(st.floats(min_value=1e8, max_value=2e12))
        active = draw(st.one_of(st.none(), st.floats(min_value=1e8, max_value=params)))
        model = custom_model(params, active, seq_len=draw(st.sampled_from([1024, 2048, 4096, 8192, 32768])))
    return Workload(
        model=model,
        tokens=draw(st.floats(min_value=1e6, max_value=1e14)),
        gpus=draw(st.integers(min_value=1, max_value=100_000)),
        precision=draw(st.sampled_from(["bf16", "fp8", "fp4"])),
        kind=draw(st.sampled_from(["pretrain", "finetune"])),
        pricing=draw(st.sampled_from(["rent", "own"])),
        software=draw(st.sampled_from([None, "2023-06", "2024-01", "2024-12", "2025-10", "2026-05"])),
        fp8_stack=draw(st.booleans()),
        finetune_method=draw(st.sampled_from(["full", "lora"])),
    )


@settings(max_examples=300, deadline=None)
@given(workloads(), SYSTEMS)
def test_outputs_are_finite_positive_and_bounded(workload, system):
    est = estimate(workload, system, CATALOG)
    assert 0 < est.mfu <= 1 and 0 < est.goodput <= 1
    for value in (
        est.cost_usd,
        est.time_to_train_hours,
        est.energy_kwh,
        est.gpu_hours,
        est.joules_per_token,
        est.tokens_per_second_per_gpu,
        est.co2_tonnes,
        est.household_years,
    ):
        assert math.isfinite(value) and value > 0
    assert math.isclose(est.cost_per_million_tokens_usd * workload.tokens / 1e6, est.cost_usd, rel_tol=1e-9)


@settings(max_examples=200, deadline=None)
@given(workloads(), SYSTEMS, st.floats(min_value=1.0001, max_value=100))
def test_more_tokens_never_cost_less_or_take_less_time(workload, system, factor):
    more = workload.model_copy(update={"tokens": workload.tokens * factor})
    a, b = estimate(workload, system, CATALOG), estimate(more, system, CATALOG)
    assert b.cost_usd >= a.cost_usd and b.time_to_train_hours >= a.time_to_train_hours
    assert b.energy_kwh >= a.energy_kwh


@settings(max_examples=200, deadline=None)
@given(workloads(), SYSTEMS, st.integers(min_value=1, max_value=64))
def test_more_gpus_never_reduce_total_flops_or_raise_mfu(workload, system, extra):
    bigger = workload.model_copy(update={"gpus": workload.gpus + extra})
    a, b = estimate(workload, system, CATALOG), estimate(bigger, system, CATALOG)
    assert b.total_flops >= a.total_flops
    assert b.mfu <= a.mfu + 1e-12
    assert b.goodput <= a.goodput + 1e-12


@settings(max_examples=100, deadline=None)
@given(workloads(), SYSTEMS)
def test_json_output_round_trips(workload, system):
    import json

    def lists(value):
        if isinstance(value, dict):
            return {k: lists(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [lists(v) for v in value]
        return value

    data = estimate(workload, system, CATALOG).to_dict()
    # allow_nan=False: a NaN or infinity anywhere would fail here; floats come back bit for bit.
    assert json.loads(json.dumps(data, allow_nan=False)) == lists(data)


def test_scenario_ids_are_never_paths():
    # Scenario files name systems and models by catalog id; a path-like id is an unknown id, never a file.
    import pytest

    from advisor.core.scenario import Scenario
    from advisor.errors import AdvisorError

    for hostile in ("../../etc/passwd", "/etc/passwd", "~/.ssh/id_rsa", "catalog/systems/h100.toml"):
        with pytest.raises((AdvisorError, ValueError)):
            Scenario.model_validate({"schema": 1, "workload": {"model": hostile, "tokens": 1e9}}).check_ids(
                CATALOG
            )
        with pytest.raises((AdvisorError, ValueError)):
            Scenario.model_validate(
                {"schema": 1, "systems": [hostile], "workload": {"model": "llama3-8b", "tokens": 1e9}}
            ).check_ids(CATALOG)
