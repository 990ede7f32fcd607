"""Scenario files: the shipped examples, exact round trips, and one clear message per defect."""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.cli.main import main
from advisor.core.run import run_scenario
from advisor.core.scenario import Scenario
from advisor.errors import ScenarioError
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario, save_scenario, scenario_from_data, scenario_toml
from tests.conftest import DATA, ROOT, shipped_catalog

EXAMPLES = sorted((ROOT / "examples").rglob("*.toml"))
REQUIRED_EXAMPLES = (
    "gpt3-175b-benchmark",
    "llama3-70b-pretrain",
    "13b-from-scratch-8-gpus",
    "7b-finetune",
    "deepseek-v3-moe",
)
BAD = DATA / "bad_scenarios"
TODAY = date(2026, 6, 1)
RULES = load_rules()


# --- the shipped examples --------------------------------------------------------------------------


def test_the_issue_s_examples_ship():
    stems = {path.stem for path in EXAMPLES}
    assert set(REQUIRED_EXAMPLES) <= stems


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_loads_recommends_and_round_trips(path, tmp_path):
    catalog = shipped_catalog()
    scenario = load_scenario(path, catalog)
    assert scenario.notes.strip(), "every example explains itself in `notes`"
    result = run_scenario(scenario, catalog, RULES, today=TODAY)
    assert result.recommendation.winner is not None, result.recommendation.headline
    saved = save_scenario(scenario, tmp_path / "again.toml")
    assert load_scenario(saved, catalog) == scenario


def test_examples_give_the_answers_their_notes_promise():
    catalog = shipped_catalog()

    def winner(stem: str) -> str | None:
        scenario = load_scenario(ROOT / "examples" / f"{stem}.toml", catalog)
        return run_scenario(scenario, catalog, RULES, today=TODAY).recommendation.winner

    # Field test A100 vs H100 (about 2024): above 7B and longer than 3 days, H100; small fine-tunes, A100.
    assert winner("13b-from-scratch-8-gpus") == "h100"
    assert winner("7b-finetune") == "a100"


def test_gpt3_example_reproduces_the_published_cost():
    # SemiAnalysis, "H100 vs GB200 NVL72 Training Benchmarks" (20 Aug 2025), Benchmark 1: GPT-3 175B,
    # 128 H100, FP8, Dec 2024 software: 54.2 cents per 1M tokens and $162k for 300B tokens. ±3%.
    catalog = shipped_catalog()
    scenario = load_scenario(ROOT / "examples/gpt3-175b-benchmark.toml", catalog)
    h100 = run_scenario(scenario, catalog, RULES, today=TODAY).recommendation.candidate("h100").estimate
    assert h100.cost_per_million_tokens_usd * 100 == pytest.approx(54.2, rel=0.03)
    assert h100.cost_usd == pytest.approx(162e3, rel=0.03)


# --- exact round trips -----------------------------------------------------------------------------

SYSTEM_KEYS = st.sampled_from(["*", "a100", "b200", "gb200-nvl72", "h100", "h200"])
POSITIVE = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False)
FRACTION = st.floats(min_value=1e-6, max_value=1.0, allow_nan=False, exclude_min=False)
EFFICIENCY = st.floats(min_value=1e-3, max_value=1.0, allow_nan=False)  # an MFU or goodput set: 0.1% to 100%
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


def _maybe(strategy):
    return st.none() | strategy


