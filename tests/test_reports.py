"""Reports: golden files per format, the same numbers in every format, HTML structure and escaping."""

from __future__ import annotations

import html
import json
import re
import tomllib
from functools import cache
from html.parser import HTMLParser
from itertools import pairwise
from typing import Any

import pytest

from advisor.core.decision.evidence_age import stale_after_days
from advisor.core.decision.headline import replica_layout
from advisor.core.scenario import Scenario
from advisor.errors import UsageError
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario, scenario_from_data
from advisor.report import FORMATS, ReportData, build_report, render_report
from advisor.report.breakdowns import BREAKDOWNS, breakdown_title
from advisor.report.inputs import input_rows
from advisor.report.tables import COLUMNS, columns_for
from tests.conftest import ROOT, shipped_catalog
from tests.golden import TODAY, VERSION, check_golden
from tests.golden.shown import agrees, html_tables, markdown_table

EXAMPLES = ROOT / "examples"
GOLDEN_SCENARIOS = ("llama3-70b-pretrain", "13b-from-scratch-8-gpus", "llama3-70b-serving")
"""Owned hardware at scale; renting one node with a custom model, a deadline and old prices; and
serving at a target rate (a month of it, no token count)."""
HOSTILE = "<script>alert(\"x\")</script> & 'quotes' <img src=x onerror=alert(1)>"


@cache
def rules():
    return load_rules()


@cache
def example_report(stem: str, **assumptions: Any) -> ReportData:
    scenario = load_scenario(EXAMPLES / f"{stem}.toml", shipped_catalog())
    if assumptions:
        update = scenario.assumptions.model_copy(update=assumptions)
        scenario = scenario.model_copy(update={"assumptions": update})
    return build_report(scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION)


@cache
def rendered(stem: str, fmt: str) -> str:
    return render_report(example_report(stem), fmt)


def hostile_report() -> ReportData:
    scenario = scenario_from_data(
        {
            "schema": 1,
            "name": HOSTILE,
            "notes": f"first line\n{HOSTILE}\n- a list line",
            "systems": ["a100", "h100"],
            "workload": {"custom": {"params": "13B", "name": HOSTILE}, "tokens": "26B", "gpus": 8},
        }
    )
    return build_report(scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION)


# --- golden files --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("stem", GOLDEN_SCENARIOS)
def test_report_matches_golden_file(stem, fmt):
    check_golden(f"report-{stem}.{fmt}", rendered(stem, fmt))


def test_rendering_is_deterministic():
    again = build_report(
        example_report(GOLDEN_SCENARIOS[0]).scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION
    )
    for fmt in FORMATS:
        assert render_report(again, fmt) == rendered(GOLDEN_SCENARIOS[0], fmt)


# --- the same numbers in every format ------------------------------------------------------------


def _figures(stem: str) -> dict[str, dict[str, dict]]:
    """Per format, per system: the comparison and breakdown figures as each format carries them."""
    report = json.loads(rendered(stem, "json"))
    toml = tomllib.loads(rendered(stem, "toml"))["results"]
    md = rendered(stem, "md")
    html = html_tables(rendered(stem, "html"))
    out: dict[str, dict[str, dict]] = {"json": {}, "toml": {}, "md": {}, "html": {}}
    for cand in report["candidates"]:
        est = cand["estimate"]
        if est is not None:
            figures = {c.json_key: est[c.json_key] for c in COLUMNS}
            figures.update({f"{b.key}.total": sum(est[b.key].values()) for b in BREAKDOWNS})
            out["json"][cand["system"]] = figures
    for entry in toml["systems"]:
        if "cost_usd" in entry:
            figures = {c.json_key: entry[c.json_key] for c in COLUMNS}
            figures["cost_breakdown_usd.total"] = sum(entry["breakdowns"]["cost_usd"].values())
            out["toml"][entry["system"]] = figures
    workload = example_report(stem).scenario.workload
    shown = columns_for(workload.kind, workload.efficiency)  # a serving job's lack MFU and goodput
    header, *rows = markdown_table(md, "Comparison of all systems")
    for row in rows:
        out["md"][row[0]] = {c.json_key: row[header.index(c.heading)] for c in shown}
    header, *rows = html["systems"][0]
    for row in rows:
        out["html"][row[0]] = {c.json_key: row[header.index(c.heading)] for c in shown}
    for key, breakdown in zip(("cost", "time", "energy"), BREAKDOWNS, strict=True):
        title = f"{breakdown_title(breakdown, workload.pricing, workload.kind)} breakdown"
        md_rows = markdown_table(md, title)[1:]
        html_rows = html[key][0][1:]
        for fmt, rows in (("md", md_rows), ("html", html_rows)):
            for row in rows:
                out[fmt][row[0]][f"{breakdown.key}.total"] = row[-1]
    return out


