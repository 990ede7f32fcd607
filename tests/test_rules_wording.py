"""Rule texts a serving job can read never assume a training run: they name the job with `{run}` and
`{job}` (`the serving job`, `serve`), one mechanism for every rule."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from advisor.core.decision.facts import JOB_NOUNS, JOB_VERBS
from advisor.core.decision.rules import render_because

RULES = Path(__file__).resolve().parents[1] / "rules"
TRAINING_WORDS = re.compile(r"\bthe run\b|\brun (starts|ends)\b|\btrain|\bcheckpoint", re.IGNORECASE)


def _can_fire_for_serving(rule: dict) -> bool:
    """False when a top-level leaf keeps the rule off serving jobs (`kind != inference`)."""
    leaves = [
        leaf for leaf in rule["when"].get("all", []) if isinstance(leaf, dict) and leaf.get("fact") == "kind"
    ]
    return not any((leaf["op"] == "!=") == (leaf["value"] == "inference") for leaf in leaves)


SERVING_RULES = [
    (path.name, rule)
    for path in sorted(RULES.glob("*.toml"))
    for rule in tomllib.loads(path.read_text())["rule"]
    if _can_fire_for_serving(rule)
]


@pytest.mark.parametrize(("file", "rule"), SERVING_RULES, ids=[r["id"] for _, r in SERVING_RULES])
def test_a_rule_a_serving_job_can_fire_does_not_assume_a_training_run(file, rule):
    # "capacity may take 3.0 h to arrive before the run starts" was said of serving plans, which have no run.
    facts = {"run": JOB_NOUNS["inference"], "job": JOB_VERBS["inference"]}
    for key in ("because", "summary"):
        text = render_because(rule.get(key, ""), facts)
        assert not TRAINING_WORDS.search(text), f"{file}: {rule['id']}: {key}: {text}"


def test_the_capacity_wait_is_said_before_the_job_of_each_kind():
    rule = next(rule for _, rule in SERVING_RULES if rule["id"] == "hidden-cost-capacity-wait")
    for kind, said in (
        ("pretrain", "the run"),
        ("finetune", "the fine-tune"),
        ("inference", "the serving job"),
    ):
        text = render_because(rule["because"], {"system": "h100", "wait": "3.0 h", "run": JOB_NOUNS[kind]})
        assert text == f"h100 capacity may take 3.0 h to arrive before {said} starts"


@pytest.mark.parametrize(("pricing", "dollar"), [("rent", "rental"), ("own", "TCO")])
def test_the_a100_penalty_quotes_the_work_per_dollar_that_decides_the_cost(pricing, dollar, capsys):
    # It said H100's speed "rarely pays back A100's lower hourly price", whichever was cheaper per job:
    # the cost is the price per GPU-hour over the speed, and the text now quotes that ratio.
    import json

    from advisor.cli.main import main

    argv = ["recommend", "--model", "llama2-13b", "--tokens", "26e9", "--gpus", "8", "--pricing", pricing]
    assert main([*argv, "--json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)
    est = {c["system"]: c["estimate"] for c in data["candidates"]}
    a100, h100 = est["a100"], est["h100"]
    speed = a100["tokens_per_second_per_gpu"] / h100["tokens_per_second_per_gpu"]
    price = a100["effective_price_usd_per_gpu_hour"] / h100["effective_price_usd_per_gpu_hour"]
    because = next(
        r["because"]
        for r in data["rules_fired"]
        if r["id"] == "h100-over-a100-large-models" and r["system"] == "a100"
    )
    assert f"A100 does {speed / price:.2f}x H100's work per {dollar} dollar" in because
    assert "hourly price" not in because
