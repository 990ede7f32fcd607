"""The serving model against published serving benchmarks: evidence, the fit, leave-one-out, sizing."""

from __future__ import annotations

import json
import statistics

import pytest

from advisor.cli.main import main
from advisor.core.analysis import serving_fit as F
from advisor.core.analysis.fitting import serving_spread
from advisor.core.costing.estimate import estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.inference import params_read_per_step, prefill_flops
from advisor.core.model.workload import Workload
from advisor.io.serving_evidence_files import load_serving_evidence, serving_evidence_dir
from tests.conftest import computed_once, shipped_catalog

CATALOG = shipped_catalog()
POINTS = load_serving_evidence(serving_evidence_dir(), set(CATALOG.systems), set(CATALOG.models))


@pytest.fixture(scope="module")
def result() -> F.ServingValidation:
    return computed_once(F.validate_serving, POINTS, CATALOG)


def test_every_serving_point_names_its_source_with_a_url_and_a_date():
    for point in POINTS:
        assert point.published.url.startswith("https://"), point.id
        assert len(point.published.source) > 10 and point.published.as_of, point.id
        assert point.note, point.id


def test_the_points_span_systems_families_and_shapes(result):
    assert len(POINTS) >= 12
    assert len({p.system for p in POINTS}) >= 4
    assert {CATALOG.models[p.model].family for p in POINTS} == {"dense", "moe"}
    assert {"prefill-heavy", "decode-heavy"} <= {c.shape for c in result.cases}


def test_the_shipped_serving_constants_are_the_fit_on_the_shipped_points(result):
    # Every fitted constant in catalog/economics.toml [inference] is what `advisor validate` fits now:
    # change a point, refit, and copy the values `advisor validate` prints.
    shipped = CATALOG.economics.inference
    stacks = {f"{F.STACK_PREFIX}{stack}": factor for stack, factor in shipped.stack_factor.items()}
    assert F.fitted_values(result.fitted) == {name: getattr(shipped, name) for name in F.FITTED} | stacks
    assert shipped.fit_points == len(POINTS)
    assert serving_spread(result) == (shipped.spread_low, shipped.spread_high)
    assert shipped.spread_low < 1 < shipped.spread_high


# The accuracy claimed in docs/calibration.md, leave-one-out: each point predicted with constants fitted without
# it. Issue 18's goal was median <= 15%, worst <= 35% on 36 points; with the six MoE rows the model put up to
# 3.3x too fast now fitted on (42 points: median 9.9%, worst 36.8%, Llama 3 70B FP8 on one H100 modelled too
# slow), the worst is 37%. With the 26 gpt-oss and DeepSeek-R1 rows of TensorRT-LLM 1.1 and the time per
# routed token fitted (68 points): median 11.5%, worst 60.2% (gpt-oss-120b on 4 H100, 1000/1000); the 42
# of before 9.5% / 37.5%, the 26 13.7% / 60.2%. With gpt-oss's released layout counted (MXFP4 experts, the
# rest BF16): median 11.1%, worst 57.1% (the same row); the 42 9.8% / 38.5% (Llama 4 Maverick FP8 on 8
# H100, 128/2,048, was 37.5%), the 26 13.5% / 57.1%.
def test_leave_one_out_accuracy(result):
    assert result.median_abs_error <= 0.12
    assert result.worst_abs_error <= 0.61
    assert result.within_25 >= 0.85 * len(result.cases)
    fine = [
        abs(c.error) for c in result.cases if c.point.model in {"gpt-oss-20b", "gpt-oss-120b", "deepseek-v3"}
    ]
    others = [
        abs(c.error)
        for c in result.cases
        if c.point.model not in {"gpt-oss-20b", "gpt-oss-120b", "deepseek-v3"}
    ]
    assert len(fine) == 26 and len(others) == 42
    assert statistics.median(others) <= 0.10 and max(others) <= 0.39
    assert statistics.median(fine) <= 0.14


