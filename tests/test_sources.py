"""Every source in the shipped catalog and rules can be followed: it has a URL or says it is an assumption.

The catalog and rules cite original publications (title, publisher, date, URL), never the team's own
reference sheets, where figures were only gathered.
"""

from __future__ import annotations

import statistics
import tomllib
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from advisor.core.decision.rules import parse_rule
from advisor.core.model.catalog import RentalOffer, System
from advisor.core.model.sourced import url_in
from advisor.core.run import run_scenario
from advisor.core.scenario import Scenario
from advisor.errors import CatalogError, RuleError
from advisor.io.rule_files import load_rules, load_vocabulary
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
        parse_rule(raw, "bad.toml", 0, load_vocabulary())
    with pytest.raises(RuleError, match=r"rule 'r': as_of: must be a date"):
        parse_rule(
            {**raw, "url": "https://example.org/x", "as_of": "May 2024"}, "bad.toml", 0, load_vocabulary()
        )
    with pytest.raises(RuleError, match=r"rule 'r': assumption: must be true or false"):
        parse_rule({**raw, "url": "", "assumption": "yes"}, "bad.toml", 0, load_vocabulary())
    rule = parse_rule(
        {**raw, "url": "https://example.org/x", "as_of": "2024-05"}, "bad.toml", 0, load_vocabulary()
    )
    assert rule is not None and rule.url == "https://example.org/x" and rule.as_of == "2024-05"


# --- rental offers: one rule prices every default alike (docs/methodology.md, Rental prices) ------

QUOTE_MONTHS = ("2026-05", "2026-11")
"""The months whose published on-demand list prices the default offers are taken from."""
MIN_QUOTES = 3
"""Fewer quotes than this and the default is an assumption scaled from a sibling part."""


def _quotes(system: System) -> list[RentalOffer]:
    """The providers' on-demand quotes a default is computed from: named `on-demand ...`, not the default."""
    return [
        offer
        for offer in system.rental
        if offer.offer.startswith("on-demand") and not offer.default and not offer.reserved
    ]


@pytest.mark.parametrize("system_id", sorted(shipped_catalog().systems))
def test_every_default_offer_follows_the_one_rule(system_id):
    system = shipped_catalog().system(system_id)
    default, quotes = system.default_rental, _quotes(system)
    assert default.default, f"{system_id}: no offer sets default = true"
    for quote in quotes:
        assert QUOTE_MONTHS[0] <= quote.as_of[:7] <= QUOTE_MONTHS[1], f"{quote.offer}: as_of {quote.as_of}"
        assert quote.url or quote.assumption, f"{quote.offer}: a quote names its page"
    assert len({q.offer.split("(")[-1].split(",")[0] for q in quotes}) == len(quotes), "one quote a provider"
    prices = [q.price_usd_per_gpu_hour for q in quotes]
    low, high = default.low_usd_per_gpu_hour, default.high_usd_per_gpu_hour
    assert low is not None and high is not None, f"{system_id}: the default states its range"
    if len(quotes) >= MIN_QUOTES:
        assert default.price_usd_per_gpu_hour == pytest.approx(statistics.median(prices), abs=5e-4)
        assert (low, high) == (min(prices), max(prices)), f"{system_id}: range = cheapest to dearest quote"
        assert not default.assumption
        assert f"Median of the {len(quotes)} neocloud on-demand quotes" in default.source
    else:
        assert default.assumption and "[A]" in default.source, f"{system_id}: too few quotes is an assumption"
        assert f"fewer than the {MIN_QUOTES} the median needs" in default.source
        assert all(low <= price <= high for price in prices), f"{system_id}: the range takes in every quote"
        assert high / low >= 2.2, f"{system_id}: an assumed price has a wide range ({low}-{high})"


def test_a_scaled_default_is_its_siblings_median_times_the_stated_ratio():
    catalog = shipped_catalog()
    for system in catalog.systems.values():
        default = system.default_rental
        if not default.offer.startswith("on-demand, scaled from "):
            continue
        sibling = catalog.system(default.offer.removeprefix("on-demand, scaled from ").split(" ")[0])
        assert len(_quotes(sibling)) >= MIN_QUOTES, f"{system.id}: scaled from a part with its own median"
        ratio = float(default.source.split(" x ")[1].split(",")[0])
        expected = sibling.default_rental.price_usd_per_gpu_hour * ratio
        assert default.price_usd_per_gpu_hour == pytest.approx(expected, abs=0.006), system.id


@pytest.mark.parametrize("system_id", sorted(shipped_catalog().systems))
def test_a_reserved_price_never_exceeds_the_on_demand_default(system_id):
    system = shipped_catalog().system(system_id)
    reserved, on_demand = system.reserved_rental, system.default_rental.price_usd_per_gpu_hour
    assert reserved is not None, f"{system_id}: lists a reserved offer"
    assert reserved.price_usd_per_gpu_hour < on_demand
    assert reserved.high_usd_per_gpu_hour == pytest.approx(on_demand), "the range tops out at on demand"
    if reserved.assumption:  # the assumed discount: 15% off the on-demand default, named as its base
        assert reserved.price_usd_per_gpu_hour == pytest.approx(0.85 * on_demand, abs=0.006)
        assert system.derived_from(reserved) is system.default_rental


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
