"""MFU selection: exact at published points, release selection, interpolation, fallbacks."""

from __future__ import annotations

import pytest

from advisor.core.estimate import estimate
from advisor.core.flops import custom_model
from advisor.core.mfu import resolve_mfu
from advisor.core.workload import Workload
from tests.conftest import shipped_catalog


def _points():
    catalog = shipped_catalog()
    return [
        pytest.param(
            cal,
            id=f"{cal.point.system}-{cal.point.precision}-{cal.point.model}-{cal.point.gpus}-"
            f"{cal.seq_len}-{cal.point.software}",
        )
        for cal in catalog.mfu_index.calibrated_points()
    ]


# Every published configuration, with its software release, gets that point's MFU exactly.
@pytest.mark.parametrize("cal", _points())
def test_every_point_is_reproduced_exactly(catalog, cal):
    p = cal.point
    model = catalog.model(p.model)
    if cal.seq_len != model.seq_len:
        model = model.model_copy(update={"seq_len": cal.seq_len})
    found = resolve_mfu(catalog, p.system, p.precision, model, p.gpus, p.software)
    assert found.exact
    assert found.mfu == cal.mfu
    if p.mfu is not None:
        assert found.mfu == p.mfu
    else:  # published tokens/s comes back exactly through the estimate
        w = Workload(model=model, tokens=1e9, gpus=p.gpus, precision=p.precision, software=p.software)
        assert estimate(w, p.system, catalog).tokens_per_second_per_gpu == pytest.approx(
            p.tokens_per_s_per_gpu
        )


def test_default_is_latest_release(catalog):
    latest = resolve_mfu(catalog, "h100", "fp8", catalog.model("gpt3-175b"), 128)
    assert latest.mfu == 0.395 and latest.exact


def test_software_selects_older_release(catalog):
    old = resolve_mfu(catalog, "h100", "fp8", catalog.model("gpt3-175b"), 128, "2024-01")
    assert old.mfu == 0.295


def test_software_older_than_any_point_uses_earliest_with_warning(catalog):
    found = resolve_mfu(catalog, "gb200-nvl72", "fp8", catalog.model("llama3-70b"), 64, "2024-01")
    assert found.warnings and "earliest" in found.warnings[0]


def test_mfu_falls_slowly_with_cluster_size(catalog):
    model = catalog.model("llama3-70b")
    values = [
        resolve_mfu(catalog, "h100", "fp8", model, g, "2025-08").mfu for g in (64, 256, 1024, 2048, 8192)
    ]
    assert values == sorted(values, reverse=True)
    assert values[0] == 0.381 and values[3] == 0.355
    assert values[4] > 0.33  # beyond the last point: 1.4% per doubling, not a cliff


def test_interpolates_between_model_sizes(catalog):
    small = resolve_mfu(catalog, "a100", "bf16", catalog.model("llama3-8b"), 64).mfu
    big = resolve_mfu(catalog, "a100", "bf16", catalog.model("llama3-70b"), 64).mfu
    middle = resolve_mfu(catalog, "a100", "bf16", custom_model(30e9, seq_len=8192), 64)
    assert not middle.exact
    assert min(small, big) <= middle.mfu <= max(small, big)


def test_custom_model_same_size_as_preset_gets_its_value(catalog):
    preset = catalog.model("llama3-70b")
    twin = custom_model(preset.params_total, seq_len=preset.seq_len)
    assert (
        resolve_mfu(catalog, "h100", "fp8", twin, 64).mfu
        == resolve_mfu(catalog, "h100", "fp8", preset, 64).mfu
    )


def test_fp8_on_a100_falls_back_to_bf16_with_warning(catalog):
    w = Workload(model=catalog.model("llama3-8b"), tokens=1e9, gpus=8, precision="fp8")
    est = estimate(w, "a100", catalog)
    assert est.precision == "bf16" and est.precision_requested == "fp8"
    assert any("no FP8" in warning for warning in est.warnings)


def test_no_fp8_stack_runs_bf16(catalog):
    w = Workload(model=catalog.model("llama3-8b"), tokens=1e9, gpus=8, precision="fp8", fp8_stack=False)
    est = estimate(w, "h100", catalog)
    assert est.precision == "bf16"
    assert any("no FP8 support" in warning for warning in est.warnings)


def test_h200_borrows_h100_calibration_where_it_has_none(catalog):
    found = resolve_mfu(catalog, "h200", "bf16", catalog.model("llama3-70b"), 64)
    assert "via h100" in found.basis
    assert found.mfu == resolve_mfu(catalog, "h100", "bf16", catalog.model("llama3-70b"), 64).mfu


def test_precision_without_points_is_transferred(catalog):
    found = resolve_mfu(catalog, "b200", "bf16", catalog.model("llama3-405b"), 128)
    fp8 = resolve_mfu(catalog, "b200", "fp8", catalog.model("llama3-405b"), 128)
    assert found.mfu == pytest.approx(fp8.mfu * 1.39)
    assert any("no published bf16" in w for w in found.warnings)


def test_moe_uses_moe_points(catalog):
    moe = resolve_mfu(catalog, "h100", "fp8", catalog.model("deepseek-v3"), 1024)
    dense = resolve_mfu(catalog, "h100", "fp8", catalog.model("llama3-70b"), 1024)
    assert moe.mfu < dense.mfu * 0.7


def test_moe_without_moe_points_scales_dense(catalog):
    found = resolve_mfu(catalog, "a100", "bf16", catalog.model("mixtral-8x7b"), 64)
    assert any("moe_per_dense" in w for w in found.warnings)


def test_long_context_uses_long_context_point(catalog):
    model = catalog.model("llama3-405b").model_copy(update={"seq_len": 131072})
    found = resolve_mfu(catalog, "h100", "bf16", model, 16384, "2024-07")
    assert found.exact and found.mfu == 0.38


def test_stale_configurations_give_way(catalog):
    # 2023 llm-foundry H100 BF16 figures are superseded by 2025 NeMo ones by default ...
    found = resolve_mfu(catalog, "h100", "bf16", catalog.model("mpt-30b"), 8)
    assert "llm-foundry" not in found.basis
    # ... and come back when their release is asked for.
    assert resolve_mfu(catalog, "h100", "bf16", catalog.model("mpt-30b"), 8, "2023-06").mfu == 0.381
