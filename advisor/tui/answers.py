"""Answers to the questions, read from and applied to a `Scenario` (frozen; every edit makes a new one).

`apply_answer` parses a human answer (`70B`, `15T`, `$2.10`, `5T x 3`), checks its range and
re-validates the whole scenario, so an answer is accepted only if the core accepts it.
"""

from __future__ import annotations

import difflib
import math
from typing import Any

from pydantic import ValidationError

from advisor.core.model.catalog import Catalog
from advisor.core.model.inputs import (
    ALL_SYSTEMS,
    DeclaredInput,
    Limits,
    format_bound,
    number_kind,
    parse_amount,
    system_pairs,
    unnamed_system,
)
from advisor.core.model.units import WRITTEN_LIKE, DecimalCommaError, UnreadNumber, format_si
from advisor.core.scenario import INPUTS, Scenario
from advisor.core.unused import CONDITIONS, unused_inputs
from advisor.errors import AdvisorError
from advisor.io.scenario_files import with_model_config
from advisor.tui.questions import DECLARED, DEFAULT_CHOICE, MODEL_SIZE, QUESTIONS, SERVING
from advisor.tui.required import blank_number, in_app_words
from advisor.tui.settings import Settings

Answer = str | bool
DEFAULT_MODEL = "llama3-8b"
CUSTOM = "custom"


class AnswerError(ValueError):
    """An answer the scenario cannot take; the message says what is valid."""


class BlankAnswer(AnswerError):
    """A required number left blank; `span` is its valid range (`a whole number from 1 to 1M`)."""

    def __init__(self, span: str) -> None:
        super().__init__(f"required: must be {span}")
        self.span = span


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


def si_text(value: float | None) -> str:
    """`15T`, `13.4217728B`: the shortest SI form that reads back as exactly `value` (no digit lost)."""
    if value is None:
        return ""
    for digits in range(3, 18):
        text = format_si(value, digits=digits)
        if "e" not in text.lower() and math.isclose(parse_amount(text), value, rel_tol=1e-12):
            return text
    return repr(float(value))


