"""A reason line: `bonus 10% H200's 141 GB ...`, its kind marked in the kind's style.

A rule with several effects (a penalty and a warning) says one thing: it is one line, its effects'
labels together (`penalty 100%, warn ...`). Rich is imported by the styled forms only, so the reports
(plain text) never load it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from advisor.core.decision.recommendation import Reason
from advisor.present.styles import REASON_STYLES

if TYPE_CHECKING:
    from rich.text import Text


WEIGHTED = {"prefer": "bonus", "penalize": "penalty"}
"""How a weighted rule effect reads: a prefer 0.1 makes the score 10% better, a penalize 0.1 10% worse."""


@dataclass(frozen=True)
class ReasonLine:
    """One line of reasons: a rule's effects on one candidate (same text), or one other reason."""

    effects: tuple[Reason, ...]

    @property
    def text(self) -> str:
        """What the rule (or the constraint) says."""
        return self.effects[0].text


def reason_lines(reasons: Iterable[Reason]) -> list[ReasonLine]:
    """The reasons as lines, in the order they first appear: a rule's effects with the same text together."""
    lines: list[list[Reason]] = []
    by_rule: dict[tuple[str, str], list[Reason]] = {}
    for reason in reasons:
        key = (reason.rule, reason.text) if reason.rule else None
        if key is not None and key in by_rule:
            by_rule[key].append(reason)
            continue
        lines.append([reason])
        if key is not None:
            by_rule[key] = lines[-1]
    return [ReasonLine(tuple(effects)) for effects in lines]


def _effects(item: Reason | ReasonLine) -> tuple[Reason, ...]:
    return item.effects if isinstance(item, ReasonLine) else (item,)


def reason_label(reason: Reason) -> str:
    """`penalty 10%` or `bonus 10%` (a rule's weight in words), or the kind (`warn`) without a weight."""
    if reason.weight and reason.kind in WEIGHTED:
        return f"{WEIGHTED[reason.kind]} {reason.weight * 100:.3g}%"
    return reason.kind


def line_label(item: Reason | ReasonLine) -> str:
    """`penalty 100%, warn`: each effect's label, in the rule's order."""
    return ", ".join(reason_label(effect) for effect in _effects(item))


def reason_text(item: Reason | ReasonLine) -> Text:
    """The reason line as Rich text (the app), each effect's label in its kind's style."""
    from rich.text import Text

    text = Text()
    for i, effect in enumerate(_effects(item)):
        text.append(", " if i else "")
        text.append(reason_label(effect), REASON_STYLES.get(effect.kind, ""))
    return text.append(" ").append(item.text)


def reason_markup(item: Reason | ReasonLine) -> str:
    """The reason line as console markup, its text escaped (the CLI)."""
    from rich.markup import escape

    labels = ", ".join(f"[{REASON_STYLES.get(e.kind, '')}]{reason_label(e)}[/]" for e in _effects(item))
    return f"{labels} {escape(item.text)}"


def reason_plain(item: Reason | ReasonLine) -> str:
    """`bonus 10%: H200 ...` or `penalty 100%, warn: ...`: the labels and the text, unstyled (the reports)."""
    return f"{line_label(item)}: {item.text}"
