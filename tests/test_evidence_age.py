"""A rule weighing the score on evidence older than the price-age limit says its date in the reason."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from advisor.core.decision.evidence_age import dated_because, stale_after_days
from advisor.core.model.sourced import as_of_words
from advisor.io.rule_files import load_rules

RULES = tuple(load_rules())
TODAY = date(2026, 12, 1)


def _rule(rule_id: str):
    return next(r for r in RULES if r.id == rule_id)


@pytest.mark.parametrize(
    ("as_of", "words"), [("2025-08-20", "Aug 2025"), ("2024-12", "Dec 2024"), ("2024", "2024")]
)
def test_as_of_reads_as_month_and_year(as_of, words):
    assert as_of_words(as_of) == words


def test_a_penalty_on_evidence_over_a_year_old_says_its_date():
    # h100-over-a100-long-runs: penalize 5%, the field test of 2024; the limit is the price rule's 365 days.
    rule = _rule("h100-over-a100-long-runs")
    assert stale_after_days(RULES) == 365
    # The field test's rules are marked assumptions (no publication to cite): said so, not "evidence".
    assert rule.assumption
    assert dated_because(rule, "slow", TODAY, stale_after_days(RULES)) == "slow (an assumption of 2024)"
    assert (
        dated_because(rule, "slow", date(2025, 6, 1), stale_after_days(RULES)) == "slow"
    )  # under a year after 2024
    assert dated_because(rule, "slow", None, stale_after_days(RULES)) == "slow"  # no date, no age


def test_warnings_notes_and_dated_texts_are_left_as_written():
    # memory-tight warns on ZeRO (Oct 2019): durable, and it does not move the ranking.
    assert (
        dated_because(_rule("memory-tight"), "little headroom", TODAY, stale_after_days(RULES))
        == "little headroom"
    )
    penalty = _rule("new-system-conservative")
    named = "mi355x is not proven at scale (no published run at scale as of Jun 2026)"
    assert dated_because(penalty, named, TODAY, stale_after_days(RULES)) == named
    assert (
        dated_because(penalty, "x is new", TODAY, stale_after_days(RULES))
        == "x is new (evidence of Aug 2025)"
    )
    # Without a price-age rule there is no limit, so no evidence is called old.
    without = tuple(r for r in RULES if r.id != "price-older-than-a-year")
    assert dated_because(penalty, "x is new", TODAY, stale_after_days(without)) == "x is new"
    fresh = replace(penalty, as_of="2026-06")
    assert dated_because(fresh, "x is new", TODAY, stale_after_days(RULES)) == "x is new"


def test_the_cli_shows_the_evidence_date_on_a_weighted_reason(capsys):
    from advisor.cli.main import main

    args = ["--model", "llama3-70b", "--tokens", "1e12", "--gpus", "2048", "--risk", "conservative"]
    assert main(["recommend", *args]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "H100's time savings compound over a long run (an assumption of 2024)" in out
    assert (
        "mi355x is not proven at scale (no published run at scale as of Jun 2026), and the team is conservative"
        in out
    )
    assert (
        "no published training run at scale as of Jun 2026, and the team is conservative (evidence" not in out
    )
