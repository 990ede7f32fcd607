"""Comparisons: golden files, what differs, how the answer moves, the CLI, escaping."""

from __future__ import annotations

import json
from functools import cache

import pytest

from advisor.cli.main import main
from advisor.core.scenario import Scenario
from advisor.errors import UsageError
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario
from advisor.report import COMPARE_FORMATS, ComparisonData, build_comparison, render_comparison
from advisor.report.compare import (
    OUTCOME_COLUMNS,
    PER_WORK_COLUMNS,
    TOTALS,
    change_text,
    outcome_rows,
    work_differs,
)
from tests.conftest import ROOT, shipped_catalog
from tests.golden import TODAY, VERSION, check_golden
from tests.golden.shown import agrees, html_tables, markdown_table

PAIR = ("examples/compare/rent-h100-4-day-run.toml", "examples/compare/buy-gb200-year-of-runs.toml")
HOSTILE = "<script>alert('x')</script> \"&\""


@cache
def rules():
    return load_rules()


def compare(scenarios, sources=()) -> ComparisonData:
    return build_comparison(
        scenarios, shipped_catalog(), rules(), today=TODAY, version=VERSION, sources=sources
    )


@cache
def pair() -> ComparisonData:
    return compare([load_scenario(ROOT / p, shipped_catalog()) for p in PAIR], PAIR)


def scenario(name: str, **workload) -> Scenario:
    return Scenario.model_validate(
        {
            "schema": 1,
            "name": name,
            "systems": ["a100", "h100"],
            "workload": {"model": "llama2-7b", "tokens": 1e9, **workload},
        }
    )


@pytest.mark.parametrize("fmt", COMPARE_FORMATS)
def test_comparison_matches_golden_file(fmt):
    check_golden(f"compare-rent-vs-buy.{fmt}", render_comparison(pair(), fmt))


def test_differences_name_each_input_that_moved():
    comp = pair()
    keys = {d.key: d.values for d in comp.differences}
    assert keys["workload.pricing"] == ("rent", "own")
    assert keys["systems"] == (("h100",), ("gb200-nvl72",))
    assert keys["constraints.need_within_days"] == (7, None)
    assert "name" not in keys and "notes" not in keys and "workload.model" not in keys


def test_differences_leave_out_an_input_no_scenario_uses():
    # Two runs sized to their deadlines: their GPU counts are not used, so they are no difference
    # ("What differs | workload.gpus | 64 | 8", new-user walk); one that uses it shows it.
    from advisor.report.compare import differences

    def sized(name: str, gpus: int, size: bool = True) -> Scenario:
        data = scenario(name, gpus=gpus).to_data()
        return Scenario.model_validate(
            {**data, "size_to_deadline": size, "constraints": {"deadline_days": 30}}
        )

    both = {d.key for d in differences([sized("a", 64), sized("b", 8)])}
    assert "workload.gpus" not in both and not both
    one = {d.key: d.values for d in differences([sized("a", 64), sized("b", 8, size=False)])}
    assert one["workload.gpus"] == (64, 8) and "size_to_deadline" in one


def test_an_input_one_scenario_leaves_unused_is_marked_so_in_what_differs():
    # A training and a serving scenario listed seq_len, tokens, MFU and goodput as plain differences,
    # though the serving one uses none of them; the report and the app say "not used".
    from advisor.report.compare import difference_rows

    train = scenario("train", seq_len=4096)
    serve = Scenario.model_validate(
        {
            **scenario(
                "serve", kind="inference", target_tokens_per_second=5000, seq_len=2048, tokens=2e9
            ).to_data(),
            "assumptions": {"mfu": 0.3, "goodput": 0.8},
        }
    )
    _, rows = difference_rows(compare([train, serve]))
    by_key = {row[0]: row[1:] for row in rows}
    training_only = "not used: it applies to training (job: pretrain or finetune)"
    assert by_key["workload.seq_len"] == ["4,096", f"2,048 ({training_only})"]
    assert by_key["assumptions.goodput"] == ["not set", f"0.8 ({training_only})"]
    assert by_key["assumptions.mfu.*"] == ["not set", f"0.3 ({training_only})"]
    assert by_key["workload.tokens"][1].startswith("2B (not used: a target rate sizes the fleet")
    assert by_key["workload.kind"] == ["pretrain", "inference"]


