"""The fact vocabulary as data (`rules/vocabulary/facts.toml` and the inputs declared as facts): it
names exactly the facts the code computes, the docs show it as declared, and a bad file is refused with
a message naming the file, the fact and the key."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from advisor.core.costing.estimate import estimate
from advisor.core.decision.facts import Fact, candidate_facts, workload_facts
from advisor.core.decision.price_facts import price_facts
from advisor.core.decision.speed_facts import speed_facts
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.workload import Constraints, Workload
from advisor.errors import RuleError
from advisor.io import rule_files
from advisor.io.rule_files import FACTS_FILE, load_vocabulary
from tests.conftest import ROOT, shipped_catalog


def _computed(pricing: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The workload facts and every fact a candidate rule sees (as `advise` joins them), computed."""
    catalog = shipped_catalog()
    workload = Workload(model=catalog.model("llama3-8b"), tokens=1e11, gpus=64, pricing=pricing)
    constraints = Constraints(deadline_days=30, budget_usd=1e6)
    base, est = (estimate(workload, system, catalog) for system in ("h100", "b200"))
    workload_values = workload_facts(workload, constraints, "cost")
    return workload_values, {
        **workload_values,
        **candidate_facts(
            est,
            catalog.system("b200"),
            base,
            constraints,
            40.0,
            "2026-01-01",
            catalog.economics.turnover.horizon_days,
        ),
        **price_facts(workload, catalog.system("b200"), Assumptions(), est),
        **speed_facts(catalog, catalog.system("b200"), workload.model.family, workload.gpus),
    }


def mismatch(declared: Iterable[str], computed: Iterable[str]) -> list[str]:
    """One line per fact the vocabulary and the code do not agree on, naming it."""
    declared, computed = set(declared), set(computed)
    return [
        *(
            f"{name}: computed but not declared (in rules/{FACTS_FILE}, or Input(fact=...))"
            for name in sorted(computed - declared)
        ),
        *(f"{name}: declared but never computed" for name in sorted(declared - computed)),
    ]


@pytest.mark.parametrize("pricing", ["rent", "own"])
def test_the_vocabulary_names_exactly_the_facts_computed(pricing):
    facts = load_vocabulary()
    workload_values, values = _computed(pricing)
    problems = mismatch(facts, values)
    assert not problems, "\n".join(problems)
    workload_scope = {name for name, fact in facts.items() if fact.scope == "workload"}
    problems = mismatch(workload_scope, workload_values)
    assert not problems, "workload facts (workload_facts) against [workload.*]:\n" + "\n".join(problems)


def test_a_fact_computed_but_undeclared_or_declared_but_never_computed_is_named():
    assert mismatch({"days", "wait"}, {"days", "queue_days"}) == [
        f"queue_days: computed but not declared (in rules/{FACTS_FILE}, or Input(fact=...))",
        "wait: declared but never computed",
    ]


def test_a_choice_list_is_the_declared_one():
    from advisor.core.model.inputs import choices_of
    from advisor.core.model.maturity import MaturityBasis
    from advisor.core.model.workload import WorkloadInputs

    facts = load_vocabulary()
    assert (
        facts["precision_run"].choices
        == facts["precision"].choices
        == choices_of(WorkloadInputs, "precision")
    )
    assert facts["maturity"].choices == choices_of(MaturityBasis, "level")
    assert facts["job"].choices == ("train", "fine-tune", "serve")


def _doc_row(fact: Fact) -> str:
    values = f" Values: {', '.join(f'`{c}`' for c in fact.choices)}." if fact.choices else ""
    return f"| `{fact.name}` | {fact.type} | {fact.unit} | {fact.description}{values} |"


