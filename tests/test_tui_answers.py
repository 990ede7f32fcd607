"""The app's answers: human numbers, ranges, and edits re-validated as a whole scenario (no Textual)."""

from __future__ import annotations

import re

import pytest

from advisor.core.scenario import Scenario
from advisor.tui.answers import (
    AnswerError,
    applicable,
    apply_answer,
    new_scenario,
    read_answers,
    same_answer,
)
from advisor.tui.questions import QUESTIONS
from advisor.tui.refused import stale_reason, take_answer
from advisor.tui.settings import Settings, load_settings, save_settings, settings_path


@pytest.fixture
def start(catalog) -> Scenario:
    return new_scenario(catalog, Settings())


@pytest.mark.parametrize(
    ("key", "answer", "shown"),
    [
        ("tokens", "15T", "15T"),
        ("tokens", "1.5e12", "1.5T"),
        ("tokens", "5T x 3", "15T"),
        ("tokens", "300B × 2", "600B"),
        ("gpus", "2k", "2000"),
        ("gpus", "2,048", "2048"),
        ("deadline_days", "30", "30"),
        ("deadline_days", "", ""),
        ("budget_usd", "$250k", "$250k"),
        ("electricity_usd_per_kwh", "$0.12", "0.12"),
        ("pue", "1.1", "1.1"),
        ("price_usd_per_gpu_hour", "$2.10", "$2.1"),
        ("price_usd_per_gpu_hour", "h100=2.5, b200=$3.90", "h100=$2.5, b200=$3.9"),
        ("price_usd_per_gpu_hour", "h100 = 2.5; b200=3.9", "h100=$2.5, b200=$3.9"),
        ("capex_usd_per_node", "h100=300k", "h100=$300k"),
        ("owned_gpus", "h100=1024, a100=256", "h100=1024, a100=256"),
        ("owned_gpus", "h100=1k", "h100=1000"),
        ("owned_gpus", "", ""),
        ("mfu", "0.4", "0.4"),
        ("mfu", "h100=0.45, 0.4", "h100=0.45, 0.4"),
        ("wait_hours", "b200=48", "b200=48"),
        ("need_within_days", "0", "0"),
        ("precision", "fp8", "fp8"),
        ("pricing", "own", "own"),
        ("objective", "time", "time"),
        ("risk", "conservative", "conservative"),
        ("efficiency", "reference", "reference"),
        ("fp8_stack", False, False),
        ("guaranteed_capacity", True, True),
        ("iteration_speed_matters", True, True),
        ("model", "llama3-70b", "llama3-70b"),
    ],
)
def test_an_accepted_answer_reads_back(catalog, start, key, answer, shown):
    scenario = apply_answer(start, catalog, key, answer)
    assert read_answers(scenario, catalog)[key] == shown


@pytest.mark.parametrize(
    ("key", "answer", "message"),
    [
        ("tokens", "abc", "'abc' is not a number"),
        ("tokens", "0", "must be from 1 to 1e18 (got 0)"),
        ("tokens", "1e30", "must be from 1 to 1e18 (got 1e30)"),
        ("gpus", "1.5", "must be a whole number from 1 to 1M (got 1.5)"),
        ("gpus", "0", "must be a whole number from 1 to 1M"),
        ("gpus", "", "GPUs: enter a whole number from 1 to 1M"),
        ("deadline_days", "-1", "must be above 0, up to 36,500"),
        ("pue", "4", "must be from 1 to 3 (got 4)"),
        ("electricity_usd_per_kwh", "0", "must be above 0, up to 10"),
        ("price_usd_per_gpu_hour", "h10=2", "unknown system 'h10' (did you mean 'h100'?)"),
        ("price_usd_per_gpu_hour", "$2000", "from 0.001 to 1,000"),
        ("price_usd_per_gpu_hour", "h100=$2000", "h100: must be from 0.001 to 1,000 (got 2,000)"),
        ("owned_gpus", "h10=1024", "unknown system 'h10' (did you mean 'h100'?)"),
        ("owned_gpus", "1024", "name the system: SYSTEM=1024, e.g. h100=1024"),
        ("owned_gpus", "h100=1.5", "h100: must be a whole number from 0 to 1M (got 1.5)"),
        ("owned_gpus", "h100=", "'h100=' is not SYSTEM=VALUE"),
        ("owned_gpus", "h100=8, h100=16", "'h100' is given twice"),
        ("owned_gpus", "h100=lots", "h100: 'lots' is not a number"),
        ("tokens", "1,5T", "use a dot for decimals (1.5T?)"),
        ("pue", "1,3", "use a dot for decimals (1.3?)"),
        ("params", "70B", "choose Custom size first"),
        ("model", "gpt-9", "unknown model 'gpt-9'"),
        ("size_to_deadline", True, "give a deadline first"),
    ],
)
def test_a_rejected_answer_says_what_is_valid(catalog, start, key, answer, message):
    with pytest.raises(AnswerError, match=re.escape(message)):
        apply_answer(start, catalog, key, answer)


