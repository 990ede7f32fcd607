"""Back-testing on published runs: the evidence, the fits, leave-one-out, and `advisor validate`."""

from __future__ import annotations

import itertools
import json
import math
import statistics
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.cli.main import main
from advisor.core.analysis import fitting
from advisor.core.analysis import validation as V
from advisor.core.model.mfu import mfu_index
from advisor.core.model.mfu_points import along_gpus, effective_doublings
from advisor.io.evidence_files import evidence_dir, load_evidence
from benchmarks import production_features, seven_runs
from tests.conftest import computed_once, shipped_catalog

CATALOG = shipped_catalog()
RUNS = load_evidence(evidence_dir(), set(CATALOG.systems), set(CATALOG.models))


@pytest.fixture(scope="module")
def result() -> V.Validation:
    return computed_once(V.validate, RUNS, CATALOG)


def test_every_published_run_names_its_source_with_a_url_and_a_date():
    assert len([r for r in RUNS if r.kind == "production"]) >= 20
    for run in RUNS:
        assert run.published.url.startswith("https://"), run.id
        assert len(run.published.source) > 10 and run.published.as_of, run.id
        if run.model_spec is not None:  # an architecture that is not a preset names where it was read
            assert run.model_spec.url.startswith("https://"), run.id


def test_the_shipped_constants_are_the_fit_on_the_shipped_runs(result):
    # Every fitted constant in catalog/ is what `advisor validate` fits now: change a run, refit.
    assert result.production is not None
    assert result.production == CATALOG.mfu_scaling.production
    assert result.scaling.small_model_exponent == CATALOG.mfu_scaling.small_model_exponent
    assert result.scaling.loss_per_doubling == CATALOG.mfu_scaling.loss_per_doubling
    assert result.scaling.scale_up_ratio == CATALOG.mfu_scaling.scale_up_ratio
    assert result.strong_scaling == CATALOG.mfu_scaling.strong_scaling
    unc = CATALOG.economics.uncertainty
    shipped = {f"mfu_{cls}": getattr(unc, f"mfu_{cls}") for cls in V.FITTED_SPREADS}
    shipped |= {name: getattr(unc, name) for name in V.FAMILY_SHARES if getattr(unc, name) is not None}
    assert result.reference_spreads == shipped


