"""The closed vocabulary rules may use: each fact's type, unit, scope and meaning.

Workload facts describe the job and the team; candidate facts describe one system's estimate for it.
A rule naming anything else fails to load. `workload_facts` and `candidate_facts` compute the values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from advisor.core import fmt
from advisor.core.model.catalog import System
from advisor.core.model.inputs import DeclaredInput, choices_of, declared_inputs
from advisor.core.model.maturity import MaturityBasis
from advisor.core.model.sourced import as_of_words
from advisor.core.model.units import HOURS_PER_DAY
from advisor.core.model.workload import Constraints, Objective, WorkloadInputs

if TYPE_CHECKING:
    from advisor.core.costing.estimate import Estimate
    from advisor.core.model.workload import Workload

PRECISIONS = choices_of(WorkloadInputs, "precision")
JOB_VERBS = {"pretrain": "train", "finetune": "fine-tune", "inference": "serve"}
"""The job (`kind`) as rule texts say it: `to {job}`."""
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


def _w(name: str, type_: FactType, unit: str, description: str, choices: tuple[str, ...] = ()) -> Fact:
    return Fact(name, type_, unit, "workload", description, choices)


def _c(name: str, type_: FactType, unit: str, description: str, choices: tuple[str, ...] = ()) -> Fact:
    return Fact(name, type_, unit, "candidate", description, choices)


FACT_TYPES: dict[str, FactType] = {
    "number": "number",
    "integer": "number",
    "check": "bool",
    "choice": "text",
    "text": "text",
}
"""The fact type of each kind of input a rule may test."""
WORKLOAD_INPUT_FACTS = tuple(i for i in declared_inputs(WorkloadInputs).values() if i.fact)
"""The workload's inputs rules may test, as facts of their names (`Input(fact=...)`)."""
CONSTRAINT_FACTS = tuple(i for i in declared_inputs(Constraints).values() if i.fact)
"""Likewise the constraints'."""
_WORKLOAD_INPUT_NAMES = tuple(item.name for item in WORKLOAD_INPUT_FACTS)
_CONSTRAINT_NAMES = tuple(item.name for item in CONSTRAINT_FACTS)


def _input(item: DeclaredInput) -> Fact:
    """The workload fact of an input rules may test: its type, unit and choices are the input's."""
    return _w(item.name, FACT_TYPES[item.kind], item.meta.unit, item.fact, item.choices)


