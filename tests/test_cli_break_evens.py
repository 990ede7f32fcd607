"""`advisor recommend` shows the break-even points the report shows ("How sure the answer is"), in its
table output and its JSON, from the one analysis."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from advisor.cli.main import main
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario
from advisor.report import build_report
from advisor.report.tables import certainty_lines
from tests.conftest import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "examples" / "llama3-70b-pretrain.toml"


def _report():
    catalog = shipped_catalog()
    scenario = load_scenario(SCENARIO, catalog)
    return build_report(scenario, catalog, load_rules(), today=date.today(), version="test")


def test_recommend_prints_every_break_even_the_report_gives(capsys):
    report = _report()
    said = certainty_lines(report)  # the report's "How sure the answer is"
    sens = report.sensitivity
    assert len(said) > 3 and sens.break_evens and sens.speed_for_price  # the premise: it has some
    assert main(["recommend", str(SCENARIO)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for sentence in [*said, *report.recommendation.what_would_change]:
        assert " ".join(sentence.split()) in out, sentence


def test_recommend_json_carries_the_break_evens_of_the_report_json(capsys):
    sens = _report().sensitivity
    assert main(["recommend", str(SCENARIO), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [b["sentence"] for b in data["break_evens"]] == [b.sentence for b in sens.break_evens]
    assert data["speed_for_price"] == list(sens.speed_for_price)
    assert {"input", "system", "current", "threshold", "sentence"} <= set(data["break_evens"][0])