@pytest.mark.parametrize("stem", GOLDEN_SCENARIOS)
def test_all_formats_carry_the_same_numbers(stem):
    figures = _figures(stem)
    raw = figures["json"]
    assert raw and set(figures["md"]) == set(figures["html"]) >= set(raw)
    for system, values in raw.items():
        toml_values = figures["toml"][system]
        for key, value in toml_values.items():
            assert value == pytest.approx(values[key], rel=1e-12), (system, key)
        for fmt in ("md", "html"):
            for key, shown in figures[fmt][system].items():
                value = values[key]
                assert agrees(shown, value), f"{fmt} {system} {key}: shows {shown!r}, raw {value!r}"
    # Systems without an estimate show a dash in every column of both text formats.
    for system in set(figures["md"]) - set(raw):
        assert set(figures["md"][system].values()) == {"—"} == set(figures["html"][system].values())


def test_json_report_is_the_recommend_object_plus_breakdowns():
    report = example_report(GOLDEN_SCENARIOS[0])
    data = json.loads(rendered(GOLDEN_SCENARIOS[0], "json"))
    rec = report.recommendation.to_dict()
    for key in rec:
        if key != "rules_fired":
            assert data[key] == json.loads(json.dumps(rec[key])), key
    assert [r["id"] for r in data["rules_fired"]] == [r["id"] for r in rec["rules_fired"]]
    assert all("/" not in r["file"] for r in data["rules_fired"]), "rule files by name, not local path"
    assert {"ranges", "robustness", "breakdowns", "assumptions", "scenario", "report"} <= set(data)
    winner = data["winner"]
    assert data["breakdowns"][winner]["cost_usd"] == rec["candidates"][0]["estimate"]["cost_breakdown_usd"]
    assert data["report"] == {
        "format": 1,
        "advisor_version": VERSION,
        "generated": TODAY.isoformat(),
        "title": report.scenario.name,
    }


def test_recommend_json_and_report_json_agree(capsys, tmp_path):
    # The CLI's `recommend --json` and `report --format json` give the same answer for the same file.
    from advisor.cli.main import main

    path = EXAMPLES / "7b-finetune.toml"
    assert main(["recommend", str(path), "--json"]) == 0
    recommended = json.loads(capsys.readouterr().out)
    out = tmp_path / "r.json"
    assert main(["report", str(path), "-o", str(out)]) == 0
    reported = json.loads(out.read_text())
    for key in recommended:
        if key != "rules_fired":
            assert reported[key] == recommended[key], key


@pytest.mark.parametrize("stem", GOLDEN_SCENARIOS)
def test_toml_report_loads_back_as_the_same_scenario(stem, tmp_path):
    path = tmp_path / "report.toml"
    path.write_text(rendered(stem, "toml"), encoding="utf-8")
    assert load_scenario(path, shipped_catalog()) == example_report(stem).scenario


# --- what every report holds ---------------------------------------------------------------------


