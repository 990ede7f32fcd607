"""One definition of a gap (`gaps.gap`: a share of the worse figure) in the sentence, the close-call
threshold, the price to win and the app's score column."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.core import fmt
from advisor.core.costing.estimate import estimate
from advisor.core.decision.advise import advise
from advisor.core.decision.gaps import gap
from advisor.core.decision.recommendation import PriceToWin
from advisor.core.decision.request import AdviceRequest
from advisor.core.decision.verdict import CLOSE_MARGIN, Ranked, judge_verdict
from advisor.core.model.workload import Constraints, Workload
from advisor.io.rule_files import load_rules
from advisor.tui.widgets.comparison_view import score_cell
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()


def test_a_gap_is_a_share_of_the_worse_figure():
    # "b300 is 5.1% cheaper than gb300-nvl72": $482.7k against $508.8k.
    assert fmt.percent(gap(482.7e3, 508.8e3)) == "5.1%"
    assert gap(95, 100) == pytest.approx(0.05) and gap(100, 95) < 0 and gap(1, 0) == 0


@given(st.floats(1, 1e9), st.floats(1, 1e9))
def test_the_gap_is_antisymmetric_in_sign_and_below_one(a, b):
    assert (gap(a, b) > 0) == (a < b) and gap(a, b) < 1


def _ranked(cost_win: float, cost_run: float) -> list[Ranked]:
    w = Workload(model=CATALOG.model("llama3-8b"), tokens=1e11, gpus=8, precision="fp8")
    h100, h200 = estimate(w, "h100", CATALOG), estimate(w, "h200", CATALOG)
    win, run = replace(h100, cost_usd=cost_win), replace(h200, cost_usd=cost_run)
    return [Ranked(win, cost_win, 1.0), Ranked(run, cost_run, cost_run / cost_win)]


def test_the_close_call_threshold_is_the_gap_the_sentence_states():
    # 100 against 105.2: the runner-up costs 5.2% more, but the winner is only 4.9% cheaper, which is
    # what the sentence says, so it is a close call (it was clear by runner-up / winner - 1).
    verdict = judge_verdict(_ranked(100.0, 105.2), "cost", {}, None, 2)
    assert verdict.kind == "close_call"
    assert verdict.margin == pytest.approx(gap(100, 105.2))
    assert verdict.margin < CLOSE_MARGIN
    assert "4.9% cheaper than h200" in verdict.why
    assert "h100's lead on cost is under 5%" in verdict.sentence()
    clear = judge_verdict(_ranked(100.0, 105.3 / 0.999), "cost", {}, None, 2)
    assert clear.kind == "clear" and clear.margin >= CLOSE_MARGIN


def test_the_price_to_win_states_the_gap_on_score():
    price = PriceToWin("b300", "gb300-nvl72", "own", 2.31, 1 / (1 - 0.099))
    assert "gb300-nvl72 leads it by 9.9% on score: cost x rule weights" in price.sentence
    assert price.threshold_usd_per_gpu_hour == pytest.approx(2.31 * (1 - 0.099))


def test_the_app_score_column_is_the_same_gap():
    w = Workload(model=CATALOG.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8")
    rec = advise(AdviceRequest(w, CATALOG, load_rules(), Constraints(), today=date(2026, 11, 29)))
    scored = [c for c in rec.candidates if c.score is not None]
    best = min(c.score for c in scored)
    for c in scored:
        cell = score_cell(c, best)
        if cell != "best":
            shown = float(re.match(r"([0-9.]+)% behind", cell).group(1))
            assert shown == pytest.approx(gap(best, c.score) * 100, abs=0.05)


def test_the_headline_says_best_only_for_the_best_on_the_objective():
    # gb300-nvl72 ranks first on the rules' weights while b300 is 5.1% cheaper: "best on cost" was untrue.
    w = Workload(model=CATALOG.model("llama3-70b"), tokens=2e12, gpus=512, precision="fp8", pricing="own")
    pair = ("gb300-nvl72", "b300")
    rec = advise(
        AdviceRequest(w, CATALOG, load_rules(), Constraints(), systems=pair, today=date(2026, 11, 29))
    )
    assert rec.winner == "gb300-nvl72" and rec.headline.endswith("(first on cost after the rules' weights)")
    cheapest = min(rec.candidates, key=lambda c: c.estimate.cost_usd).system
    assert cheapest == "b300"
    alone = advise(AdviceRequest(w, CATALOG, load_rules(), Constraints(), systems=("b300",)))
    assert alone.headline.endswith("(best on cost)")
