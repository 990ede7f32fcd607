"""Presentation shared by the surfaces: reason lines and part labels, one composition each."""

from __future__ import annotations

import pytest
from rich.console import Console

from advisor.core.decision.recommendation import Reason
from advisor.present.parts import part_label
from advisor.present.reasons import reason_label, reason_markup, reason_plain, reason_text
from advisor.present.styles import REASON_STYLES


def _plain(markup: str) -> str:
    console = Console(width=200, color_system=None)
    with console.capture() as captured:
        console.print(markup, end="")
    return captured.get()


@pytest.mark.parametrize(
    ("reason", "label"),
    [
        (Reason("prefer", "fits in one NVLink domain [fast]", weight=0.1), "bonus 10%"),
        (Reason("penalize", "price is an assumption", weight=0.15), "penalty 15%"),
        (Reason("warn", "price from 2024"), "warn"),
    ],
)
def test_a_reason_reads_the_same_in_the_cli_and_the_app(reason, label):
    assert reason_label(reason) == label
    text = reason_text(reason)
    assert text.plain == f"{label} {reason.text}"
    assert text.spans[0].style == REASON_STYLES[reason.kind]
    assert _plain(reason_markup(reason)) == text.plain  # the text is escaped, not read as markup
    assert reason_plain(reason) == f"{label}: {reason.text}"  # the reports give the weight too


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("pue_overhead", "PUE overhead"),
        ("wait", "waiting for capacity"),
        ("brand_new_part", "brand new part"),
    ],
)
def test_part_labels(key, label):
    assert part_label(key) == label
