"""The headline's closing words agree with the verdict once the sampled inputs are known."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from advisor.core.analysis.sensitivity import sensitivity
from advisor.core.decision.request import AdviceRequest
from advisor.core.decision.verdict import Verdict
from advisor.core.model.workload import Constraints, Workload
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
RULES = load_rules()
TODAY = date(2026, 11, 29)
HEADLINE = "Rent 512x a100: 11.8 days to train, $501.4k (50.1¢ per 1M tokens), 172 MWh (best on cost)"


def test_headline_does_not_call_a_system_best_that_most_samples_reject():
    # The app walk's case: Llama 3 8B, 1T tokens, 512 rented GPUs. a100 is cheapest on expected values,
    # mi300x wins most of the sampled inputs (the verdict says so).
    workload = Workload(
        model=CATALOG.model("llama3-8b"), tokens=1e12, gpus=512, precision="bf16", pricing="rent"
    )
    request = AdviceRequest(workload, CATALOG, RULES, Constraints(), today=TODAY)
    rec, sens = sensitivity(request, with_break_evens=False)
    assert rec.winner == "a100" and sens.robustness is not None
    leader, share = max(sens.robustness.shares.items(), key=lambda item: item[1])
    assert leader == "mi300x" and share >= 0.5  # the premise
    assert "mi300x wins most of the sampled inputs" in rec.verdict.sentence()
    assert not rec.headline.endswith("(best on cost)")
    percent = f"{share:.0%}"
    assert rec.headline.endswith(f"(best on expected cost; mi300x wins {percent} of sampled inputs)")


def _verdict(robustness: float | None, contenders: tuple[tuple[str, float], ...] = ()) -> Verdict:
    return replace(
        Verdict("close_call", "why", "a100", "mi300x"), robustness=robustness, contenders=contenders
    )


@pytest.mark.parametrize(
    ("verdict", "words"),
    [
        (_verdict(None), ""),
        (_verdict(0.95), ""),
        (_verdict(0.55), "wins only 55% of sampled inputs"),
        (_verdict(0.21, (("mi300x", 0.73), ("a100", 0.21))), "mi300x wins 73% of sampled inputs"),
        (
            _verdict(0.35, (("a100", 0.35), ("mi300x", 0.3), ("h100", 0.2))),
            "no system wins half the sampled inputs",
        ),
    ],
)
def test_sampled_words(verdict: Verdict, words: str):
    assert verdict.sampled_words() == words


def test_settled_headline_keeps_a_borne_out_headline_and_rewords_the_rest():
    from advisor.core.decision.headline import rank_words, settled_headline

    assert settled_headline(HEADLINE, "cost", True, "") == HEADLINE
    changed = settled_headline(HEADLINE, "cost", True, "mi300x wins 73% of sampled inputs")
    assert changed == HEADLINE.replace(
        "(best on cost)", "(best on expected cost; mi300x wins 73% of sampled inputs)"
    )
    weighted = HEADLINE.replace("(best on cost)", f"({rank_words('cost', False)})")
    assert settled_headline(weighted, "cost", False, "wins only 55% of sampled inputs").endswith(
        "(first on expected cost after the rules' weights; wins only 55% of sampled inputs)"
    )
