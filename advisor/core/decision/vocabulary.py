"""The closed vocabulary rules may use: each fact's type, unit, scope, meaning and choices.

An input rules may test is a fact of its name, declared with the input (`Input(fact=...)`); the other
facts are data, a facts file's `[workload.NAME]` and `[candidate.NAME]` tables (`rules/vocabulary/
facts.toml`, read by `advisor.io.rule_files`). `parse_vocabulary` checks that data and joins the two.
Workload facts describe the job and the team; candidate facts describe one system's estimate for it;
`advisor.core.decision.facts` computes the values.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any, Literal, get_args

from advisor.core.decision.facts import (
    CHOICE_LISTS,
    CONSTRAINT_FACTS,
    FACT_TYPES,
    WORKLOAD_INPUT_FACTS,
    Fact,
    FactType,
)
from advisor.core.model.inputs import DeclaredInput
from advisor.errors import RuleError, shown

FactScope = Literal["workload", "candidate"]
FACT_SCOPES: tuple[FactScope, ...] = get_args(FactScope)
_TYPES: dict[str, FactType] = {name: name for name in get_args(FactType)}
_FACT_KEYS = ("type", "unit", "meaning", "choices")
_INPUTS = WORKLOAD_INPUT_FACTS + CONSTRAINT_FACTS
Vocabulary = Mapping[str, Fact]
"""Every fact rules may use, by name: the inputs' first, then the facts file's in its order."""


def did_you_mean(name: str, valid: Iterable[str]) -> str:
    """`; did you mean 'x'?` for the closest of `valid`, else `; valid: a, b, c`."""
    valid = list(valid)
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else f"; valid: {', '.join(valid)}"


def _input_fact(item: DeclaredInput) -> Fact:
    """The workload fact of an input rules may test: its type, unit and choices are the input's."""
    return Fact(item.name, FACT_TYPES[item.kind], item.meta.unit, "workload", item.fact, item.choices)


def parse_vocabulary(data: Mapping[str, Any], file: str) -> dict[str, Fact]:
    """The inputs' facts and those of a facts file's `data`; a malformed table raises RuleError naming
    `file`, the fact and the key."""
    unknown = set(data) - set(FACT_SCOPES)
    if unknown:
        name = sorted(unknown)[0]
        raise RuleError(
            f"{file}: [{shown(name)}]: unknown table{did_you_mean(name, FACT_SCOPES)} "
            "(a fact is a [workload.NAME] or [candidate.NAME] table)"
        )
    facts = {item.name: _input_fact(item) for item in _INPUTS}
    inputs = set(facts)
    for scope in FACT_SCOPES:
        tables = data.get(scope, {})
        if not isinstance(tables, Mapping):
            raise RuleError(f"{file}: {scope}: must hold tables, one a fact ([{scope}.NAME])")
        for name, raw in tables.items():
            if name in facts:
                origin = (
                    "an input's, declared with Input(fact=...)"
                    if name in inputs
                    else f"[{facts[name].scope}.{name}]"
                )
                raise RuleError(f"{file}: [{scope}.{name}]: the name of another fact ({origin})")
            facts[name] = _parse_fact(raw, f"{file}: [{scope}.{shown(name)}]", name, scope)
    return facts


def _parse_fact(raw: Any, where: str, name: str, scope: FactScope) -> Fact:
    """One fact's table: `type`, `meaning`, and optionally `unit` (a number's) and `choices` (a text's)."""
    if not name.isidentifier():
        raise RuleError(f"{where}: a fact's name is letters, digits and _ (rule texts quote it as {{name}})")
    if not isinstance(raw, Mapping):
        raise RuleError(f'{where}: must be a table: type = "number", unit = "days", meaning = "..."')
    unknown = set(raw) - set(_FACT_KEYS)
    if unknown:
        key = sorted(unknown)[0]
        raise RuleError(f"{where}: {key}: unknown key{did_you_mean(key, _FACT_KEYS)}")
    if "type" not in raw:
        raise RuleError(f"{where}: type: missing (required): {', '.join(_TYPES)}")
    type_ = _TYPES.get(raw["type"]) if isinstance(raw["type"], str) else None
    if type_ is None:
        raise RuleError(
            f"{where}: type: unknown type {shown(repr(raw['type']))}{did_you_mean(str(raw['type']), _TYPES)}"
        )
    meaning = raw.get("meaning")
    if not isinstance(meaning, str) or not meaning.strip():
        problem = "missing (required)" if meaning is None else "must be non-empty text"
        raise RuleError(f"{where}: meaning: {problem}")
    unit = raw.get("unit", "")
    if not isinstance(unit, str):
        raise RuleError(f"{where}: unit: must be text")
    if unit and type_ != "number":
        raise RuleError(f"{where}: unit: only a number has a unit (this fact is {type_})")
    return Fact(name, type_, unit, scope, meaning, _choices(raw, where, type_))


def _choices(raw: Mapping[str, Any], where: str, type_: str) -> tuple[str, ...]:
    """The values of the choice list `choices` names (none if it names none)."""
    if "choices" not in raw:
        return ()
    list_name = raw["choices"]
    if type_ != "text":
        raise RuleError(f"{where}: choices: only a text fact has choices")
    if not isinstance(list_name, str) or list_name not in CHOICE_LISTS:
        raise RuleError(
            f"{where}: choices: unknown choice list {shown(repr(list_name))}"
            f"{did_you_mean(str(list_name), CHOICE_LISTS)}"
        )
    return CHOICE_LISTS[list_name]