# TensorRT-LLM 1.0 perf overview (catalog/evidence/serving/trtllm10-llama3-70b-h200-fp8-128-2048.toml):
# Llama 3.3 70B FP8 on one H200, 128 in / 2,048 out: 4,336 output tok/s. Within 20% leave-one-out (-17%:
# the decode MFU fell from 0.662 to 0.583 when the fine-grained MoE rows joined; within 15% before).
def test_published_h200_decode_heavy_point(result):
    case = next(c for c in result.cases if c.point.id == "trtllm10-llama3-70b-h200-fp8-128-2048")
    assert case.predicted_per_gpu == pytest.approx(4336, rel=0.20)


# Not fitted on (undated software): NVIDIA NIM for LLMs benchmarking, 'Performance' page, Llama-3.3-70B-
# Instruct NIM 1.8.0 on 2 H100, FP8 TP2, 5,000 in / 500 out (https://docs.nvidia.com/nim/benchmarking/llm/
# 1.0.0/performance, accessed 2026-12-01): at concurrency 1, 50, 100 the time per output token is 18.58,
# 59.73, 92.91 ms and the output 51.67, 814.37, 917.26 tok/s. The model's iteration at those batches: TPOT
# within 20%, throughput within 15% (the published TTFT includes queueing, which the model leaves out).
@pytest.mark.parametrize(
    ("concurrency", "tpot_ms", "tokens_per_s"), [(1, 18.58, 51.67), (50, 59.73, 814.37), (100, 92.91, 917.26)]
)
def test_published_nim_latencies_not_fitted_on(concurrency, tpot_ms, tokens_per_s):
    from advisor.core.model.inference import Precisions, Replica, iteration
    from advisor.core.model.serving_plan import serving_constants, serving_hardware

    hw = serving_hardware(CATALOG.system("h100"), CATALOG.economics.memory.usable_hbm_fraction, "fp8")
    c = serving_constants(CATALOG.economics)
    fp8 = Precisions("fp8", "fp8", "fp8")
    step = iteration(Replica(CATALOG.model("llama3-70b"), 2, hw, fp8, 5000, 500, c), concurrency)
    assert step.seconds * 1e3 == pytest.approx(tpot_ms, rel=0.20)
    # a request's 500 tokens take its prefill plus 499 iterations; `concurrency` requests run together
    request_s = step.ttft_s + 499 * step.seconds
    assert concurrency * 500 / request_s == pytest.approx(tokens_per_s, rel=0.15)


def test_moe_reads_only_the_experts_its_batch_touches():
    mixtral = CATALOG.model("mixtral-8x7b")  # 8 experts, 2 per token
    assert params_read_per_step(mixtral, 1) == pytest.approx(mixtral.params_active)
    assert params_read_per_step(mixtral, 64) == pytest.approx(mixtral.params_total, rel=1e-3)
    assert params_read_per_step(CATALOG.model("llama3-70b"), 1) == CATALOG.model("llama3-70b").params_total


def test_prefill_counts_attention():
    # 2 x 80 layers x 32k^2 x 8,192 = 1.4e18 FLOPs of attention, beside 2 x 70.6e9 x 32k = 4.6e15 of weights.
    model = CATALOG.model("llama3-70b")
    short, long = prefill_flops(model, 1000), prefill_flops(model, 32_768)
    assert short == pytest.approx(2 * model.params_active * 1000, rel=0.05)
    assert long > 1.25 * 2 * model.params_active * 32_768


def _layouts(tpot_ms: float) -> dict[str, tuple[int, int, str]]:
    w = Workload(
        model=CATALOG.model("llama3-70b"),
        tokens=1e9,
        kind="inference",
        precision="fp8",
        prompt_tokens=1000,
        output_tokens=500,
        target_tokens_per_second=50_000,
        tpot_limit_ms=tpot_ms,
        ttft_limit_ms=2000,
    )
    out = {}
    for system in CATALOG.systems:
        s = estimate(w, system, CATALOG).serving
        assert s is not None and s.meets_limits
        assert s.tpot_ms <= tpot_ms * 1.0001 and s.ttft_ms <= 2000
        out[system] = (s.replica_gpus, s.gpus_for_target, s.binding_limit)
    return out