def test_every_question_has_an_answer_and_accepts_it_back(catalog, start):
    answers = read_answers(start, catalog)
    assert set(answers) == {q.key for q in QUESTIONS}
    for question in QUESTIONS:
        if applicable(start).get(question.key, True) and question.key != "size_to_deadline":
            assert apply_answer(start, catalog, question.key, answers[question.key]) == start


def test_a_custom_moe_model_checks_active_against_total(catalog, start):
    custom = apply_answer(start, catalog, "model", "custom")
    assert read_answers(custom, catalog)["params"] == "8.03B"  # carried over from the preset
    moe = apply_answer(apply_answer(custom, catalog, "params", "400B"), catalog, "family", "moe")
    moe = apply_answer(moe, catalog, "active_params", "17B")
    spec = moe.workload.model_spec(catalog)
    assert (spec.family, spec.params_total, spec.params_active) == ("moe", 400e9, 17e9)
    with pytest.raises(AnswerError, match="must not exceed"):
        apply_answer(moe, catalog, "active_params", "500B")
    assert applicable(moe)["active_params"] and not applicable(start)["active_params"]


def test_clearing_the_deadline_stops_sizing_to_it(catalog, start):
    sized = apply_answer(
        apply_answer(start, catalog, "deadline_days", "30"), catalog, "size_to_deadline", True
    )
    assert sized.size_to_deadline and not applicable(sized)["gpus"]
    cleared = apply_answer(sized, catalog, "deadline_days", "")
    assert cleared.constraints.deadline_days is None and not cleared.size_to_deadline


def test_new_scenarios_take_the_settings_defaults(catalog):
    scenario = new_scenario(catalog, Settings(pricing="own", electricity_usd_per_kwh=0.12, pue=1.2))
    assert scenario.workload.pricing == "own"
    assert (scenario.assumptions.electricity_usd_per_kwh, scenario.assumptions.pue) == (0.12, 1.2)


@pytest.mark.parametrize(
    ("shown", "typed", "same"),
    [("15T", "1.5e13", True), ("15T", "15", False), ("", "", True), ("64", "64.0", True), ("x", "y", False)],
)
def test_same_answer(shown, typed, same):
    assert same_answer("tokens", shown, typed) is same


def test_settings_round_trip_and_a_corrupt_file_is_reported(_isolated_config):
    assert load_settings() == (Settings(), None)
    saved = Settings(theme="textual-light", pricing="own", pue=1.25)
    save_settings(saved)
    assert settings_path().parent == _isolated_config
    assert load_settings() == (saved, None)
    settings_path().write_text("theme = [", encoding="utf-8")
    settings, problem = load_settings()
    assert settings == Settings() and problem and "not valid TOML" in problem
    settings_path().write_text("pue = 9\n", encoding="utf-8")
    settings, problem = load_settings()
    assert settings == Settings() and problem and "pue" in problem


def test_a_refused_answer_is_retried_and_dropped_when_it_no_longer_applies(catalog, start):
    custom = apply_answer(apply_answer(start, catalog, "model", "custom"), catalog, "family", "moe")
    taken = take_answer(custom, catalog, {}, "active_params", "20B")  # more than the 8B total
    assert not taken.accepted and taken.scenario == custom
    assert "must not exceed" in taken.errors["active_params"]
    assert stale_reason(taken.errors, "", {}).startswith("Active params: not accepted")
    fits = take_answer(taken.scenario, catalog, taken.refused, "params", "100B")
    assert fits.accepted and not fits.refused and not fits.errors
    assert fits.scenario.workload.custom.active_params == 20e9
    again = take_answer(custom, catalog, {}, "active_params", "20B")
    dropped = take_answer(again.scenario, catalog, again.refused, "model", "llama3-8b")
    assert not dropped.refused and not dropped.errors  # a preset has no active-parameters question


def test_stale_reason_names_a_failure_when_nothing_was_refused():
    assert stale_reason({}, "", {}) == ""
    assert stale_reason({}, "boom", {}) == "could not compute: boom"
