"""Strong scaling: the global-batch input, the fitted loss below one sequence per replica, and its spread."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.cli.main import main
from advisor.core.analysis import validation as V
from advisor.core.analysis.fitting import fit_strong_scaling
from advisor.core.analysis.uncertainty import input_spreads
from advisor.core.costing.estimate import estimate
from advisor.core.costing.throughput import memory_check
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.strong_scaling import strong_scaling, strong_scaling_factor
from advisor.core.model.workload import Workload
from advisor.io.evidence_files import evidence_dir, load_evidence
from advisor.io.scenario_files import load_scenario
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
ROOT = Path(__file__).resolve().parent.parent
EXPONENT = CATALOG.mfu_scaling.strong_scaling.exponent


def _lora(gpus: int, global_batch: int | None) -> Workload:
    """MLPerf's Llama 2 70B LoRA as a user states it (docs/calibration.md, "MLPerf Training logs")."""
    return Workload(
        model=CATALOG.models["llama2-70b"].model_copy(update={"seq_len": 8192}),
        tokens=1e12,
        gpus=gpus,
        precision="fp8",
        kind="finetune",
        finetune_method="lora",
        lora_trainable_fraction=0.000646,
        efficiency="reference",
        global_batch=global_batch,
    )


# --- the loss ------------------------------------------------------------------------------------------


@given(
    st.integers(1, 100_000),
    st.integers(1, 100_000),
    st.integers(1, 1_000),
    st.integers(1, 1_000),
    st.floats(0.01, 2),
)
def test_the_loss_is_1_from_one_sequence_per_replica_and_monotone_in_batch_and_gpus(
    batch, gpus, replica, more, exponent
):
    loss = strong_scaling(batch, gpus, replica, exponent)
    assert loss is not None
    assert 0 < loss.factor <= 1
    assert (loss.factor == 1) == (batch * replica >= gpus)
    bigger_batch = strong_scaling(batch + more, gpus, replica, exponent)
    more_gpus = strong_scaling(batch, gpus + more, replica, exponent)
    assert bigger_batch is not None and more_gpus is not None
    assert bigger_batch.factor >= loss.factor >= more_gpus.factor


def test_no_batch_or_no_replica_is_no_loss():
    assert strong_scaling(None, 64, 8, 0.2) is None
    assert strong_scaling(8, 64, None, 0.2) is None
    assert strong_scaling_factor(0.125, 0.0) == 1.0


def test_llama_3_1_405b_at_16m_tokens_on_16384_h100_loses_nothing():
    # The Llama 3 paper (arXiv 2407.21783, section 3.4.1): 16M tokens per step at 8,192 tokens, 2,048
    # sequences, on 16,384 H100. Its training state needs a large model-parallel group, so every replica
    # gets several sequences and the estimate is the one without a batch.
    model = CATALOG.models["llama3-405b"].model_copy(update={"seq_len": 8192})
    base = Workload(model=model, tokens=15.6e12, gpus=16_384, precision="bf16", efficiency="reference")
    with_batch = base.model_copy(update={"global_batch": 2048})
    mem = memory_check(with_batch, CATALOG.system("h100"), CATALOG)
    loss = strong_scaling(2048, 16_384, mem.min_gpus, EXPONENT)
    assert loss is not None and loss.sequences_per_replica >= 1
    assert estimate(with_batch, "h100", CATALOG).to_dict() == estimate(base, "h100", CATALOG).to_dict()


def test_a_small_batch_on_many_gpus_runs_slower_per_gpu_and_says_why():
    # 8 sequences on 64 H100, one replica of the LoRA state on 2 GPUs: 0.25 sequences per replica.
    grown = estimate(_lora(64, None), "h100", CATALOG)
    fixed = estimate(_lora(64, 8), "h100", CATALOG)
    assert EXPONENT > 0
    assert fixed.mfu == pytest.approx(grown.mfu * 0.25**EXPONENT, rel=1e-9)
    assert "global batch of 8 sequences on 64 GPUs" in fixed.mfu_basis.basis
    assert "global batch" not in grown.mfu_basis.basis
    # One sequence per replica or more: nothing changes.
    assert estimate(_lora(64, 32), "h100", CATALOG).mfu == grown.mfu


def test_a_users_mfu_is_not_scaled():
    assumptions = Assumptions.model_validate({"mfu": 0.3})
    assert estimate(_lora(64, 8), "h100", CATALOG, assumptions).mfu == 0.3


def test_the_loss_widens_the_speed_spread_only_where_it_applies():
    spread = CATALOG.mfu_scaling.strong_scaling.spread
    assert spread > 0
    assumptions = Assumptions()
    fixed_w, grown_w = _lora(64, 8), _lora(64, None)
    fixed = input_spreads(estimate(fixed_w, "h100", CATALOG), fixed_w, CATALOG, assumptions)["mfu"]
    grown = input_spreads(estimate(grown_w, "h100", CATALOG), grown_w, CATALOG, assumptions)["mfu"]
    assert fixed.high / fixed.expected - 1 == pytest.approx(max(spread, grown.high / grown.expected - 1))
    production = [w.model_copy(update={"efficiency": "production"}) for w in (fixed_w, grown_w)]
    wide, narrow = (
        input_spreads(estimate(w, "h100", CATALOG), w, CATALOG, assumptions)["efficiency"] for w in production
    )
    assert wide.low / wide.expected == pytest.approx(narrow.low / narrow.expected * (1 - spread))


