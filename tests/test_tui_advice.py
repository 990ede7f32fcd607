"""The app's computations: advised once per edit, and an export that reuses the result on screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.core import run
from advisor.io.rule_files import load_rules
from advisor.report import data
from advisor.tui.advice import compute_advice, compute_analysis
from advisor.tui.exporting import export_report
from tests.test_tui_helpers import LLAMA_70B, TODAY

RULES = load_rules()


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("computed again")


def test_the_ranges_start_from_the_advice_without_advising_again(catalog, monkeypatch):
    advice = compute_advice(LLAMA_70B, catalog, RULES, TODAY)
    expected = run.run_scenario(LLAMA_70B, catalog, RULES, today=TODAY, break_evens=True)
    monkeypatch.setattr(run, "advise_scenario", _refuse)
    analysis = compute_analysis(advice)
    # The same recommendation, its verdict settled by the robustness the analysis computed.
    assert analysis.recommendation.candidates is advice.recommendation.candidates
    assert analysis.recommendation == expected.recommendation
    assert analysis.sensitivity == expected.sensitivity


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_export_reuses_the_result_on_screen(catalog, monkeypatch, tmp_path: Path, fmt: str):
    fresh = export_report(LLAMA_70B, catalog, RULES, fmt, tmp_path / f"fresh.{fmt}", force=False, today=TODAY)
    advice = compute_advice(LLAMA_70B, catalog, RULES, TODAY)
    shown = (advice, compute_analysis(advice))
    monkeypatch.setattr(data, "run_scenario", _refuse)
    reused = export_report(
        LLAMA_70B, catalog, RULES, fmt, tmp_path / f"reused.{fmt}", force=False, today=TODAY, shown=shown
    )
    assert reused.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8")


def test_export_computes_afresh_when_the_screen_shows_another_scenario(catalog, monkeypatch, tmp_path):
    advice = compute_advice(LLAMA_70B, catalog, RULES, TODAY)
    shown = (advice, compute_analysis(advice))
    edited = LLAMA_70B.model_copy(update={"name": "edited"})
    monkeypatch.setattr(data, "run_scenario", _refuse)
    with pytest.raises(AssertionError, match="computed again"):
        export_report(edited, catalog, RULES, "md", tmp_path / "r.md", force=False, today=TODAY, shown=shown)


def test_export_before_the_ranges_are_ready_reuses_the_advice(catalog, monkeypatch, tmp_path):
    fresh = export_report(
        LLAMA_70B, catalog, RULES, "json", tmp_path / "fresh.json", force=False, today=TODAY
    )
    advice = compute_advice(LLAMA_70B, catalog, RULES, TODAY)
    monkeypatch.setattr(run, "advise_scenario", _refuse)
    reused = export_report(
        LLAMA_70B, catalog, RULES, "json", tmp_path / "r.json", force=False, today=TODAY, shown=(advice, None)
    )
    assert reused.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8")
