"""Hardware already owned (`owned_gpus`, `--owned SYSTEM=N`): no capex, no lead time, an opportunity cost."""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli.main import main
from advisor.core import fmt
from advisor.core.costing.cost import run_cost_usd
from advisor.core.costing.estimate import estimate
from advisor.core.decision.advise import advise
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.units import HOURS_PER_YEAR
from advisor.core.model.workload import Constraints, Workload
from advisor.core.run import advise_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
RULES = load_rules()
TODAY = date(2026, 12, 1)
CAPITAL = ("capex_amortisation", "cost_of_capital")


def workload(model="llama3-70b", tokens=15e12, **kw):
    return Workload(model=CATALOG.model(model), tokens=tokens, **{"precision": "fp8", "pricing": "own", **kw})


def owning(**owned: int) -> Assumptions:
    return Assumptions(owned_gpus=owned)


# --- the cost of a run on owned GPUs ------------------------------------------------------------------


def test_owned_gpus_pay_no_capital_but_maintenance_hosting_power_and_an_opportunity_cost():
    bought = estimate(workload(gpus=1024), "h100", CATALOG)
    owned = estimate(workload(gpus=1024), "h100", CATALOG, owning(h100=1024))
    assert not set(CAPITAL) & set(owned.cost_breakdown_usd)
    assert set(owned.cost_breakdown_usd) == {"maintenance", "hosting", "power", "opportunity_cost"}
    for part in ("maintenance", "hosting", "power"):
        assert owned.cost_breakdown_usd[part] == pytest.approx(bought.cost_breakdown_usd[part])
    assert owned.cost_usd < bought.cost_usd
    # Nothing is bought: no outlay, the owned GPUs are named.
    purchase = owned.purchase
    assert purchase is not None
    assert (purchase.units, purchase.gpus_bought, purchase.gpus_idle, purchase.gpus_owned) == (0, 0, 0, 1024)
    assert purchase.capex_usd == 0 == owned.purchase_usd
    assert owned.gpus_paid == 1024


def test_the_opportunity_cost_is_the_catalogs_share_of_the_rental_price_and_is_sourced():
    opportunity = CATALOG.economics.opportunity
    # An assumption, said so, with its reasoning (docs/methodology.md).
    assert opportunity.assumption and "no published figure" in opportunity.source
    est = estimate(workload(gpus=1024), "h100", CATALOG, owning(h100=1024))
    rental = CATALOG.system("h100").rental_offer(None).price_usd_per_gpu_hour
    per_hour = opportunity.rental_price_fraction * rental
    assert est.price_breakdown_usd_per_gpu_hour["opportunity_cost"] == pytest.approx(per_hour)
    assert est.cost_breakdown_usd["opportunity_cost"] == pytest.approx(per_hour * est.gpu_hours)
    # Your own rental price is the market price it uses.
    priced = estimate(
        workload(gpus=1024),
        "h100",
        CATALOG,
        Assumptions(owned_gpus={"h100": 1024}, price_usd_per_gpu_hour={"h100": 2.0}),
    )
    assert priced.price_breakdown_usd_per_gpu_hour["opportunity_cost"] == pytest.approx(
        opportunity.rental_price_fraction * 2.0
    )


def test_the_opportunity_cost_never_exceeds_the_capital_cost_of_a_new_gpu_hour():
    bought = estimate(workload(gpus=1024), "h100", CATALOG)
    dear = Assumptions(owned_gpus={"h100": 1024}, price_usd_per_gpu_hour={"h100": 500.0})
    owned = estimate(workload(gpus=1024), "h100", CATALOG, dear)
    capital = sum(bought.price_breakdown_usd_per_gpu_hour[k] for k in CAPITAL)
    assert owned.price_breakdown_usd_per_gpu_hour["opportunity_cost"] == pytest.approx(capital)
    assert owned.cost_usd == pytest.approx(bought.cost_usd)


