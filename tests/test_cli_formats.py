"""`--format table|csv|tsv|json` on the listings and the tables: the same items, raw numbers, units in keys."""

from __future__ import annotations

import csv
import io
import json

import pytest

from advisor.cli.listings import MODEL_COLUMNS, SYSTEM_COLUMNS
from advisor.cli.main import main
from advisor.cli.tabular import _fitting
from advisor.io.catalog_files import load_catalog
from advisor.io.rule_files import load_rules

TRAIN = ["--model", "llama3-8b", "--tokens", "1T", "--gpus", "8"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def parsed(out: str, fmt: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(out), delimiter="\t" if fmt == "tsv" else ","))


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(user_dir=False)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
@pytest.mark.parametrize(
    ("command", "ids", "number_key"),
    [
        (["models"], lambda c: list(c.models), "params_total"),
        (["systems"], lambda c: list(c.systems), "bf16_dense_tflops"),
        (["rules", "list"], lambda c: [r.id for r in load_rules()], None),
    ],
)
def test_listings_as_csv_and_tsv(capsys, catalog, fmt, command, ids, number_key):
    code, out, _ = run(capsys, *command, "--format", fmt)
    assert code == 0
    rows = parsed(out, fmt)
    assert [row["id"] for row in rows] == ids(catalog)
    if number_key:
        assert all(float(row[number_key]) > 0 for row in rows)  # raw numbers, not "671B"
    assert not [line for line in out.splitlines() if line != line.rstrip()]


def test_model_csv_values_are_the_catalogs(capsys, catalog):
    _, out, _ = run(capsys, "models", "--format", "csv")
    row = next(r for r in parsed(out, "csv") if r["id"] == "llama3-70b")
    model = catalog.models["llama3-70b"]
    assert float(row["params_total"]) == model.params_total and int(row["layers"]) == model.layers
    assert row["source"] == model.source


@pytest.mark.parametrize("command", [["models"], ["systems"], ["prices", "list"]])
def test_format_json_is_json(capsys, command):
    _, by_format, _ = run(capsys, *command, "--format", "json")
    _, by_flag, _ = run(capsys, *command, "--json")
    assert json.loads(by_format) == json.loads(by_flag) and json.loads(by_format)


def test_rules_list_json_names_every_rule(capsys):
    _, out, _ = run(capsys, "rules", "list", "--format", "json")
    data = json.loads(out)
    assert [r["id"] for r in data] == [r.id for r in load_rules()]
    assert {"id", "title", "effects", "source"} == set(data[0])


def test_prices_list_csv_has_every_offer(capsys, catalog):
    _, out, _ = run(capsys, "prices", "list", "--format", "csv")
    rows = parsed(out, "csv")
    assert len(rows) == sum(len(s.rental) for s in catalog.systems.values())
    assert {row["default"] for row in rows} == {"true", "false"}


def test_json_and_another_format_disagree(capsys):
    code, _, err = run(capsys, "models", "--json", "--format", "csv")
    assert code == 2 and "--json and --format csv disagree" in err


def test_estimate_csv_has_a_row_per_system_with_the_json_numbers(capsys, catalog):
    _, out, _ = run(capsys, "estimate", *TRAIN, "--format", "csv")
    rows = parsed(out, "csv")
    _, js, _ = run(capsys, "estimate", *TRAIN, "--json")
    data = json.loads(js)
    assert [r["system"] for r in rows] == [d["system"] for d in data] == sorted(catalog.systems)
    for row, est in zip(rows, data, strict=True):
        assert float(row["cost_usd"]) == pytest.approx(est["cost_usd"])
        assert float(row["time_to_train_hours"]) == pytest.approx(est["time_to_train_hours"])
        assert int(row["gpus"]) == est["gpus"]


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_recommend_table_as_csv_matches_json(capsys, fmt):
    code, out, _ = run(capsys, "recommend", *TRAIN, "--format", fmt)
    assert code == 0
    rows = parsed(out, fmt)
    _, js, _ = run(capsys, "recommend", *TRAIN, "--json")
    candidates = json.loads(js)["candidates"]
    assert [r["system"] for r in rows] == [c["system"] for c in candidates]
    assert rows[0]["rank"] == "1" and rows[0]["system"] == json.loads(js)["winner"]
    for row, cand in zip(rows, candidates, strict=True):
        assert float(row["cost_usd"]) == pytest.approx(cand["estimate"]["cost_usd"])
        assert int(row["gpus"]) == cand["estimate"]["gpus"]


def test_sensitivity_csv_gives_the_ranges(capsys):
    code, out, _ = run(capsys, "sensitivity", *TRAIN, "--samples", "50", "--format", "csv")
    assert code == 0
    rows = parsed(out, "csv")
    assert rows and all(float(r["cost_usd_p10"]) <= float(r["cost_usd_p90"]) for r in rows)


def test_narrow_terminal_leaves_out_optional_columns_never_the_id(catalog):
    models = list(catalog.models.values())
    rows = [[c.text(m) for c in MODEL_COLUMNS] for m in models]
    every = list(range(len(MODEL_COLUMNS)))
    assert _fitting(MODEL_COLUMNS, rows, None) == every  # a pipe: every column
    keys = [MODEL_COLUMNS[i].key for i in _fitting(MODEL_COLUMNS, rows, 80)]
    assert keys[0] == "id" and "source" not in keys and "params_total" in keys
    systems = list(catalog.systems.values())
    rows = [[c.text(s) for c in SYSTEM_COLUMNS] for s in systems]
    assert [SYSTEM_COLUMNS[i].key for i in _fitting(SYSTEM_COLUMNS, rows, 10_000)][1] == "name"