# The accuracy the tool claims (docs/calibration.md): leave-one-out, so no run is judged by a constant it
# helped fit. A change that makes forecasts worse fails here.
def test_leave_one_out_accuracy_and_coverage(result):
    by_name = {g.name: g for g in result.groups()}
    assert by_name["all"].runs >= 90
    # Pinned a little above today's values (all: median 2.7%, worst 45.6%; benchmarks: median 1.9%, worst
    # 34%; end-to-end: 17.2%, 45.6%; coverage 82%, 81% and 87%; 277 cases): a change that loses accuracy, or
    # ranges that stop holding, fails. The end-to-end median rose from 11.3% (21 runs) to 15.9% (27) and
    # 17.7% (32) as published runs were added (Phi, DeepSeek 67B and V2; then GRIN MoE, Falcon-7B,
    # Falcon2-11B, Olmo 3 32B, MAI-Base-1 on GB200), and was 17.2% (38) at stop 26 (Stable LM 2 1.6B,
    # StableLM-3B-4E1T, LLaMA 7B/13B/33B, StarCoder); the larger set measures the end-to-end error the
    # smaller ones understated (docs/calibration.md, "More runs (stop 26)"). The benchmark median rose from
    # 1.24% to 1.67% when 17 MLPerf Training cases were added (5 calibration points, 12 validation runs;
    # their median 8.5%, worst 26%): the 181 earlier benchmark cases keep their median (1.24%); and from
    # 1.59% to 2.29% when 40 MLPerf logs of other submitters were added at stop 27 (B200, B300, H200,
    # MI300X, MI325X, MI355X; median 5.9%, worst 29%): the 198 earlier benchmark cases keep their median.
    # Then AMD's own LoRA logs became points and MI300X is carried from MI325X by the measured proxy ratio
    # (0.744): all 3.11% -> 2.74%, benchmarks 2.29% -> 1.94%, worst unchanged, 277 cases. Solar Open 100B's
    # measured throughput on 480 B200 (Upstage, a benchmark case, -31%) made 278: all 2.78%, benchmarks
    # 1.95%, worst and the end-to-end figures unchanged (docs/calibration.md, "Newer systems (ev29)").
    # Release ratios measured on pairs from one publication only (ev31): benchmarks 1.99%, worst 32.6%.
    # Megatron-Bridge's DeepSeek-V3 points read at their published 4,096-token sequence (were 8,192, MFU
    # 8.8% too high) move moe_per_dense 0.49 -> 0.45: MoE runs on H100 with no MoE figure of their time
    # (dense x moe_per_dense) get slower; GRIN MoE +45.6% -> +55.7% (the worst), all 2.65%, end-to-end
    # 16.8% (docs/calibration.md, "Blackwell MoE evidence, release pairs and per-family spreads (ev31)").
    # Then 9 Megatron-Bridge Blackwell MoE points (25.09 and 26.04.01) and 4 MLPerf v6.0 logs (DeepSeek-V3
    # on 256 GB300 and 512 GB200, gpt-oss-20b on 8 GB300 and 8 GB200) made 291: all 3.11%, benchmarks
    # 2.17%, worst 94.3% (B200 Qwen3 30B-A3B in 25.11, 9,299 tokens/s between 25.09's 18,066 and 26.04.01's
    # 27,136: a vendor series no ratio carries), end-to-end 16.8% / 55.3%. With the reference spreads fitted
    # per model family: coverage 82.8% -> 83.8% (dense 87.4% -> 83.5%, MoE 65.0% -> 85.0%), errors unchanged.
    # Then the nine strong-scaling MLPerf runs (below one sequence per replica per step, held out before)
    # became validation runs, each predicted with the strong-scaling loss fitted without it (median 8.7%,
    # worst 52.9%: Oracle's 512 H200, which the others' exponent leaves too fast): 300 cases, all 3.27%,
    # benchmarks 2.24%, coverage 84.0%; the 291 earlier cases do not move (docs/calibration.md, "Strong
    # scaling: a global-batch input").
    assert by_name["all"].runs >= 300
    assert by_name["all"].median_abs_error <= 0.034
    assert by_name["kind=benchmark"].median_abs_error <= 0.023
    assert by_name["all"].worst_abs_error <= 0.95
    assert by_name["kind=benchmark"].worst_abs_error <= 0.95
    assert by_name["kind=production"].median_abs_error <= 0.175
    assert by_name["kind=production"].worst_abs_error <= 0.57
    for group in ("all", "kind=benchmark", "kind=production"):
        assert 0.78 <= by_name[group].coverage <= 0.90, group
    # Each fitted spread class holds what it was fitted to hold (80%), within sampling error; and so does
    # each model family, since a class's spread is fitted per family where it has enough cases (ev31:
    # pooled, dense estimates held 87% and MoE ones 65%).
    for cls in V.FITTED_SPREADS:
        if by_name[f"basis={cls}"].runs >= V.MIN_RESIDUALS:
            assert 0.75 <= by_name[f"basis={cls}"].coverage <= 0.95, cls
    for family in V.FAMILIES:
        assert 0.78 <= by_name[f"family={family}"].coverage <= 0.90, family
    # Every system with a calibration point that can be predicted without itself is back-tested.
    testable = {p.system for p in V.calibration_points(CATALOG) if V.has_other_calibration(CATALOG, p)}
    assert testable >= {
        *("a100", "h100", "h200", "b200", "gb200-nvl72", "b300", "gb300-nvl72"),
        *("mi300x", "mi325x", "mi355x"),
    }
    for system in testable:
        assert f"system={system}" in by_name


# The spread at a published point (`exact`) is fitted like the others (docs/calibration.md, "The spread at
# a published point"): 21 benchmarks reproduce a published point from another publication of the same
# configuration and release (MLPerf partners' logs, NVIDIA's GB200 405B logs, two NeMo 24.12 tables). The
# assumed ±5% held 16 of 22 (73%); fitted, ±8.2% holds 18 (82%).
def test_the_spread_at_a_published_point_is_fitted_leave_one_out(result):
    by_name = {g.name: g for g in result.groups()}
    assert "exact" in V.FITTED_SPREADS
    assert result.reference_spreads["mfu_exact"] == pytest.approx(0.082, abs=0.005)
    assert by_name["basis=exact"].runs >= 20
    assert 0.78 <= by_name["basis=exact"].coverage <= 0.90