def test_gpus_beyond_those_owned_are_bought_in_whole_racks_and_wait_the_lead_time():
    est = estimate(workload(gpus=100), "gb200-nvl72", CATALOG, owning(**{"gb200-nvl72": 36}))
    purchase = est.purchase
    assert purchase is not None
    # 36 owned, 64 more bought as one 72-GPU rack, which runs whole: 72 bought GPUs and 28 owned run.
    assert (purchase.gpus_owned, purchase.units, purchase.gpus_bought, purchase.gpus_idle) == (28, 1, 72, 0)
    assert est.gpus_paid == 100
    assert purchase.capex_usd == pytest.approx(CATALOG.system("gb200-nvl72").capex.all_in_usd_per_node)
    lead = CATALOG.system("gb200-nvl72").availability.purchase_lead_days
    assert est.time_breakdown_hours["wait"] == lead * 24
    assert any("28 of the 100 gb200-nvl72 GPUs are already owned" in w for w in est.warnings)
    # The parts reproduce the cost on the GPUs that pay them (as the ranges recompute it).
    again = run_cost_usd(est.cost_parts, est.time_to_train_hours, est.gpus, est.gpus_paid)
    assert sum(again.values()) == pytest.approx(est.cost_usd)
    assert again == pytest.approx(est.cost_breakdown_usd)
    # Capital is paid on the 72 bought, the opportunity cost on the 28 owned that run.
    bought = estimate(workload(gpus=100), "gb200-nvl72", CATALOG)
    per_gpu = bought.cost_breakdown_usd["capex_amortisation"] / bought.gpus_paid
    assert est.cost_breakdown_usd["capex_amortisation"] == pytest.approx(per_gpu * 72)
    opportunity = est.price_breakdown_usd_per_gpu_hour["opportunity_cost"] * est.gpus
    rental = CATALOG.system("gb200-nvl72").rental_offer(None).price_usd_per_gpu_hour
    assert opportunity == pytest.approx(
        28
        * min(
            CATALOG.economics.opportunity.rental_price_fraction * rental,
            sum(bought.price_breakdown_usd_per_gpu_hour[k] for k in CAPITAL),
        )
    )


def test_idle_gpus_of_a_bought_node_are_paid_for_when_the_owned_ones_cannot_fill_it():
    # 2 GPUs with 1 owned still buy one 8-GPU node, which runs both: the owned GPU is not used.
    est = estimate(workload(gpus=2), "h100", CATALOG, owning(h100=1))
    purchase = est.purchase
    assert purchase is not None
    assert (purchase.gpus_owned, purchase.gpus_bought, purchase.gpus_idle) == (0, 8, 6)
    assert est.cost_usd == pytest.approx(estimate(workload(gpus=2), "h100", CATALOG).cost_usd)
    assert any("2 GPUs means buying 1 whole 8-GPU node(s): the 6 idle GPUs" in w for w in est.warnings)


def test_owned_gpus_of_another_system_or_when_renting_change_nothing():
    base = estimate(workload(gpus=1024), "h100", CATALOG)
    other = estimate(workload(gpus=1024), "h100", CATALOG, owning(b200=1024))
    assert other.to_dict() == base.to_dict()
    rent = workload(gpus=1024, pricing="rent")
    assert (
        estimate(rent, "h100", CATALOG, owning(h100=1024)).to_dict()
        == estimate(rent, "h100", CATALOG).to_dict()
    )


def test_owned_gpus_raise_the_capacity():
    est = estimate(workload(gpus=1024), "h100", CATALOG, owning(h100=4096))
    assert est.capacity_gpus == CATALOG.system("h100").availability.purchase_max_gpus + 4096


# --- the fleet view ----------------------------------------------------------------------------------


def test_cost_per_run_at_the_fleets_utilisation():
    econ = CATALOG.economics
    est = estimate(workload(gpus=1024), "h100", CATALOG)
    purchase = est.purchase
    assert purchase is not None
    # A year of owning over the runs it does; bought whole nodes with nothing idle, that is the run's cost.
    assert purchase.cost_per_run_usd == pytest.approx(purchase.monthly_usd * 12 / purchase.runs_per_year)
    assert econ.utilization.owned_fleet_fraction == 1.0
    assert purchase.cost_per_run_usd == pytest.approx(est.cost_usd)
    assert purchase.runs_per_year == pytest.approx(HOURS_PER_YEAR / est.time_to_train_hours)
    # Owned: cash only (maintenance, hosting, power), below the run's cost with its opportunity cost.
    owned = estimate(workload(gpus=1024), "h100", CATALOG, owning(h100=1024))
    assert owned.purchase is not None
    cash = owned.cost_usd - owned.cost_breakdown_usd["opportunity_cost"]
    assert owned.purchase.cost_per_run_usd == pytest.approx(cash)