def test_outcome_moves_with_the_scenarios():
    comp = pair()
    rent, buy = (r.winner_estimate for r in comp.reports)
    assert comp.reports[0].recommendation.winner == "h100"
    assert comp.reports[1].recommendation.winner == "gb200-nvl72"
    assert buy.cost_per_million_tokens_usd < rent.cost_per_million_tokens_usd, "owning wins per token"
    md = render_comparison(comp, "md")
    header, *rows = markdown_table(md, "How the answer moves")
    assert header[1:] == list(comp.labels)
    shown = {row[0]: row[1:] for row in rows}
    assert shown["Work"] == ["300B tokens", "45T tokens"]
    for column in (*OUTCOME_COLUMNS, *PER_WORK_COLUMNS):
        first, second = shown[column.heading]
        assert agrees(first, column.raw(rent))
        value, _, change = second.partition(" (")
        assert agrees(value, column.raw(buy))
        # 150x the tokens: a change in a total would say nothing; per token and per GPU-hour it does.
        expected = "" if column.json_key in TOTALS else change_text(column.raw(buy), column.raw(rent))
        assert change.rstrip(")") == expected


def test_different_work_compares_per_token():
    # Issue 12: a 300B-token rental against a 45T-token purchase read "cost ÷94.7"-style totals; per token
    # owning is about 4x cheaper, and that is the change the table gives.
    comp = pair()
    assert work_differs(comp)
    rent, buy = (r.winner_estimate for r in comp.reports)
    _, rows = outcome_rows(comp)
    shown = {row[0]: row[1:] for row in rows}
    assert shown["Cost"][1] == "$1.39M"  # no multiple of the total (the production line refitted on 38 runs)
    ratio = buy.cost_per_million_tokens_usd / rent.cost_per_million_tokens_usd
    assert shown["Per 1M tokens"][1].endswith(f"({ratio:.2f}x)")
    assert 0.2 < ratio < 0.3
    md = render_comparison(comp, "md")
    assert "work differs" in md and "## Cost per 1M tokens of every system" in md
    assert "## Cost of every system" not in md


def test_same_work_keeps_changes_of_totals():
    comp = compare([scenario("8 GPUs"), scenario("16 GPUs", gpus=16)])
    assert not work_differs(comp)
    _, rows = outcome_rows(comp)
    shown = {row[0]: row[1:] for row in rows}
    assert "Work" not in shown
    assert shown["Cost"][1].endswith("x)")
    assert "## Cost of every system" in render_comparison(comp, "md")


def test_serving_with_different_work_compares_per_request():
    short = scenario("10B, 500 out", kind="inference", tokens=1e10, output_tokens=500)
    long = scenario("1T, 250 out", kind="inference", tokens=1e12, output_tokens=250)
    comp = compare([short, long])
    _, rows = outcome_rows(comp)
    shown = {row[0]: row[1:] for row in rows}
    assert shown["Requests"] == ["20M", "4B"]
    first, second = (r.winner_estimate for r in comp.reports)
    per_request = [first.cost_per_million_tokens_usd * 0.5, second.cost_per_million_tokens_usd * 0.25]
    assert shown["Per 1k requests"][1].endswith(f"({per_request[1] / per_request[0]:.2f}x)")
    data = json.loads(render_comparison(comp, "json"))
    assert data["work_differs"] is True
    figures = data["scenarios"][1]["winner_figures"]
    assert figures["cost_per_thousand_requests_usd"] == pytest.approx(per_request[1])


