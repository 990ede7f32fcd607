"""MoE serving: the layout TensorRT-LLM publishes its MoE throughput with, and the batch it sizes.

TensorRT-LLM 1.0's performance overview (docs/source/performance/perf-overview.md, v1.0 edition) runs MoE
models with `--ep` and `enable_attention_dp`: attention data parallel, the routed experts split over the
GPUs, so every GPU holds its own copy of the weights outside the routed experts (TensorRT-LLM builds the
shared experts and dense layers with `overridden_tp_size=1` under attention DP). trtllm-bench sizes the
batch for each request's whole sequence (prompt plus output) with at least one KV head per GPU
(`tensorrt_llm/bench/build/tuning.py`, `calc_engine_setting`). Without these the model put Llama 4 Maverick
FP8 on 8 H100 at a batch of 1,929 and 3.3x the published speed (docs/calibration.md, "Serving").
"""

from __future__ import annotations

import pytest

from advisor.core.analysis import serving_fit as F
from advisor.core.model.inference import (
    Precisions,
    Replica,
    kv_cache_bytes_per_token,
    kv_copies,
    max_batch_in_memory,
    replica_weight_bytes,
    saturated,
    weight_bytes,
)
from advisor.core.model.serving_plan import serving_constants, serving_hardware
from advisor.io.serving_evidence_files import load_serving_evidence, serving_evidence_dir
from tests.conftest import computed_once, shipped_catalog

CATALOG = shipped_catalog()
POINTS = load_serving_evidence(serving_evidence_dir(), set(CATALOG.systems), set(CATALOG.models))
MAVERICK, QWEN3 = CATALOG.model("llama4-maverick"), CATALOG.model("qwen3-235b-a22b")
FP8 = Precisions("fp8", "fp8", "fp8")
MOVED_IN = (
    "trtllm10-llama4-maverick-h100-fp8-tp8-128-2048",
    "trtllm10-llama4-maverick-h100-fp8-tp8-2048-2048",
    "trtllm10-llama4-maverick-h100-fp8-tp8-5000-500",
    "trtllm10-llama4-maverick-h200-fp8-tp8-5000-500",
    "trtllm10-qwen3-235b-a22b-h100-fp8-tp8-128-2048",
    "trtllm10-qwen3-235b-a22b-h200-fp8-tp8-128-2048",
)
"""The MoE rows held out until the model represented their layout, now fitted on."""


def _replica(model, system: str, tp: int, prompt: int, output: int) -> Replica:
    hw = serving_hardware(CATALOG.system(system), CATALOG.economics.memory.usable_hbm_fraction, "fp8")
    return Replica(model, tp, hw, FP8, prompt, output, serving_constants(CATALOG.economics))


def test_attention_data_parallel_copies_the_weights_outside_the_routed_experts():
    # Maverick: 400B parameters, 17B active with 1 of 128 routed experts of 3.02B each, so 14.0B outside
    # them; on 8 GPUs 7 more copies of those, 498 GB at FP8 instead of 400 GB.
    assert replica_weight_bytes(MAVERICK, "fp8", 8) == pytest.approx(4e11 + 7 * 13.98e9, rel=1e-3)
    assert replica_weight_bytes(MAVERICK, "fp8", 1) == weight_bytes(MAVERICK, "fp8")
    dense = CATALOG.model("llama3-70b")
    assert replica_weight_bytes(dense, "fp8", 8) == weight_bytes(dense, "fp8")  # tensor parallel: one copy


def test_a_model_with_fewer_kv_heads_than_gpus_has_its_kv_cache_copied():
    # Qwen3-235B-A22B caches 4 KV heads of 128 (kv_dim 1,024): on 8 GPUs each head is held twice.
    head = CATALOG.economics.inference.kv_head_dim
    assert kv_copies(QWEN3, 8, head) == 2 and kv_copies(QWEN3, 4, head) == 1
    assert kv_copies(CATALOG.model("llama3-70b"), 8, head) == 1  # 8 KV heads