# --- decisions ---------------------------------------------------------------------------------------


def test_owning_1024_h100_makes_h100_win_on_cost():
    # Bought, MI325X beats H100 on Llama 3 8B (MI300X did on Llama 3 70B until it was carried from MI325X
    # by the measured proxy ratio); owning 1,024 H100 makes H100 win.
    request = AdviceRequest(
        workload(model="llama3-8b", gpus=1024),
        CATALOG,
        RULES,
        systems=["h100", "mi325x"],
        objective="cost",
        today=TODAY,
    )
    assert advise(request).winner == "mi325x"
    owned = advise(
        AdviceRequest(
            workload(model="llama3-8b", gpus=1024),
            CATALOG,
            RULES,
            systems=["h100", "mi325x"],
            objective="cost",
            assumptions=owning(h100=1024),
            today=TODAY,
        )
    )
    assert owned.winner == "h100"


def test_owned_capacity_has_no_lead_time_and_meets_a_30_day_deadline_that_buying_cannot():
    run = workload(tokens=1e12, gpus=1024)
    constraints = Constraints(deadline_days=30)
    bought = advise(
        AdviceRequest(run, CATALOG, RULES, constraints=constraints, systems=["h100"], today=TODAY)
    )
    (cand,) = bought.candidates
    assert not cand.feasible and any(r.constraint == "deadline" for r in cand.reasons)
    owned = advise(
        AdviceRequest(
            run,
            CATALOG,
            RULES,
            constraints=constraints,
            systems=["h100"],
            assumptions=owning(h100=1024),
            today=TODAY,
        )
    )
    assert owned.winner == "h100"
    win = owned.winner_candidate
    assert win is not None and win.estimate is not None
    assert win.estimate.time_breakdown_hours["wait"] == 0
    assert win.estimate.time_to_result_hours < 30 * 24


# --- the surfaces ------------------------------------------------------------------------------------

ARGS = [
    "--model",
    "llama3-70b",
    "--tokens",
    "15T",
    "--gpus",
    "1024",
    "--precision",
    "fp8",
    "--pricing",
    "own",
]


def test_estimate_json_shows_the_owned_gpus_and_the_opportunity_cost(capsys):
    assert main(["estimate", *ARGS, "--system", "h100", "--owned", "h100=512", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    est = data[0] if isinstance(data, list) else data
    assert est["purchase"]["gpus_owned"] == 512 and est["purchase"]["gpus_bought"] == 512
    assert est["cost_breakdown_usd"]["opportunity_cost"] > 0
    assert est["purchase"]["cost_per_run_usd"] > 0


def test_the_report_says_already_owned(tmp_path, capsys):
    out = tmp_path / "plan.md"
    assert main(["report", *ARGS, "--owned", "h100=1024", "-o", str(out)]) == 0
    text = out.read_text()
    assert "| h100 | nothing: 1,024 GPUs already owned |" in text
    assert "Per run, fleet busy" in text


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("h1000=5", "--owned 'h1000': unknown system"),
        ("h1=5", "--owned 'h1': unknown system (did you mean 'h100'?)"),
        ("h100=-1", "argument --owned: h100: '-1' is out of range: must be a whole number from 0 to 1M"),
        ("h100=1.5", "argument --owned: h100: '1.5' must be a whole number"),
        ("h100=lots", "argument --owned: h100: 'lots' is not a number"),
        ("h100", "argument --owned: 'h100' is not SYSTEM=N"),
        ("*=8", "argument --owned: name the system: SYSTEM=8, e.g. h100=8"),
        ("1024", "argument --owned: name the system: SYSTEM=1024"),
    ],
)
def test_bad_owned_gpus_name_the_field(flag, message, capsys):
    assert main(["estimate", *ARGS, "--owned", flag]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_bad_owned_count_in_a_scenario_names_the_file_and_field(tmp_path, capsys):
    path = tmp_path / "plan.toml"
    path.write_text(
        'schema = 1\n\n[workload]\nmodel = "llama3-70b"\ntokens = "1T"\npricing = "own"\n\n'
        "[assumptions]\nowned_gpus = { h100 = 1.5 }\n"
    )
    assert main(["estimate", str(path)]) != 0
    err = capsys.readouterr().err
    assert str(path) in err and "assumptions.owned_gpus.h100: expected a whole number (got 1.5)" in err


# --- a property --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    system=st.sampled_from(sorted(CATALOG.systems)),
    gpus=st.integers(min_value=1, max_value=4096),
    owned=st.integers(min_value=0, max_value=8192),
    tokens=st.floats(min_value=1e9, max_value=2e13),
    price=st.one_of(st.none(), st.floats(min_value=0.01, max_value=1000)),
)
def test_owning_never_costs_more_or_takes_longer_than_buying(system, gpus, owned, tokens, price):
    prices = {} if price is None else {"price_usd_per_gpu_hour": {system: price}}
    run = workload(tokens=tokens, gpus=gpus)
    bought = estimate(run, system, CATALOG, Assumptions(**prices))
    mine = estimate(run, system, CATALOG, Assumptions(owned_gpus={system: owned}, **prices))
    assert mine.cost_usd <= bought.cost_usd * (1 + 1e-9)
    assert mine.time_to_result_hours <= bought.time_to_result_hours + 1e-9
    assert mine.purchase is not None and bought.purchase is not None
    assert mine.purchase.capex_usd <= bought.purchase.capex_usd
    used = mine.purchase
    assert used.gpus_owned <= min(gpus, owned)
    assert used.gpus_owned + used.gpus_bought - used.gpus_idle == gpus
    assert mine.gpus_paid <= bought.gpus_paid