# Issue 18, "done when": a 70B served at a target rate under MLPerf's 200 ms TPOT limit gets a replica
# layout and GPU count per system that change when the limit tightens to the interactive 40 ms.
def test_a_tighter_tpot_limit_changes_the_layout_and_the_gpus():
    relaxed, tight = _layouts(200), _layouts(40)
    for system in CATALOG.systems:
        assert tight[system] != relaxed[system], system
        assert tight[system][1] >= relaxed[system][1], system
        assert tight[system][2] == "TPOT", system
    assert any(tight[s][0] != relaxed[s][0] for s in CATALOG.systems)  # some system changes its TP size


def test_requests_per_second_target_is_requests_times_output_tokens():
    base = dict(model=CATALOG.model("llama3-8b"), tokens=1e9, kind="inference", output_tokens=400)
    by_requests = estimate(Workload(**base, requests_per_second=100), "h100", CATALOG).serving
    by_tokens = estimate(Workload(**base, target_tokens_per_second=40_000), "h100", CATALOG).serving
    assert by_requests == by_tokens


def test_serving_ranges_come_from_the_serving_residuals():
    from advisor.core.analysis.uncertainty import input_spreads

    w = Workload(model=CATALOG.model("llama3-70b"), tokens=1e9, kind="inference")
    est = estimate(w, "h100", CATALOG)
    spreads = input_spreads(est, w, CATALOG, Assumptions())
    shipped = CATALOG.economics.inference
    assert (spreads["efficiency"].low, spreads["efficiency"].high) == (
        shipped.spread_low,
        shipped.spread_high,
    )
    assert "goodput" not in spreads


def test_serving_prices_and_month():
    w = Workload(
        model=CATALOG.model("llama3-70b"), tokens=1e9, kind="inference", target_tokens_per_second=10_000
    )
    est = estimate(w, "h100", CATALOG)
    s = est.serving
    assert s.usd_per_million_output_tokens_at_full_load > s.usd_per_million_input_tokens_at_full_load > 0
    # A fleet at a target rate runs its month around the clock: the 30-day reservation costs less.
    price = CATALOG.system("h100").reserved_rental.price_usd_per_gpu_hour
    assert est.price_usd_per_gpu_hour == price
    assert s.usd_per_month == pytest.approx(s.gpus_for_target * price * 730)
    assert 0 < s.utilisation <= 1


def test_validate_json_has_a_serving_section(capsys, validations_once):
    assert main(["validate", "--json", "--kind", "production"]) == 0
    serving = json.loads(capsys.readouterr().out)["serving"]
    assert serving["summary"]["points"] == len(POINTS)
    assert serving["summary"]["median_abs_error"] <= 0.15
    stacks = {"stack_factor.vllm-rocm"}
    assert set(serving["fitted"]) == set(F.FITTED) | stacks | {"spread_low", "spread_high"}


def test_recommend_answers_a_serving_question_with_fleets_and_prices(capsys):
    # 70B at 50k generated tokens/s under a 40 ms TPOT limit: per system the layout, what binds, the GPUs
    # the target needs, $/1M input and output tokens and $/month; the headline speaks of serving.
    flags = ["--model", "llama3-70b", "--tokens", "1e9", "--kind", "inference", "--precision", "fp8"]
    flags += ["--target-tokens-per-second", "50k", "--tpot-limit-ms", "40"]
    assert main(["recommend", *flags]) == 0
    out = capsys.readouterr().out
    headline = out.splitlines()[0]
    assert " to serve 50k tokens/s: " in headline and "(limit 40 ms)" in headline
    assert "/month" in headline and "per 1M output tokens" in headline
    assert "serving" in out and "GPUs" in out and "$/1M out" in out and "$/month" in out and "TPOT" in out
