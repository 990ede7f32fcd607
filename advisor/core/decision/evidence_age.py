"""How old a rule's evidence is, judged by the one age limit the rules set: the price-age rule's.

A rule that weighs a system's score (a penalty, a bonus, an exclusion) on evidence older than that
limit says its date in the reason a buyer reads: "(evidence of Aug 2025)", or "(an assumption of 2024)"
for a rule marked an assumption (not read from a publication). Warnings and notes do not
move the ranking and mostly state durable facts (memory headroom, tensor parallelism), so they stay as
written; a rule whose text already names the date is not told twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from advisor.core.decision.conditions import leaves
from advisor.core.decision.rules import Rule
from advisor.core.model.sourced import as_of_end, as_of_words

PRICE_AGE_FACT = "price_age_days"
"""The rule fact whose threshold (in `rules/checks.toml`) says when a price is too old."""
WEIGHING = frozenset({"prefer", "penalize", "exclude"})
"""Effects that change a system's place in the ranking."""
_NAMES_A_DATE = re.compile(r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4}\b")


def stale_after_days(rules: Sequence[Rule]) -> float | None:
    """The age (days) past which a price is stale: the value the rules' `price_age_days >` condition names."""
    for rule in rules:
        for leaf in leaves(rule.when):
            if leaf.fact == PRICE_AGE_FACT and leaf.op == ">":
                return float(leaf.value)
    return None


def dated_because(rule: Rule, because: str, today: date | None, limit: float | None) -> str:
    """`because`, ending "(evidence of Aug 2025)" ("(an assumption of 2024)" for a rule marked an
    assumption) when `rule` weighs the score on evidence older than
    `limit` days (the price-age limit, `stale_after_days`) on `today` and its text names no date (a
    month and year) already."""
    if today is None or limit is None or not rule.as_of or not any(e.kind in WEIGHING for e in rule.effects):
        return because
    if (today - as_of_end(rule.as_of)).days <= limit or _NAMES_A_DATE.search(because):
        return because
    kind = "an assumption" if rule.assumption else "evidence"
    return f"{because} ({kind} of {as_of_words(rule.as_of)})"
