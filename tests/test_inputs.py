"""Every declared input reaches every surface: CLI flags, scenario files, the app, the report, TOML.

The inputs are enumerated from `advisor.core.scenario.INPUTS`, so a new declaration is checked on
every surface without a line here; one that misses a surface fails.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from typing import Any

import pytest
import tomli_w

from advisor.cli.args import scenario_data_from_args
from advisor.cli.main import build_parser
from advisor.core.model.inputs import DeclaredInput, Limits, parse_amount
from advisor.core.model.workload import WorkloadInputs
from advisor.core.scenario import INPUTS, Scenario
from advisor.io.rule_files import load_rules, load_vocabulary
from advisor.io.scenario_files import scenario_from_data, scenario_toml
from advisor.report import build_report
from advisor.report.inputs import input_rows
from advisor.tui.answers import answer_text, apply_answer
from advisor.tui.questions import QUESTION_BY_KEY, QUESTIONS
from tests.conftest import shipped_catalog
from tests.golden import TODAY, VERSION

NOT_ASKED_IN_APP = {
    "workload.seq_len",
    "workload.software",
    "workload.lora_trainable_fraction",
    "workload.serving_batch",
    "assumptions.rental_offer",
    "workload.activation_precision",
    "workload.global_batch",
}
"""Inputs the app leaves to scenario files and flags (each declared so, with `asked_in_app=False`)."""

TEXT_SAMPLES = {"workload.software": "2024-01", "assumptions.rental_offer": "field test (2024)"}
"""A valid value for each free-text input (its type cannot suggest one)."""

WHEN: dict[str, dict[str, dict[str, Any]]] = {
    "training": {},
    "finetune": {"workload": {"kind": "finetune"}},
    "lora": {"workload": {"kind": "finetune", "finetune_method": "lora"}},
    "inference": {"workload": {"kind": "inference"}},
    "rate": {"workload": {"kind": "inference", "target_tokens_per_second": 1000}},
    "no_rate": {},
    "no_token_rate": {},
    "rent": {},
    "own": {"workload": {"pricing": "own"}},
    "deadline": {"constraints": {"deadline_days": 30}},
    "fixed_gpus": {},
    "no_wait": {},
    "low_precision": {"workload": {"precision": "fp8"}},
    "release_month": {},
}
"""A scenario meeting each declared condition (`Input(applies=...)`) on top of BASE."""


def _context(item: DeclaredInput) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for condition in item.meta.applies:
        for table, values in WHEN[condition].items():
            merged.setdefault(table, {}).update(values)
    return merged


CONTEXT = {item.key: _context(item) for item in INPUTS.values()}
"""What else a scenario needs for an input to matter (and so to show in the report)."""

BASE = {"schema": 1, "name": "inputs", "systems": ["h100", "a100"], "workload": {"model": "llama3-8b"}}
BASE_FLAGS = ("--model", "llama3-8b")
DECLARED = list(INPUTS.values())
IDS = [item.key for item in DECLARED]
FACTS = load_vocabulary()


def sample(item: DeclaredInput) -> Any:
    """A valid value of `item` other than its default."""
    if item.kind == "choice":
        return next(choice for choice in item.choices if choice != item.default)
    if item.kind == "check":
        return not item.default
    if item.kind == "text":
        assert item.key in TEXT_SAMPLES, f"{item.key}: add a valid sample to TEXT_SAMPLES"
        return TEXT_SAMPLES[item.key]
    limits: Limits = item.limits
    value = 2 * item.default if item.default else (limits.low or 0) + 2
    if not limits.allows(value) and limits.high is not None:
        value = limits.high
    number = int(value) if item.value_kind == "integer" else float(value)
    return {"h100": number} if item.kind == "per_system" else number


def flag_text(value: Any) -> str:
    """A sample as typed after its flag: `2.0`, or `h100=2` for a per-system map."""
    if isinstance(value, dict):
        return ", ".join(f"{system}={number}" for system, number in value.items())
    return str(value)


def scenario_data(item: DeclaredInput | None = None, value: Any = None) -> dict[str, Any]:
    """BASE with the input's context (and the input set to `value`, when given)."""
    data: dict[str, Any] = {
        **BASE,
        "workload": {**BASE["workload"], "tokens": 1e12},
        "constraints": {},
        "assumptions": {},
    }
    if item is not None:
        for table, values in CONTEXT.get(item.key, {}).items():
            data[table].update(values)
        if value is not None:
            (data[item.table] if item.table else data)[item.name] = value
    return data