@st.composite
def scenarios(draw) -> Scenario:
    """Valid scenarios of every shape: presets and custom models, every kind, constraint and override."""
    if draw(st.booleans()):
        model: dict = {"model": draw(st.sampled_from(sorted(shipped_catalog().models)))}
    else:
        params = draw(st.floats(min_value=1e6, max_value=1e14))
        custom = {"params": params}
        if draw(st.booleans()):
            custom["active_params"] = draw(st.floats(min_value=1e6, max_value=params))
        if draw(st.booleans()):
            custom["name"] = draw(TEXT)
        model = {"custom": custom}
    workload = {
        **model,
        "tokens": draw(st.floats(min_value=1, max_value=1e16)),
        "gpus": draw(st.integers(1, 1_000_000)),
        "precision": draw(st.sampled_from(["bf16", "fp8", "fp4"])),
        "kind": draw(st.sampled_from(["pretrain", "finetune", "inference"])),
        "pricing": draw(st.sampled_from(["rent", "own"])),
        "software": draw(_maybe(st.sampled_from(["2023-06", "2024-12", "2026-01"]))),
        "fp8_stack": draw(st.booleans()),
        "lora_trainable_fraction": draw(FRACTION),
        "efficiency": draw(st.sampled_from(["reference", "production"])),
        "seq_len": draw(_maybe(st.integers(1, 10_000_000))),
    }
    constraints = {
        "deadline_days": draw(_maybe(st.floats(min_value=1e-3, max_value=36_500))),
        "budget_usd": draw(_maybe(POSITIVE)),
        "need_within_days": draw(_maybe(st.floats(min_value=0, max_value=1e4))),
        "guaranteed_capacity": draw(st.booleans()),
        "risk": draw(st.sampled_from(["conservative", "balanced", "early-adopter"])),
    }
    assumptions = {
        "mfu": draw(st.dictionaries(SYSTEM_KEYS, EFFICIENCY, max_size=3)),
        "goodput": draw(_maybe(EFFICIENCY)),
        "price_usd_per_gpu_hour": draw(
            st.dictionaries(SYSTEM_KEYS, st.floats(min_value=1e-3, max_value=1000), max_size=3)
        ),
        "capex_usd_per_node": draw(st.dictionaries(SYSTEM_KEYS, POSITIVE, max_size=2)),
        "pue": draw(_maybe(st.floats(min_value=1, max_value=3))),
        "electricity_usd_per_kwh": draw(_maybe(st.floats(min_value=1e-4, max_value=10))),
        "wait_hours": draw(st.dictionaries(SYSTEM_KEYS, st.floats(min_value=0, max_value=1e5), max_size=2)),
    }
    data = {
        "schema": 1,
        "name": draw(TEXT.filter(bool)),
        "notes": draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)),
        "objective": draw(st.sampled_from(["cost", "time", "energy", "balanced"])),
        "systems": draw(st.lists(SYSTEM_KEYS.filter(lambda k: k != "*"), unique=True, max_size=5)),
        "size_to_deadline": constraints["deadline_days"] is not None and draw(st.booleans()),
        "workload": {k: v for k, v in workload.items() if v is not None},
        "constraints": {k: v for k, v in constraints.items() if v is not None},
        "assumptions": {k: v for k, v in assumptions.items() if v is not None},
    }
    return Scenario.model_validate(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_saving_then_loading_gives_back_exactly_the_same_scenario(scenario):
    text = scenario_toml(scenario)
    again = scenario_from_data(tomllib.loads(text), "round-trip.toml", text)
    assert again == scenario
    assert scenario_toml(again) == text


def test_notes_stay_readable_and_exact():
    notes = 'Line one,\nline two with "quotes" and a tab\there.\n'
    scenario = Scenario.model_validate(
        {"schema": 1, "notes": notes, "workload": {"model": "llama3-8b", "tokens": 1e9}}
    )
    text = scenario_toml(scenario)
    assert 'notes = """' in text and "line two with" in text.split('"""')[1]
    assert scenario_from_data(tomllib.loads(text)) == scenario
    windows = scenario.model_copy(update={"notes": "one\r\ntwo"})
    assert scenario_from_data(tomllib.loads(scenario_toml(windows))).notes == "one\r\ntwo"


def test_results_table_is_ignored_on_load():
    scenario = load_scenario(ROOT / "examples/7b-finetune.toml")
    text = scenario_toml(scenario, {"winner": "a100", "systems": [{"system": "a100", "cost_usd": 6.8}]})
    assert scenario_from_data(tomllib.loads(text)) == scenario


def test_cli_save_then_recommend_from_the_file(capsys, tmp_path):
    path = tmp_path / "s.toml"
    argv = ["recommend", "--model", "llama3-70b", "--tokens", "15T", "--gpus", "2048", "--pricing", "own"]
    assert main([*argv, "--deadline-days", "365", "--save", str(path)]) == 0
    capsys.readouterr()
    saved = load_scenario(path)
    assert saved.workload.gpus == 2048 and saved.constraints.deadline_days == 365
    assert main(["recommend", str(path), "--gpus", "1024", "--json"]) == 0
    data = __import__("json").loads(capsys.readouterr().out)
    assert {c["estimate"]["gpus"] for c in data["candidates"] if c["estimate"]} == {1024}, "flags override"
    assert data["constraints"]["deadline_days"] == 365, "the file's other values stay"


# --- one defect per file, one clear message --------------------------------------------------------

# file, line (None where a defect has no single line), key path, what is valid or what to do
DEFECTS = [
    ("unknown-key.toml", 7, "workload.gpu", "unknown key 'gpu' (did you mean 'gpus'?)"),
    ("wrong-type.toml", 9, "constraints.deadline_days", "'two weeks' is not a number (examples: 70B, 15T"),
    ("systems-not-an-array.toml", 3, "systems", 'must be an array of system ids, e.g. ["h100"]'),
    ("boolean-for-number.toml", 6, "workload.tokens", "expected a number, got true"),
    ("out-of-range.toml", 9, "assumptions.pue", "must be at most 3 (got 7)"),
    ("list-for-number.toml", 6, "workload.tokens", "expected a number (got a list)"),
    ("fraction-of-a-gpu.toml", 7, "workload.gpus", "expected a whole number (got 8.5)"),
    ("negative-gpus.toml", 7, "workload.gpus", "must be above 0 (got -8)"),
    ("date-for-number.toml", 9, "constraints.deadline_days", "expected a number (got 2027-01-01)"),
    ("decimal-comma.toml", 6, "workload.tokens", "'1,5T': use a dot for decimals (1.5T?)"),
    ("number-for-text.toml", 2, "name", 'expected text in quotes ("...") (got 70)'),
    ("unknown-choice.toml", 3, "objective", "must be 'cost', 'time', 'energy' or 'balanced'"),
    ("newer-schema.toml", 1, "schema", "schema 2 is newer than this advisor understands (schema 1)"),
    ("missing-schema.toml", None, "schema = 1", "the scenario format version"),
    (
        "unknown-model.toml",
        5,
        "workload.model",
        "unknown model 'llama9-70b'; valid: deepseek-v3, gemma2-27b, gemma2-9b",
    ),
    ("unknown-system.toml", 3, "systems[1]", "unknown system 'tpu-v5'; valid: a100, b200, b300, gb200-nvl72"),
    (
        "unknown-system-in-assumptions.toml",
        10,
        "assumptions.price_usd_per_gpu_hour.tpu-v7",
        "unknown system 'tpu-v7'; valid: a100",
    ),
    ("missing-workload.toml", None, "[workload]", 'model = "<preset id>"'),
    ("not-toml.toml", None, "not valid TOML", "line 2"),
]


def test_every_bad_file_is_in_the_table():
    assert {p.name for p in BAD.glob("*.toml")} == {d[0] for d in DEFECTS}


@pytest.mark.parametrize(("name", "line", "key", "valid"), DEFECTS, ids=[d[0] for d in DEFECTS])
def test_bad_scenario_gives_a_clear_message(name, line, key, valid):
    path = BAD / name
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, shipped_catalog())
    message = str(info.value)
    where = f"{path}:{line}:" if line else f"{path}:"
    assert message.startswith(where), message
    assert key in message and valid in message, message
    assert "Value error" not in message and "Traceback" not in message
    assert "should" not in message, "pydantic's words ('Input should be a valid number'), not ours"


@pytest.mark.parametrize("name", [d[0] for d in DEFECTS])
def test_bad_scenario_on_the_command_line_exits_2_with_the_message(name, capsys, tmp_path):
    code = main(["report", str(BAD / name), "-o", str(tmp_path / "r.md")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"advisor: {BAD / name}") and "Traceback" not in err
    assert not (tmp_path / "r.md").exists()


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ScenarioError, match=r"nope\.toml: no such file"):
        load_scenario(Path(tmp_path / "nope.toml"))
