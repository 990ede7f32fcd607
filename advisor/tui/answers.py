"""Answers to the questions, read from and applied to a `Scenario` (frozen; every edit makes a new one).

`apply_answer` parses a human answer (`70B`, `15T`, `$2.10`, `5T x 3`), checks its range and
re-validates the whole scenario, so an answer is accepted only if the core accepts it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from advisor.core.model.catalog import Catalog
from advisor.core.model.units import format_si, parse_number
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.tui.settings import Settings

Answer = str | bool
DEFAULT_MODEL = "llama3-8b"
CUSTOM = "custom"
_EPOCHS = re.compile(r"^(?P<data>[^x×*]+?)\s*[x×*]\s*(?P<epochs>[^x×*]+)$", re.IGNORECASE)


class AnswerError(ValueError):
    """An answer the scenario cannot take; the message says what is valid."""


def new_scenario(catalog: Catalog, settings: Settings) -> Scenario:
    """The scenario a new user starts from: a small pretrain, with the settings' defaults."""
    model = DEFAULT_MODEL if DEFAULT_MODEL in catalog.models else next(iter(catalog.models))
    assumptions: dict[str, Any] = {}
    if settings.electricity_usd_per_kwh is not None:
        assumptions["electricity_usd_per_kwh"] = settings.electricity_usd_per_kwh
    if settings.pue is not None:
        assumptions["pue"] = settings.pue
    return Scenario.model_validate(
        {
            "schema": 1,
            "name": "untitled",
            "workload": {"model": model, "tokens": 1e12, "gpus": 64, "pricing": settings.pricing},
            "assumptions": assumptions,
        }
    )


# --- reading ---------------------------------------------------------------------------------------


def _si(value: float | None) -> str:
    return "" if value is None else format_si(value, digits=6)