def value_of(scenario: Scenario, item: DeclaredInput) -> Any:
    return getattr(getattr(scenario, item.table) if item.table else scenario, item.name)


def test_the_samples_are_valid_and_not_the_defaults():
    for item in DECLARED:
        value = sample(item)
        assert value != item.default, item.key
        assert value_of(Scenario.model_validate(scenario_data(item, value)), item) == value, item.key


@pytest.mark.parametrize("command", ["recommend", "report", "sensitivity"])
@pytest.mark.parametrize("item", DECLARED, ids=IDS)
def test_the_cli_sets_it(command, item):
    value = sample(item)
    flags = [item.meta.flag] if item.kind == "check" else [item.meta.flag, flag_text(value)]
    context = [
        f"--{k.replace('_', '-')}={v}"
        for table in CONTEXT.get(item.key, {}).values()
        for k, v in table.items()
    ]
    args = build_parser().parse_args([command, *BASE_FLAGS, "--tokens", "1T", *context, *flags])
    scenario = scenario_from_data(scenario_data_from_args(args, None, system=None))
    assert value_of(scenario, item) == value


@pytest.mark.parametrize("item", DECLARED, ids=IDS)
def test_a_scenario_file_sets_it_and_it_round_trips_through_toml(item):
    value = sample(item)
    text = tomli_w.dumps(scenario_data(item, value))
    scenario = scenario_from_data(tomllib.loads(text), "inputs.toml", text)
    assert value_of(scenario, item) == value
    if item.name in WorkloadInputs.model_fields:  # and the core's Workload gets it
        assert getattr(scenario.workload.workload(shipped_catalog()), item.name) == value
    saved = scenario_toml(scenario)
    assert scenario_from_data(tomllib.loads(saved)) == scenario
    assert scenario_toml(scenario_from_data(scenario_data(item))) != saved, "a value off its default is saved"


@pytest.mark.parametrize("item", DECLARED, ids=IDS)
def test_the_app_asks_it(item):
    if item.key in NOT_ASKED_IN_APP:
        assert not item.meta.asked_in_app and item.name not in QUESTION_BY_KEY
        return
    assert item.meta.asked_in_app, f"{item.key} is not asked: declare it so, and list it in NOT_ASKED_IN_APP"
    assert item.name in QUESTION_BY_KEY, (
        f"{item.key}: place its question in LAYOUT (advisor/tui/questions.py)"
    )
    question = QUESTION_BY_KEY[item.name]
    assert question.label == item.meta.label and question.hint.startswith(item.meta.hint)
    start = Scenario.model_validate(scenario_data(item))
    value = sample(item)
    answer = answer_text(item, value)
    scenario = apply_answer(start, shipped_catalog(), item.name, answer)
    assert value_of(scenario, item) == value
    if isinstance(answer, str) and item.kind in ("number", "integer"):
        assert parse_amount(answer.removeprefix("$")) == pytest.approx(value)


def test_the_app_asks_nothing_twice():
    keys = [q.key for q in QUESTIONS]
    assert len(keys) == len(set(keys))


@cache
def _rows(data_text: str) -> tuple[tuple[str, str], ...]:
    scenario = scenario_from_data(tomllib.loads(data_text))
    report = build_report(scenario, shipped_catalog(), load_rules(), today=TODAY, version=VERSION)
    return tuple(input_rows(report))


@pytest.mark.parametrize("item", DECLARED, ids=IDS)
def test_the_report_shows_it(item):
    default_rows = _rows(tomli_w.dumps(scenario_data(item)))
    rows = _rows(tomli_w.dumps(scenario_data(item, sample(item))))
    assert rows != default_rows, f"{item.key} set to {sample(item)!r} changes nothing in the inputs table"


@pytest.mark.parametrize("item", [i for i in DECLARED if i.kind == "choice"], ids=lambda i: i.key)
def test_a_rule_fact_of_a_choice_offers_the_declared_choices(item):
    fact = FACTS.get(item.name)
    if fact is not None:
        assert fact.choices == item.choices


