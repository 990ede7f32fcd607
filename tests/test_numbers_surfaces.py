"""Each quantity reads the same on every surface: the CLI's tables, the Markdown and HTML reports and the
app, for one scenario (a serving job, whose per-token prices, month and latencies every surface shows).
JSON keeps raw numbers and is not checked here."""

from __future__ import annotations

import html
from datetime import date
from pathlib import Path

import pytest

from advisor.cli.main import main
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario
from advisor.present import numbers
from advisor.report import build_report
from advisor.report.html import render_html
from advisor.report.markdown import render_markdown
from advisor.tui.widgets.assumptions_view import assumption_block
from advisor.tui.widgets.questions_form import model_choices
from advisor.tui.widgets.serving_view import plan_row
from tests.conftest import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "examples" / "llama3-70b-serving.toml"
CATALOG = shipped_catalog()


@pytest.fixture(scope="module")
def report():
    scenario = load_scenario(SCENARIO, CATALOG)
    return build_report(scenario, CATALOG, load_rules(), today=date(2026, 12, 1), version="test")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cli(capsys, *argv: str) -> str:
    main(list(argv))
    return _flat(capsys.readouterr().out)


@pytest.fixture(scope="module")
def winner(report):
    cand = report.recommendation.winner_candidate
    assert cand is not None and cand.estimate is not None and cand.estimate.serving is not None
    return cand.estimate


def test_serving_prices_month_and_latencies_read_the_same_everywhere(report, winner, capsys):
    serving = winner.serving
    per_million = numbers.cents_or_dollars(winner.cost_per_million_tokens_usd)
    full_in = numbers.cents_or_dollars(serving.usd_per_million_input_tokens_at_full_load)
    full_out = numbers.cents_or_dollars(serving.usd_per_million_output_tokens_at_full_load)
    month = numbers.money(serving.usd_per_month)
    ttft, tpot = numbers.ttft(serving.ttft_ms), numbers.tpot(serving.tpot_ms)
    assert full_in.endswith("¢") and month.startswith("$")  # cents below a dollar, money with its sign
    surfaces = {
        "markdown": _flat(render_markdown(report)),
        "html": _flat(html.unescape(render_html(report))),
        "cli estimate": _cli(capsys, "estimate", str(SCENARIO), "--system", winner.system),
        "cli recommend": _cli(capsys, "recommend", str(SCENARIO)),
        "app": _flat(" | ".join(plan_row(winner, serving))),
    }
    wanted = {
        "markdown": (per_million, full_in, full_out, month, ttft, tpot),
        "html": (per_million, full_in, full_out, month, ttft, tpot),
        "cli estimate": (per_million, f"{full_in} / {full_out}", month, f"{ttft} / {tpot}"),
        "cli recommend": (per_million, month, tpot.removesuffix(" ms")),
        "app": (per_million, full_in, full_out, month, ttft, tpot),
    }
    # The winner's P10 and P90 cost: the CLI's ranges table as the reports' Ranges table.
    cost = report.sensitivity.ranges[winner.system].cost_usd
    for surface in ("markdown", "html"):
        wanted[surface] += (f"({numbers.money(cost.p10)} to {numbers.money(cost.p90)})",)
    wanted["cli recommend"] += (f"{numbers.money(cost.p10)}–{numbers.money(cost.p90)}",)
    missing = {
        surface: [text for text in texts if text not in surfaces[surface]]
        for surface, texts in wanted.items()
    }
    assert all(not texts for texts in missing.values()), missing


def test_the_expected_price_per_token_reads_as_in_the_comparison(report, winner):
    # The ranges' expected figure is computed apart from the estimate's (0.13749999999999998 against
    # 0.1375 for mi355x): the same value must not read 13.7¢ in one table and 13.8¢ in the next.
    text = render_markdown(report)
    per_million = numbers.cents_or_dollars(winner.cost_per_million_tokens_usd)
    expected = report.sensitivity.ranges[winner.system].cost_per_million_tokens_usd.expected
    assert numbers.cents_or_dollars(expected) == per_million
    ranges = text.split("## Ranges", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in ranges.splitlines() if line.startswith(f"| {winner.system} |"))
    assert f"| {per_million} (" in row


def test_a_model_size_reads_the_same_everywhere(report, capsys):
    size = numbers.params(report.model.params_total)
    assert size == "70.55B"  # Llama 3 70B: 70,550,000,000 parameters (not 70.5B in one place)
    surfaces = {
        "markdown": _flat(render_markdown(report)),
        "html": _flat(html.unescape(render_html(report))),
        "cli models": _cli(capsys, "models"),
        "app model choice": " ".join(label for label, _ in model_choices(CATALOG)),
        "app assumptions": " ".join(
            str(assumption_block(row)) for row in report.assumptions if row.subject == "model"
        ),
    }
    missing = [name for name, text in surfaces.items() if size not in text]
    assert missing == [], missing
    assert "70.5B" not in " ".join(surfaces.values()).replace("70.55B", "")


def test_a_nested_catalog_figure_reads_as_a_catalog_value():
    # The production fit's reference size read "reference_params=7e+10" in the assumptions (both the
    # reports' table and the app's list, which share the rows): as every other catalog figure, 70B.
    scenario = load_scenario(ROOT / "examples" / "llama3-70b-pretrain.toml", CATALOG)
    report = build_report(scenario, CATALOG, load_rules(), today=date(2026, 12, 1), version="test")
    row = next(a for a in report.assumptions if a.topic == "mfu scaling")
    shown = " ".join(str(value) for _, value in row.values)
    assert "reference_params=70B" in shown and "e+" not in shown
    assert "reference_params=70B" in _flat(render_markdown(report))
    assert "reference_params=70B" in str(assumption_block(row))