def test_sizing_to_a_deadline_stays_within_the_owned_gpus_and_needs_no_lead_time():
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "size_to_deadline": True,
            "systems": ["h100"],
            "constraints": {"deadline_days": 60},
            "workload": {"model": "llama3-70b", "tokens": "15T", "precision": "fp8", "pricing": "own"},
            "assumptions": {"owned_gpus": {"h100": 4096}},
        }
    )
    advice = advise_scenario(scenario, CATALOG, RULES, today=TODAY)
    (sized,) = advice.sizing
    assert sized.binding == "deadline" and sized.gpus is not None and sized.gpus <= 4096
    assert sized.reason.endswith("on GPUs already owned")
    win = advice.recommendation.winner_candidate
    assert win is not None and win.estimate is not None
    assert win.estimate.time_breakdown_hours["wait"] == 0
    assert win.estimate.time_to_result_hours <= 0.9 * 60 * 24
    assert win.estimate.purchase is not None and win.estimate.purchase.capex_usd == 0


# --- the headline ---------------------------------------------------------------------------------------


def test_the_headline_says_use_when_every_gpu_is_owned_and_buy_with_the_lead_time_otherwise():
    from advisor.core.decision.headline import headline_figures, headline_sentence

    owned = estimate(workload(gpus=1024), "h100", CATALOG, owning(h100=1024))
    text = headline_sentence(headline_figures(owned, "own"), "cost")
    assert text.startswith("Use 1,024x h100 (already owned): ") and "to result" not in text
    part = estimate(workload(gpus=1024), "h100", CATALOG, owning(h100=512))
    text = headline_sentence(headline_figures(part, "own"), "cost")
    assert text.startswith("Buy 1,024x h100 (512 already owned, 64 nodes, $") and "up front" in text
    # Buying waits the lead time: the headline gives the time to result beside the time to train.
    bought = estimate(workload(gpus=1024), "h100", CATALOG)
    lead_days = (bought.time_to_result_hours - bought.time_to_train_hours) / 24
    assert lead_days >= 1
    text = headline_sentence(headline_figures(bought, "own"), "cost")
    assert "days to result)" in text and text.startswith("Buy 1,024x h100 (128 nodes, $")


# --- the decision between GPUs already owned and a purchase (issue 12) ---------------------------------


def _owned_case(risk: str, **constraints: float) -> AdviceRequest:
    return AdviceRequest(
        workload(gpus=1024),
        CATALOG,
        RULES,
        Constraints(risk=risk, **constraints),
        assumptions=owning(h100=1024),
        today=TODAY,
    )