def test_a_systems_only_point_is_left_out_of_the_back_test():
    # MI355X without its MLPerf v5.1 LoRA point: the Llama 3.1 8B point is its only published training
    # throughput, and nothing else predicts it (MI355X has no proxy).
    tables = {
        tid: t.model_copy(
            update={
                "points": tuple(p for p in t.points if not (p.system == "mi355x" and p.model == "llama2-70b"))
            }
        )
        for tid, t in CATALOG.mfu_tables.items()
    }
    catalog = CATALOG.rebuilt(mfu_tables=tables)
    (only,) = [p for p in V.calibration_points(catalog) if p.system == "mi355x"]
    assert not V.has_other_calibration(catalog, only)
    assert all(point is not only for _, point in V.calibration_runs(catalog))


# The runs quoted in the issue "Forecasts that match real training runs": each within 20% leave-one-out,
# except Llama 2 7B (+21%: Meta's small-model runs are slower than the trend of the other runs) and
# DeepSeek-V3 (+22.3%, was +12.3%: its H100 reference is dense x moe_per_dense, which fell from 0.49 to
# 0.45 when Megatron-Bridge's DeepSeek-V3 points were read at their published 4,096-token sequence).
@pytest.mark.parametrize(
    ("run_id", "tolerance"),
    [
        ("llama2-7b-meta", 0.25),
        ("llama2-13b-meta", 0.20),
        ("llama2-70b-meta", 0.20),
        ("llama3-1-405b-meta", 0.20),
        ("deepseek-v3-pretrain", 0.25),
        ("mpt-7b-mosaicml", 0.20),
        ("opt-175b-meta", 0.20),
    ],
)
def test_the_issue_runs(result, run_id, tolerance):
    case = next(c for c in result.cases if c.run.id == run_id)
    assert abs(case.error) <= tolerance


def test_a_calibration_point_is_never_predicted_from_itself(result):
    points = {c.run.id: c for c in result.cases if "." in c.run.id}
    predictable = [p for p in V.calibration_points(CATALOG) if V.has_other_calibration(CATALOG, p)]
    assert len(points) == len(predictable)
    # Without leave-one-out every point would be reproduced exactly (error 0).
    assert sum(abs(c.error) > 0.005 for c in points.values()) > len(points) / 2


def test_production_is_slower_than_reference_and_bigger_models_lose_less():
    p = CATALOG.mfu_scaling.production
    assert p.factor_for(8e9) < p.factor_for(70e9) < p.factor_for(405e9) <= 1.0
    assert p.spread_low < 1 < p.spread_high


def test_calibration_groups_never_get_faster_per_gpu_on_more_gpus():
    # A point that breaks this within its configuration and release is kept as a validation run.
    groups: dict[tuple, list[tuple[int, float]]] = {}
    for cal in mfu_index(CATALOG).calibrated_points():
        p = cal.point
        groups.setdefault((p.system, p.precision, p.model, cal.seq_len, p.software), []).append(
            (p.gpus, cal.mfu)
        )
    for key, points in groups.items():
        # Two publications of one configuration at the same size may differ; across sizes, never faster.
        by_size = sorted(points, key=lambda p: (p[0], -p[1]))
        assert all(b[1] <= a[1] + 1e-9 for a, b in itertools.pairwise(by_size) if b[0] > a[0]), key


@given(
    mode=st.floats(0.5, 2.0),
    below=st.floats(0.01, 0.4),
    above=st.floats(0.01, 0.8),
)
def test_triangular_ends_put_p10_and_p90_where_asked(mode, below, above):
    q10, q90 = mode * (1 - below), mode * (1 + above)
    low, high = fitting.triangular_for_quantiles(mode, q10, q90)
    cdf_q10 = (q10 - low) ** 2 / ((high - low) * (mode - low))
    cdf_q90 = 1 - (high - q90) ** 2 / ((high - low) * (high - mode))
    assert cdf_q10 == pytest.approx(0.1, abs=1e-6) and cdf_q90 == pytest.approx(0.9, abs=1e-6)


def test_production_fit_recovers_a_known_line_and_its_leave_one_out_residuals():
    params = [7e9, 13e9, 70e9, 180e9, 405e9]
    ratios = [0.8 * (p / 70e9) ** 0.1 for p in params]
    factor, slope, residuals = fitting.fit_production(params, ratios, 70e9)
    assert factor == pytest.approx(0.8) and slope == pytest.approx(0.1)
    assert all(r == pytest.approx(1.0) for r in residuals)
    noisy = [r * n for r, n in zip(ratios, [1.1, 0.9, 1.0, 1.05, 0.95], strict=True)]
    assert statistics.median(abs(math.log(r)) for r in fitting.fit_production(params, noisy, 70e9)[2]) > 0.04