# Llama 4 Maverick FP8, 8 H100, 128 / 2,048: 10,829 tok/s published (1,354 per GPU). 498 GB of weights leave
# 120 GB of the 618 GB counted usable; at 98 KB of KV cache per token and 2,176 tokens reserved per
# request, 563 requests. At the modelled iteration the published figure needs 444 (the old model: 1,929
# requests, 4,406 tok/s/GPU, 3.3x the published figure).
def test_maverick_on_h100_is_sized_for_the_whole_sequence_beside_the_copies():
    replica = _replica(MAVERICK, "h100", 8, 128, 2048)
    assert max_batch_in_memory(replica) == 563
    step = saturated(replica)
    assert step is not None and step.batch == 563
    published_needs = 10829 * step.seconds
    assert 0.7 < published_needs / step.batch < 0.9
    assert step.tokens_per_second / 8 == pytest.approx(1354, rel=0.35)


@pytest.fixture(scope="module")
def result() -> F.ServingValidation:
    return computed_once(F.validate_serving, POINTS, CATALOG)


# Leave-one-out (constants fitted without the row): the six MoE rows held out before within 33%, where the
# shipped model was +94% to +225% on the H100 ones; every one within 39% (Maverick FP8 on 8 H100 at
# 128/2,048: 37.5%, 38.5% since gpt-oss's BF16 non-expert weights are counted, which moved the fit).
def test_the_moe_rows_are_fitted_on_and_predicted_leave_one_out(result):
    errors = {c.point.id: c.error for c in result.cases}
    assert set(MOVED_IN) <= set(errors)
    assert all(abs(errors[pid]) <= 0.39 for pid in MOVED_IN), {pid: errors[pid] for pid in MOVED_IN}
    assert errors["trtllm10-llama4-maverick-h100-fp8-tp8-128-2048"] == pytest.approx(0.385, abs=0.01)
    moe = {c.point.id: abs(c.error) for c in result.cases if CATALOG.models[c.point.model].family == "moe"}
    fine = [e for pid, e in moe.items() if "gpt-oss" in pid or "deepseek" in pid]
    coarse = [e for pid, e in moe.items() if not ("gpt-oss" in pid or "deepseek" in pid)]
    assert len(fine) == 26 and len(coarse) == 12 and max(coarse) <= 0.39


# Out of sample: the same page's other MoE rows, none fitted on (catalog/evidence/serving/held-out/
# trtllm10-moe-shapes/: Llama 4 Scout FP8 TP4 on H100 and H200, Maverick and Qwen3-235B-A22B FP8 TP8 at the
# shapes not fitted on). With the shipped constants: median error 16.9%, 27 of 43 within 25%, 2 outside the
# serving range (16.4%, 28, 1 before gpt-oss's BF16 non-expert weights were counted, which moved the fit;
# before the time per routed token: 23.0%, 24, 8; the model of before the layout: median 47.0%, worst 221%,
# 9 within 25%).
def test_the_other_moe_rows_of_the_page_out_of_sample():
    folder = serving_evidence_dir() / "held-out" / "trtllm10-moe-shapes"
    points = load_serving_evidence(folder, set(CATALOG.systems), set(CATALOG.models))
    assert len(points) == 43 and not {p.id for p in points} & {p.id for p in POINTS}
    assert {CATALOG.models[p.model].family for p in points} == {"moe"}
    shipped = F.held_out_serving(points, CATALOG)
    assert shipped.median_abs_error == pytest.approx(0.169, abs=0.005)
    assert shipped.within_25 == 27
    inference = CATALOG.economics.inference
    ratios = [c.published_per_gpu / c.predicted_per_gpu for c in shipped.cases]
    outside = sum(not inference.spread_low <= r <= inference.spread_high for r in ratios)
    assert outside == 2


def test_the_estimate_says_the_layout():
    from advisor.core.costing.estimate import estimate
    from advisor.core.model.workload import Workload

    def basis(model: str) -> str:
        w = Workload(model=CATALOG.model(model), tokens=1e9, kind="inference", precision="fp8", gpus=8)
        return estimate(w, "h100", CATALOG).mfu_basis.basis

    assert "(attention data parallel, experts split)" in basis("qwen3-235b-a22b")
    assert "(tensor-parallel)" in basis("llama3-70b")


# gpt-oss-120b caches 8 KV heads of 64 (config.json head_dim 64, kv_dim 1,024). Read with the 128 assumed for
# models that do not declare a head size, it had 4 KV heads, so on 8 GPUs every head was held twice and the
# batch halved. It declares kv_head_dim = 64 in catalog/models/gpt-oss-120b.toml.
def test_a_model_with_heads_of_64_has_one_kv_copy_on_8_gpus():
    head = CATALOG.economics.inference.kv_head_dim
    oss = CATALOG.model("gpt-oss-120b")
    assumed = oss.model_copy(update={"kv_head_dim": None})
    assert oss.kv_head_dim == 64 and head == 128
    assert kv_copies(oss, 8, head) == 1 and kv_copies(assumed, 8, head) == 2
    assert kv_copies(QWEN3, 8, head) == 2  # declares no head size: the assumption, 4 KV heads of 128
    declared = max_batch_in_memory(_replica(oss, "h100", 8, 8000, 1000))
    undeclared = max_batch_in_memory(_replica(assumed, "h100", 8, 8000, 1000))
    assert declared == pytest.approx(2 * undeclared, abs=1)


