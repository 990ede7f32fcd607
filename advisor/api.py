"""The Python API: the command line's human inputs, checked by the same declarations, typed results.

    import advisor
    est = advisor.estimate(model="llama3-70b", tokens="15T", gpus=2048, precision="fp8", system="h100")
    rec = advisor.recommend(model="llama2-13b", tokens="26B", gpus=8, deadline_days=14)
    advisor.report("plan.toml", "plan.html")

Keyword inputs are the scenario keys (docs/scenarios.md): each declared input by its name (`gpus`,
`precision`, `deadline_days`, `budget_usd`, `pue`, ...), the custom model's `params`, `active_params`,
`layers` and `hidden`, and the per-system `mfu`, `goodput` and `price_usd_per_gpu_hour`. Numbers may be
human text ("15T", "$2.10", "2k"). A bad value raises `advisor.errors.AdvisorError` (a `ScenarioError`
naming the key, or a `CatalogError` naming the valid ids), never a bare pydantic error.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from advisor.core.costing.results import Estimate
from advisor.core.decision.recommendation import Recommendation
from advisor.core.decision.rules import Rule
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog
from advisor.core.model.workload import Constraints, Objective, Workload
from advisor.core.scenario import INPUTS, Scenario
from advisor.errors import UsageError

Human = str | float | int | bool | None
"""An input as a person writes it: 2048, "2k", "15T", "$2.10", "fp8", True; None means not given."""

ScenarioSource = Scenario | str | Path
"""A scenario, or the path of a scenario file (TOML)."""

CUSTOM_MODEL_KEYS = ("params", "active_params", "layers", "hidden")
"""Keyword inputs that describe a model by size (`[workload.custom]`)."""
PER_SYSTEM_KEYS = ("mfu", "goodput", "price_usd_per_gpu_hour")
"""Assumptions set for the system estimated (or every system, for `recommend`)."""

_DECLARED = {item.name: item for item in INPUTS.values()}


def build_scenario(
    model: str | None = None,
    tokens: str | float | None = None,
    *,
    scenario: ScenarioSource | None = None,
    system: str | None = None,
    name: str = "python",
    **inputs: Human,
) -> Scenario:
    """A scenario from keyword inputs, laid over `scenario` (a file or a Scenario) when given.

    `model` is a preset id (`advisor models`) or the path of a Hugging Face config.json.
    """
    return _build(model, tokens, scenario, system, name, inputs)


def _build(
    model: str | None,
    tokens: str | float | None,
    scenario: ScenarioSource | None,
    system: str | None,
    name: str,
    inputs: Mapping[str, Human],
) -> Scenario:
    if isinstance(scenario, Scenario) and model is None and tokens is None and not inputs:
        return scenario
    data = _base_data(scenario, name)
    workload = data["workload"]
    if model is not None:
        for key in ("model", "model_config", "custom"):
            workload.pop(key, None)
        if model.endswith(".json"):
            workload["model_config"] = str(Path(model).expanduser().resolve())
        else:
            workload["model"] = model
    if tokens is not None:
        workload["tokens"] = tokens
    _lay_inputs(data, inputs, system)
    from advisor.io.scenario_files import scenario_from_data

    base = scenario if isinstance(scenario, str | Path) else "advisor.api"
    return scenario_from_data(data, base)


def _base_data(scenario: ScenarioSource | None, name: str) -> dict[str, Any]:
    """The scenario's data to lay inputs over: from a file, a Scenario, or empty tables."""
    if scenario is None:
        return {"schema": 1, "name": name, "workload": {}, "constraints": {}, "assumptions": {}}
    if not isinstance(scenario, Scenario):
        from advisor.io.scenario_files import load_scenario

        scenario = load_scenario(scenario)
    data = scenario.to_data()
    for table in ("workload", "constraints", "assumptions"):
        data[table] = dict(data.get(table, {}))
    return data


def _lay_inputs(data: dict[str, Any], inputs: Mapping[str, Human], system: str | None) -> None:
    """Each given input in its table; an unknown name raises UsageError with the nearest valid one."""
    workload, assumptions = data["workload"], data["assumptions"]
    custom = {k: v for k, v in inputs.items() if k in CUSTOM_MODEL_KEYS and v is not None}
    if custom:
        workload.pop("model", None)
        workload.pop("model_config", None)
        previous = workload.get("custom")
        workload["custom"] = {**(previous if isinstance(previous, dict) else {}), **custom}
    for key, value in inputs.items():
        if value is None or key in CUSTOM_MODEL_KEYS:
            continue
        if key in PER_SYSTEM_KEYS:
            earlier = assumptions.get(key)
            per_system = dict(earlier) if isinstance(earlier, dict) else {}
            assumptions[key] = {**per_system, (system or "*"): value}
        elif key in _DECLARED:
            item = _DECLARED[key]
            table = data[item.table] if item.table else data
            table[item.name] = value
        else:
            valid = sorted([*_DECLARED, *CUSTOM_MODEL_KEYS, *PER_SYSTEM_KEYS])
            close = difflib.get_close_matches(key, valid, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"unknown input {key!r}{hint} (valid: {', '.join(valid)})")