@pytest.mark.parametrize("stem", GOLDEN_SCENARIOS)
def test_markdown_has_every_section(stem):
    md = rendered(stem, "md")
    headings = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    for needed in (
        "Recommendation",
        "Inputs",
        "Comparison of all systems",
        "Ranges",
        "Cost (TCO) breakdown" if stem == "llama3-70b-pretrain" else "Cost (rental) breakdown",
        "Time to serve breakdown" if stem == "llama3-70b-serving" else "Time to result breakdown",
        "Energy breakdown",
        "Warnings",
        "Rules that fired",
        "Assumptions used",
    ):
        assert needed in headings
    assert f"advisor {VERSION}" in md and TODAY.isoformat() in md


def test_inputs_table_covers_every_scenario_field():
    # Declared inputs are checked surface by surface in test_inputs.py; the other fields by name here.
    from advisor.core.scenario import INPUTS, WorkloadSpec
    from advisor.report.inputs import UNDECLARED_FIELDS

    def declared(table: str) -> set[str]:
        return {item.name for item in INPUTS.values() if item.table == table}

    tables = {"workload", "constraints", "assumptions"}
    assert set(UNDECLARED_FIELDS["scenario"]) | declared("") == set(Scenario.model_fields) - tables
    assert set(UNDECLARED_FIELDS["workload"]) | declared("workload") == set(WorkloadSpec.model_fields)


def test_inputs_show_lora_serving_targets_and_deadline_sizing():
    lora = scenario_from_data(
        {
            "schema": 1,
            "systems": ["h100"],
            "workload": {"model": "llama2-7b", "tokens": 1e8, "kind": "finetune", "finetune_method": "lora"},
        }
    )
    rows = dict(input_rows(build_report(lora, shipped_catalog(), rules(), today=TODAY, version=VERSION)))
    assert rows["Job"] == "finetune, LoRA training 1.0% of the parameters"
    serve = scenario_from_data(
        {
            "schema": 1,
            "systems": ["h100"],
            "size_to_deadline": True,
            "constraints": {"deadline_days": 30},
            "workload": {
                "model": "llama2-7b",
                "tokens": 1e9,
                "kind": "inference",
                "target_tokens_per_second": 5000,
            },
        }
    )
    rows = dict(input_rows(build_report(serve, shipped_catalog(), rules(), today=TODAY, version=VERSION)))
    assert rows["Serving"] == "500 prompt + 500 output tokens, batch chosen, target 5,000 tokens/s"
    # A target rate sizes the fleet (a month of serving): sizing to the deadline is not used.
    assert rows["Deadline"] == "30 days" and "Sizing margin" not in rows


def test_inputs_say_gpus_were_sized_to_the_deadline_and_how_many_the_winner_uses():
    data = {
        "schema": 1,
        "systems": ["h100", "b200"],
        "constraints": {"deadline_days": 30},
        "workload": {"model": "llama3-70b", "tokens": "2T", "gpus": 8},
    }
    fixed = build_report(scenario_from_data(data), shipped_catalog(), rules(), today=TODAY, version=VERSION)
    assert dict(input_rows(fixed))["GPUs"] == "8"
    sized = scenario_from_data({**data, "size_to_deadline": True})
    report = build_report(sized, shipped_catalog(), rules(), today=TODAY, version=VERSION)
    winner = report.winner_estimate
    assert winner is not None and winner.gpus > 8
    assert dict(input_rows(report))["GPUs"] == (
        f"sized to the deadline (each system its own count; the recommended uses {winner.gpus:,})"
    )


