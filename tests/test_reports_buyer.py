"""The reports as a buyer reads them: the sizing table does not claim a comparison size the comparison
does not use, a range of no width says so, a custom model's name reads once."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario
from advisor.report import build_report
from advisor.report.inputs import input_rows
from advisor.report.outline import range_sections
from advisor.report.tables import certainty_lines, range_rows, sizing_rows
from tests.conftest import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
CATALOG = shipped_catalog()


def _report(stem: str, **update):
    scenario = load_scenario(ROOT / "examples" / f"{stem}.toml", CATALOG)
    scenario = scenario.model_copy(update=update) if update else scenario
    return build_report(scenario, CATALOG, load_rules(), today=date(2026, 12, 1), version="test")


def test_sizing_says_the_comparison_is_at_the_scenarios_gpus_when_not_sized_to_the_deadline():
    # 13B on 8 rented GPUs with a 30-day deadline: h100 meets it with 4, but the comparison (and the
    # recommendation) is at the scenario's 8; the table said "Compared at 4".
    report = _report("13b-from-scratch-8-gpus")
    assert not report.scenario.size_to_deadline
    header, rows = sizing_rows(report)
    assert "Compared at" not in header and "Cost at that size" in header
    h100 = next(row for row in rows if row[0] == "h100")
    assert h100[2] == "4"
    compared = report.recommendation.winner_candidate.estimate
    assert compared is not None and compared.gpus == 8
    sizing = next(s for s in range_sections(report) if s.key == "sizing")
    assert "The comparison above is at the scenario's 8 GPUs" in sizing.blurb


def test_sizing_names_the_size_compared_when_sized_to_the_deadline():
    report = _report("13b-from-scratch-8-gpus", size_to_deadline=True)
    header, rows = sizing_rows(report)
    assert "Compared at" in header
    h100 = next(row for row in rows if row[0] == "h100")
    assert h100[header.index("Compared at")] == "4"
    sizing = next(s for s in range_sections(report) if s.key == "sizing")
    assert "The comparison above" not in sizing.blurb


def test_a_range_of_no_width_reads_as_one_value():
    # A serving month's time to result has no spread: not "30.9 days (30.9 days to 30.9 days)".
    _, rows = range_rows(_report("llama3-70b-serving"))
    times = [row[1] for row in rows]
    assert all(text.endswith("(no spread)") for text in times), times
    assert not any(" to " in text for text in times)


def test_a_custom_models_name_in_parentheses_is_not_followed_by_more():
    rows = dict(input_rows(_report("13b-from-scratch-8-gpus")))
    assert rows["Model"] == "13B dense (custom), given by size, architecture inferred"
    assert rows["Model"].count("(") == 1


def test_the_runner_ups_price_to_win_is_said_once():
    # "What would change the answer" says "mi300x wins if it rented below $1.51/GPU-hour instead of
    # $1.63 ..."; "How sure the answer is" said it again as "mi300x wins if it rents below $1.51/GPU-hour
    # (now $1.63/GPU-hour)". The two AMD systems alone, as when mi355x won the whole catalog (before the
    # vLLM-on-ROCm serving factor made b200 the winner, with no runner-up price to win).
    report = _report("llama3-70b-serving", systems=("mi355x", "mi300x"))
    price = report.recommendation.price_to_win
    assert price is not None and price.sentence in report.recommendation.what_would_change
    point = next(b for b in report.sensitivity.break_evens if (b.input, b.system) == ("price", price.system))
    assert point.sentence not in certainty_lines(report)
    assert len(certainty_lines(report)) > 2  # the other points stay


def test_a_break_even_that_nothing_flips_names_mfu_as_everywhere_else():
    # "no mfu of a100 within range flips the answer": the only lower-case MFU a buyer read.
    sentences = [b.sentence for b in _report("13b-from-scratch-8-gpus").sensitivity.break_evens]
    assert any(s.startswith("no MFU of a100 within range flips the answer") for s in sentences)
    assert not any("mfu" in s for s in sentences)


@pytest.mark.parametrize("stem", ["13b-from-scratch-8-gpus", "llama3-70b-serving"])
def test_the_contents_bar_links_every_section_and_only_those(stem):
    # The bar was a fixed list: a serving report's Serving section and a deadline's Sizing section had no
    # link, though a reader looks for them first.
    from advisor.report.html import render_html

    html = render_html(_report(stem))
    nav = re.search(r"<nav>(.*?)</nav>", html)
    assert nav is not None
    linked = re.findall(r'href="#([a-z-]+)"', nav.group(1))
    sections = re.findall(r'<section id="([a-z-]+)"', html)
    assert linked == sections
    assert ("serving" in linked) == (stem == "llama3-70b-serving")
    assert ("sizing" in linked) == (stem == "13b-from-scratch-8-gpus")