def _plain(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _overrides(mapping: dict[str, float], show: Callable[[float], str]) -> str:
    if set(mapping) == {"*"}:
        return show(mapping["*"])
    return ", ".join(f"{key}={show(value)}" for key, value in mapping.items())


def read_answers(scenario: Scenario, catalog: Catalog) -> dict[str, Answer]:
    """Every question's answer as the form shows it."""
    w, c, a = scenario.workload, scenario.constraints, scenario.assumptions
    spec = w.model_spec(catalog)
    return {
        "model": w.model or CUSTOM,
        "params": _si(spec.params_total),
        "family": spec.family if w.custom is None else ("moe" if w.custom.active_params else "dense"),
        "active_params": _si(spec.params_active) if spec.family == "moe" or w.custom else "",
        "kind": w.kind,
        "finetune_method": w.finetune_method,
        "tokens": _si(w.tokens),
        "precision": w.precision,
        "fp8_stack": w.fp8_stack,
        "gpus": str(w.gpus),
        "deadline_days": _plain(c.deadline_days),
        "size_to_deadline": scenario.size_to_deadline,
        "pricing": w.pricing,
        "budget_usd": "" if c.budget_usd is None else "$" + _si(c.budget_usd),
        "electricity": _plain(a.electricity_usd_per_kwh),
        "pue": _plain(a.pue),
        "price_override": _overrides(a.price_usd_per_gpu_hour, lambda v: f"${v:g}"),
        "capex_override": _overrides(a.capex_usd_per_node, lambda v: "$" + _si(v)),
        "need_within_days": _plain(c.need_within_days),
        "guaranteed": c.guaranteed_capacity,
        "risk": c.risk,
        "iteration_speed": c.iteration_speed_matters,
        "objective": scenario.objective,
    }


def placeholders(catalog: Catalog) -> dict[str, str]:
    """Greyed text in empty fields that default to a catalog value: the value and its date."""
    econ = catalog.economics
    return {
        "electricity": f"{econ.electricity.usd_per_kwh:g} (catalog)",
        "pue": f"{econ.facility.pue:g} (catalog)",
    }


def applicable(scenario: Scenario) -> dict[str, bool]:
    """Questions that apply to the scenario as answered (others are shown, but disabled)."""
    w = scenario.workload
    custom = w.custom is not None
    has_deadline = scenario.constraints.deadline_days is not None
    return {
        "gpus": not scenario.size_to_deadline,
        "size_to_deadline": has_deadline,
        "params": custom,
        "family": custom,
        "active_params": custom and w.custom is not None and w.custom.active_params is not None,
        "finetune_method": w.kind == "finetune",
        "price_override": w.pricing == "rent",
        "capex_override": w.pricing == "own",
    }


def same_answer(key: str, shown: Answer, answer: Answer) -> bool:
    """Whether two answers mean the same (`70B` and `7e10` do), so the form need not rewrite one."""
    if isinstance(shown, bool) or isinstance(answer, bool):
        return shown == answer
    if shown.strip() == answer.strip():
        return True
    try:
        return _number_text(shown) == _number_text(answer)
    except ValueError:
        return False


def _number_text(text: str) -> float:
    match = _EPOCHS.match(text.strip())
    if match:
        return parse_number(match["data"]) * parse_number(match["epochs"])
    return parse_number(text)


# --- applying --------------------------------------------------------------------------------------


def _shown(value: float) -> str:
    return format_si(value, digits=4) if abs(value) >= 1e6 else f"{value:,.6g}"


def _number(
    text: str,
    *,
    low: float | None = None,
    high: float | None = None,
    above: bool = False,
    integer: bool = False,
    optional: bool = False,
) -> float | None:
    """A human number checked against its range; blank is None when `optional`."""
    text = text.strip()
    span = _range_text(low, high, above, integer)
    if not text:
        if optional:
            return None
        raise AnswerError(f"required: {span}")
    try:
        value = _number_text(text)
    except ValueError:
        raise AnswerError(f"{text!r} is not a number (try 70B, 15T, 1.5e12, $2.10); {span}") from None
    too_low = low is not None and (value <= low if above else value < low)
    if too_low or (high is not None and value > high) or (integer and not value.is_integer()):
        raise AnswerError(f"{span} (got {_shown(value)})")
    return int(value) if integer else value


def _range_text(low: float | None, high: float | None, above: bool, integer: bool) -> str:
    """`must be a whole number from 1 to 1M`, `must be above 0, up to 10`."""
    kind = "a whole number " if integer else ""
    if low is not None and high is not None:
        span = (
            f"above {_shown(low)}, up to {_shown(high)}" if above else f"from {_shown(low)} to {_shown(high)}"
        )
    elif low is not None:
        span = f"above {_shown(low)}" if above else f"at least {_shown(low)}"
    else:
        span = "a number"
    return f"must be {kind}{span}"


def _overrides_answer(text: str, catalog: Catalog, **limits: Any) -> dict[str, float]:
    """`$2.10` (every system) or `h100=2.1, b200=3.9` (per system) as an assumptions map."""
    found: dict[str, float] = {}
    for item in (part for part in re.split(r"[,;\s]+", text.strip()) if part):
        key, _, value = item.rpartition("=")
        key = key.strip() or "*"
        if key != "*" and key not in catalog.systems:
            valid = ", ".join(sorted(catalog.systems))
            raise AnswerError(f"unknown system {key!r}; use one of {valid}, or a bare price for all")
        number = _number(value, **limits)
        assert number is not None
        found[key] = number
    return found


def _custom(workload: dict[str, Any], what: str) -> dict[str, Any]:
    if "custom" not in workload:
        raise AnswerError(f"{what} applies to a custom model: choose Custom size first")
    return workload["custom"]


def _set(table: dict[str, Any], key: str, value: Any) -> None:
    if value is None or value == {}:
        table.pop(key, None)
    else:
        table[key] = value


_OPTIONAL_NUMBERS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "deadline_days": ("constraints", "deadline_days", {"low": 0, "high": 36_500, "above": True}),
    "budget_usd": ("constraints", "budget_usd", {"low": 0, "above": True}),
    "need_within_days": ("constraints", "need_within_days", {"low": 0, "high": 36_500}),
    "electricity": ("assumptions", "electricity_usd_per_kwh", {"low": 0, "high": 10, "above": True}),
    "pue": ("assumptions", "pue", {"low": 1, "high": 3}),
}
"""Optional numeric answers: where each goes in the scenario data, and its valid range."""
_OVERRIDES: dict[str, tuple[str, dict[str, Any]]] = {
    "price_override": ("price_usd_per_gpu_hour", {"low": 0, "high": 1000, "above": True}),
    "capex_override": ("capex_usd_per_node", {"low": 0, "above": True}),
}
_PLAIN: dict[str, tuple[str, str]] = {
    "kind": ("workload", "kind"),
    "finetune_method": ("workload", "finetune_method"),
    "precision": ("workload", "precision"),
    "pricing": ("workload", "pricing"),
    "fp8_stack": ("workload", "fp8_stack"),
    "guaranteed": ("constraints", "guaranteed_capacity"),
    "iteration_speed": ("constraints", "iteration_speed_matters"),
    "risk": ("constraints", "risk"),
}
"""Choices and checkboxes taken as given (the scenario's validation checks them)."""


