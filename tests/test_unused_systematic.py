"""No input is silently unused: in every situation (job kind, rent or own, serving at a rate or not, a
deadline or not, BF16 or FP8), each declared input is either said to be unused (`unused_inputs`, which
the CLI's warnings, the app's greyed questions and the reports' inputs table all follow) or some value
of it changes the answer. The values tried come from each input's declaration (its choices, its range,
a tick's opposite), so a new input is covered by declaring it."""

from __future__ import annotations

import copy
import itertools
from datetime import date
from typing import Any

import pytest

from advisor.core.model.inputs import ALL_SYSTEMS, DeclaredInput
from advisor.core.run import advise_scenario
from advisor.core.scenario import INPUTS, Scenario
from advisor.core.unused import unused_inputs
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

SYSTEMS = ["a100", "h100", "b200", "mi355x"]
TODAY = date(2026, 6, 1)
TEXT_VALUES = {"workload.software": ["2023-01", "2026-01"]}
"""Values of the inputs answered in free text (their type says no choices); an offer comes from the
catalog. A new text input fails `test_every_input_is_tried` until it has values here."""


def _situation(job: str, pricing: str, rate: bool, deadline: bool, precision: str) -> dict[str, Any]:
    kind, method = ("finetune", "lora") if job == "lora" else (job, "full")
    workload: dict[str, Any] = {
        "finetune_method": method,
        "model": "llama3-8b",
        "tokens": "100B",
        "gpus": 64,
        "kind": kind,
        "pricing": pricing,
        "precision": precision,
    }
    if rate:
        workload["target_tokens_per_second"] = 20_000
    data: dict[str, Any] = {"workload": workload, "systems": SYSTEMS}
    if deadline:
        data["constraints"] = {"deadline_days": 20}
    return data


SITUATIONS = {
    f"{kind}-{pricing}{'-rate' if rate else ''}{'-deadline' if deadline else ''}-{precision}": _situation(
        kind, pricing, rate, deadline, precision
    )
    for kind, pricing, rate, deadline, precision in itertools.product(
        ["pretrain", "finetune", "lora", "inference"],
        ["rent", "own"],
        [False, True],
        [False, True],
        ["bf16", "fp8"],
    )
    if kind == "inference" or not rate
}


def _values(item: DeclaredInput, current: Any) -> list[Any]:
    """Values to try for `item`, other than `current`: every other choice, the opposite tick, numbers
    across the declared range, offers from the catalog."""
    if item.kind == "choice":
        return [value for value in item.choices if value != current]
    if item.kind == "check":
        return [not item.default]
    if item.kind == "text":
        if item.name == "rental_offer":
            catalog = shipped_catalog()
            return sorted({o.offer for s in SYSTEMS for o in catalog.system(s).rental})
        return TEXT_VALUES.get(item.key, [])
    low = item.limits.low if item.limits.low is not None else 0.0
    high = item.limits.high if item.limits.high is not None else 1e6
    numbers = [low + (high - low) * f for f in (1e-5, 1e-3, 0.05, 0.5, 1.0)] + [0.01, 2, 30, 2048]
    if item.value_kind == "integer":
        numbers = [float(int(n)) for n in numbers]
    numbers = [int(n) if item.value_kind == "integer" else n for n in numbers if item.limits.allows(n)]
    if item.kind == "per_system":
        key = ALL_SYSTEMS if item.meta.every_system else "h100"
        return [{key: n} for n in numbers]
    return numbers


def _with(data: dict[str, Any], item: DeclaredInput, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    table = data.setdefault(item.table, {}) if item.table else data
    table[item.name] = value
    return data


def _answer(data: dict[str, Any]) -> str:
    """What a user is told: the sizing, the verdict, the reasons, and each system's numbers (not the
    inputs echoed back, which change with any input)."""
    advice = advise_scenario(Scenario.model_validate(data), shipped_catalog(), RULES, today=TODAY)
    rec = advice.recommendation
    sizing = [
        (s.system, s.gpus, s.sized_gpus, s.reason, s.binding, _numbers(s.estimate)) for s in advice.sizing
    ]
    told: list[Any] = [sizing, rec.winner, rec.warnings, rec.what_would_change, rec.headline]
    told.append(sorted(fired.id for fired in rec.rules_fired))
    for c in rec.candidates:
        reasons = [(r.kind, r.text) for r in c.reasons]
        told.append((c.system, c.feasible, c.score, c.rule_factor, reasons, _numbers(c.estimate)))
    return repr(told)


def _numbers(e: Any) -> Any:
    """An estimate's figures a user reads (None without one), not the inputs it echoes."""
    if e is None:
        return None
    return (e.gpus, e.cost_usd, e.time_to_result_hours, e.energy_kwh, e.memory, e.warnings)


RULES = load_rules(None)


def _used_values(data: dict[str, Any], key: str, item: DeclaredInput) -> list[dict[str, Any]]:
    """The scenarios with each value of `item` tried that the situation accepts and uses."""
    table = data.get(item.table, {}) if item.table else data
    found = []
    for value in _values(item, table.get(item.name, item.default)):
        varied = _with(data, item, value)
        try:
            scenario = Scenario.model_validate(varied)
        except ValueError:
            continue  # a value this situation refuses (sizing to a deadline without one)
        if key not in unused_inputs(scenario):
            found.append(varied)
    return found


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_an_input_the_answer_does_not_use_is_said_to_be_unused(name):
    data = SITUATIONS[name]
    base = _answer(data)
    silent = []
    for key, item in INPUTS.items():
        varied = _used_values(data, key, item)
        if varied and all(_answer(other) == base for other in varied):
            silent.append(key)
    assert not silent, f"{name}: these inputs change nothing and are not said to be unused: {silent}"


def test_every_input_is_tried_somewhere():
    tried = {
        key for data in SITUATIONS.values() for key, item in INPUTS.items() if _used_values(data, key, item)
    }
    assert set(INPUTS) - tried == set()
