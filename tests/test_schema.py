"""The machine interface: `schema_version` on every JSON output, and the shipped JSON Schemas that real
outputs and scenario files validate against."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest

from advisor.cli.main import main
from advisor.schemas import SCHEMA_NAMES, SCHEMA_VERSION, schema_text
from advisor.schemas.generate import main as generate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.toml"))
GOLDEN = ROOT / "tests" / "golden"


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_text(name)))


def errors(name: str, data: object) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(data)]


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    code = main(list(argv))
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_shipped_schemas_are_generated_from_the_models() -> None:
    assert generate([]) == 0  # `python -m advisor.schemas.generate --write` after changing a model


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_each_schema_is_a_valid_json_schema(name: str) -> None:
    schema = json.loads(schema_text(name))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("2020-12/schema") and schema["title"]


TRAINING = ["--model", "llama3-8b", "--tokens", "1T", "--gpus", "64"]
SERVING = [
    "--model",
    "llama3-70b",
    "--tokens",
    "1e9",
    "--kind",
    "inference",
    "--target-tokens-per-second",
    "5e4",
]


@pytest.mark.parametrize("workload", [TRAINING, SERVING], ids=["training", "serving"])
def test_estimate_json_validates(capsys: pytest.CaptureFixture[str], workload: list[str]) -> None:
    one = cli_json(capsys, "estimate", *workload, "--system", "h100", "--json")
    assert isinstance(one, dict) and next(iter(one)) == "schema_version"
    assert errors("estimate", one) == []
    every = cli_json(capsys, "estimate", *workload, "--json")
    assert isinstance(every, dict) and every["schema_version"] == SCHEMA_VERSION
    assert len(every["estimates"]) > 5 and errors("estimate", every) == []


@pytest.mark.parametrize("workload", [TRAINING, SERVING], ids=["training", "serving"])
def test_recommend_json_validates(capsys: pytest.CaptureFixture[str], workload: list[str]) -> None:
    data = cli_json(capsys, "recommend", *workload, "--deadline-days", "30", "--json")
    assert isinstance(data, dict) and data["schema_version"] == SCHEMA_VERSION
    assert errors("recommend", data) == []


def test_nothing_feasible_validates(capsys: pytest.CaptureFixture[str]) -> None:
    main(["recommend", *TRAINING, "--budget-usd", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["winner"] is None and errors("recommend", data) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_report_json_of_every_example_validates(tmp_path: Path, path: Path) -> None:
    out = tmp_path / "r.json"
    assert main(["report", str(path), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["schema_version"] == SCHEMA_VERSION and errors("report", data) == []
    assert errors("scenario", data["scenario"]) == []


def test_compare_json_validates(tmp_path: Path) -> None:
    out = tmp_path / "c.json"
    pair = sorted((ROOT / "examples" / "compare").glob("*.toml"))
    assert main(["compare", *map(str, pair), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["schema_version"] == SCHEMA_VERSION and errors("compare", data) == []


@pytest.mark.parametrize(
    ("name", "path"),
    [("report", p) for p in sorted(GOLDEN.glob("report-*.json"))]
    + [("compare", p) for p in sorted(GOLDEN.glob("compare*.json"))],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_golden_json_validates(name: str, path: Path) -> None:
    assert errors(name, json.loads(path.read_text())) == []


def test_an_undocumented_key_fails_validation(capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, "estimate", *TRAINING, "--system", "h100", "--json")
    assert isinstance(data, dict)
    assert errors("estimate", {**data, "surprise": 1}) != []
    assert errors("estimate", {**data, "cost_usd": "cheap"}) != []
    del data["schema_version"]
    assert errors("estimate", data) != []


@pytest.mark.parametrize(
    ("argv", "key"),
    [
        (("models",), "models"),
        (("systems",), "systems"),
        (("prices", "list"), "prices"),
        (("rules", "list"), "rules"),
    ],
)
def test_listings_carry_the_version(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], key: str
) -> None:
    data = cli_json(capsys, *argv, "--json")
    assert isinstance(data, dict) and list(data) == ["schema_version", key] and len(data[key]) > 5


def test_sensitivity_json_carries_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, "sensitivity", *TRAINING, "--samples", "200", "--json")
    assert isinstance(data, dict) and next(iter(data)) == "schema_version"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_shipped_scenarios_validate(path: Path) -> None:
    assert errors("scenario", tomllib.loads(path.read_text())) == []


@pytest.mark.parametrize(
    ("workload", "valid"),
    [
        ({"model": "llama3-8b", "tokens": "15T", "gpus": "2k"}, True),
        ({"model": "llama3-8b", "tokens": 0.5}, False),
        ({"model": "llama3-8b", "tokens": "1T", "typo": 1}, False),
        ({"model": "llama3-8b", "tokens": "1T", "precision": "fp16"}, False),
        ({"model_config": "config.json", "tokens": "1T"}, True),
    ],
)
def test_scenario_schema_matches_the_loader(workload: dict, valid: bool) -> None:
    found = errors("scenario", {"schema": 1, "workload": workload})
    assert (found == []) is valid, found


def test_save_names_the_schema_and_loads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "plan.toml"
    assert main(["recommend", *TRAINING, "--save", str(saved)]) == 0
    capsys.readouterr()
    assert not saved.read_text().startswith("#:schema"), (
        "no schema beside it: no line (see test_tui_save_schema)"
    )
    assert errors("scenario", tomllib.loads(saved.read_text())) == []
    again = cli_json(capsys, "estimate", str(saved), "--system", "h100", "--json")
    assert isinstance(again, dict) and again["gpus"] == 64


def test_schema_command_lists_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in listed] == list(SCHEMA_NAMES)
    assert all(Path(line.split("\t")[1]).is_file() for line in listed)
    assert cli_json(capsys, "schema", "report")["title"].startswith("advisor report JSON")  # type: ignore[index]
    assert main(["schema", "bogus"]) == 2
    assert "no schema 'bogus'; valid: scenario, estimate" in capsys.readouterr().err
