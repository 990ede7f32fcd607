"""The machine interface: the version every JSON output carries, and the shipped JSON Schemas.

`schema_version` is the version of the JSON outputs' shape (estimate, recommend, sensitivity, report,
compare, validate and the listings); it changes when a key is renamed or removed, not when one is
added. The JSON Schemas (`advisor schema NAME`) are generated from the pydantic models in
`advisor/schemas/estimate_out.py` and `advisor/schemas/outputs.py` and from the scenario model, by
`python -m advisor.schemas.generate --write`; a test checks the shipped files match.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

SCHEMA_VERSION = 1
"""The version of every JSON output's shape (the `schema_version` key)."""

SCHEMA_NAMES = ("scenario", "estimate", "recommend", "report", "compare")
"""The shipped JSON Schemas, by name (`advisor schema NAME`)."""

SCHEMA_URL = "https://gpu-advisor.invalid/schemas/{name}-{version}.json"
"""The `$id` of each schema (an identifier only: nothing is fetched)."""


def versioned(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with `schema_version` as its first key."""
    return {"schema_version": SCHEMA_VERSION, **data}


def listing(key: str, entries: list[Any]) -> dict[str, Any]:
    """A JSON listing: `{"schema_version": 1, key: entries}` (a bare array could carry no version)."""
    return {"schema_version": SCHEMA_VERSION, key: entries}


def schema_text(name: str) -> str:
    """The shipped JSON Schema `name` as text; an unknown name raises KeyError."""
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    return files("advisor.schemas").joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


def schema_path(name: str) -> str:
    """Where the shipped JSON Schema `name` is installed (for an editor's `#:schema` line)."""
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    return str(files("advisor.schemas").joinpath(f"{name}.schema.json"))
