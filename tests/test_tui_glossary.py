"""The glossary explains every term the app shows (issue 13.3 and the 'done when' of 13): the three
common decisions are answered, every result tab and every question is read, and each abbreviation
or technical word found must have an entry in the glossary (F1) unless it is a name."""

from __future__ import annotations

import re

import pytest
from textual.widgets import TabbedContent

from advisor.tui.glossary import GLOSSARY, explained_words, glossary_markdown
from advisor.tui.questions import QUESTIONS
from advisor.tui.widgets.results_panel import TABS
from tests.test_tui_helpers import (
    fewer_collections,
    pilot_test,
    running,
    screen_lines,
    settle,
    show_tab,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__)

DECISIONS = {
    "rent a 13B pretrain under a budget and deadline": {
        "model": "llama2-13b",
        "tokens": "300B",
        "budget_usd": "$500k",
        "deadline_days": "30",
    },
    "buy for a 70B pretrain": {
        "model": "llama3-70b",
        "tokens": "15T",
        "precision": "fp8",
        "pricing": "own",
        "risk": "conservative",
        "gpus": "2048",
        "deadline_days": "60",
    },
    "serve a 70B model at a target rate": {
        "model": "llama3-70b",
        "kind": "inference",
        "target_tokens_per_second": "50k",
        "ttft_limit_ms": "2000",
        "tpot_limit_ms": "100",
    },
}
NAMES = {"AMD", "NVIDIA", "SemiAnalysis", "Llama", "Meta", "OpenAI", "Google", "Microsoft", "DeepSeek", "ISC"}
NAMES |= {"CoreWeave", "IBM", "MLCommons", "README"}  # maturity evidence: publishers, and a page in its URLs
"""Makers, publishers and conferences: names, not terms."""
TERM = re.compile(r"\b[A-Z][A-Za-z]*[A-Z0-9][A-Za-z0-9]*\b")
"""An abbreviation or a mixed-case technical word (MFU, TTFT, BF16, ROCm, MWh)."""


def _unexplained(text: str, known: set[str]) -> set[str]:
    found = set(TERM.findall(text))
    return {w for w in found if w not in known and not any(k.startswith(w) for k in known | found - {w})}


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d.split(" ")[0])
@pilot_test
async def test_every_term_on_screen_has_a_glossary_entry(decision, monkeypatch):
    monkeypatch.setattr("advisor.tui.screens.main_screen.ANALYSIS_DELAY_S", 0.05)
    async with running(size=(100, 30)) as (app, pilot):
        for key, answer in DECISIONS[decision].items():
            assert app.main.answer(key, answer), (key, app.main.errors)
        await settle(pilot, analysis=True)
        catalog = app.main.catalog
        names = set(NAMES)
        for named in (*catalog.systems.values(), *catalog.models.values()):
            names.update(TERM.findall(named.name))
        for system in catalog.systems.values():  # offers are named after their providers (TensorWave)
            for offer in system.rental:
                names.update(TERM.findall(offer.offer))
        known = explained_words() | names
        screens = []
        tabs = app.main.query_one("#tabs", TabbedContent)
        for tab in (tab for tab in TABS if tabs.get_tab(tab).display):  # Serving for inference only
            await show_tab(pilot, tab)
            screens.append("\n".join(screen_lines(app)))
        asked = [f"{q.title} {q.hint} {' '.join(label for label, _ in q.choices)}" for q in QUESTIONS]
        missing = _unexplained("\n".join(screens + asked), known)
        assert not missing, f"terms on screen without a glossary entry (advisor/tui/glossary.py): {missing}"


def test_the_help_lists_the_glossary():
    from advisor.tui.screens.help_screen import HELP

    assert "{glossary}" in HELP
    text = glossary_markdown()
    assert all(f"**{term.name}**" in text for term in GLOSSARY)


def test_a_question_label_explains_its_terms_on_hover():
    # The glossary on hover (issue 13.3): a label naming a glossary term carries its meaning as a tooltip.
    from advisor.tui.glossary import meanings_in

    shown = meanings_in("FP8 stack").splitlines()
    assert any(line.startswith("FP8 stack: whether your software trains in FP8") for line in shown)
    assert any(line.startswith("BF16, FP8, FP4: number formats") for line in shown)
    assert meanings_in("nothing known here") == ""


@pilot_test
async def test_question_labels_carry_the_glossary_as_tooltips():
    from textual.widgets import Label

    from advisor.tui.glossary import meanings_in

    async with running(size=(100, 30)) as (app, _pilot):
        labels = [w for w in app.screen.query(Label) if "question-label" in w.classes]
        assert labels
        with_terms = [w for w in labels if meanings_in(str(w.render()))]
        assert with_terms, "no question label names a glossary term"
        for label in with_terms:
            assert label.tooltip == meanings_in(str(label.render()))
