"""Read and write scenario files (TOML, schema 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

from advisor.core.scenario import SCHEMA_VERSION, Scenario
from advisor.errors import ScenarioError
from advisor.io.atomic import write_atomic
from advisor.io.toml_read import read_toml, validation_messages

RESULTS_KEY = "results"
"""A TOML report adds its results under this key; loading it as a scenario ignores them."""


def scenario_from_data(data: dict[str, Any], path: Path | str = "<scenario>", text: str = "") -> Scenario:
    """Validate scenario data; errors name the file, line, key path and what is valid."""
    data = {key: value for key, value in data.items() if key != RESULTS_KEY}
    if "schema" not in data:
        raise ScenarioError(
            f"{path}: missing 'schema = {SCHEMA_VERSION}' at the top (the scenario format version)"
        )
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError("\n".join(validation_messages(exc, path, text, Scenario))) from None


def load_scenario(path: Path | str) -> Scenario:
    """Load a scenario file."""
    path = Path(path)
    data, text = read_toml(path, ScenarioError)
    return scenario_from_data(data, path, text)


def scenario_toml(scenario: Scenario, results: dict[str, Any] | None = None) -> str:
    """The scenario as TOML text (with a `[results]` table when given)."""
    data = scenario.to_data()
    if results is not None:
        data[RESULTS_KEY] = results
    return tomli_w.dumps(_drop_none(data))


def _drop_none(value: Any) -> Any:
    """TOML has no null: drop None values from nested data."""
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_drop_none(v) for v in value if v is not None]
    return value


def save_scenario(scenario: Scenario, path: Path | str, *, force: bool = False) -> Path:
    """Write `scenario` atomically; an existing file is replaced only with `force`."""
    return write_atomic(path, scenario_toml(scenario), force=force)