def test_assumptions_carry_sources_dates_and_flag_old_prices():
    rent = example_report("13b-from-scratch-8-gpus")
    rows = {(a.subject, a.topic): a for a in rent.assumptions}
    h100_price = rows[("h100", "rental")]
    assert h100_price.as_of == "2026-11" and not h100_price.stale
    # The median of the seven neocloud on-demand quotes of May-Nov 2026 (catalog/systems/h100.toml).
    assert dict(h100_price.values)["price_usd_per_gpu_hour"] == 3.90
    assert h100_price.urls == ("https://docs.digitalocean.com/products/droplets/details/pricing/",)
    field_test = example_report("13b-from-scratch-8-gpus", rental_offer="field test (2024)")
    old = {(a.subject, a.topic): a for a in field_test.assumptions}[("h100", "rental")]
    assert old.as_of == "2024" and old.stale and old.assumption and not old.urls
    assert dict(old.values)["price_usd_per_gpu_hour"] == 2.10
    assert all(a.source for a in rent.assumptions)
    assert all(a.as_of for a in rent.assumptions if not a.set_by_user)
    assert ("h100", "capex") not in rows, "renting uses no capex"
    own = example_report("llama3-70b-pretrain")
    topics = {(a.subject, a.topic) for a in own.assumptions}
    assert ("gb200-nvl72", "capex") in topics and ("economics", "finance") in topics
    assert ("h100", "rental") not in topics
    assert not any(a.stale for a in own.assumptions), "2025 prices are not a year old on 2026-06-01"


def test_the_price_age_that_makes_a_price_stale_comes_from_the_rules():
    assert stale_after_days(rules()) == 365  # rules/checks.toml, price-older-than-a-year
    without = tuple(r for r in rules() if r.id != "price-older-than-a-year")
    assert stale_after_days(without) is None
    scenario = load_scenario(EXAMPLES / "13b-from-scratch-8-gpus.toml", shipped_catalog())
    report = build_report(scenario, shipped_catalog(), without, today=TODAY, version=VERSION)
    assert not any(a.stale for a in report.assumptions)


@pytest.mark.parametrize(
    ("limits", "listed"),
    [
        ({}, True),  # the default TPOT limit and headroom apply
        ({"tpot_limit_ms": 50}, True),  # the default headroom still applies
        ({"tpot_limit_ms": 50, "serving_headroom": 0.1}, False),  # the user set both
    ],
)
def test_the_serving_defaults_are_listed_whenever_a_rate_uses_one(limits, listed):
    workload = {"model": "llama3-8b", "kind": "inference", "target_tokens_per_second": 5000, **limits}
    scenario = Scenario.model_validate({"schema": 1, "systems": ["h100"], "workload": workload})
    report = build_report(scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION)
    assert (("economics", "serving") in {(a.subject, a.topic) for a in report.assumptions}) == listed


def test_overrides_replace_the_catalog_values_they_name():
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "systems": ["h100", "a100"],
            "workload": {"model": "llama2-7b", "tokens": 1e9},
            "assumptions": {"price_usd_per_gpu_hour": {"h100": 1.5}, "pue": 1.1, "goodput": 1.0},
        }
    )
    report = build_report(scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION)
    rows = {(a.subject, a.topic): a for a in report.assumptions}
    assert rows[("h100", "price_usd_per_gpu_hour")].set_by_user
    assert ("h100", "rental") not in rows and ("a100", "rental") in rows
    assert ("economics", "facility") not in rows and rows[("all systems", "pue")].values == (("pue", 1.1),)
    assert ("h100", "reliability") not in rows and ("economics", "checkpointing") not in rows
    md = render_report(report, "md")
    assert "| Rent price | h100: $1.50/GPU-hour |" in md  # the inputs table: a row of its own
    assert "| Assumption overrides | goodput = 1 (all systems); pue = 1.1 (all systems) |" in md


def test_unknown_format_is_refused():
    with pytest.raises(UsageError, match="unknown report format 'pdf'; valid: md, html, json, toml"):
        render_report(example_report(GOLDEN_SCENARIOS[0]), "pdf")


def test_unknown_id_is_an_advisor_error():
    scenario = Scenario.model_validate({"schema": 1, "workload": {"model": "llama9", "tokens": 1e9}})
    with pytest.raises(Exception, match="unknown model 'llama9'") as info:
        build_report(scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION)
    from advisor.errors import AdvisorError

    assert isinstance(info.value, AdvisorError)


