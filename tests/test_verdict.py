"""The verdict (clear, close call, none feasible) and its why on every surface; the cheaper option;
rule texts that follow the figures, the job and the pricing; one line for all stale prices."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import replace
from datetime import date
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli.main import main
from advisor.core import fmt
from advisor.core.analysis.cheaper import MIN_SAVING, cheaper_option, gpu_counts
from advisor.core.decision.advise import advise
from advisor.core.decision.constraints import constraint_reasons
from advisor.core.decision.request import AdviceRequest
from advisor.core.decision.verdict import CLOSE_MARGIN, ROBUST_SHARE, with_robustness
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.workload import Constraints, Workload
from advisor.core.run import ScenarioResult, run_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario, scenario_toml
from advisor.present.headline import verdict_line
from advisor.report import build_report, render_report
from tests.conftest import ROOT, shipped_catalog

TODAY = date(2026, 6, 1)

# B200 and GB200 NVL72 bought for a Llama 3 8B run: GB200's score is within 2% of B200's (B200's price is
# an assumption, penalized 10%); both are established (no maturity tie-breaker), and B200 is sooner to
# result and sooner delivered.
CLOSE = {
    "schema": 1,
    "name": "close call",
    "systems": ["b200", "gb200-nvl72"],
    "workload": {"model": "llama3-8b", "tokens": 3e11, "gpus": 64, "pricing": "own", "precision": "fp8"},
}
# The field test's case: H100 is far cheaper than A100 for a 13B model from scratch.
CLEAR = {
    "schema": 1,
    "name": "clear",
    "systems": ["a100", "h100"],
    "workload": {"model": "llama2-13b", "tokens": 26e9, "gpus": 8, "precision": "fp8"},
}
NONE = {**CLEAR, "name": "none feasible", "constraints": {"deadline_days": 0.5}}


@cache
def rules() -> tuple[Any, ...]:
    return tuple(load_rules())


def scenario(data: dict[str, Any]) -> Scenario:
    return Scenario.model_validate(data)


@cache
def result(name: str) -> ScenarioResult:
    data = {"close": CLOSE, "clear": CLEAR, "none": NONE}[name]
    return run_scenario(scenario(data), shipped_catalog(), rules(), today=TODAY)


def test_close_call_in_the_core_names_its_tie_breakers():
    verdict = result("close").recommendation.verdict
    assert verdict.kind == "close_call"
    assert verdict.winner == "b200" and verdict.runner_up == "gb200-nvl72"
    assert verdict.margin is not None and verdict.margin < CLOSE_MARGIN
    names = [t.name for t in verdict.tie_breakers]
    assert names == ["slack", "lead_time"]
    assert verdict.favoured == "b200"
    assert "results 29.9 days sooner than gb200-nvl72" in verdict.tie_breakers[0].text
    assert verdict.why.startswith("b200 is ") and "cheaper than gb200-nvl72" in verdict.why


def test_clear_winner():
    rec = result("clear").recommendation
    assert rec.verdict.kind == "clear" and rec.winner == "h100"
    assert re.match(r"h100 is \d+\.\d% cheaper than a100 \(\$[\d,.]+k? vs \$[\d,.]+k?\)", rec.verdict.why)
    assert rec.verdict.sentence().startswith("Clear: h100 is ")


def test_nothing_feasible():
    rec = result("none").recommendation
    assert rec.winner is None and rec.verdict.kind == "none_feasible"
    assert rec.verdict.why.startswith("no system meets every constraint")
    assert rec.verdict.sentence().startswith("None feasible: ")
    assert rec.to_dict()["verdict"] == "none_feasible"


def test_robustness_below_the_threshold_makes_a_close_call():
    # Without a lead on the other measure (time to result, here): uncertain on cost alone.
    verdict = replace(result("clear").recommendation.verdict, also="")
    assert with_robustness(verdict, ROBUST_SHARE).kind == "clear"
    shaky = with_robustness(verdict, ROBUST_SHARE - 0.01)
    assert shaky.kind == "close_call" and shaky.robustness == ROBUST_SHARE - 0.01
    assert "h100 wins only 59% of sampled inputs" in shaky.sentence()
    assert "what else separates them" in shaky.sentence()


def test_a_winner_ahead_on_both_measures_is_no_close_call_when_the_samples_are_split():
    # H100 is cheaper than A100 and days sooner: split samples on cost do not make that close (it said
    # "Close call: ... slack favours mi355x (results 2.2 years sooner than mi325x)").
    verdict = result("clear").recommendation.verdict
    assert verdict.also.endswith("sooner to result than a100")
    shaky = with_robustness(verdict, ROBUST_SHARE - 0.01)
    assert shaky.kind == "clear"
    assert "h100 wins only 59% of sampled inputs on cost, but is " in shaky.sentence()
    assert (
        shaky.short_sentence().startswith("Clear: ")
        and "wins only 59% of samples, but is " in shaky.short_sentence()
    )


def test_advise_alone_judges_by_the_margin_and_the_analysis_settles_it():
    # The fast path (the app's live answer) has no robustness yet; the analysis adds it.
    close = result("close")
    request = AdviceRequest(
        workload=close.workload,
        catalog=shipped_catalog(),
        rules=rules(),
        systems=CLOSE["systems"],
        today=TODAY,
    )
    fast = advise(request).verdict
    assert fast.kind == "close_call" and fast.robustness is None
    assert close.recommendation.verdict.robustness == close.sensitivity.robustness.share


# --- every surface ----------------------------------------------------------------------------------


def _cli(capsys, tmp_path, data: dict[str, Any], *flags: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text(scenario_toml(scenario(data)))
    assert main(["recommend", str(path), *flags]) == 0
    return capsys.readouterr().out


def test_close_call_on_every_surface(capsys, tmp_path):
    data = json.loads(_cli(capsys, tmp_path, CLOSE, "--json"))
    assert data["verdict"] == "close_call" and data["why"].startswith("b200 is ")
    assert data["verdict_detail"]["favoured"] == "b200"
    assert data["verdict_detail"]["tie_breakers"][0]["name"] == "slack"

    text = " ".join(_cli(capsys, tmp_path, CLOSE).split())
    assert "Close call: b200 is" in text and "what else separates them: slack favours b200" in text

    report = build_report(scenario(CLOSE), shipped_catalog(), rules(), today=TODAY, version="0")
    for kind in ("md", "html"):
        rendered = render_report(report, kind)
        why = rendered.index("Why b200:")
        assert rendered.index("Close call: b200 is", why) > why
        assert "what else separates them: slack favours b200" in rendered
    assert json.loads(render_report(report, "json"))["verdict"] == "close_call"
    results = tomllib.loads(render_report(report, "toml"))["results"]
    assert results["verdict"] == "close_call" and "what else separates them" in results["verdict_sentence"]

    line = verdict_line(result("close").recommendation, result("close").sensitivity).plain
    assert line.startswith("• Close call: ") and "slack favours b200" in line


def test_why_leads_the_why_section(tmp_path):
    # Issue 12: "Why gb200-nvl72:" listed a stale price, a note and a warning, but not the reason it won.
    report = build_report(scenario(CLEAR), shipped_catalog(), rules(), today=TODAY, version="0")
    markdown = render_report(report, "md")
    first = markdown.split("Why h100:\n\n", 1)[1].splitlines()[0]
    assert first.startswith("- Clear: h100 is ") and "cheaper than a100" in first


def test_app_headline_settles_when_the_ranges_arrive():
    clear = result("clear")
    assert verdict_line(clear.recommendation, None).plain.startswith("• Clear: ")
    shaky = replace(
        clear.sensitivity, robustness=replace(clear.sensitivity.robustness, share=ROBUST_SHARE / 2)
    )
    # H100 also leads A100 on time to result by days, so split samples on cost leave it clear; without
    # that lead they make a close call.
    assert verdict_line(clear.recommendation, shaky).plain.startswith("• Clear: ")
    level = replace(clear.recommendation, verdict=replace(clear.recommendation.verdict, also=""))
    assert verdict_line(level, shaky).plain.startswith("• Close call: ")


# --- the cheaper option -----------------------------------------------------------------------------

FINETUNE = {
    "schema": 1,
    "name": "7B fine-tune",
    "systems": ["a100", "h100"],
    "workload": {"model": "llama2-7b", "tokens": 1e9, "gpus": 8, "kind": "finetune"},
}


def test_gpu_counts_are_whole_units_between_the_bounds():
    assert gpu_counts(8, 8, 64) == [8, 16, 32, 64]
    assert gpu_counts(1, 2, 16) == [2, 4, 8, 16]
    assert gpu_counts(72, 100, 500) == [144, 288]


@pytest.mark.parametrize("deadline", [None, 2.0, 0.5])
def test_a_cheaper_option_meets_every_constraint(deadline):
    data = {**FINETUNE, "constraints": {"deadline_days": deadline} if deadline else {}}
    found = run_scenario(scenario(data), shipped_catalog(), rules(), today=TODAY)
    rec = found.recommendation
    winner = rec.winner_candidate.estimate
    option = rec.cheaper_option
    if deadline == 0.5:
        # Fewer GPUs take longer than half a day: nothing cheaper fits.
        assert option is None
        return
    assert option is not None
    assert option.cost_usd <= winner.cost_usd * (1 - MIN_SAVING)
    assert (option.system, option.gpus) != (winner.system, winner.gpus)
    if deadline is not None:
        assert option.time_to_result_hours <= deadline * 24
    assert option.sentence.startswith(f"a cheaper option that also meets every constraint: {option.gpus}x ")
    request = AdviceRequest(
        workload=found.workload.model_copy(update={"gpus": option.gpus}),
        catalog=shipped_catalog(),
        rules=rules(),
        constraints=found.scenario.constraints,
        systems=[option.system],
        today=TODAY,
    )
    again = advise(request).candidates[0]
    assert again.feasible and again.estimate.cost_usd == pytest.approx(option.cost_usd)
    assert not constraint_reasons(again.estimate, found.scenario.constraints)
    assert cheaper_option(rec, request) is None or cheaper_option(rec, request).cost_usd <= option.cost_usd


def test_a_cheaper_option_is_never_a_system_the_rules_weigh_worse():
    # A conservative team owning 4,096 H100 was offered "1,152x gb300-nvl72 for $2.54M" while the same
    # answer penalised GB300 (unproven rack) and buying at all (x4.80 against the owned H100's x1.00).
    data = {
        "schema": 1,
        "name": "owned, conservative",
        "size_to_deadline": True,
        "workload": {"model": "llama3-70b", "tokens": 15e12, "precision": "fp8", "pricing": "own"},
        "constraints": {"deadline_days": 60, "risk": "conservative"},
        "assumptions": {"hardware_in_days": 0, "owned_gpus": {"h100": 4096}},
    }
    rec = run_scenario(scenario(data), shipped_catalog(), rules(), today=TODAY).recommendation
    winner = rec.winner_candidate
    assert winner.system == "h100"
    assert any(c.rule_factor > winner.rule_factor and c.feasible for c in rec.candidates)
    option = rec.cheaper_option
    assert option is None or rec.candidate(option.system).rule_factor <= winner.rule_factor


def test_a_cheaper_option_never_ends_past_the_turnover_horizon():
    # Buying 512 GPUs for Llama 3 405B (661.7 days to result) offered "288x gb300-nvl72 for $13.9M ...
    # 2.8 years to result": cheaper only by ending after the next GPU generation, which the same answer
    # warned against. Past the horizon an option may not be slower than the recommendation.
    data = {
        "schema": 1,
        "name": "405B, bought",
        "workload": {"model": "llama3-405b", "tokens": 15e12, "gpus": 512, "pricing": "own"},
    }
    rec = run_scenario(scenario(data), shipped_catalog(), rules(), today=TODAY).recommendation
    chosen = rec.winner_candidate.estimate
    horizon_hours = shipped_catalog().economics.turnover.horizon_days * 24
    assert chosen.time_to_result_hours > horizon_hours
    option = rec.cheaper_option
    assert option is not None, "a whole number of racks is cheaper and sooner"
    assert option.time_to_result_hours <= chosen.time_to_result_hours


# --- rule texts follow the figures, the job and the pricing ------------------------------------------


def _advise(**workload: Any) -> Any:
    catalog = shipped_catalog()
    data = {"schema": 1, "name": "x", "workload": {"model": "llama2-13b", "tokens": 26e9, **workload}}
    sc = scenario(data)
    return advise(
        AdviceRequest(workload=sc.workload.workload(catalog), catalog=catalog, rules=rules(), today=TODAY)
    )


def _texts(rec: Any) -> list[str]:
    return [r.because for r in rec.rules_fired] + [rec.headline, rec.verdict.why]


def test_serving_results_never_say_train():
    rec = _advise(kind="inference", tokens=1e9)
    assert "to serve" in rec.headline
    assert not [t for t in _texts(rec) if "to train" in t or "trains this" in t]


@pytest.mark.parametrize(
    ("pricing", "dollar", "other"), [("rent", "rental", "TCO"), ("own", "TCO", "rental")]
)
def test_per_dollar_wording_follows_the_pricing(pricing, dollar, other):
    rec = _advise(pricing=pricing)
    fired = {r.id: r.because for r in rec.rules_fired if r.system == "gb200-nvl72"}
    assert f"per {dollar} dollar" in fired["gb200-perf-per-tco"]
    assert f"per {other} dollar" not in " ".join(_texts(rec))


def test_speed_ratios_quoted_are_the_computed_ones():
    rec = _advise(precision="fp8")
    a100, h100 = (rec.candidate(s).estimate for s in ("a100", "h100"))
    ratio = h100.tokens_per_second_per_gpu / a100.tokens_per_second_per_gpu
    because = next(r.because for r in rec.rules_fired if r.id == "h100-over-a100-large-models")
    assert f"{ratio:.1f}x as fast per GPU" in because


def test_stale_prices_are_one_line():
    # Two years on, every catalog price is over a year old: one warning names them all.
    catalog = shipped_catalog()
    sc = scenario({"schema": 1, "name": "x", "workload": {"model": "llama2-13b", "tokens": 26e9}})
    request = AdviceRequest(
        workload=sc.workload.workload(catalog), catalog=catalog, rules=rules(), today=date(2029, 1, 1)
    )
    rec = advise(request)
    stale = [w for w in rec.warnings if "over a year ago" in w]
    assert len(stale) == 1
    assert stale[0].startswith("prices for ") and stale[0].endswith("get current quotes")
    for sid in catalog.systems:
        assert sid in stale[0]
    assert not [r for c in rec.candidates for r in c.reasons if "over a year ago" in r.text]


def test_rules_overruling_the_objective_make_a_close_call():
    # The 7B fine-tune example priced at CoreWeave's list (A100 $2.70; systems it does not list keep
    # their default): the field test's rules prefer A100 (x0.81) though MI300X ($1.92) is cheaper; the
    # numbers and the rules disagree, so the answer is a close call, and maturity favours A100.
    scenario = load_scenario(ROOT / "examples/7b-finetune.toml", shipped_catalog())
    coreweave = "on-demand, 8x HGX (CoreWeave, Sep 2026)"
    assumptions = scenario.assumptions.model_copy(update={"rental_offer": coreweave})
    scenario = scenario.model_copy(update={"assumptions": assumptions})
    found = run_scenario(scenario, shipped_catalog(), rules(), today=TODAY)
    verdict = found.recommendation.verdict
    assert verdict.kind == "close_call" and verdict.winner == "a100"
    assert verdict.metric_margin is not None and verdict.metric_margin < 0 < verdict.margin
    assert f"{verdict.runner_up} is better on cost itself" in verdict.sentence()
    assert verdict.favoured == "a100" and verdict.tie_breakers[0].name == "maturity"


# --- the verdict agrees with the ranking, whatever the workload --------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["llama2-7b", "llama2-13b", "llama3-70b", "llama3-8b"]),
    st.floats(min_value=1e8, max_value=1e13),
    st.sampled_from([8, 64, 512, 2048]),
    st.sampled_from(["rent", "own"]),
    st.sampled_from(["cost", "time", "energy", "balanced"]),
    st.one_of(st.none(), st.floats(min_value=0.5, max_value=400)),
)
def test_the_verdict_agrees_with_the_ranking(model, tokens, gpus, pricing, objective, deadline):
    catalog = shipped_catalog()
    workload = Workload(model=catalog.model(model), tokens=tokens, gpus=gpus, pricing=pricing)
    rec = advise(
        AdviceRequest(
            workload,
            catalog,
            rules(),
            Constraints(deadline_days=deadline),
            objective=objective,
            today=TODAY,
        )
    )
    verdict = rec.verdict
    feasible = [c for c in rec.candidates if c.feasible]
    if not feasible:
        assert rec.winner is None and verdict.kind == "none_feasible"
        return
    assert verdict.winner == rec.winner == feasible[0].system
    if len(feasible) == 1:
        assert verdict.kind == "clear" and verdict.runner_up is None
        return
    assert verdict.runner_up == feasible[1].system
    assert verdict.margin == pytest.approx(1 - feasible[0].score / feasible[1].score)
    near = min(verdict.margin, verdict.metric_margin) < CLOSE_MARGIN
    assert verdict.kind == ("close_call" if near else "clear")
    assert verdict.why.startswith(rec.winner) and rec.winner in verdict.sentence()
    if verdict.kind == "close_call":
        assert "else separates them" in verdict.sentence()
    for breaker in verdict.tie_breakers:
        assert breaker.favours in (verdict.winner, verdict.runner_up)


# --- close calls that are close, deadline risk, the rules' weights explained (issue 12) ----------------


def _advise_on(systems: list[str], objective: str = "cost", **kw: Any) -> Any:
    catalog = shipped_catalog()
    model, tokens, gpus = kw.pop("model", "llama3-70b"), kw.pop("tokens", 1e11), kw.pop("gpus", 64)
    workload = Workload(model=catalog.model(model), tokens=tokens, gpus=gpus, **kw)
    no_wait = Assumptions(wait_hours=dict.fromkeys(systems, 0.0))
    request = AdviceRequest(
        workload, catalog, rules(), objective=objective, assumptions=no_wait, systems=systems, today=TODAY
    )
    return advise(request)


def test_systems_level_on_the_objective_are_called_level_and_ordered_by_the_other_measure():
    # H100 and H200 train at the same speed: on time they are level ("0.0% sooner to result" before),
    # and the cheaper one ranks first whatever the order they are listed in.
    rec = _advise_on(["h200", "h100"], "time")
    verdict = rec.verdict
    assert rec.winner == "h100" and verdict.kind == "close_call"
    assert verdict.why.startswith("h100 is level with h200 on time to result (") and "0.0%" not in verdict.why
    # Time is the objective, so the slack is no tie-breaker; cost is.
    assert "slack" not in {t.name for t in verdict.tie_breakers}
    assert "cost favours h100" in verdict.sentence()


def test_a_system_ranked_above_a_cheaper_one_by_the_rules_says_so():
    # The 7B fine-tune: A100 ($173) ranked above H200 ($135) with no word why; the weights did it.
    rec = _advise_on(["a100", "h200"], model="mistral-7b", kind="finetune", tokens=5e8, gpus=8)
    assert rec.winner == "a100"
    a100, h200 = rec.candidate("a100"), rec.candidate("h200")
    note = next(r.text for r in a100.reasons if r.text.startswith("ranks above h200"))
    assert (
        f"h200 is cheaper ({fmt.money(h200.estimate.cost_usd)} against {fmt.money(a100.estimate.cost_usd)})"
        in note
    )
    assert f"x{a100.rule_factor:.2f} against x{h200.rule_factor:.2f}" in note
    assert not [r for r in h200.reasons if r.text.startswith("ranks above")]


def test_a_deadline_inside_the_winners_range_is_said_and_stronger_for_a_conservative_team():
    verdict = result("clear").recommendation.verdict
    risky = with_robustness(verdict, 0.9, 0.5, 60, conservative=False)
    assert "h100 meets the 60-day deadline in only about 50% of samples" in risky.sentence()
    assert "conservative" not in risky.sentence()
    assert "meets the deadline in 50% of samples" in risky.short_sentence()
    careful = with_robustness(verdict, 0.9, 0.5, 60, conservative=True)
    assert "50% of samples: too uncertain for a conservative team" in careful.sentence()
    assert with_robustness(verdict, 0.9, 0.95, 60).deadline_risk() == ""
    assert with_robustness(verdict, 0.9, None, None).deadline_risk() == ""


def test_the_deadline_share_is_the_winners_samples_within_it():
    # Renting for 70B/15T/FP8 sized to 60 days: the winner finishes at the deadline, so about half its
    # samples miss it (it said nothing), and a balanced team hears it (a conservative one is sized to the
    # P90 instead: tests/test_risk.py).
    data = {
        "schema": 1,
        "workload": {"model": "llama3-70b", "tokens": 15e12, "precision": "fp8"},
        "constraints": {"deadline_days": 60, "risk": "balanced", "sizing_margin": 0},
        "size_to_deadline": True,
    }
    found = run_scenario(scenario(data), shipped_catalog(), rules(), today=TODAY, samples=300)
    verdict = found.recommendation.verdict
    share = found.sensitivity.robustness.deadline_share
    time = found.sensitivity.ranges[verdict.winner].time_to_result_hours
    assert share is not None and verdict.deadline_share == share
    assert time.p10 < 60 * 24 < time.p90 and 0.1 < share < 0.9
    assert f"meets the 60-day deadline in only about {fmt.percent(share, 0)} of samples" in verdict.sentence()
    assert "too uncertain for a conservative team" not in verdict.sentence()