# The memory an estimate reports is what its batch was sized on: when memory sets the batch, the weights
# (copies included) and the KV cache reserved for whole sequences fill the replicas to within one request.
# It counted each request's prompt plus half its output, and one KV copy: DeepSeek-V3 on 8 H200 at
# 1,000/1,000 reported 792 of 1,015 GiB with its batch "set by memory".
@pytest.mark.parametrize(("model", "system"), [("deepseek-v3", "h200"), ("llama4-maverick", "h100")])
def test_the_memory_reported_is_the_memory_the_batch_is_sized_on(model: str, system: str):
    from advisor.core.costing.estimate import estimate
    from advisor.core.model.workload import Workload

    spec = CATALOG.model(model)
    w = Workload(
        model=spec,
        tokens=1e9,
        kind="inference",
        precision="fp8",
        gpus=8,
        prompt_tokens=1000,
        output_tokens=1000,
    )
    result = estimate(w, system, CATALOG)
    assert "set by memory" in result.mfu_basis.basis and "replicas of 8 GPU(s)" in result.mfu_basis.basis
    replica = _replica(spec, system, 8, 1000, 1000)
    head = CATALOG.economics.inference.kv_head_dim
    one_request_gib = kv_cache_bytes_per_token(spec, "fp8") * kv_copies(spec, 8, head) * 2000 / 2**30
    assert max_batch_in_memory(replica) >= 1
    assert result.memory.available_gib - one_request_gib <= result.memory.required_gib
    assert result.memory.required_gib <= result.memory.available_gib


@pytest.mark.parametrize(
    ("model", "tp"), [("gpt-oss-20b", 1), ("qwen3-235b-a22b", 4), ("llama4-maverick", 8)]
)
def test_each_token_routed_to_an_expert_costs_routed_token_ns(model, tp):
    # A MoE layer sends each token to experts_per_token experts; each such token costs routed_token_ns,
    # spread over the replica's GPUs, in decode and in the joining prompts alike (and in the time to first
    # token). gpt-oss (4 of 32/128 per token) and Qwen3 (8 of 128) pay it 4-8 times per token and layer,
    # Llama 4 Maverick (1 of 128) once.
    from dataclasses import replace

    from advisor.core.model.inference import iteration

    spec, system = CATALOG.model(model), CATALOG.system("b200")
    c = replace(serving_constants(CATALOG.economics), routed_token_ns=0.0)
    hw = serving_hardware(system, CATALOG.economics.memory.usable_hbm_fraction, "fp8")
    without = iteration(Replica(spec, tp, hw, FP8, 1000, 1000, c), 512)
    with_cost = iteration(Replica(spec, tp, hw, FP8, 1000, 1000, replace(c, routed_token_ns=40.0)), 512)
    assert spec.experts_per_token is not None
    per_token_s = spec.experts_per_token * spec.layers * 40e-9 / tp
    tokens = 512 + 512 / 1000 * 1000  # decoded, and the prompts of the requests joining
    assert with_cost.compute_s - without.compute_s == pytest.approx(tokens * per_token_s)
    assert with_cost.ttft_s - without.ttft_s > 1000 * per_token_s
    assert with_cost.memory_s == without.memory_s


def test_a_dense_model_routes_nothing():
    from dataclasses import replace

    from advisor.core.model.inference import iteration

    c = serving_constants(CATALOG.economics)
    hw = serving_hardware(CATALOG.system("h100"), CATALOG.economics.memory.usable_hbm_fraction, "fp8")
    spec = CATALOG.model("llama3-70b")
    base = iteration(Replica(spec, 2, hw, FP8, 1000, 1000, replace(c, routed_token_ns=0.0)), 256)
    costly = iteration(Replica(spec, 2, hw, FP8, 1000, 1000, replace(c, routed_token_ns=1e3)), 256)
    assert costly.seconds == base.seconds
