"""The failure model behind goodput."""

from __future__ import annotations

import pytest

from advisor.core.costing.estimate import estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.goodput import goodput_fraction
from advisor.core.model.workload import Workload


def _goodput(catalog, system: str, gpus: int) -> float:
    rel = catalog.system(system).reliability
    return goodput_fraction(
        gpus, rel.mtbf_gpu_hours, rel.restart_minutes, catalog.economics.checkpointing.stall_seconds
    ).fraction


# Meta, Llama 3 paper (arXiv 2407.21783, §3.3.4): 466 interruptions in 54 days on 16,384 H100 and
# "higher than 90% effective training time".
def test_h100_goodput_matches_llama3_paper(catalog):
    assert 0.90 <= _goodput(catalog, "h100", 16384) <= 0.93
    rel = catalog.system("h100").reliability
    assert 16384 / rel.mtbf_gpu_hours * 24 * 54 == pytest.approx(466, rel=0.01)


def test_goodput_falls_with_scale(catalog):
    values = [_goodput(catalog, "h100", g) for g in (8, 128, 2048, 16384, 100_000)]
    assert values == sorted(values, reverse=True)
    assert all(0 < v <= 1 for v in values)


# SemiAnalysis (Aug 2025): GB200 NVL72 backplane reliability lowers goodput; visibly worse at scale.
def test_gb200_goodput_is_visibly_worse_at_scale(catalog):
    assert _goodput(catalog, "gb200-nvl72", 8064) < _goodput(catalog, "h100", 8064) - 0.05


def test_goodput_one_switches_downtime_off(catalog):
    w = Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=16384, precision="fp8")
    est = estimate(w, "h100", catalog, Assumptions(goodput=1.0))
    assert est.goodput == 1.0 and est.time_breakdown_hours["downtime"] == 0.0


def test_downtime_adds_time_and_cost(catalog):
    w = Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=16384, precision="fp8")
    # Billed by the hour: a reservation's 30-day term would be paid in full however short the run.
    by_the_hour = "on-demand, neocloud median (May-Nov 2026)"
    with_failures = estimate(w, "h100", catalog, Assumptions(rental_offer=by_the_hour))
    without = estimate(w, "h100", catalog, Assumptions(goodput=1.0, rental_offer=by_the_hour))
    assert with_failures.time_to_train_hours > without.time_to_train_hours
    assert with_failures.cost_usd > without.cost_usd
    assert with_failures.time_breakdown_hours["downtime"] > 0
