"""GPUs the team already owns are said where a buyer reads first: under the headline of the CLI and the
reports, first on the app's Why tab, and in the JSON (`verdict_detail.owned`)."""

from __future__ import annotations

import json
from datetime import date

from rich.console import Console

from advisor.cli.main import main
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.report import build_report, render_report
from advisor.tui.advice import compute_advice
from advisor.tui.widgets.why_view import why_content
from tests.conftest import shipped_catalog

TODAY = date(2026, 11, 29)
ARGS = ["--model", "llama3-70b", "--tokens", "15T", "--pricing", "own", "--owned", "h100=1024"]
OWNED = "You own 1,024 h100: no capex (sunk), no lead time; $"


def _scenario(pricing: str = "own", gpus: int = 8) -> Scenario:
    return Scenario.model_validate(
        {
            "schema": 1,
            "name": "owned",
            "workload": {"model": "llama3-70b", "tokens": 15e12, "gpus": gpus, "pricing": pricing},
            "assumptions": {"owned_gpus": {"h100": 1024}},
        }
    )


def test_the_cli_says_what_the_owned_gpus_cost_under_the_headline(capsys):
    assert main(["recommend", *ARGS]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(OWNED), lines[:3]
    # what owning them does to cost: no capital, an opportunity cost, against a new GPU-hour
    assert "of opportunity cost: the rent it could earn) against $" in lines[1]
    assert "bought new" in lines[1]
    # the 8-GPU answer buys another system: what the owned GPUs would do alone
    assert "The answer does not use them; on them alone: $" in lines[1]
    assert lines[2].startswith(("Clear", "Close call"))


def test_the_json_carries_it_and_renting_does_not(capsys):
    assert main(["recommend", *ARGS, "--json"]) == 0
    owned = json.loads(capsys.readouterr().out)["verdict_detail"]["owned"]
    assert owned.startswith(OWNED)
    rent = [a if a != "own" else "rent" for a in ARGS]
    assert main(["recommend", *rent, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict_detail"]["owned"] is None
    assert any("count only when owning" in w for w in data["warnings"])


def test_an_answer_on_the_owned_gpus_says_how_many_it_uses(capsys):
    assert main(["recommend", *ARGS, "--gpus", "1024", "--objective", "time"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Use 1,024x h100 (already owned)")
    assert lines[1].startswith(OWNED) and lines[1].endswith("the answer runs on 1,024 of them.")


def test_the_report_and_the_app_put_it_first():
    catalog, rules = shipped_catalog(), load_rules()
    report = build_report(_scenario(), catalog, rules, today=TODAY, version="0")
    md = render_report(report, "md")
    after_headline = md.split("## Recommendation", 1)[1].strip().split("\n\n")
    assert after_headline[0].startswith("**Buy ") and after_headline[1].startswith(OWNED)
    assert f'<p class="owned">{OWNED}' in render_report(report, "html")
    console = Console(width=400, record=True)
    console.print(why_content(compute_advice(_scenario(), catalog, rules, TODAY)))
    assert console.export_text().startswith(OWNED)
