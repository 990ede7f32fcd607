"""Every source in the shipped catalog and rules can be followed: it has a URL or says it is an assumption.

The catalog and rules cite original publications (title, publisher, date, URL), never the team's own
reference sheets, where figures were only gathered.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from advisor.core.decision.rules import parse_rule
from advisor.core.model.sourced import url_in
from advisor.core.run import run_scenario
from advisor.core.scenario import Scenario
from advisor.errors import CatalogError, RuleError
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import scenario_from_data
from tests.conftest import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
INTERNAL_SHEETS = (
    "hardware.md",
    "economics.md",
    "throughput-benchmarks.md",
    "field-test-a100-h100.md",
    "semianalysis-h100-gb200-2025.md",
)
"""The reference sheets under shared/reference: where figures were gathered, never what is cited."""

SOURCED_FILES = [
    *sorted(
        path
        for folder in (
            "catalog/systems",
            "catalog/models",
            "catalog/mfu",
            "catalog/evidence/training",
            "catalog/evidence/serving",
            "rules",
        )
        for path in (ROOT / folder).glob("*.toml")
    ),
    ROOT / "catalog" / "economics.toml",
]


def _sourced_tables(data: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every table in `data` that has a `source`, with its path in the file."""
    if isinstance(data, dict):
        if "source" in data:
            yield where, data
        for key, value in data.items():
            yield from _sourced_tables(value, f"{where}.{key}" if where else key)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from _sourced_tables(item, f"{where}[{i}]")


def _all_sources() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in SOURCED_FILES:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        found += [(f"{rel}: {where or '(top)'}", table) for where, table in _sourced_tables(data, "")]
    return found


SOURCES = _all_sources()


def test_the_walk_finds_the_sources():
    files = {where.split(":")[0] for where, _ in SOURCES}
    assert "catalog/economics.toml" in files and "rules/field-test.toml" in files
    assert len(SOURCES) > 100


@pytest.mark.parametrize(("where", "table"), SOURCES, ids=[w for w, _ in SOURCES])
def test_every_source_is_followable_or_an_assumption(where, table):
    # The source text names the publication with its URL (read into `url`), or is marked [A].
    source = table["source"]
    assert url_in(source) or "[A]" in source, f"{where}: source {source!r} names no URL and is not [A]"
    if table.get("assumption") is True:
        assert "[A]" in source or url_in(source), f"{where}: assumption = true but the source says neither"
    assert "url" not in table, f"{where}: write the URL in the source text, once"
    assert table.get("as_of"), f"{where}: source {table['source']!r} has no as_of date"


@pytest.mark.parametrize(("where", "table"), SOURCES, ids=[w for w, _ in SOURCES])
def test_no_source_cites_an_internal_reference_sheet(where, table):
    text = " ".join(str(table.get(key, "")) for key in ("source", "note"))
    named = [sheet for sheet in INTERNAL_SHEETS if sheet in text]
    assert not named, f"{where}: cites the internal sheet {named[0]}: name the original publication"


def test_a_rule_url_must_be_a_web_address():
    raw = {
        "id": "r",
        "title": "t",
        "source": "somewhere",
        "url": "ftp://example.org/x",
        "because": "b",
        "when": {"fact": "params_b", "op": ">", "value": 1},
        "effects": [{"kind": "note"}],
    }
    with pytest.raises(RuleError, match=r"bad\.toml: rule 'r': url: must be an http"):
        parse_rule(raw, "bad.toml", 0)
    with pytest.raises(RuleError, match=r"rule 'r': as_of: must be a date"):
        parse_rule({**raw, "url": "https://example.org/x", "as_of": "May 2024"}, "bad.toml", 0)
    with pytest.raises(RuleError, match=r"rule 'r': assumption: must be true or false"):
        parse_rule({**raw, "url": "", "assumption": "yes"}, "bad.toml", 0)
    rule = parse_rule({**raw, "url": "https://example.org/x", "as_of": "2024-05"}, "bad.toml", 0)
    assert rule is not None and rule.url == "https://example.org/x" and rule.as_of == "2024-05"


# --- rental offers: one dated market snapshot by default, others by name ---------------------------

DEFAULT_OFFER_EXCEPTIONS: dict[str, str] = dict.fromkeys(
    ("b300", "gb300-nvl72", "mi300x", "mi325x", "mi355x"),
    "not in the shared snapshot (CoreWeave's price list of Sep 2026)",
)
"""System id -> why its default offer cannot come from the shared snapshot (the systems newer than it)."""


def test_every_default_offer_comes_from_one_dated_market_snapshot():
    systems = [s for s in shipped_catalog().systems.values() if s.id not in DEFAULT_OFFER_EXCEPTIONS]
    months = {s.id: s.default_rental.as_of[:7] for s in systems}
    urls = {s.id: s.default_rental.url for s in systems}
    assert len(set(months.values())) == 1, f"default offers from different months: {months}"
    assert all(len(m) == 7 for m in months.values()), f"default offers must name their month: {months}"
    assert len(set(urls.values())) == 1 and all(urls.values()), (
        f"default offers from different sources: {urls}"
    )
    for system_id, why in DEFAULT_OFFER_EXCEPTIONS.items():
        offer = shipped_catalog().system(system_id).default_rental
        assert why and why in offer.note, f"{system_id}: the default offer's note must say {why!r}"


def _rent_scenario(**assumptions: Any) -> Scenario:
    return scenario_from_data(
        {
            "schema": 1,
            "workload": {"model": "llama2-7b", "tokens": "50M", "gpus": 8, "pricing": "rent"},
            "assumptions": assumptions,
        }
    )


def test_a_scenario_picks_the_field_test_offer_by_name():
    catalog = shipped_catalog()
    scenario = _rent_scenario(rental_offer="field test (2024)")
    scenario.check_ids(catalog)
    rec = run_scenario(scenario, catalog, load_rules(), today=date(2026, 12, 1)).recommendation
    prices = {c.system: c.estimate.price_usd_per_gpu_hour for c in rec.candidates if c.estimate}
    # The field test: A100 $1.20, H100 $2.10, H200 $4.50; systems without that offer keep their default.
    assert prices["a100"] == pytest.approx(1.20) and prices["h100"] == pytest.approx(2.10)
    assert prices["h200"] == pytest.approx(4.50)
    assert prices["b200"] == pytest.approx(catalog.system("b200").default_rental.price_usd_per_gpu_hour)


def test_an_unknown_offer_name_is_a_clear_error():
    scenario = _rent_scenario(rental_offer="field tset")
    with pytest.raises(CatalogError, match=r"assumptions\.rental_offer: no system lists offer 'field tset'"):
        scenario.check_ids(shipped_catalog())
