"""What differs between compared scenarios: each input whose value is not the same in all of them, with
why a scenario leaves it unused where it does (`advisor.core.unused`), and its values as text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from advisor.core.scenario import Scenario
from advisor.core.unused import unused_answers, unused_inputs
from advisor.present import numbers
from advisor.report.assumptions import NOT_USED
from advisor.report.inputs import value_text

_NOT_DIFFED = frozenset({"schema", "name", "notes"})


@dataclass(frozen=True)
class Difference:
    """One input that is not the same in every scenario: its key path and each scenario's value."""

    key: str
    values: tuple[Any, ...]
    """Per scenario; None where the scenario does not set it."""
    unused: tuple[str, ...] = ()
    """Per scenario: why its answers leave the input unused (`advisor.core.unused`), empty where used."""


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, f"{path}."))
        elif not (isinstance(value, dict) and not value):
            flat[path] = tuple(value) if isinstance(value, list) else value
    return flat


def differences(scenarios: Sequence[Scenario]) -> tuple[Difference, ...]:
    """Every input key path whose value is not the same in all scenarios (name and notes aside, and
    inputs that no scenario's answers use: the GPUs of two runs sized to their deadlines)."""
    flats = [_flatten(s.to_data()) for s in scenarios]
    unused = set.intersection(*(set(unused_inputs(s)) for s in scenarios)) if scenarios else set()
    keys = list(
        dict.fromkeys(
            k
            for flat in flats
            for k in flat
            if k.split(".")[0] not in _NOT_DIFFED and k not in unused and k.rpartition(".")[0] not in unused
        )
    )
    answers = [unused_answers(s) for s in scenarios]
    found = []
    for key in keys:
        values = tuple(flat.get(key) for flat in flats)
        if len(set(values)) > 1:
            why = tuple(
                _unused_why(found_unused, key) if value is not None else ""
                for found_unused, value in zip(answers, values, strict=True)
            )
            found.append(Difference(key, values, why))
    return tuple(found)


def _unused_why(unused: dict[str, tuple[str, str]], key: str) -> str:
    """Why a scenario leaves the input at `key` (or the per-system map it is in) unused, else empty."""
    found = unused.get(key) or unused.get(key.rpartition(".")[0])
    return found[1] if found else ""


def input_text(key: str, value: Any) -> str:
    """A scenario value as text: money in dollars, large counts as 15T, `not set` for a missing key."""
    if value is None:
        return "not set"
    if isinstance(value, tuple):
        return ", ".join(input_text(key, v) for v in value) or "none"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if key.endswith("_usd"):
            return numbers.money(value)
        if abs(value) >= 1e6:
            return numbers.count(value)
    return value_text(value)


def unused_note(why: str) -> str:
    """` (not used: why)` after a value its scenario leaves unused, as the report's inputs note it."""
    return f" ({NOT_USED}{why})" if why else ""
