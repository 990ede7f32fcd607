"""The 2026 systems (B300, GB300 NVL72, MI300X, MI325X, MI355X): they load, every section is sourced or
marked an assumption, their estimates are finite, and a borrowed MFU carries a wider spread than a
published one."""

from __future__ import annotations

import math

import pytest

from advisor.core.analysis.uncertainty import input_spreads, spread_class
from advisor.core.costing.estimate import estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.workload import Workload
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
NEW_SYSTEMS = ("b300", "gb300-nvl72", "mi300x", "mi325x", "mi355x")
SECTIONS = ("compute", "memory", "interconnect", "power", "capex", "setup", "reliability", "availability")


@pytest.mark.parametrize("system_id", NEW_SYSTEMS)
def test_new_system_loads(system_id):
    assert CATALOG.system(system_id).id == system_id


@pytest.mark.parametrize("system_id", NEW_SYSTEMS)
def test_every_section_is_sourced_or_an_assumption(system_id):
    system = CATALOG.system(system_id)
    sections = [getattr(system, name) for name in SECTIONS] + list(system.rental)
    for section in sections:
        assert section.source and section.as_of
        # A followable publication, or a figure that says it is an assumption.
        assert section.url or section.assumption or "[A]" in section.source, section.source


@pytest.mark.parametrize("system_id", NEW_SYSTEMS)
@pytest.mark.parametrize("precision", ["bf16", "fp8", "fp4"])
@pytest.mark.parametrize("model_id", ["llama3-70b", "deepseek-v3"])
def test_estimate_is_finite(system_id, precision, model_id):
    workload = Workload(model=CATALOG.model(model_id), tokens=1e12, gpus=256, precision=precision)
    est = estimate(workload, system_id, CATALOG)
    for value in (est.mfu, est.time_to_train_hours, est.cost_usd, est.energy_kwh):
        assert math.isfinite(value) and value > 0


def test_b300_borrows_gb300s_dense_figures_and_says_so():
    # B300 and GB300 share the Blackwell Ultra die; B300 has no published dense (Llama) row.
    workload = Workload(model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8")
    est = estimate(workload, "b300", CATALOG)
    assert est.mfu_basis.transferred
    assert "via gb300-nvl72" in est.mfu_basis.basis


def test_b300_keeps_its_own_moe_figure():
    # Megatron-Bridge 26.06, DGX-B300, DeepSeek-V3 on 256 GPUs in MXFP8: 3,541 tokens/s per GPU.
    workload = Workload(model=CATALOG.model("deepseek-v3"), tokens=1e12, gpus=256, precision="fp8")
    est = estimate(workload, "b300", CATALOG)
    assert est.mfu_basis.exact and not est.mfu_basis.transferred
    assert est.tokens_per_second_per_gpu == pytest.approx(3541, rel=0.05)


def test_gb300_reproduces_the_published_llama3_70b_fp8_throughput():
    # Megatron-Bridge 26.04.01, DGX-GB300, Llama 3 70B on 64 GPUs, FP8: 5,248 tokens/s per GPU.
    workload = Workload(
        model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8", efficiency="reference"
    )
    est = estimate(workload, "gb300-nvl72", CATALOG)
    assert est.mfu_basis.exact
    assert est.tokens_per_second_per_gpu == pytest.approx(5248, rel=0.05)


def _mfu_class_and_width(system_id: str, precision: str = "fp8") -> tuple[str, float]:
    workload = Workload(
        model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision=precision, efficiency="reference"
    )
    est = estimate(workload, system_id, CATALOG)
    spread = input_spreads(est, workload, CATALOG, Assumptions())["mfu"]
    return spread_class(est.mfu_basis), (spread.high - spread.low) / spread.expected


# B300 borrows GB300's dense figures (the same Blackwell Ultra die); MI300X borrows MI325X's (the same
# CDNA 3 die). Each borrowed MFU must carry a wider range than the figure published for the lender.
@pytest.mark.parametrize(("lender", "borrower"), [("gb300-nvl72", "b300"), ("mi325x", "mi300x")])
def test_a_borrowed_mfu_is_wider_than_a_published_one(lender, borrower):
    published, borrowed = _mfu_class_and_width(lender), _mfu_class_and_width(borrower)
    assert published[0] == "exact" and borrowed[0] == "transferred"
    assert borrowed[1] > published[1]


def test_mi300x_says_where_its_mfu_comes_from():
    workload = Workload(model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8")
    est = estimate(workload, "mi300x", CATALOG)
    assert est.mfu_basis.transferred and "via mi325x" in est.mfu_basis.basis


def test_mi355x_rests_on_its_own_mlperf_point_and_widens_away_from_it():
    # MLPerf Training v5.1 result logs, AMD MI355X, Llama 3.1 8B, FP8, 8 GPUs: 30.66 samples/s x 8,192 / 8.
    workload = Workload(
        model=CATALOG.model("llama3-8b"), tokens=1e12, gpus=8, precision="fp8", efficiency="reference"
    )
    est = estimate(workload, "mi355x", CATALOG)
    assert est.mfu_basis.exact
    assert est.tokens_per_second_per_gpu == pytest.approx(31400, rel=0.01)
    # A 70B model is read across models; BF16 from the FP8 figure (another precision) is wider still.
    across, other_precision = _mfu_class_and_width("mi355x"), _mfu_class_and_width("mi355x", "bf16")
    assert across[0] == "interpolated" and other_precision[0] == "transferred"
    assert other_precision[1] > across[1] > _mfu_class_and_width("mi325x")[1]


def test_mi325x_reproduces_amds_published_throughput():
    # AMD ROCm blog 'Primus Projection' (24 Apr 2026), measured 8-node: Llama 3.1 70B FP8 1,726 tokens/s/GPU.
    workload = Workload(
        model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8", efficiency="reference"
    )
    assert estimate(workload, "mi325x", CATALOG).tokens_per_second_per_gpu == pytest.approx(1726, rel=0.01)
