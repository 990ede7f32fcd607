"""Serving at a target rate: a month of serving, the fleet for the rate, the default limit for chat, and
the headline every surface shows (CLI, JSON, reports)."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from pydantic import ValidationError

from advisor.cli.main import main
from advisor.core.costing.estimate import estimate
from advisor.core.decision.headline import replica_layout
from advisor.core.model.units import HOURS_PER_MONTH, SECONDS_PER_HOUR
from advisor.core.model.workload import Constraints, Workload
from advisor.core.run import run_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.report.data import build_report
from advisor.report.formats import render_report
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
RATE = 50_000.0
MONTH_TOKENS = RATE * HOURS_PER_MONTH * SECONDS_PER_HOUR
SERVE = ["--model", "llama3-70b", "--kind", "inference", "--target-tokens-per-second", "50k"]


def serving(**inputs: object) -> Workload:
    values: dict[str, object] = {"kind": "inference", "target_tokens_per_second": RATE, **inputs}
    return Workload(model=CATALOG.model("llama3-70b"), **values)


def scenario(workload: dict[str, object], **constraints: object) -> Scenario:
    data = {"workload": {"model": "llama3-70b", **workload}, "constraints": constraints}
    return Scenario.model_validate(data)


# --- the job: a month of serving at the rate -----------------------------------------------------------


@pytest.mark.parametrize(
    "inputs",
    [
        {},
        {"tokens": 1e9},  # tokens given beside a rate are not used: the job is the month
        {"target_tokens_per_second": None, "requests_per_second": 100, "output_tokens": 500},
        {"target_tokens_per_second": "50k"},
    ],
    ids=["no tokens", "tokens given", "requests per second", "written 50k"],
)
def test_serving_at_a_rate_is_a_month_of_it(inputs):
    assert serving(**inputs).tokens == pytest.approx(MONTH_TOKENS)


@pytest.mark.parametrize("kind", ["pretrain", "finetune", "inference"])
def test_a_job_without_tokens_or_a_rate_is_refused_naming_tokens(kind):
    with pytest.raises(ValidationError, match="tokens: how many tokens"):
        Workload(model=CATALOG.model("llama3-70b"), kind=kind)
    with pytest.raises(ValidationError, match="target_tokens_per_second or requests_per_second"):
        scenario({"kind": kind})


def test_a_serving_scenario_without_tokens_validates_and_keeps_none_in_the_file():
    s = scenario({"kind": "inference", "target_tokens_per_second": "50k"})
    assert s.workload.tokens is None and "tokens" not in s.to_data()["workload"]
    assert s.workload.workload(CATALOG).tokens == pytest.approx(MONTH_TOKENS)


# --- the estimate: the fleet for the rate, for a month ---------------------------------------------------


@pytest.mark.parametrize("system", ["h100", "mi325x", "gb200-nvl72"])
def test_the_estimate_is_the_fleet_for_the_rate_for_a_month(system):
    est = estimate(serving(gpus=8), system, CATALOG)
    s = est.serving
    assert s is not None and s.gpus_for_target is not None
    assert est.gpus == s.gpus_for_target == s.replicas * s.replica_gpus  # not the 8 GPUs given
    spare = CATALOG.economics.serving.default_headroom
    assert s.headroom == spare  # the fleet keeps the shipped headroom: whole replicas for rate / (1 - it)
    usable = s.tokens_per_second * (1 - spare)
    assert usable >= RATE > usable * (s.replicas - 1) / s.replicas
    assert est.time_to_train_hours == pytest.approx(HOURS_PER_MONTH) == s.period_hours
    assert est.tokens_per_second_per_gpu * est.gpus == pytest.approx(RATE)  # it serves the rate, no more
    assert est.cost_usd == pytest.approx(s.usd_per_month)  # renting: a month of the fleet
    assert est.cost_per_million_tokens_usd == pytest.approx(est.cost_usd / MONTH_TOKENS * 1e6)


@pytest.mark.parametrize("system", ["gb300-nvl72", "h200"])
def test_owning_the_month_of_serving_pays_for_the_idle_gpus_of_the_rack_or_node_bought(system):
    # A fleet of 6 GPUs bought as a whole 72-GPU rack (or an 8-GPU node): its $/month is what the ranking
    # pays, the whole rack's share, not 6 GPUs at the hourly price (the serving table showed $10.5k for a
    # $4.35M GB300 rack while the ranking paid $116k; new-user walk).
    est = estimate(serving(gpus=8, pricing="own"), system, CATALOG)
    s = est.serving
    assert s is not None and est.purchase is not None and est.purchase.gpus_bought > est.gpus
    assert s.usd_per_month == pytest.approx(est.cost_usd)
    assert s.usd_per_month > est.gpus * est.price_usd_per_gpu_hour * HOURS_PER_MONTH * 1.05


def test_a_rented_batch_jobs_month_is_the_hourly_price_not_a_short_runs_share_of_its_term():
    # 1T tokens of Llama 3 8B on 64 B300 take about 8 days on a 30-day reservation paid in full: the run's
    # price per running GPU-hour is ~$26, but a month of the cluster is 64 GPUs x $6.71 x 730 h.
    job = Workload(model=CATALOG.model("llama3-8b"), kind="inference", tokens=1e12, gpus=64)
    est = estimate(job, "b300", CATALOG)
    s = est.serving
    assert s is not None and est.effective_price_usd_per_gpu_hour > 2 * est.price_usd_per_gpu_hour
    assert s.usd_per_month == pytest.approx(est.price_usd_per_gpu_hour * 64 * HOURS_PER_MONTH)


def test_without_a_rate_the_batch_job_stays_on_the_gpus_given():
    est = estimate(serving(target_tokens_per_second=None, tokens=1e9, gpus=8), "h100", CATALOG)
    assert est.gpus == 8 and est.serving is not None and est.serving.gpus_for_target is None
    assert est.serving.tpot_limit_ms is None and est.serving.period_hours is None


# --- the default limit for chat ---------------------------------------------------------------------------


def test_a_rate_without_a_tpot_limit_is_held_to_the_default_for_chat():
    default = CATALOG.economics.serving.default_tpot_limit_ms
    held = estimate(serving(), "mi325x", CATALOG).serving
    assert held is not None and held.tpot_limit_ms == default and held.tpot_limit_default
    assert held.meets_limits and held.tpot_ms <= default
    # Without it (a limit so loose it never binds) the plan runs at a pace nobody reads along with:
    # the case a new user found, 3-5 tokens/s per user, that the default now prevents.
    loose = estimate(serving(tpot_limit_ms=1e6), "mi325x", CATALOG).serving
    assert loose is not None and not loose.tpot_limit_default and loose.tpot_ms > 2 * default
    assert held.replicas * held.replica_gpus > loose.replicas * loose.replica_gpus


def test_a_tpot_limit_set_is_the_one_held_to():
    s = estimate(serving(tpot_limit_ms=40), "h100", CATALOG).serving
    assert s is not None and s.tpot_limit_ms == 40 and not s.tpot_limit_default and s.tpot_ms <= 40


# --- the decision: ranked on the fleet's month; the deadline is when serving starts -----------------------


@pytest.mark.parametrize(
    ("replicas", "replica_gpus", "layout"),
    [
        (1, 1, ""),  # "Rent 1 x 1 b200 (1 GPUs)" before
        (1, 8, "1 replica of 8 GPUs"),
        (21, 1, "21 replicas of 1 GPU"),
        (1_024, 2, "1,024 replicas of 2 GPUs"),
    ],
)
def test_a_fleets_replicas_are_counted_in_words_for_every_count(replicas, replica_gpus, layout):
    assert replica_layout(replicas, replica_gpus) == layout


def test_a_one_gpu_fleets_headline_reads_as_one_gpu():
    result = run_scenario(
        scenario({"model": "llama3-8b", "kind": "inference", "target_tokens_per_second": 100}),
        CATALOG,
        load_rules(),
        today=date(2026, 12, 1),
        samples=64,
    )
    rec = result.recommendation
    assert rec.headline.startswith(f"Rent 1x {rec.winner} to serve 100 tokens/s: "), rec.headline


def test_the_ranking_and_headline_are_the_fleets_month():
    result = run_scenario(
        scenario({"kind": "inference", "target_tokens_per_second": "50k"}),
        CATALOG,
        load_rules(),
        today=date(2026, 12, 1),
        samples=64,
    )
    rec = result.recommendation
    winner = next(c for c in rec.candidates if c.system == rec.winner)
    s = winner.estimate.serving
    layout = replica_layout(s.replicas, s.replica_gpus)
    assert rec.headline.startswith(
        f"Rent {winner.estimate.gpus:,}x {rec.winner}{f' ({layout})' if layout else ''} to serve 50k tokens/s: "
    )
    assert "/month" in rec.headline and "(limit 100 ms, the default for chat)" in rec.headline
    assert "to serve the tokens" not in rec.headline
    feasible = [c.estimate.cost_usd for c in rec.candidates if c.estimate and c.feasible]
    assert winner.estimate.cost_usd <= min(feasible) * 1.15  # ranked on cost; rule weights within 15%


@pytest.mark.parametrize(("deadline", "feasible"), [(30, True), (0.01, False)])
def test_a_serving_deadline_is_when_serving_starts(deadline, feasible):
    s = scenario({"kind": "inference", "target_tokens_per_second": "50k"}, deadline_days=deadline)
    result = run_scenario(s, CATALOG, load_rules(), today=date(2026, 12, 1), samples=16)
    rec = result.recommendation
    assert (rec.winner is not None) is feasible  # a month of serving is not late for a 30-day deadline
    if not feasible:
        reasons = [r.text for c in rec.candidates for r in c.reasons if r.constraint == "deadline"]
        assert reasons and all(r.startswith("misses the deadline: serving starts after") for r in reasons)
        assert any("serving may start after" in line for line in rec.what_would_change)


def test_a_budget_reads_as_a_month_of_serving():
    result = run_scenario(
        Scenario.model_validate(
            {
                "workload": {"model": "llama3-70b", "kind": "inference", "target_tokens_per_second": "50k"},
                "constraints": Constraints(budget_usd=1).model_dump(exclude_none=True),
            }
        ),
        CATALOG,
        load_rules(),
        today=None,
        samples=16,
    )
    texts = [r.text for c in result.recommendation.candidates for r in c.reasons if r.constraint == "budget"]
    assert texts and all(re.match(r"over budget: \$[\d.,k]+ a month > \$1", t) for t in texts)


# --- the surfaces ---------------------------------------------------------------------------------------


def test_recommend_serves_a_rate_without_tokens(capsys):
    assert main(["recommend", *SERVE]) == 0
    lines = capsys.readouterr().out.splitlines()
    headline = re.match(
        r"Rent (\d+)x (\S+) \((\d+) replicas of (\d+) GPUs\) to serve 50k tokens/s: \$[\d.]+k/month, [\d.]+¢ per 1M "
        r"output tokens \(prompts included\), [\d.]+ ms per output token \(limit 100 ms, the default for chat\); a month: "
        r"131B tokens, [\d.]+ MWh(?:, starts in [\d.]+ (?:h|days))? \(best on (?:expected )?cost[^)]*\)$",
        lines[0],
    )
    assert headline, lines[0]
    gpus, system, replicas, each = headline.groups()
    assert int(replicas) * int(each) == int(gpus)
    first = next(line.split() for line in lines if re.match(r"\s*1\s", line))
    assert first[1:3] == [system, gpus]  # the table's first row is the headline's fleet


def test_recommend_json_is_the_fleet(capsys):
    assert main(["recommend", *SERVE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    winner = next(c for c in data["candidates"] if c["system"] == data["winner"])
    est = winner["estimate"]
    assert est["gpus"] == est["serving"]["gpus_for_target"] and est["serving"]["period_hours"] == 730
    assert est["serving"]["tpot_limit_default"] is True and "to serve 50k tokens/s" in data["headline"]


@pytest.mark.parametrize("kind", ["pretrain", "inference"])
def test_the_cli_asks_for_tokens_or_a_rate(capsys, kind):
    assert main(["recommend", "--model", "llama3-70b", "--kind", kind]) == 2
    err = capsys.readouterr().err
    assert "give --tokens" in err and "--target-tokens-per-second" in err and "Traceback" not in err


@pytest.mark.parametrize("fmt", ["md", "html", "json", "toml"])
def test_every_report_format_carries_the_serving_headline(fmt):
    s = scenario({"kind": "inference", "target_tokens_per_second": "50k"})
    report = build_report(s, CATALOG, load_rules(), today=date(2026, 12, 1), version="test")
    text = render_report(report, fmt)
    assert re.search(
        r"Rent \d+x \S+ \(\d+ replicas of \d+ GPUs\) to serve 50k tokens/s: \$[\d.]+k/month", text
    )
    assert "a month of serving at the target rate: 131B output tokens" in text or fmt in ("json", "toml")


def test_a_system_that_cannot_meet_the_latency_limit_is_infeasible_not_the_cheapest_winner():
    # 405B under 10 ms per output token: memory-bound replicas of H100, H200, A100 and MI300X cannot
    # reach it even with one request; shown without the limit they were far cheaper and won.
    s = scenario({"model": "llama3-405b", "kind": "inference", "target_tokens_per_second": "50k"})
    s = s.model_copy(update={"workload": s.workload.model_copy(update={"tpot_limit_ms": 10})})
    rec = run_scenario(s, CATALOG, load_rules(), today=None, samples=16).recommendation
    missed = {c.system: c for c in rec.candidates if c.estimate and not c.estimate.serving.meets_limits}
    assert {"h100", "a100"} <= set(missed) and rec.winner not in missed
    for cand in missed.values():
        assert not cand.feasible
        (reason,) = [r for r in cand.reasons if r.constraint == "latency"]
        assert reason.text.startswith("misses the latency limits: ") and "> 10 ms" in reason.text
    winner = next(c for c in rec.candidates if c.system == rec.winner)
    assert winner.estimate.serving.tpot_ms <= 10


def test_a_fleets_range_is_in_dollars_and_energy_not_in_time():
    # A slower fleet than expected serves the same month on more GPUs: the P10-P90 of a serving plan at
    # a target rate spans cost and energy, while its time to result stays the month (plus the wait).
    s = scenario({"kind": "inference", "target_tokens_per_second": "50k"})
    result = run_scenario(s, CATALOG, load_rules(), today=None, samples=64)
    winner = next(c for c in result.recommendation.candidates if c.system == result.recommendation.winner)
    found = result.sensitivity.ranges[winner.system]
    assert found.time_to_result_hours.p10 == pytest.approx(winner.estimate.time_to_result_hours)
    assert found.time_to_result_hours.p90 == pytest.approx(winner.estimate.time_to_result_hours)
    assert found.cost_usd.p10 < winner.estimate.cost_usd < found.cost_usd.p90
    assert found.energy_kwh.p10 < found.energy_kwh.p90


def test_the_apps_headline_is_the_fleets_month_with_its_range_in_dollars():
    from advisor.present import headline

    s = scenario({"kind": "inference", "target_tokens_per_second": "50k"})
    result = run_scenario(s, CATALOG, load_rules(), today=None, samples=64)
    rec = result.recommendation
    winner = next(c for c in rec.candidates if c.system == rec.winner)
    lines = [line.plain for line in headline.figure_lines(winner, s)]
    serving = winner.estimate.serving
    layout = replica_layout(serving.replicas, serving.replica_gpus)
    assert lines[0].startswith(
        f"Rent {serving.replicas * serving.replica_gpus}× {rec.winner} ({layout}) to serve 50k"
    )
    assert "/month" in lines[0] and "(limit 100 ms, the default for chat)" in lines[1]
    # the core's sentence and the app's lines give the same month and the same $/1M output tokens
    for figure in re.findall(r"\$[\d.]+k/month|[\d.]+¢", rec.headline):
        assert figure.replace("/month", "") in " ".join(lines)
    ranges = headline.range_line(result.sensitivity, rec.winner, per_month=True)
    assert ranges is not None and ranges.plain.startswith("P10–P90 $") and " a month" in ranges.plain
    assert "days" not in ranges.plain


def test_a_serving_scenario_saved_from_flags_is_named_by_its_rate_and_has_no_tokens(tmp_path, capsys):
    path = tmp_path / "serve.toml"
    assert main(["recommend", *SERVE, "--save", str(path)]) == 0
    capsys.readouterr()
    text = path.read_text()
    assert 'name = "llama3-70b serving, 50k tokens/s"' in text and "\ntokens =" not in text
    assert main(["recommend", str(path)]) == 0
    assert " to serve 50k tokens/s: " in capsys.readouterr().out.splitlines()[0]
