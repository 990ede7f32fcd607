"""Generate the shipped JSON Schemas from the pydantic models: `python -m advisor.schemas.generate
--write` rewrites `advisor/schemas/*.schema.json`; without `--write` it exits 1 if any differs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import core_schema

from advisor.schemas import SCHEMA_NAMES, SCHEMA_URL, SCHEMA_VERSION

HERE = Path(__file__).parent

TITLES = {
    "scenario": "advisor scenario file (TOML, schema 1)",
    "estimate": "advisor estimate --json",
    "recommend": "advisor recommend --json",
    "report": "advisor report JSON (report -o r.json)",
    "compare": "advisor comparison JSON (compare -o c.json)",
}


HUMAN_TEXT = {
    "type": "string",
    "description": "A number as a person writes it: 15T, 1.5e12, 250k, $2.10, 5T x 3",
}


class ScenarioSchema(GenerateJsonSchema):
    """Scenario files may write numbers as human text ("15T"), one value for every system (`mfu = 0.4`)
    and per-system maps as pairs (`"h100=0.45"`): the schema accepts what the loader accepts, so an
    editor flags no valid file."""

    def function_before_schema(self, schema: core_schema.BeforeValidatorFunctionSchema) -> JsonSchemaValue:
        inner = super().function_before_schema(schema)
        name = getattr(schema["function"].get("function"), "__name__", "")
        if name in ("human_number", "human_integer"):
            return {"anyOf": [inner, HUMAN_TEXT]}
        if name == "system_pairs":
            every = {"type": "number", "description": "the same value for every system"}
            pairs = {"type": "string", "description": "SYSTEM=VALUE pairs: h100=2.1, b200=3.9"}
            return {"anyOf": [inner, every, pairs]}
        return inner


def _adapter(name: str) -> TypeAdapter[Any]:
    from advisor.schemas.estimate_out import EstimateAll, EstimateOne
    from advisor.schemas.outputs import CompareOutput, RecommendOutput, ReportOutput

    outputs: dict[str, Any] = {
        "estimate": EstimateOne | EstimateAll,
        "recommend": RecommendOutput,
        "report": ReportOutput,
        "compare": CompareOutput,
    }
    if name == "scenario":
        from advisor.core.scenario import Scenario

        return TypeAdapter(Scenario)
    return TypeAdapter(outputs[name])


def build_schema(name: str) -> dict[str, Any]:
    """The JSON Schema `name` (see `SCHEMA_NAMES`), as data."""
    mode: JsonSchemaMode = "validation" if name == "scenario" else "serialization"
    generator = ScenarioSchema if name == "scenario" else GenerateJsonSchema
    body = _adapter(name).json_schema(by_alias=True, mode=mode, schema_generator=generator)
    header = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_URL.format(name=name, version=SCHEMA_VERSION),
        "title": TITLES[name],
    }
    if name == "scenario":
        body = _scenario_extras(_standard_bounds(body))
    return {**header, **{k: v for k, v in body.items() if k != "title"}}


BOUNDS = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum"}
"""pydantic leaves bounds set after a before-validator under their Python names; JSON Schema's names."""


def _standard_bounds(node: Any, *, names: bool = False) -> Any:
    """`node` with pydantic's bound keys renamed to JSON Schema's (property names left alone)."""
    if isinstance(node, list):
        return [_standard_bounds(item) for item in node]
    if not isinstance(node, dict):
        return node
    if names:
        return {key: _standard_bounds(value) for key, value in node.items()}
    return {
        (BOUNDS.get(key, key)): _standard_bounds(value, names=key in ("properties", "$defs"))
        for key, value in node.items()
    }


def _scenario_extras(body: dict[str, Any]) -> dict[str, Any]:
    """A TOML report's `[results]` table is accepted (and ignored) where a scenario is read."""
    properties = {
        **body.get("properties", {}),
        "results": {"type": "object", "description": "A report's results (ignored)."},
    }
    return {**body, "properties": properties}


def schema_json(name: str) -> str:
    """The JSON Schema `name` as the text shipped."""
    return json.dumps(build_schema(name), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (with `--write`) or check the shipped schema files; returns the exit status."""
    write = "--write" in (sys.argv[1:] if argv is None else argv)
    stale = []
    for name in SCHEMA_NAMES:
        path = HERE / f"{name}.schema.json"
        text = schema_json(name)
        if write:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path.name)
    if stale:
        print(f"stale: {', '.join(stale)} (run python -m advisor.schemas.generate --write)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
