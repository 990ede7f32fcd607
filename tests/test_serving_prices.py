"""Serving prices: one price per 1M output tokens on every surface (the fleet's cost over the output tokens
it serves), and the full-load split only under its own name."""

from __future__ import annotations

import json
import re

import pytest

from advisor.core.costing.results import DEPRECATED_ALIASES
from advisor.present import numbers
from advisor.present.serving import FULL_LOAD_INPUT, FULL_LOAD_OUTPUT, PER_MILLION_OUTPUT
from advisor.report import render_report
from advisor.report.tables import serving_table
from tests.golden.shown import agrees, markdown_table
from tests.test_reports import example_report

STEM = "llama3-70b-serving"


def _column(table: list[list[str]], heading: str) -> dict[str, str]:
    at = table[0].index(heading)
    return {row[0]: row[at] for row in table[1:]}


def test_every_surface_shows_the_same_price_per_million_output_tokens():
    report = example_report(STEM)
    markdown = render_report(report, "md")
    data = json.loads(render_report(report, "json"))
    per_million = {
        c["system"]: c["estimate"]["cost_per_million_tokens_usd"] for c in data["candidates"] if c["estimate"]
    }
    winner = data["winner"]
    headline = re.search(r"([\d.]+¢|\$[\d.]+) per 1M output tokens", data["headline"])
    assert headline is not None and agrees(headline.group(1), per_million[winner])
    served = _column(markdown_table(markdown, "Serving"), PER_MILLION_OUTPUT)
    compared = _column(markdown_table(markdown, "Comparison of all systems"), PER_MILLION_OUTPUT)
    assert set(served) == set(compared) == set(per_million)
    for system, raw in per_million.items():
        assert agrees(served[system], raw) and agrees(compared[system], raw), system
    # The month over the tokens it serves: the fleet's month at the target rate, prompts included.
    est = report.winner_estimate
    assert est is not None and est.serving is not None
    month_tokens = est.serving.target_tokens_per_second * 730 * 3600
    assert abs(est.cost_per_million_tokens_usd - est.serving.usd_per_month / month_tokens * 1e6) < 1e-9


def test_the_full_load_split_is_named_as_such_and_below_the_price():
    report = example_report(STEM)
    header, _ = serving_table(report.recommendation)
    assert {FULL_LOAD_INPUT, FULL_LOAD_OUTPUT} <= set(header)
    assert not {"$/1M input", "$/1M out", "$/1M in"} & set(header)
    for cand in report.recommendation.candidates:
        est = cand.estimate
        if est is None or est.serving is None:
            continue
        s = est.serving
        # Below the target rate the fleet idles a share of its capacity, and prompts are paid by output
        # tokens: the buyer's price is above the decode share at full load.
        assert est.cost_per_million_tokens_usd > s.usd_per_million_output_tokens_at_full_load


def test_json_keeps_the_schema_1_names_as_aliases_of_the_full_load_split():
    data = json.loads(render_report(example_report(STEM), "json"))
    serving = next(c["estimate"]["serving"] for c in data["candidates"] if c["estimate"])
    for old, new in DEPRECATED_ALIASES.items():
        assert serving[old] == serving[new] > 0


def test_a_serving_report_speaks_of_serving_not_training():
    markdown = render_report(example_report(STEM), "md")
    compared = markdown_table(markdown, "Comparison of all systems")[0]
    assert not {"Time to train", "Time to result", "MFU", "Goodput", "Per 1M tokens"} & set(compared)
    assert {"Time to serve the tokens", PER_MILLION_OUTPUT} <= set(compared)
    inputs = dict(markdown_table(markdown, "Inputs")[1:])
    # No training stack for a serving job, and no sizing margin without a deadline to size to.
    assert "Training stack" not in inputs and "Sizing margin" not in inputs
    assert "## Time to serve breakdown" in markdown and "## Time to result breakdown" not in markdown
    # A training report keeps its words.
    pretrain = render_report(example_report("llama3-70b-pretrain"), "md")
    assert {"Time to train", "MFU (production)", "Goodput"} <= set(
        markdown_table(pretrain, "Comparison of all systems")[0]
    )
    assert "Training stack" in dict(markdown_table(pretrain, "Inputs")[1:])


def test_the_apps_serving_tab_shows_the_headlines_price():
    from advisor.tui.widgets.serving_view import COLUMNS, plan_row

    for cand in example_report(STEM).recommendation.candidates:
        est = cand.estimate
        if est is None or est.serving is None:
            continue
        row = dict(zip(COLUMNS, plan_row(est, est.serving), strict=True))
        assert row["$/1M out"] == numbers.cents_or_dollars(est.cost_per_million_tokens_usd)
        assert row["$/1M out, full load"] == numbers.cents_or_dollars(
            est.serving.usd_per_million_output_tokens_at_full_load
        )


def test_a_fleet_splitting_a_node_is_priced_per_gpu_as_a_training_run_is_and_the_warning_says_so():
    est = example_report(STEM).winner_estimate
    # the winner's fleet (10 b200 today) is not a whole number of 8-GPU nodes
    assert est is not None and est.gpus % 8 and est.pricing == "rent"
    gpus, whole = est.gpus, -(-est.gpus // 8) * 8
    # Priced on its GPUs for the month, as a rented training run on that many GPUs is.
    assert est.cost_usd == pytest.approx(est.price_usd_per_gpu_hour * gpus * est.gpu_hours / est.gpus)
    warning = next(w for w in est.warnings if "not a whole number" in w)
    assert "priced per GPU" in warning
    assert f"{whole} GPUs cost {numbers.money(est.cost_usd * whole / gpus)} ({whole / gpus:.2f}x)" in warning
