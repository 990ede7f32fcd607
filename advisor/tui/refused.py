"""Answers the core refused: shown with their reason, retried after every answer it accepts (they may
fit then), and dropped once their question no longer applies. Pure: no Textual."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.tui.answers import Answer, AnswerError, applicable, apply_answer
from advisor.tui.questions import QUESTION_BY_KEY


@dataclass(frozen=True)
class Taken:
    """The outcome of one answer: the scenario as accepted, and what stays refused, with why."""

    scenario: Scenario
    refused: Mapping[str, Answer] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    accepted: bool = True
    """Whether this answer itself was accepted."""


def take_answer(
    scenario: Scenario, catalog: Catalog, refused: Mapping[str, Answer], key: str, answer: Answer
) -> Taken:
    """Apply `answer` to `key`; on success, retry the answers refused before."""
    still_refused = dict(refused)
    try:
        scenario = apply_answer(scenario, catalog, key, answer)
    except AnswerError as exc:
        still_refused[key] = answer
        why = _errors(scenario, catalog, still_refused)
        why[key] = str(exc)
        return Taken(scenario, still_refused, why, accepted=False)
    still_refused.pop(key, None)
    errors: dict[str, str] = {}
    relevant = applicable(scenario)
    for other, other_answer in list(still_refused.items()):
        if not relevant.get(other, True):
            del still_refused[other]
            continue
        try:
            scenario = apply_answer(scenario, catalog, other, other_answer)
        except AnswerError as exc:
            errors[other] = str(exc)
        else:
            del still_refused[other]
    return Taken(scenario, still_refused, errors)


def _errors(scenario: Scenario, catalog: Catalog, refused: Mapping[str, Answer]) -> dict[str, str]:
    """Why each refused answer is refused against `scenario`."""
    errors = {}
    for key, answer in refused.items():
        try:
            apply_answer(scenario, catalog, key, answer)
        except AnswerError as exc:
            errors[key] = str(exc)
    return errors


def stale_reason(errors: Mapping[str, str], failure: str, typing: Mapping[str, Answer]) -> str:
    """Why the result shown does not match the answers on screen (empty when it does): an answer being
    typed (taken when the typing pauses), one not accepted, or a scenario the core could not compute."""
    if typing:
        return f"{', '.join(QUESTION_BY_KEY[key].title for key in typing)}: updating…"
    if errors:
        labels = ", ".join(QUESTION_BY_KEY[key].title for key in errors)
        return f"{labels}: not accepted; showing the result for the last valid answers"
    if failure:
        return f"could not compute: {failure}"
    return ""
