"""GPUs already owned that are too few for the deadline: the answer says so plainly, with the options
and their numbers: a later deadline, buying the shortfall, renting the shortfall beside them (owned
marginal hours plus the rental, `analysis.shortfall`), renting all. Before, it said only what the owned
GPUs did alone and how many to buy, though renting the shortfall was the option that met the deadline."""

from __future__ import annotations

from datetime import date
from functools import cache

import pytest

from advisor.core.analysis.shortfall import _Mixer, owned_plus_rented, owned_shortfalls
from advisor.core.costing.estimate import estimate
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.run import ScenarioAdvice, advise_scenario
from advisor.core.scenario import Scenario
from advisor.io.rule_files import load_rules
from tests.conftest import shipped_catalog

TODAY = date(2026, 12, 1)
OWNED = 128
DEADLINE = 60


@cache
def _advice(risk: str = "balanced", owned: int = OWNED, pricing: str = "own") -> ScenarioAdvice:
    scenario = Scenario.model_validate(
        {
            "schema": 1,
            "size_to_deadline": True,
            "workload": {"model": "llama3-70b", "tokens": "2T", "precision": "fp8", "pricing": pricing},
            "constraints": {"deadline_days": DEADLINE, "risk": risk},
            "assumptions": {"owned_gpus": {"h100": owned}},
        }
    )
    return advise_scenario(scenario, shipped_catalog(), load_rules(), today=TODAY)


def _line(advice: ScenarioAdvice) -> str:
    return next(
        c for c in advice.recommendation.what_would_change if c.startswith(f"the {OWNED} h100 you own")
    )


def test_too_few_owned_gpus_are_said_to_be_too_few_with_every_option_and_its_numbers() -> None:
    line = _line(_advice())
    assert line.startswith(f"the {OWNED} h100 you own are too few for the {DEADLINE}-day deadline; ")
    assert "; a later deadline: they alone finish in " in line
    assert "; buying the shortfall: " in line
    assert "; renting the shortfall: " in line and " rented beside the 128 you own (" in line
    assert "; renting all: " in line
    mixed = owned_plus_rented(_advice().request, "h100", OWNED)
    assert mixed is not None and mixed.sentence in line


def test_the_owned_plus_rented_run_is_costed_as_owned_hours_plus_the_rental() -> None:
    advice = _advice()
    request = advice.request
    mixed = owned_plus_rented(request, "h100", OWNED)
    assert mixed is not None and mixed.owned_gpus == OWNED and mixed.rented_gpus % 8 == 0
    total = OWNED + mixed.rented_gpus
    catalog, waits = shipped_catalog(), request.capacity_assumptions()
    all_owned = estimate(
        request.workload.model_copy(update={"gpus": total}),
        "h100",
        catalog,
        waits.model_copy(update={"owned_gpus": {"h100": total}}),
    )
    rented = estimate(
        request.workload.model_copy(update={"gpus": mixed.rented_gpus, "pricing": "rent"}),
        "h100",
        catalog,
        waits,
    )
    hours = all_owned.time_to_train_hours
    # Owned GPUs at their marginal hour (no capex), the rented ones at the rental price, over the run.
    assert mixed.owned_usd_per_gpu_hour == pytest.approx(all_owned.price_usd_per_gpu_hour)
    assert not all_owned.price_breakdown_usd_per_gpu_hour.get("capex")
    assert mixed.owned_cost_usd == pytest.approx(OWNED * hours * all_owned.price_usd_per_gpu_hour, rel=1e-9)
    term = rented.price_offer.term_days * HOURS_PER_DAY if rented.price_offer else 0.0
    expected_rental = mixed.rented_gpus * max(hours, term) * rented.price_usd_per_gpu_hour
    assert mixed.rental_cost_usd == pytest.approx(expected_rental, rel=1e-9)
    # It starts when the rented nodes arrive.
    wait = rented.time_breakdown_hours["wait"]
    assert mixed.time_to_result_hours == pytest.approx(wait + all_owned.time_to_result_hours)
    # Sized to the deadline with the 10% margin, and not beyond: one rented node fewer misses it.
    assert mixed.time_to_result_hours <= 0.9 * DEADLINE * HOURS_PER_DAY
    fewer = _Mixer(request, "h100", OWNED).run(mixed.rented_gpus - 8)
    assert fewer is not None and fewer.judged_hours > 0.9 * DEADLINE * HOURS_PER_DAY
    # Cheaper than renting every GPU of the same run: the owned hours cost less than rented ones.
    all_rented = estimate(
        request.workload.model_copy(update={"gpus": total, "pricing": "rent"}), "h100", catalog, waits
    )
    assert mixed.cost_usd < all_rented.cost_usd


def test_a_conservative_team_sizes_the_rented_shortfall_to_the_p90() -> None:
    balanced = owned_plus_rented(_advice().request, "h100", OWNED)
    careful = owned_plus_rented(_advice("conservative").request, "h100", OWNED)
    assert balanced is not None and careful is not None
    assert careful.judged_hours <= DEADLINE * HOURS_PER_DAY < careful.judged_hours * 1.05
    assert careful.judged_hours > careful.time_to_result_hours
    assert careful.rented_gpus > balanced.rented_gpus
    assert "; a later deadline: they alone finish in " in _line(_advice("conservative"))
    assert " at P90) for $" in _line(_advice("conservative"))


def test_enough_owned_gpus_or_renting_say_nothing_of_a_shortfall() -> None:
    enough = _advice(owned=512)
    assert owned_shortfalls(enough.sizing, enough.request) == []
    assert not any("are too few" in c for c in enough.recommendation.what_would_change)
    renting = _advice(pricing="rent")
    assert not any("are too few" in c for c in renting.recommendation.what_would_change)
    assert owned_plus_rented(renting.request, "h100", OWNED) is None
