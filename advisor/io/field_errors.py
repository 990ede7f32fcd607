"""One validation error in the project's words: what is expected, not pydantic's ("Input should be a valid
number, unable to parse string as a number"). The file, line and key are added by the caller."""

from __future__ import annotations

import datetime
from typing import Any

from pydantic_core import ErrorDetails

from advisor.core.model.inputs import format_bound
from advisor.errors import shown

TINY = 1e-6
"""A lower bound below this (a `ge=1e-9` that keeps zero out) reads as "above 0", not "at least 1e-09"."""

_EXPECTED = {
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "int_type": "expected a whole number",
    "int_parsing": "expected a whole number",
    "int_from_float": "expected a whole number",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "string_type": 'expected text in quotes ("...")',
    "dict_type": "expected a table ([name] or {key = value})",
    "model_type": "expected a table ([name] or {key = value})",
    "model_attributes_type": "expected a table ([name] or {key = value})",
    "list_type": "expected a list ([...])",
    "tuple_type": "expected a list ([...])",
    "date_type": "expected a date (YYYY-MM-DD)",
    "date_parsing": "expected a date (YYYY-MM-DD)",
    "date_from_datetime_parsing": "expected a date (YYYY-MM-DD)",
    "date_from_datetime_inexact": "expected a date without a time (YYYY-MM-DD)",
    "datetime_type": "expected a date and time (YYYY-MM-DDTHH:MM:SS)",
    "datetime_parsing": "expected a date and time (YYYY-MM-DDTHH:MM:SS)",
    "finite_number": "expected a finite number",
}


def bound(value: Any) -> str:
    """A range's end in the words every surface uses (`format_bound`: 1M, 36,500, 0.5), or as given."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_bound(float(value))
    return str(value)


def _ranged(kind: str, ctx: dict[str, Any]) -> str | None:
    """The words for a value out of its range, or None when `kind` is not a range check."""
    if kind == "greater_than":
        return f"must be above {bound(ctx['gt'])}"
    if kind == "greater_than_equal":
        low = ctx["ge"]
        tiny = isinstance(low, int | float) and 0 < low < TINY
        return "must be above 0" if tiny else f"must be at least {bound(low)}"
    if kind == "less_than":
        return f"must be below {bound(ctx['lt'])}"
    if kind == "less_than_equal":
        return f"must be at most {bound(ctx['le'])}"
    if kind == "string_too_short":
        least = ctx["min_length"]
        return "must not be empty" if least == 1 else f"must be at least {least:,} characters"
    if kind == "string_too_long":
        return f"too long (at most {ctx['max_length']:,} characters)"
    if kind == "too_short":
        return f"needs at least {ctx['min_length']:,} item(s)"
    if kind == "too_long":
        return f"holds at most {ctx['max_length']:,} item(s)"
    return None


def expected(err: ErrorDetails) -> str:
    """What the value at the error's key must be, in the project's words (pydantic's as a last resort)."""
    kind, ctx = err["type"], dict(err.get("ctx") or {})
    if kind in ("value_error", "assertion_error"):
        return shown(err["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, "), 400)
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return f"must be {ctx['expected']}"
    return _ranged(kind, ctx) or shown(err["msg"], 400)


def plain(value: Any) -> str:
    """A value as it would be written in TOML (true, 1.5, "text", 2024-01-01), or what it is (a list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list | tuple):
        return "a list"
    return repr(value)


def problem(err: ErrorDetails) -> str:
    """`expected a number (got "lots")`: what is expected, and the value given, shown safely once."""
    message = expected(err)
    if "input" not in err:
        return message
    got = err["input"]
    if (isinstance(got, str) and repr(got) in message) or f"got {plain(got)}" in message:
        return message
    if isinstance(got, dict) and err["type"] in ("value_error", "assertion_error"):
        return message  # a table's own check names the values it judged; "(got a table)" adds nothing
    return f"{message} (got {shown(plain(got))})"