def _catalog(catalog: Catalog | None) -> Catalog:
    from advisor.io.catalog_files import load_catalog

    return catalog if catalog is not None else load_catalog()


def _rules(rules: Sequence[Rule] | None, catalog: Catalog) -> Sequence[Rule]:
    if rules is not None:
        return rules
    from advisor.core.decision.rules import check_systems
    from advisor.io.rule_files import load_rules

    loaded = load_rules()
    check_systems(loaded, catalog.systems)
    return loaded


def estimate(
    model: str | None = None,
    tokens: str | float | None = None,
    *,
    system: str,
    scenario: ScenarioSource | None = None,
    catalog: Catalog | None = None,
    **inputs: Human,
) -> Estimate:
    """Time, cost and energy of the run on `system` (as `advisor estimate --system SYSTEM`).

    A run that does not fit in memory is returned with `est.memory.fits` False and the reason in
    `est.warnings`.
    """
    from advisor.core.costing.estimate import estimate as run_estimate

    catalog = _catalog(catalog)
    catalog.system(system)
    chosen = _build(model, tokens, scenario, system, "python", inputs)
    chosen.check_ids(catalog)
    return run_estimate(
        chosen.workload.workload(catalog), system, catalog, chosen.assumptions, compared=False
    )


def recommend(
    model: str | None = None,
    tokens: str | float | None = None,
    *,
    scenario: ScenarioSource | None = None,
    catalog: Catalog | None = None,
    rules: Sequence[Rule] | None = None,
    today: date | None = None,
    **inputs: Human,
) -> Recommendation:
    """Which system to rent or buy, and why (as `advisor recommend`): every candidate ranked, with
    the rules that fired and what would change the answer."""
    from advisor.core.run import advise_scenario

    catalog = _catalog(catalog)
    chosen = _build(model, tokens, scenario, None, "python", inputs)
    advice = advise_scenario(chosen, catalog, _rules(rules, catalog), today=today or date.today())
    return advice.recommendation


def report(
    scenario: ScenarioSource,
    path: str | Path,
    *,
    format: str | None = None,
    force: bool = False,
    catalog: Catalog | None = None,
    rules: Sequence[Rule] | None = None,
    today: date | None = None,
) -> Path:
    """Write the report of `scenario` to `path` (as `advisor report SCENARIO -o PATH`); the format is
    `format` or the extension of `path` (md, html, json, toml). An existing file is kept unless `force`."""
    from advisor import __version__
    from advisor.io.atomic import write_atomic
    from advisor.report.data import build_report
    from advisor.report.formats import REPORT_FORMATS, find_format

    target = Path(path)
    fmt = find_format(REPORT_FORMATS, format or target.suffix.lower().lstrip("."))
    catalog = _catalog(catalog)
    chosen = build_scenario(scenario=scenario)
    data = build_report(
        chosen, catalog, _rules(rules, catalog), today=today or date.today(), version=__version__
    )
    return write_atomic(target, fmt.render(data), force=force)


def advise(
    workload: Workload,
    catalog: Catalog | None = None,
    rules: Sequence[Rule] | None = None,
    *,
    constraints: Constraints | None = None,
    objective: Objective = "cost",
    assumptions: Assumptions | None = None,
    today: date | None = None,
) -> Recommendation:
    """`recommend` for a core `Workload` (a `ModelSpec` and validated inputs) rather than human inputs."""
    from advisor.core.analysis.time_quantile import deadline_basis
    from advisor.core.decision.advise import advise as run_advise
    from advisor.core.decision.owned import with_owned
    from advisor.core.decision.request import AdviceRequest

    catalog, constraints, assumptions = (
        _catalog(catalog),
        constraints or Constraints(),
        assumptions or Assumptions(),
    )
    basis = (
        deadline_basis(catalog, workload, assumptions, constraints.risk)
        if constraints.deadline_days
        else None
    )
    request = AdviceRequest(
        workload=workload,
        catalog=catalog,
        rules=_rules(rules, catalog),
        constraints=constraints,
        objective=objective,
        assumptions=assumptions,
        today=today,
        deadline_basis=basis,
    )
    return with_owned(run_advise(request), request)