FACTS: dict[str, Fact] = {
    f.name: f
    for f in (
        _w("params_b", "number", "billion parameters", "Total parameters of the model."),
        _w("active_params_b", "number", "billion parameters", "Parameters active per token (MoE: fewer)."),
        _w("is_moe", "bool", "", "The model is a mixture of experts."),
        _w("tokens_b", "number", "billion tokens", "Tokens to train (or generate, for inference)."),
        *(_input(item) for item in WORKLOAD_INPUT_FACTS + CONSTRAINT_FACTS),
        _w("has_deadline", "bool", "", "A deadline is set."),
        _w("has_budget", "bool", "", "A budget is set."),
        _w("objective", "text", "", "What the ranking minimises.", get_args(Objective)),
        _w("job", "text", "", "The job as a verb, for rule texts.", tuple(JOB_VERBS.values())),
        _w(
            "price_basis",
            "text",
            "",
            "What a dollar buys, for rule texts: a rental dollar or a TCO dollar.",
            tuple(PRICE_BASES.values()),
        ),
        _w(
            "owned_fleet_fits",
            "bool",
            "",
            "Owning: GPUs already owned (`owned_gpus`) run the job alone within every hard constraint.",
        ),
        _c("system", "text", "", "Catalog id of the candidate system."),
        _c("maturity", "text", "", "How proven the system is at scale.", choices_of(MaturityBasis, "level")),
        _c("maturity_as_of", "text", "", "Date of the evidence for the system's maturity, e.g. `Jun 2026`."),
        _c("nvlink_domain", "number", "GPUs", "GPUs in one NVLink domain."),
        _c("hbm_gb", "number", "GB", "HBM per GPU."),
        _c("days", "number", "days", "Estimated time to train: setup, compute and downtime."),
        _c("duration", "text", "", "Estimated time to train, in words: '3.0 days', '14.3 years'."),
        _c("wait_days", "number", "days", "Wait before capacity is available."),
        _c("wait_hours", "number", "hours", "Wait before capacity is available, in hours."),
        _c("wait", "text", "", "Wait before capacity is available, in words: '5.2 h', '21.0 days'."),
        _c("result_days", "number", "days", "Wait plus time to train."),
        _c("setup_share", "number", "fraction", "Share of the training time spent on setup."),
        _c("cost_usd", "number", "USD", "Estimated cost of the run."),
        _c("cost_per_m_tokens_usd", "number", "USD per 1M tokens", "Cost per million tokens."),
        _c("energy_kwh", "number", "kWh", "Utility energy of the run."),
        _c("goodput", "number", "fraction", "Share of wall time that trains (failures, checkpoints)."),
        _c("speedup_vs_baseline", "number", "x", "Per-GPU throughput relative to the baseline system."),
        _c(
            "tco_ratio_vs_baseline",
            "number",
            "x",
            "Effective cost per running GPU-hour (idle GPUs of a partial node or rack included) relative to "
            "the baseline system's.",
        ),
        _c(
            "baseline_speedup",
            "number",
            "x",
            "The baseline system's per-GPU throughput relative to this one (how much faster H100 is here).",
        ),
        _c(
            "perf_per_tco_vs_baseline",
            "number",
            "x",
            "Speed-up divided by the cost ratio (> 1 wins per dollar).",
        ),
        _c(
            "precision_run",
            "text",
            "",
            "Precision that actually runs (after fallbacks).",
            PRECISIONS,
        ),
        _c("memory_fits", "bool", "", "Training state and activations fit in the cluster's HBM."),
        _c("memory_use", "number", "fraction", "Required over usable HBM."),
        _c("min_gpus", "number", "GPUs", "Fewest GPUs that hold the training state (0 if none do)."),
        _c("replica_gpus_over_domain", "number", "x", "GPUs one model replica needs over the NVLink domain."),
        _c("days_over_deadline", "number", "x", "Result days over the deadline (unset without a deadline)."),
        _c("cost_over_budget", "number", "x", "Cost over the budget (unset without a budget)."),
        _c(
            "result_over_horizon",
            "number",
            "x",
            "Result days over the turnover horizon ([turnover] horizon_days: GPUs and models turn over).",
        ),
        _c("price_age_days", "number", "days", "Age of the price used (rental offer or capex figure)."),
        _c("price_as_of", "text", "", "Date of the price used."),
        _c("gpus_bought", "number", "GPUs", "GPUs bought for the run (0 renting, or when owned suffice)."),
        _c("purchase_usd", "number", "USD", "Up-front outlay for the GPUs bought (0 when none are)."),
        _c(
            "price_is_assumption",
            "bool",
            "",
            "The price used rests on no published quote (assumed, or derived from an assumed price).",
        ),
        _c(
            "price_discount", "number", "fraction", "Assumed discount the price used takes off another offer."
        ),
        _c("price_derived_from", "text", "", "The offer the price used is derived from, and its price."),
    )
}


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
        "replica_gpus_over_domain": min_gpus / system.interconnect.nvlink_domain_gpus,
        "days_over_deadline": result_days / constraints.deadline_days if constraints.deadline_days else None,
        "cost_over_budget": est.cost_usd / constraints.budget_usd if constraints.budget_usd else None,
        "result_over_horizon": result_days / horizon_days,
        "price_age_days": price_age_days,
        "price_as_of": price_as_of,
        "gpus_bought": est.purchase.gpus_bought if est.purchase else 0,
        "purchase_usd": est.purchase_usd or 0.0,
    }