def test_buying_over_owned_gpus_states_the_outlay_and_the_later_result():
    # Balanced: the run's share of a GB300 NVL72 purchase is cheaper than the owned H100's hours, so
    # buying may win, but the answer says what that commits: the outlay and the later result.
    rec = advise(_owned_case("balanced"))
    winner = rec.winner_candidate
    assert winner is not None and winner.estimate is not None and winner.estimate.purchase_usd
    h100 = rec.candidate("h100").estimate
    assert h100 is not None
    trade = rec.verdict.trade_off
    assert trade.startswith(f"using the 1,024 h100 you own: {fmt.money(h100.cost_usd)}, ")
    assert f"$0 up front instead; buying {rec.winner} saves " in trade
    assert f"needs {fmt.money(winner.estimate.purchase_usd)} up front and arrives " in trade
    later = winner.estimate.time_to_result_hours - h100.time_to_result_hours
    assert f"arrives {fmt.duration(later)} later" in trade
    assert rec.verdict.why.endswith(trade) and trade in rec.verdict.sentence()
    assert rec.verdict.to_dict()["verdict_detail"]["trade_off"] == trade


def test_a_conservative_team_uses_the_gpus_it_owns_and_hears_what_buying_would_save():
    rec = advise(_owned_case("conservative"))
    assert rec.winner == "h100" and rec.headline.startswith("Use 1,024x h100 (already owned)")
    fired = {(r.id, r.system) for r in rec.rules_fired}
    bought = [c.system for c in rec.candidates if c.feasible and c.system != "h100"]
    assert bought and all(("owned-fleet-conservative", sid) in fired for sid in bought)
    assert ("owned-fleet-conservative", "h100") not in fired
    assert rec.verdict.trade_off.startswith("using the 1,024 h100 you own: ")
    assert "; buying " in rec.verdict.trade_off and " up front and " in rec.verdict.trade_off


def test_owned_gpus_that_cannot_do_the_run_leave_the_purchase_unpenalised():
    # A 1-day deadline the owned H100 cannot meet: the fact is false, the rule stays quiet.
    rec = advise(_owned_case("conservative", deadline_days=1))
    assert not [r for r in rec.rules_fired if r.id == "owned-fleet-conservative"]


def test_owned_gpus_short_of_the_deadline_say_what_they_do_and_how_many_to_add():
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "workload": {"model": "llama3-70b", "tokens": 15e12, "precision": "fp8", "pricing": "own"},
            "constraints": {"deadline_days": 60, "risk": "conservative"},
            "assumptions": {"owned_gpus": {"h100": 1024}},
            "size_to_deadline": True,
        }
    )
    advice = advise_scenario(scenario, CATALOG, RULES, today=TODAY)
    line = next(c for c in advice.recommendation.what_would_change if c.startswith("the 1,024 h100 you own"))
    assert line.startswith("the 1,024 h100 you own are too few for the 60-day deadline; ")
    assert "; a later deadline: they alone finish in " in line
    h100 = next(s for s in advice.sizing if s.system == "h100")
    target = h100.gpus or (h100.on_hand.gpus if h100.on_hand else None)
    assert target is not None and f"{target - 1024:,} more (to {target:,})" in line


def test_owned_gpus_when_renting_are_named_with_what_they_would_do(capsys):
    assert (
        main(["recommend", "--model", "llama3-70b", "--tokens", "1T", "--owned", "h100=1024", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    note = next(w for w in data["warnings"] if "you own" in w)
    assert note.startswith("the GPUs you own (1,024 h100) count only when owning (pricing own)")
    assert "; owned, the 1,024 h100 you own: $" in note and "to result, $0 up front" in note


def test_idle_gpu_counts_in_the_purchase_warning_read_with_thousands_separators():
    # "2048 GPUs means buying 29 whole 72-GPU rack(s)" read unlike every other count in the output.
    est = estimate(workload(gpus=2048), "gb300-nvl72", CATALOG, owning())
    assert any("2,048 GPUs means buying 29 whole 72-GPU rack(s): the 40 idle GPUs" in w for w in est.warnings)
