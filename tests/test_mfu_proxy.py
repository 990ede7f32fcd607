"""The proxy ratio: a system that borrows a same-domain proxy's figures is carried by the MFU ratio the two
publish on the same configuration and release (MI300X from MI325X, MLPerf Training v5.0 and v5.1 LoRA)."""

from __future__ import annotations

import math

import pytest

from advisor.core.analysis.validation import scale_up_fit
from advisor.core.model.mfu import mfu_index, resolve_mfu
from advisor.core.model.mfu_domain import proxy_pairs

LOGGED_MI300X_PER_MI325X = math.sqrt(0.2704 / 0.3643 * 0.2824 / 0.3782)
"""AMD's own MLPerf LoRA logs, same submission and software on both parts: v5.0 0.742, v5.1 0.747."""


def _without(catalog, drop):
    """The catalog less the calibration points `drop(point)` selects (a fresh MFU index)."""
    tables = {
        tid: t.model_copy(update={"points": tuple(p for p in t.points if not drop(p))})
        for tid, t in catalog.mfu_tables.items()
    }
    return catalog.rebuilt(mfu_tables=tables)


def _lora_ratio(catalog, software):
    model = catalog.model("llama2-70b").model_copy(update={"seq_len": 8192})
    mi300x = resolve_mfu(catalog, "mi300x", "fp8", model, 8, software)
    mi325x = resolve_mfu(catalog, "mi325x", "fp8", model, 8, software)
    return mi300x, mi300x.mfu / mi325x.mfu


@pytest.mark.parametrize("software", ["2025-04", "2025-08"])
def test_mi300x_is_predicted_from_mi325x_by_the_measured_ratio(catalog, software):
    # MI300X's own LoRA points left out: its LoRA comes from MI325X's figure × the stored proxy ratio,
    # within 5% of the logged 0.745 (without the ratio it would be 1.0: MI300X as fast as MI325X).
    without = _without(catalog, lambda p: p.system == "mi300x")
    found, ratio = _lora_ratio(without, software)
    assert ratio == pytest.approx(LOGGED_MI300X_PER_MI325X, rel=0.05)
    assert found.transferred
    assert "× 0.744, mi300x ÷ mi325x measured on configurations published for both" in found.basis
    assert "scale_up_ratio dense_mi300x_per_mi325x" in found.basis


def test_the_basis_names_the_pairs(catalog):
    found = resolve_mfu(catalog, "mi300x", "fp8", catalog.model("llama3-70b"), 1024)
    assert found.transferred and "(via mi325x) × 0.744 (proxy ratio)" in found.basis
    assert "mi300x ÷ mi325x measured on 2 configurations published for both" in found.basis
    assert "llama2-70b fp8 on 8 GPUs, 2025-04: 0.742; llama2-70b fp8 on 8 GPUs, 2025-08: 0.747" in found.basis


def test_the_proxy_ratio_is_fitted_on_the_pairs_and_stored(catalog):
    fitted = scale_up_fit(catalog)
    assert fitted["dense_mi300x_per_mi325x"] == pytest.approx(LOGGED_MI300X_PER_MI325X, abs=0.001)
    assert catalog.mfu_scaling.scale_up_ratio["dense_mi300x_per_mi325x"] == fitted["dense_mi300x_per_mi325x"]
    pairs = [p for p in proxy_pairs(mfu_index(catalog).calibrated_points(), catalog.systems)]
    assert {p.key for p in pairs} == {"dense_mi300x_per_mi325x", "dense_h200_per_h100"}


def test_a_point_left_out_does_not_set_its_own_ratio(catalog):
    # Leave-one-out refits the ratio without the point: MI300X v5.0 left out, only v5.1's pair remains.
    def is_v50_mi300x(p):
        return p.system == "mi300x" and p.software == "2025-04"

    loo = scale_up_fit(_without(catalog, is_v50_mi300x))
    assert loo["dense_mi300x_per_mi325x"] == pytest.approx(0.2824 / 0.3782, abs=0.001)


def test_a_proxy_measured_slower_than_the_system_is_a_floor_not_a_ratio(catalog):
    # H200 ÷ H100 on one LoRA configuration (MLPerf v4.1) is 1.134: fitted and stored, not applied.
    assert catalog.mfu_scaling.scale_up_ratio["dense_h200_per_h100"] > 1
    h200 = resolve_mfu(catalog, "h200", "bf16", catalog.model("llama3-70b"), 64)
    h100 = resolve_mfu(catalog, "h100", "bf16", catalog.model("llama3-70b"), 64)
    assert h200.mfu == pytest.approx(h100.mfu) and "proxy ratio" not in h200.basis


def test_other_proxies_are_not_carried_by_a_proxy_ratio(catalog):
    # B300 from GB300 NVL72 crosses NVLink domain sizes: that is the domain ratio's work, not a pair's.
    assert not any(k.endswith("_per_gb300-nvl72") for k in catalog.mfu_scaling.scale_up_ratio)