def test_the_rules_doc_shows_each_fact_as_declared():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## The fact vocabulary") : text.index("## Ranking")]
    shown = {line for line in section.splitlines() if line.startswith("| `")}
    for scope in ("workload", "candidate"):
        expected = {_doc_row(f) for f in load_vocabulary().values() if f.scope == scope}
        assert not expected - shown, (
            f"docs/rules.md lacks or misstates the {scope} facts' rows {sorted(expected - shown)}"
        )
    declared = {_doc_row(f) for f in load_vocabulary().values()}
    assert not shown - declared, f"docs/rules.md shows rows no fact declares: {sorted(shown - declared)}"


GOOD = '[candidate.queue_days]\ntype = "number"\nunit = "days"\nmeaning = "Days in the queue."\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD.replace('"number"', '"nubmer"'),
            "[candidate.queue_days]: type: unknown type 'nubmer'; did you mean 'number'?",
        ),
        (
            GOOD.replace('type = "number"\n', ""),
            "[candidate.queue_days]: type: missing (required): number, bool, text",
        ),
        (
            GOOD.replace('meaning = "Days in the queue."\n', ""),
            "[candidate.queue_days]: meaning: missing (required)",
        ),
        (
            GOOD.replace('"Days in the queue."', '" "'),
            "[candidate.queue_days]: meaning: must be non-empty text",
        ),
        (
            GOOD.replace("meaning", "mening"),
            "[candidate.queue_days]: mening: unknown key; did you mean 'meaning'?",
        ),
        (GOOD.replace('unit = "days"', "unit = 3"), "[candidate.queue_days]: unit: must be text"),
        (
            GOOD.replace('"number"', '"bool"'),
            "[candidate.queue_days]: unit: only a number has a unit (this fact is bool)",
        ),
        (
            '[candidate.run]\ntype = "text"\nmeaning = "m"\nchoices = "precisions"\n',
            "[candidate.run]: choices: unknown choice list 'precisions'; did you mean 'precision'?",
        ),
        (GOOD + 'choices = "precision"\n', "[candidate.queue_days]: choices: only a text fact has choices"),
        (GOOD.replace("candidate.", "candidates."), "[candidates]: unknown table; did you mean 'candidate'?"),
        (
            GOOD.replace("candidate.queue_days", "workload.gpus"),
            "[workload.gpus]: the name of another fact (an input's",
        ),
        (
            GOOD + GOOD.replace("candidate.", "workload."),
            "[candidate.queue_days]: the name of another fact ([workload.queue_days])",
        ),
        (
            GOOD.replace("queue_days", '"queue-days"'),
            "[candidate.queue-days]: a fact's name is letters, digits and _",
        ),
        ("candidate.queue_days = 3\n", "[candidate.queue_days]: must be a table"),
        ("candidate = 3\n", "candidate: must hold tables, one a fact ([candidate.NAME])"),
        ("[candidate.queue_days\n", "not valid TOML"),
    ],
)
def test_a_bad_vocabulary_is_refused_naming_the_file_and_the_fact(tmp_path, text, message):
    path = tmp_path / "facts.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_vocabulary(path)
    assert str(info.value).startswith(str(path))
    assert message in str(info.value)


def test_a_good_vocabulary_file_adds_its_facts_to_the_inputs(tmp_path):
    path = tmp_path / "facts.toml"
    path.write_text(GOOD, encoding="utf-8")
    facts = load_vocabulary(path)
    assert facts["queue_days"] == Fact("queue_days", "number", "days", "candidate", "Days in the queue.")
    assert facts["gpus"].scope == "workload"
    assert "system" not in facts


def test_the_command_line_reports_a_bad_shipped_vocabulary_without_a_traceback(tmp_path, monkeypatch, capsys):
    from advisor.cli.main import main

    (tmp_path / FACTS_FILE).parent.mkdir()
    (tmp_path / FACTS_FILE).write_text(GOOD.replace('"number"', '"nubmer"'), encoding="utf-8")
    monkeypatch.setattr(rule_files, "shipped_dir", lambda name: tmp_path)
    assert main(["rules", "check", str(ROOT / "rules" / "checks.toml")]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / FACTS_FILE}: [candidate.queue_days]: type: unknown type 'nubmer'" in err
    assert "Traceback" not in err