# --- the fit -------------------------------------------------------------------------------------------


def test_the_fit_recovers_an_exponent_and_leaves_each_run_out():
    sequences = [0.125, 0.25, 0.5, 0.125, 0.25]
    fitted, without = fit_strong_scaling(sequences, [s**0.2 for s in sequences])
    assert fitted.exponent == pytest.approx(0.2, abs=1e-3) and fitted.runs == 5
    assert len(without) == 5 and all(f.exponent == pytest.approx(0.2, abs=1e-3) for f in without)
    assert fitted.spread == pytest.approx(0, abs=1e-3)
    # A run that is slower than the others' line is predicted without it: its own fit is lower.
    noisy = [s**0.2 for s in sequences]
    noisy[0] *= 0.7
    fitted, without = fit_strong_scaling(sequences, noisy)
    assert without[0].exponent < fitted.exponent and fitted.spread > 0
    assert fit_strong_scaling([0.5, 0.25], [0.9, 0.8]) == (fitted.__class__(), [fitted.__class__()] * 2)


# --- the evidence --------------------------------------------------------------------------------------

RUNS = load_evidence(evidence_dir(), set(CATALOG.systems), set(CATALOG.models))


def test_every_mlperf_log_that_states_its_global_batch_carries_it():
    for path in sorted((ROOT / "catalog/evidence").glob("*/*.toml")):
        stated = re.findall(r'"global_batch_size":\s*(\d+)', path.read_text(encoding="utf-8"))
        run = next((r for r in RUNS if r.id == path.stem), None)
        if run is None or not stated:
            continue
        assert run.global_batch == int(stated[0]), run.id


def test_the_strong_scaling_runs_are_validation_runs_predicted_within_their_range():
    # The MLPerf runs below one sequence per replica (Llama 2 70B LoRA on 16-1,024 GPUs at global batch
    # 8-128, Llama 3.1 8B on 64 B200 at 32) were held out, 6-81% too fast (median 28% over the nine);
    # with the fitted loss, in sample, NVIDIA's four within 15% and the nine's median below 15%.
    strong = [r for r in RUNS if r.global_batch is not None and r.kind == "benchmark"]
    cases = [V.predict(r, CATALOG) for r in strong]
    below = [c for c in cases if c.strong_scaling]
    assert len(below) == CATALOG.mfu_scaling.strong_scaling.runs == 9
    errors = sorted(abs(c.error) for c in below)
    assert errors[len(errors) // 2] < 0.15
    nvidia = [c for c in below if "NVIDIA submission" in c.run.published.source]
    assert len(nvidia) == 4 and all(abs(c.error) < 0.15 for c in nvidia)
    assert sum(c.inside for c in below) >= 7
    # The runs at a batch of a sequence per replica or more are untouched by the loss.
    for case in cases:
        if not case.strong_scaling:
            assert "global batch" not in case.mfu_basis


# --- the input -----------------------------------------------------------------------------------------

LORA_ARGS = [
    *("estimate", "--model", "llama2-70b", "--kind", "finetune", "--finetune-method", "lora"),
    *("--lora-trainable-fraction", "0.000646", "--seq-len", "8192", "--gpus", "64", "--precision", "fp8"),
    *("--tokens", "1T", "--system", "h100", "--efficiency", "reference", "--json"),
]


def test_the_flag_and_the_scenario_key_give_the_same_estimate(tmp_path, capsys):
    path = tmp_path / "s.toml"
    recommend = ["recommend", *LORA_ARGS[1:-5], "--efficiency", "reference"]
    assert main([*recommend, "--global-batch", "8", "--save", str(path)]) in (0, 1)
    capsys.readouterr()
    assert load_scenario(path).workload.global_batch == 8
    assert "global_batch = 8" in path.read_text(encoding="utf-8")
    assert main(["recommend", str(path), "--json"]) in (0, 1)
    from_file = json.loads(capsys.readouterr().out)
    assert main([*LORA_ARGS, "--global-batch", "8"]) == 0
    flagged = json.loads(capsys.readouterr().out)
    (h100,) = [
        c["estimate"] for c in from_file["candidates"] if c["estimate"] and c["estimate"]["system"] == "h100"
    ]
    assert h100["mfu"] == flagged["mfu"]
    assert "global batch of 8" in flagged["mfu_basis"]["basis"]


@pytest.mark.parametrize("value", ["0", "-8", "1.5", "1e9", "lots"])
def test_a_bad_global_batch_is_refused_naming_the_field(value, capsys):
    code = main([*LORA_ARGS, f"--global-batch={value}"])
    err = capsys.readouterr().err
    assert code != 0 and "global" in err.lower() and "Traceback" not in err


def test_a_global_batch_for_serving_is_said_to_be_unused(capsys):
    argv = ["estimate", "--model", "llama3-8b", "--kind", "inference", "--tokens", "1B", "--system", "h100"]
    assert main([*argv, "--global-batch", "64", "--json"]) == 0
    _, err = capsys.readouterr()
    assert "--global-batch is not used: it applies to training" in err


def test_the_loss_is_the_shipped_fit_on_a_log_scale():
    # The exponent is the one `benchmarks/refit.py` wrote; at one sequence per 8 replicas it costs
    # 8^-exponent, between the H100 (0.85) and B200 (0.74) ratios the logs show at one per 8 GPUs.
    assert 0.05 < EXPONENT < 0.4
    assert math.isclose(strong_scaling_factor(1 / 8, EXPONENT), 8**-EXPONENT)