def test_all_comparison_formats_carry_the_same_numbers():
    comp = pair()
    data = json.loads(render_comparison(comp, "json"))
    md_rows = markdown_table(render_comparison(comp, "md"), "Cost per 1M tokens of every system")
    html_rows = html_tables(render_comparison(comp, "html"))["cost_per_million_tokens_usd"][0]
    for rows in (md_rows, html_rows):
        header, *body = rows
        for row in body:
            for label, cell in zip(header[1:], row[1:], strict=True):
                entry = next(s for s in data["scenarios"] if s["label"] == label)
                key = "cost_per_million_tokens_usd"
                if cell == "—":
                    assert row[0] not in entry["systems"] or key not in entry["systems"][row[0]]
                    continue
                assert agrees(cell.split(" (")[0], entry["systems"][row[0]][key])


@pytest.mark.parametrize(
    ("value", "base", "text"),
    [
        (110, 100, "1.10x"),
        (90, 100, "0.90x"),
        (300, 100, "3.00x"),
        (25, 100, "0.25x"),
        (4990, 100, "49.9x"),
        (102_400, 100, "1,024x"),
        (5, 0, ""),
    ],
)
def test_change_text(value, base, text):
    assert change_text(value, base) == text


def test_repeated_names_get_told_apart():
    comp = compare([scenario("same"), scenario("same", gpus=16)], ("a/x.toml", "b/y.toml"))
    assert comp.labels == ("same (x.toml)", "same (y.toml)")
    comp = compare([scenario("same"), scenario("same", gpus=16)])
    assert comp.labels == ("same #1", "same #2")


@pytest.mark.parametrize(
    ("sources", "heading"),
    [(("x.toml", "y.toml"), "same (x.toml)"), (("a/x.toml", "b/y.toml"), "same (x.toml)")],
)
def test_a_heading_names_its_file_once(sources, heading):
    # A repeated name is told apart by its file name; the heading then does not add the file again.
    comp = compare([scenario("same"), scenario("same", gpus=16)], sources)
    md = render_comparison(comp, "md")
    html = render_comparison(comp, "html")
    assert f"### {heading}\n" in md and f"<h3>{heading}</h3>" in html
    assert "(x.toml) (" not in md and "(x.toml) <span" not in html


def test_a_heading_names_its_file_when_the_label_does_not():
    comp = compare([scenario("one"), scenario("two", gpus=16)], ("a/x.toml", "b/y.toml"))
    assert "### one (a/x.toml)\n" in render_comparison(comp, "md")
    assert '<h3>one <span class="meta">(a/x.toml)</span></h3>' in render_comparison(comp, "html")


@pytest.mark.parametrize("count", [1, 9])
def test_two_to_eight_scenarios(count):
    with pytest.raises(UsageError, match=f"compare takes 2 to 8 scenarios; {count} given"):
        compare([scenario(f"s{i}") for i in range(count)])


def test_eight_scenarios_compare():
    comp = compare([scenario(f"s{i}", gpus=8 * (i + 1)) for i in range(8)])
    assert len(comp.labels) == 8
    assert [d.key for d in comp.differences] == ["workload.gpus"]


def test_comparison_html_escapes_hostile_names():
    comp = compare([scenario(HOSTILE), scenario("plain", gpus=16)])
    html = render_comparison(comp, "html")
    assert "<script" not in html.lower()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &quot;&amp;&quot;" in html


def test_unknown_comparison_format():
    with pytest.raises(UsageError, match="unknown comparison format 'toml'; valid: md, html, json"):
        render_comparison(pair(), "toml")


# --- the command line ------------------------------------------------------------------------------


def test_cli_compare_prints_markdown(capsys):
    assert main(["compare", *(str(ROOT / p) for p in PAIR)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Advisor comparison: 2 scenarios") and "## How the answer moves" in out


def test_cli_compare_writes_html(capsys, tmp_path):
    out = tmp_path / "cmp.html"
    assert main(["compare", *(str(ROOT / p) for p in PAIR), "-o", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert "wrote the html comparison" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([PAIR[0]], "compare takes 2 to 8 scenarios; 1 given"),
        ([*PAIR, "-o", "cmp.toml"], "cannot tell the format (extension .toml); name it .md, .html, .json"),
        ([PAIR[0], "tests/data/bad_scenarios/unknown-key.toml"], "unknown-key.toml:7: workload.gpu"),
    ],
)
def test_cli_compare_errors(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["compare", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
