"""A reason line: `bonus 10% H200's 141 GB ...`, its kind marked in the kind's style.

Rich is imported by the styled forms only, so the reports (plain text) never load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.core.decision.recommendation import Reason
from advisor.present.styles import REASON_STYLES

if TYPE_CHECKING:
    from rich.text import Text


WEIGHTED = {"prefer": "bonus", "penalize": "penalty"}
"""How a weighted rule effect reads: a prefer 0.1 makes the score 10% better, a penalize 0.1 10% worse."""


def reason_label(reason: Reason) -> str:
    """`penalty 10%` or `bonus 10%` (a rule's weight in words), or the kind (`warn`) without a weight."""
    if reason.weight and reason.kind in WEIGHTED:
        return f"{WEIGHTED[reason.kind]} {reason.weight * 100:.3g}%"
    return reason.kind


def reason_text(reason: Reason) -> Text:
    """The reason as Rich text (the app)."""
    from rich.text import Text

    return Text.assemble((reason_label(reason), REASON_STYLES.get(reason.kind, "")), " ", reason.text)


def reason_markup(reason: Reason) -> str:
    """The reason as console markup, its text escaped (the CLI)."""
    from rich.markup import escape

    style = REASON_STYLES.get(reason.kind, "")
    return f"[{style}]{reason_label(reason)}[/] {escape(reason.text)}"


def reason_plain(reason: Reason) -> str:
    """`bonus 10%: H200's 141 GB ...` or `warn: ...`: the label and the text, unstyled (the reports)."""
    return f"{reason_label(reason)}: {reason.text}"