def _apply_model(
    data: dict[str, Any], scenario: Scenario, catalog: Catalog, key: str, answer: Answer
) -> None:
    """The model questions: a preset or a custom size, dense or MoE."""
    w = data["workload"]
    text = answer if isinstance(answer, str) else ""
    if key == "model" and answer == CUSTOM:
        if "custom" not in w:
            spec = scenario.workload.model_spec(catalog)
            custom = {"params": spec.params_total}
            if spec.family == "moe":
                custom["active_params"] = spec.params_active
            w.pop("model", None)
            w["custom"] = custom
    elif key == "model":
        try:
            catalog.model(text)
        except AdvisorError as exc:
            raise AnswerError(str(exc)) from None
        w.pop("custom", None)
        w["model"] = text
    elif key == "params":
        _custom(w, "Parameters")["params"] = _number(text, low=1e6, high=1e14)
    elif key == "family":
        custom = _custom(w, "Architecture")
        if answer == "moe":
            custom.setdefault("active_params", custom["params"])
        else:
            custom.pop("active_params", None)
    else:
        _custom(w, "Active parameters")["active_params"] = _number(text, low=1e6, high=1e14)


def apply_answer(scenario: Scenario, catalog: Catalog, key: str, answer: Answer) -> Scenario:
    """The scenario with one question answered; raises AnswerError saying what is valid."""
    data = scenario.to_data()
    for table in ("constraints", "assumptions"):  # to_data leaves out tables that hold only defaults
        data.setdefault(table, {})
    text = answer if isinstance(answer, str) else ""
    if key in ("model", "params", "family", "active_params"):
        _apply_model(data, scenario, catalog, key, answer)
    elif key in _PLAIN:
        table, name = _PLAIN[key]
        data[table][name] = answer
    elif key in _OPTIONAL_NUMBERS:
        table, name, limits = _OPTIONAL_NUMBERS[key]
        _set(data[table], name, _number(text, optional=True, **limits))
        if key == "deadline_days" and name not in data[table]:
            data.pop("size_to_deadline", None)  # no deadline, nothing to size to
    elif key == "size_to_deadline":
        if answer and scenario.constraints.deadline_days is None:
            raise AnswerError("give a deadline first (the question above)")
        data["size_to_deadline"] = bool(answer)
    elif key in _OVERRIDES:
        name, limits = _OVERRIDES[key]
        _set(data["assumptions"], name, _overrides_answer(text, catalog, **limits))
    elif key == "tokens":
        data["workload"]["tokens"] = _number(text, low=1)
    elif key == "gpus":
        data["workload"]["gpus"] = _number(text, low=1, high=1_000_000, integer=True)
    elif key == "objective":
        data["objective"] = answer
    else:
        raise KeyError(key)
    return _validated(data, catalog)


def _validated(data: dict[str, Any], catalog: Catalog) -> Scenario:
    """The scenario the core accepts, or AnswerError with the core's reason."""
    try:
        scenario = Scenario.model_validate(data)
        scenario.check_ids(catalog)
        scenario.workload.workload(catalog)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise AnswerError(str(error["msg"]).removeprefix("Value error, ")) from None
    except AdvisorError as exc:
        raise AnswerError(str(exc)) from None
    return scenario
