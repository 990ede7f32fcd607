"""What a fact rules may test is (`Fact`), and the values of the facts: `workload_facts` (the job and
the team) and `candidate_facts` (one system's estimate for it; `price_facts` adds the price's).

Which facts there are, with type, unit and meaning, is data: the inputs declared with `Input(fact=...)`
and `rules/vocabulary/facts.toml`, joined by `advisor.core.decision.vocabulary`. The tests check the
vocabulary names exactly the facts computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from advisor.core import fmt
from advisor.core.model.catalog import System
from advisor.core.model.inputs import choices_of, declared_inputs
from advisor.core.model.maturity import MaturityBasis
from advisor.core.model.sourced import as_of_words
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Constraints, Objective, WorkloadInputs

if TYPE_CHECKING:
    from advisor.core.costing.estimate import Estimate
    from advisor.core.model.workload import Workload

JOB_VERBS = {"pretrain": "train", "finetune": "fine-tune", "inference": "serve"}
"""The job (`kind`) as rule texts say it: `to {job}`."""
JOB_NOUNS = {"pretrain": "the run", "finetune": "the fine-tune", "inference": "the serving job"}
"""The job (`kind`) as rule texts name it: `before {run} starts` (a serving plan has no run)."""
PRICE_BASES = {"rent": "rental", "own": "TCO"}
"""The pricing as rule texts say it: `per {price_basis} dollar`."""
FactType = Literal["number", "bool", "text"]


@dataclass(frozen=True)
class Fact:
    """One name a rule may test."""

    name: str
    type: FactType
    unit: str
    scope: Literal["workload", "candidate"]
    description: str
    choices: tuple[str, ...] = ()


FACT_TYPES: dict[str, FactType] = {
    "number": "number",
    "integer": "number",
    "check": "bool",
    "choice": "text",
    "text": "text",
}
"""The fact type of each kind of input a rule may test."""
_WORKLOAD_INPUTS = declared_inputs(WorkloadInputs)
_CONSTRAINTS = declared_inputs(Constraints)
WORKLOAD_INPUT_FACTS = tuple(i for i in _WORKLOAD_INPUTS.values() if i.fact)
"""The workload's inputs rules may test, as facts of their names (`Input(fact=...)`)."""
CONSTRAINT_FACTS = tuple(i for i in _CONSTRAINTS.values() if i.fact)
"""Likewise the constraints'."""
_WORKLOAD_INPUT_NAMES = tuple(item.name for item in WORKLOAD_INPUT_FACTS)
_CONSTRAINT_NAMES = tuple(item.name for item in CONSTRAINT_FACTS)
CHOICE_LISTS: dict[str, tuple[str, ...]] = {
    **{i.name: i.choices for i in (*_WORKLOAD_INPUTS.values(), *_CONSTRAINTS.values()) if i.choices},
    "maturity": choices_of(MaturityBasis, "level"),
    "objective": get_args(Objective),
    "job": tuple(JOB_VERBS.values()),
    "run": tuple(JOB_NOUNS.values()),
    "price_basis": tuple(PRICE_BASES.values()),
}
"""The choice lists a text fact may take its values from, by name (`choices = "precision"` in the
facts file): each declared once, in code, where the values are made."""


def workload_facts(
    workload: Workload, constraints: Constraints, objective: str, owned_fleet_fits: bool = False
) -> dict[str, Any]:
    """Values of the workload facts (None where a constraint is not set); `owned_fleet_fits` comes from
    the estimates (`advise`)."""
    model = workload.model
    return {
        "params_b": model.params_total / 1e9,
        "active_params_b": model.params_active / 1e9,
        "is_moe": model.family == "moe",
        "tokens_b": workload.tokens / 1e9,
        **{name: getattr(workload, name) for name in _WORKLOAD_INPUT_NAMES},
        **{name: getattr(constraints, name) for name in _CONSTRAINT_NAMES},
        "has_deadline": constraints.deadline_days is not None,
        "has_budget": constraints.budget_usd is not None,
        "objective": objective,
        "job": JOB_VERBS[workload.kind],
        "run": JOB_NOUNS[workload.kind],
        "price_basis": PRICE_BASES[workload.pricing],
        "owned_fleet_fits": owned_fleet_fits,
    }


def candidate_facts(
    est: Estimate,
    system: System,
    baseline: Estimate | None,
    constraints: Constraints,
    price_age_days: float | None,
    price_as_of: str,
    horizon_days: float,
) -> dict[str, Any]:
    """Values of the candidate facts for one system's estimate (`horizon_days`: the catalog's turnover
    horizon)."""
    days = est.time_to_train_hours / HOURS_PER_DAY
    result_days = est.time_to_result_hours / HOURS_PER_DAY
    speedup = tco_ratio = None
    if baseline is not None:
        speedup = est.tokens_per_second_per_gpu / baseline.tokens_per_second_per_gpu
        tco_ratio = est.effective_price_usd_per_gpu_hour / baseline.effective_price_usd_per_gpu_hour
    min_gpus = est.memory.min_gpus or 0
    base_min_gpus = (baseline.memory.min_gpus or 0) if baseline is not None else 0
    return {
        "system": system.id,
        "maturity": system.maturity.level,
        "maturity_as_of": as_of_words(system.maturity.as_of),
        "nvlink_domain": system.interconnect.nvlink_domain_gpus,
        "hbm_gb": system.memory.hbm_gb,
        "days": days,
        "duration": fmt.duration(est.time_to_train_hours),
        "wait_days": est.time_breakdown_hours["wait"] / HOURS_PER_DAY,
        "wait_hours": est.time_breakdown_hours["wait"],
        "wait": fmt.duration(est.time_breakdown_hours["wait"]),
        "result_days": result_days,
        "setup_share": est.time_breakdown_hours["setup"] / est.time_to_train_hours,
        "cost_usd": est.cost_usd,
        "cost_per_m_tokens_usd": est.cost_per_million_tokens_usd,
        "energy_kwh": est.energy_kwh,
        "goodput": est.goodput,
        "speedup_vs_baseline": speedup,
        "tco_ratio_vs_baseline": tco_ratio,
        "baseline_speedup": 1 / speedup if speedup else None,
        "perf_per_tco_vs_baseline": speedup / tco_ratio if speedup and tco_ratio else None,
        "precision_run": est.precision,
        "memory_fits": est.memory.fits,
        "memory_use": est.memory.required_gib / est.memory.available_gib,
        "min_gpus": min_gpus,
        "baseline_min_gpus": base_min_gpus,
        "min_gpus_vs_baseline": min_gpus / base_min_gpus if min_gpus and base_min_gpus else None,
        "replica_gpus_over_domain": min_gpus / system.interconnect.nvlink_domain_gpus,
        "days_over_deadline": result_days / constraints.deadline_days if constraints.deadline_days else None,
        "cost_over_budget": est.cost_usd / constraints.budget_usd if constraints.budget_usd else None,
        "result_over_horizon": result_days / horizon_days,
        "price_age_days": price_age_days,
        "price_as_of": price_as_of,
        "gpus_bought": est.purchase.gpus_bought if est.purchase else 0,
        "purchase_usd": est.purchase_usd or 0.0,
    }