def test_an_input_fact_means_what_its_declaration_says_and_needs_a_meaning():
    from typing import Annotated

    from pydantic import BaseModel, Field

    from advisor.core.model.inputs import Input, declared_inputs

    class Model(BaseModel):
        described: Annotated[int, Field(description="Racks."), Input("Racks", "Racks", fact=True)] = 1
        worded: Annotated[bool, Input("Quiet", "Quiet", fact="The hall must be quiet.")] = False
        hidden: Annotated[bool, Field(description="Not for rules."), Input("Hidden", "Hidden")] = False

    facts = {name: item.fact for name, item in declared_inputs(Model).items()}
    assert facts == {"described": "Racks.", "worded": "The hall must be quiet.", "hidden": ""}

    class Undescribed(BaseModel):
        bare: Annotated[int, Input("Bare", "Bare", fact=True)] = 1

    with pytest.raises(TypeError, match="bare: a fact means what the field's description says"):
        declared_inputs(Undescribed)


def test_every_fact_gets_a_value_of_its_type():
    from advisor.core.costing.estimate import estimate
    from advisor.core.decision.facts import candidate_facts, workload_facts
    from advisor.core.decision.price_facts import price_facts
    from advisor.core.decision.speed_facts import speed_facts
    from advisor.core.model.assumptions import Assumptions
    from advisor.core.model.workload import Constraints, Workload

    catalog = shipped_catalog()
    workload = Workload(model=catalog.model("llama3-8b"), tokens=1e11, gpus=64)
    constraints = Constraints(deadline_days=30, budget_usd=1e6, need_within_days=10)
    base, est = (estimate(workload, system, catalog) for system in ("h100", "b200"))
    workload_values = workload_facts(workload, constraints, "cost")
    assert set(workload_values) == {name for name, fact in FACTS.items() if fact.scope == "workload"}
    # `advise` adds the price's facts: an MI300X rental pays a reserved price derived from the published
    # on-demand median by an assumed discount, so every one of them has a value.
    derived = estimate(workload, "mi300x", catalog)
    values = {
        **workload_values,
        **candidate_facts(est, catalog.system("b200"), base, constraints, 40.0, "2026-01-01", 365.0),
        **price_facts(workload, catalog.system("mi300x"), Assumptions(), derived),
        **speed_facts(catalog, catalog.system("b200"), workload.model.family, workload.gpus),
    }
    assert set(values) == set(FACTS)
    python_types = {"number": (int, float), "bool": (bool,), "text": (str,)}
    wrong = {
        name: value
        for name, value in values.items()
        if not isinstance(value, python_types[FACTS[name].type])
        or (FACTS[name].type == "number" and isinstance(value, bool))
        or (FACTS[name].choices and value not in FACTS[name].choices)
    }
    assert not wrong, f"facts whose value is not of their declared type or choices: {wrong}"


@pytest.mark.parametrize(
    ("limits", "integer", "text"),
    [
        (Limits(0, 1_000_000, above=True), True, "a whole number from 1 to 1M"),
        (Limits(0, 10, above=True), False, "above 0, up to 10"),
        (Limits(1, 3), False, "from 1 to 3"),
        (Limits(1), False, "at least 1"),
        (Limits(0, above=True), False, "above 0"),
        (Limits(high=36_500), False, "a number up to 36,500"),
        (Limits(), False, "a number"),
    ],
)
def test_a_range_reads_as_people_write_it(limits, integer, text):
    assert limits.describe(integer) == text


def test_the_declaration_reads_the_strictest_bounds_and_refuses_what_it_cannot_describe():
    from typing import Annotated

    from pydantic import BaseModel, Field

    from advisor.core.model.inputs import Input, declared_inputs

    class Model(BaseModel):
        share: Annotated[
            Annotated[float, Field(ge=0, le=5)] | None, Field(gt=0, le=2), Input("Share", "A share")
        ] = None
        plain: int = 3

    (share,) = declared_inputs(Model, "t").values()
    assert (share.key, share.kind, share.optional, share.limits) == (
        "t.share",
        "number",
        True,
        Limits(0, 2, True),
    )

    class Open(BaseModel):
        below: Annotated[float, Field(lt=1), Input("Below", "Below one")] = 0.5

    with pytest.raises(TypeError, match="le, not lt"):
        declared_inputs(Open)

    class Listed(BaseModel):
        items: Annotated[list[int], Input("Items", "Some items")] = []

    with pytest.raises(TypeError, match="must be a number"):
        declared_inputs(Listed)


@pytest.mark.parametrize(
    ("text", "value"), [("15T", 15e12), ("5T x 3", 15e12), ("300B × 2", 600e9), ("$2.10", 2.1), ("2k", 2000)]
)
def test_an_amount_is_a_human_number_or_a_product_of_two(text, value):
    assert parse_amount(text) == pytest.approx(value)