def test_small_model_exponent_is_a_fit_through_the_origin():
    cases = [fitting.Probe("moe", "fp8", math.log(s), 0.0, 0.4 * math.log(s)) for s in (0.1, 0.3, 0.5)]
    cases.append(fitting.Probe("moe", "fp8", 0.0, 0.0, 0.3))  # not below the smallest model: no information
    assert fitting.fit_small_model_exponents(cases) == {"dense": 0.0, "moe": 0.4}
    assert fitting.fit_small_model_exponents(cases, skip=0)["moe"] == pytest.approx(0.4)


def test_validate_json_and_table(capsys, validations_once):
    assert main(["validate", "--json", "--kind", "production"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {c["kind"] for c in data["cases"]} == {"production"}
    case = data["cases"][-1]
    assert {"published", "predicted", "error", "p10", "p90", "inside_p10_p90", "url"} <= set(case)
    assert data["fitted"]["production"]["runs"] >= 20
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "leave-one-out" in out and "llama2-70b-meta" in out


def test_held_out_runs_are_predicted_with_the_shipped_constants(tmp_path: Path, capsys, result):
    good = (evidence_dir() / "mpt-7b-mosaicml.toml").read_text()
    (tmp_path / "mine.toml").write_text(good.replace('id = "mpt-7b-mosaicml"', 'id = "mine"'))
    assert main(["validate", "--evidence", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in data["cases"]] == ["mine"] and data["method"].startswith("held out")
    # In-sample for the shipped fit, so at least as close as its leave-one-out prediction.
    loo = next(c for c in result.cases if c.run.id == "mpt-7b-mosaicml")
    assert data["cases"][0]["predicted"] == pytest.approx(
        V.predict(RUNS[[r.id for r in RUNS].index("mpt-7b-mosaicml")], CATALOG).predicted
    )
    assert loo.predicted > 0


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('system = "a100"', 'system = "tpu"'), "system 'tpu' is not in the catalog"),
        (lambda t: t.replace('quantity = "days"', 'quantity = "weeks"'), "published.quantity"),
        (lambda t: t.replace("tokens = ", "#tokens = "), "needs `tokens`"),
        (lambda t: t + "\nbogus = 1\n", "bogus"),
    ],
)
def test_a_bad_run_file_is_named_with_what_is_wrong(tmp_path: Path, capsys, edit, message):
    text = (evidence_dir() / "mpt-7b-mosaicml.toml").read_text()
    (tmp_path / "bad.toml").write_text(edit(text))
    assert main(["validate", "--evidence", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and message in err and "Traceback" not in err


def test_an_empty_evidence_folder_is_refused(tmp_path: Path, capsys):
    assert main(["validate", "--evidence", str(tmp_path)]) == 2
    assert "no published runs" in capsys.readouterr().err


def test_weak_scaling_loss_is_fitted_per_precision_with_a_pooled_fallback():
    def probe(precision, doublings, loss):
        return fitting.Probe("dense", precision, 0.0, doublings, doublings * math.log(1 - loss))

    cases = [probe("fp8", d, 0.02) for d in (1, 2, -3, 5)] + [probe("bf16", 3, 0.01)]
    fitted = fitting.fit_loss_per_doubling(cases, ["fp8", "bf16", "fp4"])
    assert fitted["fp8"] == pytest.approx(0.02, abs=1e-4)
    # Too few BF16 and no FP4 cases: both take the loss fitted on all cases.
    assert fitted["bf16"] == fitted["fp4"] == fitting.fit_loss_per_doubling(cases, ["x"])["x"]
    assert 0.01 < fitted["bf16"] < 0.02
    # Getting faster on more GPUs is read as no loss, never as a gain.
    assert fitting.fit_loss_per_doubling([probe("fp8", 2, -0.05)], ["fp8"])["fp8"] == 0.0


@given(st.lists(st.floats(-2, 2), min_size=1, max_size=60), st.sampled_from([0.5, 0.8, 0.9]))
def test_prediction_bounds_are_order_statistics_that_hold_the_coverage(values, coverage):
    low, high = fitting.prediction_bounds(values, coverage)
    n = len(values)
    inside = sum(low <= v <= high for v in values)
    assert low in values and high in values and low <= high
    # A new value lands between the k-th smallest and k-th largest with probability (n+1-2k)/(n+1).
    k = max(1, math.floor((n + 1) * (1 - coverage) / 2 + 1e-9))
    assert inside >= n - 2 * (k - 1)
    assert (n + 1 - 2 * k) / (n + 1) >= coverage or k == 1
    one_sided = fitting.prediction_bound([abs(v) for v in values], coverage)
    assert sum(abs(v) <= one_sided for v in values) >= min(n, math.ceil((n + 1) * coverage - 1e-9))


def test_prediction_bounds_are_wider_than_the_sample_p10_p90_for_few_runs():
    ratios = [0.7, 0.8, 0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.4]
    assert fitting.prediction_bounds(ratios) == (0.7, 1.4)
    many = [i / 100 for i in range(1, 100)]
    assert fitting.prediction_bounds(many) == (0.1, 0.9)


def test_loss_growth_is_fitted_from_series_that_lose_more_at_larger_clusters():
    # Cases generated with a loss of 1% per doubling up to 2,048 GPUs that grows as (GPUs / 2,048)^1.
    def probe(precision, gpus, doublings):
        log_ratio = effective_doublings(gpus, doublings, 1.0) * math.log(1 - 0.01)
        return fitting.Probe("dense", precision, 0.0, doublings, log_ratio, gpus)

    cases = [probe(p, g, d) for p in ("fp8", "bf16") for g, d in ((512, 2), (2048, 3), (8192, 1), (16384, 2))]
    losses, growth = fitting.fit_weak_scaling(cases, ["fp8", "bf16"])
    assert growth == pytest.approx(1.0) and losses["fp8"] == losses["bf16"] == pytest.approx(0.01, abs=1e-4)
    # Series that lose the same at every scale fit no growth.
    flat = [fitting.Probe("dense", "fp8", 0.0, d, d * math.log(0.99), g) for g, d in ((512, 2), (16384, 2))]
    assert fitting.fit_weak_scaling(flat, ["fp8"])[1] == 0.0


def test_effective_doublings_count_once_below_2048_gpus_and_more_above():
    assert effective_doublings(1024, 3, 1.25) == pytest.approx(3)  # 128 -> 1,024
    assert effective_doublings(16384, 1, 0.0) == 1
    assert effective_doublings(16384, 1, 1.0) == pytest.approx((8 - 4) / math.log(2))
    assert effective_doublings(4096, 2, 1.0) == pytest.approx(1 + 1 / math.log(2))
    assert effective_doublings(512, -2, 1.0) == pytest.approx(-2)
    # However large the loss, adding GPUs never makes the step slower (MFU falls at most as 1/GPUs).
    group = tuple(
        c for c in mfu_index(CATALOG).calibrated_points() if c.point.stack.startswith("Megatron-LM 2")
    )
    assert len(group) == 4
    assert along_gpus(group, 10**6, 0.5, 2.0) == pytest.approx(group[-1].mfu * group[-1].point.gpus / 10**6)


@pytest.mark.parametrize(
    ("title", "args", "quantity", "published"), seven_runs.RUNS, ids=lambda v: str(v)[:12]
)
def test_the_seven_runs_of_issue_11_are_within_20_percent_in_the_default_mode(
    capsys, title, args, quantity, published
):
    # Issue 11: each estimated exactly as a user would (`advisor estimate … --json`, no --software,
    # --efficiency or --goodput), against the published figure (benchmarks/seven_runs.py prints them).
    assert main(["estimate", *args.split(), "--json"]) == 0
    est = json.loads(capsys.readouterr().out)
    assert est["efficiency"] == "production" and est["software"] is None
    assert "the latest published for each configuration" in est["mfu_basis"]["basis"]  # it says which
    assert abs(seven_runs.error(est, quantity, published)) <= 0.20, title


def test_the_feature_search_predicts_each_run_without_it():
    # benchmarks/production_features.py (docs/calibration.md): runs on a line in (size, feature) are
    # predicted exactly leave-one-out; a run off the line is missed by its own offset, not absorbed.
    size = [math.log(p) for p in (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)]
    feature = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    ys = [0.1 + 0.2 * x - 0.3 * f for x, f in zip(size, feature, strict=True)]
    errors, residuals = production_features.leave_one_out([size, feature], ys)
    assert max(errors) < 1e-9 and max(map(abs, residuals)) < 1e-9
    ys[2] += math.log(1.5)  # one run 50% faster than the line
    errors, _ = production_features.leave_one_out([size, feature], ys)
    assert errors[2] > 0.5 and max(errors) == errors[2]
    # Without the feature the line cannot follow it: the same data are missed.
    assert max(production_features.leave_one_out([size], ys)[0]) > 0.3
