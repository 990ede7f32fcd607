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


# --- a rule with two effects is one line ------------------------------------------------------------

TWO_EFFECTS = (
    Reason("penalize", "not proven at scale", "nvl72-rule", "src", 1.0),
    Reason("warn", "not proven at scale", "nvl72-rule", "src"),
    Reason("warn", "another rule", "other-rule", "src"),
)


def test_a_rules_effects_share_one_line_in_its_order():
    from advisor.present.reasons import reason_lines

    lines = reason_lines(TWO_EFFECTS)
    assert [len(line.effects) for line in lines] == [2, 1]
    assert reason_plain(lines[0]) == "penalty 100%, warn: not proven at scale"
    assert reason_text(lines[0]).plain == "penalty 100%, warn not proven at scale"
    markup = reason_markup(lines[0])
    assert f"[{REASON_STYLES['penalize']}]penalty 100%[/], [{REASON_STYLES['warn']}]warn[/]" in markup
    # Two rules that happen to say the same stay two lines; a reason with no rule is never merged.
    other = Reason("warn", "not proven at scale", "third-rule", "src")
    constraint = Reason("infeasible", "misses", constraint="deadline")
    assert len(reason_lines([*TWO_EFFECTS, other, constraint, constraint])) == 5


@pytest.fixture
def new_nvl72(tmp_path, monkeypatch):
    """A user catalog rating GB200 NVL72 new (as it was in Aug 2025): the NVL72 rule's penalty and
    warning fire on it for a conservative team's 2,048-GPU run."""
    from tests.conftest import ROOT

    systems = tmp_path / "catalog" / "systems"
    systems.mkdir(parents=True)
    text = (ROOT / "catalog/systems/gb200-nvl72.toml").read_text()
    (systems / "gb200-nvl72.toml").write_text(text.replace('level = "established"', 'level = "new"', 1))
    monkeypatch.setenv("ADVISOR_CONFIG_DIR", str(tmp_path))
    return "is a new 72-GPU NVLink rack"


ARGS = ["--model", "llama3-70b", "--tokens", "1e12", "--gpus", "2048", "--risk", "conservative"]


def test_two_effects_print_once_in_the_cli(new_nvl72, capsys):
    from advisor.cli.main import main

    assert main(["recommend", *ARGS]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.count(new_nvl72) == 1
    assert f"penalty 100%, warn gb200-nvl72 {new_nvl72}" in out


def test_two_effects_print_once_in_the_reports_and_the_app(new_nvl72):
    from datetime import date

    from advisor.core.scenario import Scenario
    from advisor.io.catalog_files import load_catalog
    from advisor.io.rule_files import load_rules
    from advisor.report import build_report, render_report
    from advisor.tui.advice import compute_advice
    from advisor.tui.widgets.why_view import why_content

    catalog, rules = load_catalog(cache=False), load_rules()
    assert catalog.system("gb200-nvl72").maturity.level == "new"
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "name": "two effects",
            "workload": {"model": "llama3-70b", "tokens": 1e12, "gpus": 2048},
            "constraints": {"risk": "conservative"},
        }
    )
    today = date(2026, 12, 1)
    report = build_report(scenario, catalog, rules, today=today, version="0")
    for kind in ("md", "html"):
        rendered = " ".join(render_report(report, kind).split())
        assert rendered.count(f"gb200-nvl72 {new_nvl72}") == 2, kind  # the reason line and the rules table
        assert f"penalty 100%, warn: gb200-nvl72 {new_nvl72}" in rendered
    console = Console(width=400, record=True)
    console.print(why_content(compute_advice(scenario, catalog, rules, today)))
    app_text = " ".join(console.export_text().split())
    assert app_text.count(new_nvl72) == 1 and f"penalty 100%, warn gb200-nvl72 {new_nvl72}" in app_text