PER_SYSTEM = [item for item in DECLARED if item.kind == "per_system"]


def test_every_per_system_map_of_the_assumptions_is_declared():
    from advisor.core.model.assumptions import PER_SYSTEM as MAPS

    declared = {item.name for item in PER_SYSTEM}
    assert declared == set(MAPS) - {"goodput"}  # goodput is one value or a map: its own flag, --goodput


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("h100=2.1, b200=3.9", {"h100": "2.1", "b200": "3.9"}),
        ("h100 = 2.1; b200=$3.90", {"h100": "2.1", "b200": "$3.90"}),
        ("2.1", {"*": "2.1"}),
        ("h100=0.45, 0.4", {"h100": "0.45", "*": "0.4"}),
        (["h100=1024", "a100=8"], {"h100": "1024", "a100": "8"}),
        (0.4, {"*": 0.4}),
        ({"h100": 8}, {"h100": 8}),
        ("", {}),
    ],
)
def test_a_per_system_map_is_written_as_pairs_or_one_value(text, pairs):
    from advisor.core.model.inputs import system_pairs

    assert system_pairs(text) == pairs


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h100=", "'h100=' is not SYSTEM=VALUE"),
        ("=8", "'=8' is not"),
        ("2, 3", "every system is given twice"),
    ],
)
def test_a_per_system_map_that_is_not_pairs_says_so(text, message):
    from advisor.core.model.inputs import system_pairs

    with pytest.raises(ValueError, match=message):
        system_pairs(text)


def test_a_per_system_declaration_takes_its_range_from_the_values():
    from typing import Annotated

    from pydantic import BaseModel, Field

    from advisor.core.model.inputs import Input, declared_inputs

    class Model(BaseModel):
        owned: Annotated[dict[str, Annotated[int, Field(ge=0, le=10)]], Input("Owned", "h100=8")] = Field(
            default_factory=dict
        )

    (owned,) = declared_inputs(Model, "t").values()
    assert (owned.kind, owned.value_kind, owned.limits, owned.default) == (
        "per_system",
        "integer",
        Limits(0, 10),
        {},
    )

    class Named(BaseModel):
        names: Annotated[dict[str, str], Input("Names", "h100=x")] = {}

    with pytest.raises(TypeError, match="maps system ids to numbers"):
        declared_inputs(Named)


@pytest.mark.parametrize(
    ("flags", "system", "owned", "price"),
    [
        (
            ["--owned", "h100=1024", "--owned", "a100=8, b200=72"],
            None,
            {"h100": 1024, "a100": 8, "b200": 72},
            {},
        ),
        (["--price-per-gpu-hour", "2.5"], None, {}, {"*": 2.5}),
        (["--price-per-gpu-hour", "2.5"], "h100", {}, {"h100": 2.5}),  # `estimate --system h100`
        (["--price-per-gpu-hour", "b200=3.9, 2"], None, {}, {"b200": 3.9, "*": 2}),
    ],
)
def test_a_per_system_flag_adds_to_the_map(flags, system, owned, price):
    args = build_parser().parse_args(["recommend", *BASE_FLAGS, "--tokens", "1T", *flags])
    data = scenario_data_from_args(args, {"assumptions": {"owned_gpus": {"h200": 16}}}, system=system)
    scenario = scenario_from_data(data)
    assert scenario.assumptions.owned_gpus == {"h200": 16, **owned}
    assert scenario.assumptions.price_usd_per_gpu_hour == price


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--owned", "h100=1.5"], "argument --owned: h100: '1.5' must be a whole number"),
        (["--owned", "1024"], "argument --owned: name the system: SYSTEM=1024, e.g. h100=1024"),
        (["--mfu", "h100=2"], "argument --mfu: h100: '2' is out of range"),
        (["--mfu", "2"], "argument --mfu: '2' is out of range"),
        (["--mfu", "h100=0.4, h100=0.5"], "argument --mfu: 'h100' is given twice"),
    ],
)
def test_a_bad_per_system_flag_names_the_flag(flags, message):
    from advisor.cli.main import UsageFailure

    with pytest.raises(UsageFailure, match=re.escape(message)):
        build_parser().parse_args(["recommend", *BASE_FLAGS, "--tokens", "1T", *flags])


def test_every_condition_an_input_may_declare_has_a_context_here():
    from advisor.core.unused import CONDITIONS

    assert set(WHEN) == set(CONDITIONS)
