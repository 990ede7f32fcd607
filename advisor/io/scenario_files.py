"""Read and write scenario files (TOML, schema 1).

Every error names the file, the line (where it can be found), the key path and what is valid.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.core.model.catalog import Catalog
from advisor.core.scenario import SCHEMA_VERSION, Scenario, software_beyond
from advisor.errors import AdvisorError, ScenarioError
from advisor.io.atomic import write_atomic
from advisor.io.toml_read import key_path, locate, read_toml, validation_messages

RESULTS_KEY = "results"
"""A TOML report adds its results under this key; loading it as a scenario ignores them."""


def scenario_from_data(data: dict[str, Any], path: Path | str = "<scenario>", text: str = "") -> Scenario:
    """Validate scenario data; errors name the file, line, key path and what is valid."""
    data = {key: value for key, value in data.items() if key != RESULTS_KEY}
    if "schema" not in data:
        raise ScenarioError(
            f"{path}: missing 'schema = {SCHEMA_VERSION}' at the top (the scenario format version)"
        )
    if "workload" not in data:
        raise ScenarioError(
            f'{path}: missing the [workload] table (required): it needs model = "<preset id>" '
            "(or a [workload.custom] table with params) and tokens"
        )
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        lines = validation_messages(exc, path, text, Scenario)
        raise ScenarioError("\n".join(line.replace(": Value error, ", ": ", 1) for line in lines)) from None
    return with_model_config(scenario, path)


def with_model_config(scenario: Scenario, path: Path | str = "<scenario>") -> Scenario:
    """`scenario` holding the model its `workload.model_config` file describes (a path relative to the
    scenario file's folder, or to the working directory for a scenario from flags). The path is kept
    absolute from then on, so the scenario still finds the file when saved or edited elsewhere."""
    config = scenario.workload.config_file
    if config is None:
        return scenario
    from advisor.io.model_config import load_model_config

    config_path = Path(config).expanduser()
    if not config_path.is_absolute() and Path(path).is_file():
        config_path = Path(path).parent / config_path
    spec = load_model_config(config_path)
    workload = scenario.workload.model_copy(update={"config_file": str(config_path.resolve())})
    return scenario.model_copy(update={"workload": workload.with_config_model(spec)})


def load_scenario(path: Path | str, catalog: Catalog | None = None) -> Scenario:
    """Load a scenario file; with `catalog`, also check that every system and model id it names exists."""
    path = Path(path)
    data, text = read_toml(path, ScenarioError)
    scenario = scenario_from_data(data, path, text)
    if catalog is not None:
        check_scenario_ids(scenario, catalog, path, text)
    return scenario


def check_scenario_ids(scenario: Scenario, catalog: Catalog, path: Path | str, text: str = "") -> None:
    """`Scenario.check_ids` with the file, line and key path of each unknown id in the message."""
    try:
        scenario.check_ids(catalog)
    except AdvisorError as exc:
        found = _unknown_ids(scenario, catalog)
        if not found:
            raise ScenarioError(f"{path}: {exc}") from None
        lines = []
        for loc, message in found:
            line = locate(text, loc) if text else None
            where = f"{path}:{line}" if line else str(path)
            lines.append(f"{where}: {key_path(loc)}: {message}")
        raise ScenarioError("\n".join(lines)) from None


def _unknown_ids(scenario: Scenario, catalog: Catalog) -> list[tuple[tuple[str | int, ...], str]]:
    """Where each unknown id sits: `systems[i]`, `workload.model`, or a per-system assumption key."""
    data = scenario.to_data()
    systems = ", ".join(sorted(catalog.systems))
    found: list[tuple[tuple[str | int, ...], str]] = []
    for index, system_id in enumerate(data.get("systems", [])):
        if system_id not in catalog.systems:
            found.append((("systems", index), f"unknown system {system_id!r}; valid: {systems}"))
    for name, value in data.get("assumptions", {}).items():
        if isinstance(value, dict):
            for key in value:
                if key != "*" and key not in catalog.systems:
                    found.append((("assumptions", name, key), f"unknown system {key!r}; valid: {systems}, *"))
    if beyond := software_beyond(scenario.workload.software, catalog):
        found.append((("workload", "software"), beyond))
    model = data["workload"].get("model")
    if model is not None and model not in catalog.models:
        models = ", ".join(sorted(catalog.models))
        found.append((("workload", "model"), f"unknown model {model!r}; valid: {models}"))
    return found


def unused_in_file(
    path: Path | str, scenario: Scenario, flags_given: set[str] | frozenset[str] = frozenset()
) -> list[str]:
    """`FILE:LINE: key is not used: why` for each key the scenario file at `path` sets that `scenario`
    (the file with any flags over it) leaves unused, as a flag given in vain is warned; a key whose flag
    is in `flags_given` is left to that flag's warning."""
    from advisor.core.unused import unused_answers

    unused = {key: found for key, found in unused_answers(scenario).items() if found[0] not in flags_given}
    if not unused:
        return []  # the file is read again only to name a line
    data, text = read_toml(Path(path), ScenarioError)
    notes: list[tuple[int, str]] = []
    for key, (_, why) in unused.items():
        loc = tuple(key.split("."))
        value: Any = data
        for part in loc:
            value = value.get(part) if isinstance(value, dict) else None
        if value is None or value == {}:
            continue
        line = locate(text, loc) or 0
        notes.append((line, f"{path}{f':{line}' if line else ''}: {key} is not used: {why}"))
    return [note for _, note in sorted(notes)]


def used_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario's data without the answers its other answers leave unused (`unused_inputs`: a
    serving job at a target rate uses no tokens and no GPU count): what a saved file holds."""
    from advisor.core.unused import unused_inputs

    data = scenario.to_data()
    for key in unused_inputs(scenario):
        *tables, name = key.split(".")
        table = data
        for part in tables:
            table = table.get(part, {})
        table.pop(name, None)
    return data


def used_only(scenario: Scenario) -> Scenario:
    """`scenario` as saving and opening it again gives it: without the answers it does not use."""
    from advisor.core.unused import unused_inputs

    if not unused_inputs(scenario):
        return scenario
    return with_model_config(Scenario.model_validate(used_data(scenario)))


def scenario_toml(scenario: Scenario, results: dict[str, Any] | None = None) -> str:
    """The scenario as TOML text, every answer as given (with a `[results]` table when given)."""
    data = scenario.to_data()
    if results is not None:
        data[RESULTS_KEY] = results
    return _toml_text(data)


def _toml_text(data: dict[str, Any]) -> str:
    import tomli_w

    data = _drop_none(data)
    return tomli_w.dumps(data, multiline_strings=not _has_carriage_return(data))


def _has_carriage_return(value: Any) -> bool:
    """Whether any string holds a CR: TOML multi-line strings may not keep it, so then escape all."""
    if isinstance(value, str):
        return "\r" in value
    if isinstance(value, dict):
        return any(_has_carriage_return(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_carriage_return(v) for v in value)
    return False


def _drop_none(value: Any) -> Any:
    """TOML has no null: drop None values from nested data."""
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_drop_none(v) for v in value if v is not None]
    return value


SCHEMA_FILE = "scenario.schema.json"
"""The name a team gives its copy of the scenario JSON Schema (`advisor schema scenario > ...`)."""


def schema_comment(path: Path | str) -> str:
    """The first line of a scenario saved at `path`: `#:schema` and a path relative to the file, which
    taplo-based TOML editors (Even Better TOML, taplo) read; empty when no schema is reachable that way.

    The schema is a `scenario.schema.json` in the file's folder or one above it, up to the repository
    root (a folder with `.git`), else the installed schema when it lies in that same repository (a
    checkout of the advisor). Never an absolute path: a file a team shares and diffs must not carry one
    machine's install location."""
    folder = Path(path).absolute().parent
    for above in (folder, *folder.parents):
        if (above / SCHEMA_FILE).is_file():
            return _schema_line(above / SCHEMA_FILE, folder)
        if (above / ".git").exists():
            from advisor.schemas import schema_path

            installed = Path(schema_path("scenario")).absolute()
            return _schema_line(installed, folder) if installed.is_relative_to(above) else ""
    return ""


def _schema_line(schema: Path, folder: Path) -> str:
    """`#:schema ./scenario.schema.json`, `#:schema ../advisor/schemas/scenario.schema.json`."""
    relative = Path(os.path.relpath(schema, folder)).as_posix()
    return f"#:schema {relative if relative.startswith('../') else './' + relative}\n"


def save_scenario(scenario: Scenario, path: Path | str, *, force: bool = False) -> Path:
    """Write `scenario` atomically, without the answers it does not use (`used_data`), naming a team's
    copy of its JSON Schema when one is at hand (see `schema_comment`); an existing file is replaced
    only with `force`."""
    return write_atomic(path, schema_comment(path) + _toml_text(used_data(scenario)), force=force)
