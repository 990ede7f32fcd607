"""The questions the app asks, in the order of the guided flow: label, one-line hint, control.

A declared input's question comes from its declaration (`advisor.core.scenario.INPUTS`), per-system
maps (`h100=1024`) among them; the model questions are written here. `answers.py` reads and applies
the answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from advisor.core.model.inputs import DeclaredInput, field_limits
from advisor.core.scenario import INPUTS, CustomModel

Control = Literal["text", "choice", "check"]

SECTIONS = ("Model", "Job", "Serving", "Scale and time", "Money", "Availability and risk")
"""Section titles; the form numbers the sections it shows (Serving only for an inference job)."""
SERVING = SECTIONS.index("Serving")
"""The section of the serving questions: shown only when the job is inference."""
HOME_SECTION = {"workload": SECTIONS.index("Job"), "constraints": SECTIONS.index("Availability and risk")}
HOME_SECTION |= {"assumptions": SECTIONS.index("Money"), "": SECTIONS.index("Availability and risk")}
"""Where a declared input not placed in LAYOUT is asked, by its table: a new input appears at once."""


def numbered_sections(serving: bool) -> dict[int, str]:
    """The sections shown, by index, with the number the form gives them: `{0: "1  Model", ...}`.

    The Serving section is shown (and numbered) only for an inference job; the form's titles and the
    command palette both number sections from here.
    """
    shown = [index for index in range(len(SECTIONS)) if serving or index != SERVING]
    return {index: f"{number}  {SECTIONS[index]}" for number, index in enumerate(shown, start=1)}


UNIT_SHOWN = {"USD": "$", "USD/kWh": "$/kWh", "USD/GPU-hour": "$/GPU-hour"}
"""How a declared unit reads in a label (others as declared)."""


@dataclass(frozen=True)
class Question:
    """One question: what it asks, how it is answered, and a hint with examples and the valid range."""

    key: str
    section: int
    label: str
    hint: str
    control: Control = "text"
    choices: tuple[tuple[str, str], ...] = ()
    """(label, value) pairs of a choice; the model question takes its choices from the catalog."""
    choice_words: Mapping[str, str] = field(default_factory=dict)
    """Other words that find a choice when typed in its list (value: words), as declared."""
    placeholder: str = ""
    check_label: str = ""
    """A checkbox's label: what ticking it says."""
    unit: str = ""
    """The answer's unit, shown in the label unless the label names it (`Budget ($)`)."""

    @property
    def title(self) -> str:
        """The label as the form shows it, with the unit: `Deadline (days)`, `Electricity ($/kWh)`."""
        unit = UNIT_SHOWN.get(self.unit, self.unit)
        label = self.label.removesuffix(f", {self.unit}")
        if not unit or unit.casefold() in label.casefold():
            return label
        return f"{label} ({unit})"


def _q(key: str, section: int, label: str, hint: str, **extra: object) -> Question:
    return Question(key, section, label, hint, **extra)  # type: ignore[arg-type]


MODEL_SIZE = field_limits(CustomModel, "params")
"""The range of a custom model's (total or active) parameters."""

DECLARED: dict[str, DeclaredInput] = {item.name: item for item in INPUTS.values() if item.meta.asked_in_app}
"""The declared inputs the app asks, by question key (the field name)."""

_OWN: dict[str, Question] = {
    q.key: q
    for q in (
        _q("model", 0, "Model", "A catalogued model (size shown), or Custom size", control="choice"),
        _q(
            "params",
            0,
            "Parameters",
            f"Custom: total parameters, {MODEL_SIZE.describe()}, e.g. 70B or 1.5e12",
        ),
        _q(
            "family",
            0,
            "Architecture",
            "Custom: dense, or mixture of experts (fewer active parameters)",
            control="choice",
            choices=(("dense", "dense"), ("mixture of experts", "moe")),
        ),
        _q("active_params", 0, "Active params", "MoE: parameters used per token, at most the total"),
    )
}
"""Questions that are not one declared input: the model (a preset or a custom size)."""

LAYOUT: tuple[tuple[str, ...], ...] = (
    ("model", "params", "family", "active_params"),
    (
        "kind",
        "finetune_method",
        "tokens",
        "precision",
        "fp8_stack",
        "efficiency",
        "mfu",
    ),
    (
        "target_tokens_per_second",
        "requests_per_second",
        "prompt_tokens",
        "output_tokens",
        "ttft_limit_ms",
        "tpot_limit_ms",
        "serving_headroom",
        "weight_precision",
        "kv_cache_precision",
    ),
    ("gpus", "deadline_days", "size_to_deadline", "sizing_margin"),
    (
        "pricing",
        "budget_usd",
        "electricity_usd_per_kwh",
        "pue",
        "price_usd_per_gpu_hour",
        "capex_usd_per_node",
        "owned_gpus",
    ),
    (
        "need_within_days",
        "wait_hours",
        "hardware_in_days",
        "guaranteed_capacity",
        "risk",
        "iteration_speed_matters",
        "objective",
    ),
)
"""The question keys of each section, in the order the guided flow asks them."""


DEFAULT_CHOICE = ""
"""The value of an optional choice's "default" option (the input left unset)."""


def question_of(item: DeclaredInput, section: int) -> Question:
    """The question for a declared input: its label, its hint with the valid range, its control."""
    meta = item.meta
    if item.kind == "check":
        return Question(item.name, section, meta.label, meta.hint, "check", check_label=meta.check_label)
    if item.kind == "choice":
        choices = item.choice_pairs()
        if item.optional:  # unset is an answer too: say so rather than show a blank
            choices = ((meta.blank or "default (see the hint)", DEFAULT_CHOICE), *choices)
        words = meta.choice_words
        return Question(item.name, section, meta.label, meta.hint, "choice", choices, choice_words=words)
    hint = meta.hint
    if item.kind in ("number", "integer"):
        hint = f"{hint} ({item.limits.describe(item.kind == 'integer')})"
    elif item.kind == "per_system":
        hint = f"{hint} (each {item.limits.describe(item.value_kind == 'integer')})"
    return Question(item.name, section, meta.label, hint, placeholder=meta.blank, unit=meta.unit)


def _questions() -> tuple[Question, ...]:
    placed = {key for keys in LAYOUT for key in keys}
    unplaced = [item for key, item in DECLARED.items() if key not in placed]
    found = []
    for section, keys in enumerate(LAYOUT):
        for key in keys:
            found.append(_OWN[key] if key in _OWN else question_of(DECLARED[key], section))
        found.extend(question_of(item, section) for item in unplaced if HOME_SECTION[item.table] == section)
    return tuple(found)


QUESTIONS: tuple[Question, ...] = _questions()
"""Every question, section by section."""

QUESTION_BY_KEY = {q.key: q for q in QUESTIONS}