def _plain(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _one_value(item: DeclaredInput, value: float) -> str:
    """One number as the form shows it: `$250k`, `$2.1`, `15T`, `1024`, `0.4`."""
    if item.meta.unit == "USD":
        return "$" + si_text(value)
    if item.meta.unit == "USD/GPU-hour":
        return f"${value:g}"
    return si_text(value) if item.meta.unit == "tokens" else _plain(value)


def _per_system_text(item: DeclaredInput, mapping: dict[str, float]) -> str:
    """`h100=1024, a100=256`; the value for every other system bare (`h100=$2.5, $2.1`)."""
    return ", ".join(
        _one_value(item, value) if key == ALL_SYSTEMS else f"{key}={_one_value(item, value)}"
        for key, value in mapping.items()
    )


def _declared_value(scenario: Scenario, item: DeclaredInput) -> Any:
    """The value of a declared input in `scenario`."""
    return getattr(getattr(scenario, item.table) if item.table else scenario, item.name)


def answer_text(item: DeclaredInput, value: Any) -> Answer:
    """A declared input's value as the form shows it: `15T`, `$250k`, `2048`, `0.12`, a choice, a tick."""
    if item.kind == "check":
        return bool(value)
    if value is None:
        return ""
    if item.kind == "per_system":
        return _per_system_text(item, value)
    if item.kind in ("choice", "text", "integer"):
        return str(value)
    return _one_value(item, value)


def read_answers(scenario: Scenario, catalog: Catalog) -> dict[str, Answer]:
    """Every question's answer as the form shows it."""
    w = scenario.workload
    spec = w.model_spec(catalog)
    answers: dict[str, Answer] = {
        "model": w.model or CUSTOM,
        "params": si_text(spec.params_total),
        "family": spec.family if w.custom is None else ("moe" if w.custom.active_params else "dense"),
        "active_params": si_text(spec.params_active) if spec.family == "moe" or w.custom else "",
    }
    for key, item in DECLARED.items():
        answers[key] = answer_text(item, _declared_value(scenario, item))
    return {q.key: answers[q.key] for q in QUESTIONS}


UNUSED_TOKENS = f"not used: {CONDITIONS['no_rate'][1]}"
"""Why the Tokens answer is not used when serving at a target rate (the core's `Workload` makes the job
a month of serving at the rate)."""


def unused(scenario: Scenario) -> dict[str, str]:
    """Answers that stay editable but that the scenario as answered does not use, with why: the form
    dims them and says so (Tokens at a target rate; clearing the rate uses it again)."""
    return {"tokens": UNUSED_TOKENS} if "workload.tokens" in unused_inputs(scenario) else {}


def applicable(scenario: Scenario) -> dict[str, bool]:
    """Questions that apply to the scenario as answered (others are shown, but disabled): the declared
    inputs by the core's rule (`advisor.core.unused`; Tokens at a rate stays editable, dimmed), and the
    custom model's own questions."""
    w = scenario.workload
    custom = w.custom is not None
    not_used = {INPUTS[key].name for key in unused_inputs(scenario)} - unused(scenario).keys()
    return {
        **{key: key not in not_used for key in DECLARED},
        "params": custom,
        "family": custom,
        "active_params": custom and w.custom is not None and w.custom.active_params is not None,
    }


SERVING_QUESTIONS = tuple(q.key for q in QUESTIONS if q.section == SERVING)
"""The serving section's questions: asked (and shown) when the job is inference."""

JOB_QUESTIONS = tuple(
    key for key, item in DECLARED.items() if {"training", "finetune", "lora"} & set(item.meta.applies)
)
"""Questions about one kind of job: hidden, not only greyed, for the other kinds (as the serving ones)."""

NOT_ASKED_BECAUSE = {
    "params": "it is asked for a custom model: choose “Custom size” as the model",
    "family": "it is asked for a custom model: choose “Custom size” as the model",
    "active_params": "it is asked for a custom mixture-of-experts model",
}
"""Why the custom model's own questions are not asked (the declared inputs' reasons are the core's,
`advisor.core.unused`; said when the user goes to the question)."""


def same_answer(key: str, shown: Answer, answer: Answer) -> bool:
    """Whether two answers mean the same (`70B` and `7e10` do), so the form need not rewrite one."""
    if isinstance(shown, bool) or isinstance(answer, bool):
        return shown == answer
    if shown.strip() == answer.strip():
        return True
    try:
        if "=" in shown or "=" in answer:
            mine, theirs = system_pairs(shown), system_pairs(answer)
            return mine.keys() == theirs.keys() and all(
                parse_amount(mine[key]) == parse_amount(theirs[key]) for key in mine
            )
        return parse_amount(shown) == parse_amount(answer)
    except ValueError:
        return False


# --- applying --------------------------------------------------------------------------------------


def _number(
    text: str, limits: Limits, *, integer: bool = False, optional: bool = False, unit: str = ""
) -> float | None:
    """A human number checked against its range (`$` on money, `%` on a fraction); blank is None when
    `optional`."""
    text = text.strip()
    span = f"must be {limits.describe(integer)}"
    if not text:
        if optional:
            return None
        raise BlankAnswer(limits.describe(integer))
    kind = number_kind(unit, limits)
    try:
        value = parse_amount(text, kind)
    except (DecimalCommaError, UnreadNumber) as exc:  # '1,5T', '$5' tokens: say why, as the CLI does
        raise AnswerError(f"{exc}; {span}") from None
    except ValueError:
        raise AnswerError(f"{text!r} is not a number (try {WRITTEN_LIKE[kind]}); {span}") from None
    if not limits.allows(value) or (integer and not value.is_integer()):
        raise AnswerError(f"{span} (got {format_bound(value)})")
    return int(value) if integer else value


def _unknown_system(key: str, catalog: Catalog) -> str:
    close = difflib.get_close_matches(key, list(catalog.systems), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown system {key!r}{hint}; use one of {', '.join(sorted(catalog.systems))}"


def _per_system_answer(text: str, item: DeclaredInput, catalog: Catalog) -> dict[str, float]:
    """`$2.10` (every system, where the input allows it) or `h100=2.1, b200=3.9` as a per-system map."""
    try:
        pairs: dict[str, str] = system_pairs(text)
    except ValueError as exc:
        raise AnswerError(str(exc)) from None
    found: dict[str, float] = {}
    for key, value in pairs.items():
        if key == ALL_SYSTEMS and not item.meta.every_system:
            raise AnswerError(unnamed_system(value))
        if key != ALL_SYSTEMS and key not in catalog.systems:
            raise AnswerError(_unknown_system(key, catalog))
        try:
            number = _number(value, item.limits, integer=item.value_kind == "integer", unit=item.meta.unit)
        except AnswerError as exc:
            raise AnswerError(str(exc) if key == ALL_SYSTEMS else f"{key}: {exc}") from None
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
            w.pop("model_config", None)
            w["custom"] = custom
    elif key == "model":
        try:
            catalog.model(text)
        except AdvisorError as exc:
            raise AnswerError(str(exc)) from None
        w.pop("custom", None)
        w.pop("model_config", None)
        w["model"] = text
    elif key == "params":
        _custom(w, "Parameters")["params"] = _number(text, MODEL_SIZE)
    elif key == "family":
        custom = _custom(w, "Architecture")
        if answer == "moe":
            custom.setdefault("active_params", custom["params"])
        else:
            custom.pop("active_params", None)
    else:
        _custom(w, "Active parameters")["active_params"] = _number(text, MODEL_SIZE)


def _apply_declared(
    data: dict[str, Any], scenario: Scenario, catalog: Catalog, item: DeclaredInput, answer: Answer
) -> None:
    """A declared input's answer: a tick, a choice, a number checked against its range, or a per-system
    map of them."""
    table = data[item.table] if item.table else data
    if item.kind == "per_system":
        value: Any = _per_system_answer(answer if isinstance(answer, str) else "", item, catalog)
    elif item.kind == "check":
        value = bool(answer)
    elif item.kind in ("number", "integer"):
        text = answer if isinstance(answer, str) else ""
        value = _number(
            text, item.limits, integer=item.kind == "integer", optional=item.optional, unit=item.meta.unit
        )
    elif item.kind == "choice" and item.optional and answer == DEFAULT_CHOICE:
        value = None
    else:
        value = answer
    _set(table, item.name, value)
    if item.name == "deadline_days" and value is None:
        data.pop("size_to_deadline", None)  # no deadline, nothing to size to
    if item.name == "size_to_deadline" and value and scenario.constraints.deadline_days is None:
        raise AnswerError("give a deadline first (the question above)")


def apply_answer(scenario: Scenario, catalog: Catalog, key: str, answer: Answer) -> Scenario:
    """The scenario with one question answered; raises AnswerError saying what is valid."""
    data = scenario.to_data()
    for table in ("constraints", "assumptions"):  # to_data leaves out tables that hold only defaults
        data.setdefault(table, {})
    try:
        if key in ("model", "params", "family", "active_params"):
            _apply_model(data, scenario, catalog, key, answer)
        elif key in DECLARED:
            _apply_declared(data, scenario, catalog, DECLARED[key], answer)
        else:
            raise KeyError(key)
    except BlankAnswer as exc:
        raise AnswerError(blank_number(key, exc.span)) from None
    try:
        return _validated(data, catalog)
    except AnswerError as exc:
        raise AnswerError(in_app_words(str(exc), data["workload"].get("kind", "pretrain"))) from None


def _validated(data: dict[str, Any], catalog: Catalog) -> Scenario:
    """The scenario the core accepts, or AnswerError with the core's reason."""
    try:
        scenario = with_model_config(Scenario.model_validate(data))
        scenario.check_ids(catalog)
        scenario.workload.workload(catalog)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise AnswerError(str(error["msg"]).removeprefix("Value error, ")) from None
    except AdvisorError as exc:
        raise AnswerError(str(exc)) from None
    return scenario
