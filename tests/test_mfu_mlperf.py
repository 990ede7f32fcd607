"""MLPerf Training logs as calibration (catalog/mfu/mlperf-training-v*-nvidia.toml): a LoRA point is an MFU
under the LoRA FLOPs convention, so a LoRA estimate of its configuration gives back the logged tokens/s."""

from __future__ import annotations

import pytest

from advisor.core.analysis import validation as V
from advisor.core.costing.estimate import estimate
from advisor.core.model.flops import lora_flops_per_token
from advisor.core.model.strong_scaling import StrongScalingFit
from advisor.core.model.workload import Workload
from advisor.io.evidence_files import load_evidence
from tests.conftest import ROOT

# The benchmark's adapters: rank 16 on Llama 2 70B's fused QKV (8,192 -> 10,240) and output (8,192 ->
# 8,192) projections in 80 layers (the submissions' megatron_gpt_peft_tuning_config.yaml, lora_rank 16).
ADAPTERS = 80 * 16 * ((8192 + 10240) + (8192 + 8192))

# Tokens/s per GPU read from the result logs (median over result_0-9 of the tracked_stats samples/s x
# 8,192 / 8 GPUs): MLCommons training_results_v4.0 / v4.1 / v5.0, NVIDIA/results/<submission>/llama2_70b_lora.
LOGGED = [
    ("h200", "2024-04", 2533.8),  # v4.0 h200_ngc24.04_nemo
    ("h100", "2024-09", 2234.2),  # v4.1 eos_ngc24.09_nemo
    ("h200", "2024-09", 2535.1),  # v4.1 h200_ngc24.09_nemo
    ("b200", "2025-04", 5415.5),  # v5.0 nyx_n1_ngc25.04_nemo
    ("gb200-nvl72", "2025-04", 5511.4),  # v5.0 tyche_ngpu8_ngc25.04_nemo
]


def _lora(catalog, software: str) -> Workload:
    model = catalog.model("llama2-70b").model_copy(update={"seq_len": 8192})
    return Workload(
        model=model,
        tokens=1e9,
        gpus=8,
        precision="fp8",
        kind="finetune",
        finetune_method="lora",
        lora_trainable_fraction=ADAPTERS / model.params_total,
        software=software,
        efficiency="reference",
    )


@pytest.mark.parametrize(("system", "software", "tokens_per_s"), LOGGED)
def test_a_lora_estimate_gives_back_the_logged_throughput(catalog, system, software, tokens_per_s):
    est = estimate(_lora(catalog, software), system, catalog)
    assert "MLPerf Training" in est.mfu_basis.basis
    assert est.tokens_per_second_per_gpu == pytest.approx(tokens_per_s, rel=2e-4)


def test_the_lora_points_use_the_lora_flops_convention(catalog):
    # 4N + 6 x adapters + 12 x layers x hidden x seq_len, not pretraining's 6N: a pretraining MFU would
    # read the same log 1.5x higher.
    m = catalog.model("llama2-70b")
    flops = lora_flops_per_token(m.params_active, m.layers, m.hidden, 8192, ADAPTERS)
    assert flops == pytest.approx(3.4061e11, rel=1e-4)
    points = [
        p
        for tid, table in catalog.mfu_tables.items()
        if tid.startswith("mlperf-training-v") and tid.endswith("-nvidia")
        for p in table.points
    ]
    assert len(points) == len(LOGGED)
    for p in points:
        logged = next(t for s, sw, t in LOGGED if (s, sw) == (p.system, p.software))
        peak = catalog.system(p.system).compute.peak_tflops(p.precision)
        assert p.mfu == pytest.approx(logged * flops / (peak * 1e12), abs=5e-5)


def test_h200_is_faster_than_h100_on_the_lora_as_the_logs_show(catalog):
    # MLPerf v4.1 (NeMo 24.09): H200 2,535.1 vs H100 2,234.2 tokens/s per GPU, 1.135x (v4.0: 1.148x);
    # before these points H200 borrowed H100's figures and came out equal.
    h200 = estimate(_lora(catalog, "2024-09"), "h200", catalog).tokens_per_second_per_gpu
    h100 = estimate(_lora(catalog, "2024-09"), "h100", catalog).tokens_per_second_per_gpu
    assert h200 / h100 == pytest.approx(2535.1 / 2234.2, rel=1e-3)


def test_strong_scaling_lora_logs_are_predicted_too_fast_without_the_loss(catalog):
    # The LoRA logs at 64-1,024 H100 and 72/512 GB200 run one sequence per 8 GPUs per step (global
    # batch 8-128). Other submitters' runs below one sequence per GPU (stop 27: B200 16 and 64 GPUs, H200
    # 512, MI300X 32, Llama 3.1 8B on 64 B200) likewise. Without the strong-scaling loss (exponent 0, as
    # before the global batch was an input) the model is 6% to 81% too fast on all nine: what the loss is
    # fitted on (tests/test_strong_scaling.py).
    found = load_evidence(ROOT / "catalog/evidence/training", set(catalog.systems), set(catalog.models))
    runs = [
        r for r in found if r.global_batch is not None and V.predict(r, catalog, ranged=False).strong_scaling
    ]
    assert len(runs) == 9
    scaling = catalog.mfu_scaling.model_copy(update={"strong_scaling": StrongScalingFit()})
    cases = V.held_out(runs, catalog.rebuilt(mfu_scaling=scaling)).cases
    assert all(0.04 < c.error for c in cases), [(c.run.id, c.error) for c in cases]
    nvidia = [c for c in cases if "NVIDIA submission" in c.run.published.source]
    assert len(nvidia) == 4
    assert all(c.error < 0.30 for c in nvidia), [(c.run.id, c.error) for c in nvidia]