# --- HTML: self-contained, structured, escaped ---------------------------------------------------


class Structure(HTMLParser):
    """Tags, section ids, link targets and visible text of an HTML document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.sections: list[str] = []
        self.urls: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []
        self.svg_rects = 0
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "section":
            self.sections.append(values.get("id") or "")
        if tag == "rect":
            self.svg_rects += 1
        for name in ("src", "href", "xlink:href", "action", "data"):
            if values.get(name) is not None:
                is_link = tag == "a" and name == "href" and values[name].startswith("https://")
                (self.links if is_link else self.urls).append(values[name])
        self._in_title = tag == "title" and "svg" not in self.tags[-2:-1]

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        self.text.append(data)
        if self._in_title and not self.title:
            self.title = data


def structure(html: str) -> Structure:
    parser = Structure()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("stem", GOLDEN_SCENARIOS)
def test_html_is_self_contained_and_has_every_section(stem):
    html = rendered(stem, "html")
    doc = structure(html)
    assert html.startswith("<!DOCTYPE html>")
    for section in (
        "recommendation",
        "inputs",
        "systems",
        "ranges",
        "cost",
        "time",
        "energy",
        "warnings",
        "rules",
        "assumptions",
    ):
        assert section in doc.sections
    assert doc.tags.count("svg") == 6 and doc.svg_rects > 10  # three charts, each wide and narrow
    assert "script" not in doc.tags and "<script" not in html.lower()
    assert not {"link", "img", "iframe", "object", "embed"} & set(doc.tags)
    assert all(url.startswith("#") for url in doc.urls), doc.urls
    assert "http" not in " ".join(doc.urls) and "url(" not in html and "@import" not in html
    assert doc.links, "the assumptions table links each source to its address"
    assert "@media print" in html and "Content-Security-Policy" in html


def test_html_escapes_hostile_text():
    html = render_report(hostile_report(), "html")
    doc = structure(html)
    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert "script" not in doc.tags and "img" not in doc.tags
    text = "".join(doc.text)
    assert HOSTILE in text, "the name reads back exactly as written"
    assert doc.title == f"Advisor report: {HOSTILE}"
    # Inside attribute values too: the chart titles carry no raw quote that could end the attribute.
    for match in re.finditer(r'aria-label="([^"]*)"', html):
        assert "<" not in match.group(1)


def test_markdown_escapes_hostile_text():
    md = render_report(hostile_report(), "md")
    assert not re.search(r"(?<!\\)<", md), "every < is backslash-escaped, so no HTML tag survives"
    assert "\\<script\\>" in md
    assert md.splitlines()[0].startswith("# Advisor report: \\<script\\>")


@pytest.mark.parametrize(
    "workload",
    [
        {"model": "llama2-7b", "tokens": 1e10, "kind": "inference", "target_tokens_per_second": 2000},
        {"model": "llama3-405b", "tokens": 1e12, "gpus": 8},
        {"model": "llama2-13b", "tokens": 1e9, "kind": "finetune", "finetune_method": "lora"},
        {"custom": {"params": "400B", "active_params": "17B"}, "tokens": "2T", "gpus": 512, "pricing": "own"},
    ],
    ids=["inference", "nothing-feasible", "lora", "custom-moe"],
)
def test_every_shape_of_scenario_renders_in_every_format(workload, tmp_path):
    scenario = scenario_from_data({"schema": 1, "name": "shape", "workload": workload})
    report = build_report(scenario, shipped_catalog(), rules(), today=TODAY, version=VERSION)
    for fmt in FORMATS:
        text = render_report(report, fmt)
        shown = html.unescape(text) if fmt == "html" else text.replace("\\", "")
        assert report.recommendation.headline.split(":")[0] in shown, fmt
    data = json.loads(render_report(report, "json"))
    assert data["winner"] == report.recommendation.winner
    path = tmp_path / "r.toml"
    path.write_text(render_report(report, "toml"), encoding="utf-8")
    assert load_scenario(path) == scenario


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_serving_report_says_which_gpu_count_to_get(fmt):
    # With a target rate the job is the fleet for it: the headline and the GPUs column are what to rent,
    # so no second GPU count needs telling apart.
    data = {
        "schema": 1,
        "systems": ["h100", "b200"],
        "workload": {"model": "llama3-70b", "tokens": 1e9, "kind": "inference", "precision": "fp8"},
    }
    target = {**data, "workload": {**data["workload"], "target_tokens_per_second": 50_000}}
    report = build_report(
        Scenario.model_validate(target), shipped_catalog(), rules(), today=TODAY, version=VERSION
    )
    text = html.unescape(" ".join(render_report(report, fmt).split()))
    winner = report.recommendation.winner_candidate
    serving = winner.estimate.serving
    assert winner.estimate.gpus == serving.gpus_for_target
    layout = replica_layout(serving.replicas, serving.replica_gpus)
    assert f"{serving.gpus_for_target:,}x {winner.system} ({layout}) to serve 50k tokens/s" in text
    assert "the cluster each system serves the job" not in text and "To serve 50k" not in text
    assert "are the GPUs to rent for 50k tokens/s, and $/month is theirs" in text
    plain = build_report(
        Scenario.model_validate(data), shipped_catalog(), rules(), today=TODAY, version=VERSION
    )
    text = html.unescape(" ".join(render_report(plain, fmt).split()))
    assert "To serve" not in text and "No target rate was given: $/month is the cluster given" in text


# --- what order the systems are in --------------------------------------------------------------------


def _cost_order_broken(report: ReportData) -> bool:
    ranked = sorted(
        (c for c in report.recommendation.candidates if c.rank is not None and c.estimate is not None),
        key=lambda c: c.rank or 0,
    )
    costs = [c.estimate.cost_usd for c in ranked if c.estimate is not None]
    return any(above > below for above, below in pairwise(costs))


def test_the_systems_table_says_the_rules_weights_reorder_it():
    # The pretraining example ranks a system above a cheaper one (the rules' weights): "Ranked by
    # cost" alone would be untrue; Markdown and HTML say the one sentence from advisor/present.
    report = example_report("llama3-70b-pretrain")
    assert _cost_order_broken(report)
    sentence = (
        "Ranked by cost after the rules' weights (each system's cost over the best, times its bonuses "
        "and penalties), so a system can rank above a cheaper one; a dash where a system could not be "
        "estimated."
    )
    assert sentence in rendered("llama3-70b-pretrain", "md")
    assert html.escape(sentence, quote=True) in rendered("llama3-70b-pretrain", "html")


def test_an_unweighted_ranking_is_by_cost_alone():
    report = example_report("gpt3-175b-benchmark")
    assert all(c.rule_factor == 1 for c in report.recommendation.candidates if c.rank is not None)
    assert not _cost_order_broken(report)
    assert "Ranked by cost; a dash" in render_report(report, "md")


@pytest.mark.parametrize("stem", GOLDEN_SCENARIOS)
def test_the_ranges_blurb_names_the_inputs_the_ranges_were_drawn_from(stem):
    # It listed "MFU" for production runs, whose speed is drawn as the production efficiency (in place
    # of the MFU spread), and "rental prices" however the job was priced (review of stop 26).
    from advisor.report.tables import range_blurb

    report = example_report(stem)
    drawn = {name for rng in report.sensitivity.ranges.values() for name in rng.inputs}
    blurb = range_blurb(report)
    assert ("MFU" in blurb) == ("mfu" in drawn)
    assert ("production efficiency" in blurb) == ("efficiency" in drawn and stem != "llama3-70b-serving")
    assert ("capex" in blurb) == ("capex" in drawn) and ("goodput" in blurb) == ("goodput" in drawn)
