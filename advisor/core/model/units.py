"""Unit constants and the parser for human-written numbers (`70B`, `15T`, `$2.10`, `1.5e12`)."""

from __future__ import annotations

import math
import re
from typing import Literal

from advisor.errors import shown

SECONDS_PER_HOUR = 3600.0
HOURS_PER_DAY = 24.0
HOURS_PER_YEAR = 8760.0
HOURS_PER_MONTH = HOURS_PER_YEAR / 12.0
JOULES_PER_KWH = 3.6e6
BYTES_PER_GIB = float(2**30)
"""Memory is counted in GiB. HBM's "GB" is binary: an "80 GB" H100 is 80 GiB (`nvidia-smi`: 81,559 MiB)."""

_SUFFIXES = {
    "": 1.0,
    "k": 1e3,
    "K": 1e3,
    "m": 1e6,
    "M": 1e6,
    "b": 1e9,
    "B": 1e9,
    "g": 1e9,
    "G": 1e9,
    "t": 1e12,
    "T": 1e12,
    "p": 1e15,
    "P": 1e15,
}
_NUMBER = re.compile(
    r"^(?P<sign>[-+]?)\s*(?P<currency>\$?)\s*(?P<num>(?:[0-9][0-9_,]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)"
    r"\s*(?P<suffix>[kKmMbBgGtTpP]?)\s*(?P<percent>%?)$",
    re.ASCII,
)
"""ASCII digits only (`١٢` and `１２` are refused, never read as 12); no two quantifiers can match the same
characters, so a long string fails in linear time."""
_GROUPED = re.compile(r"^[0-9]{1,3}(?:,[0-9]{3})+$", re.ASCII)
"""Commas are thousands separators only: `2,048`, `1,000,000` (`0,1`, `1,5`, `1,0000` are refused)."""
_UNDERSCORED = re.compile(r"^[0-9]{1,3}(?:_[0-9]{3})+$", re.ASCII)
"""Underscores likewise: `1_000`, `2_048` (`1__0`, `8_0` are refused, never read as 10 or 80)."""
MAX_NUMBER_CHARS = 64
"""The longest text read as a number; longer is refused before matching (`1,000,000,000T` is 14)."""


class UnreadNumber(ValueError):
    """A number written in a form that is refused rather than guessed at (`0x10`, `1__0`): its message
    says why, and every surface repeats it rather than its own "not a number"."""


NumberKind = Literal["any", "money", "fraction", "count"]
"""What a number is, for the signs written on it: money takes `$` ($2.10), a fraction `%` (50% is 0.5),
a count or a duration (tokens, GPUs, days) neither; `any` takes `$` (catalog values)."""

WRITTEN_LIKE: dict[NumberKind, str] = {
    "any": "70B, 15T, 1.5e12, $2.10",
    "money": "$2.10 or 2.1k",
    "fraction": "0.9 or 90%",
    "count": "70B, 15T, 1.5e12 or 2,048",
}
"""Examples of a number of each kind, as refusals show them (a refused token count never suggests `$`)."""


class DecimalCommaError(ValueError):
    """A number with a comma that is not a thousands separator (`0,1`, `1,5`): its message says to use a
    dot for decimals, and every surface repeats it rather than its own "not a number"."""


def parse_number(text: str | float | int, kind: NumberKind = "any") -> float:
    """Parse `70B`, `15T`, `1.5e12`, `$2.10`, `2,048`, `8k` or, for a fraction, `50%` into a float; raise
    ValueError otherwise (`DecimalCommaError` for a comma outside groups of three: `1,5` is never read as
    15; `UnreadNumber` for a sign the `kind` of number does not take: `$5` tokens, `50%` GPUs).

    Suffixes are decimal: k = 1e3, M = 1e6, B/G = 1e9, T = 1e12, P = 1e15.
    """
    if isinstance(text, bool):
        raise ValueError(f"{text!r} is not a number")
    if isinstance(text, int | float):
        value = float(text)
    else:
        stripped = text.strip()
        match = _NUMBER.match(stripped) if len(stripped) <= MAX_NUMBER_CHARS else None
        if not match:
            raise ValueError(f"{shown(repr(text))} is not a number (examples: 70B, 15T, 1.5e12, $2.10, 2048)")
        number = match.group("num")
        whole = re.split(r"[.eE]", number, maxsplit=1)[0]
        if "," in whole and not _GROUPED.match(whole):
            raise DecimalCommaError(_comma_problem(text, number))
        if "_" in whole and not _UNDERSCORED.match(whole):
            raise UnreadNumber(
                f"{shown(repr(text))}: an underscore only separates thousands, in groups of three (1_000)"
            )
        _check_signs(text, match, kind)
        digits = number.replace("_", "").replace(",", "")
        value = float(digits) * _SUFFIXES[match.group("suffix")] / (100.0 if match.group("percent") else 1.0)
        if match.group("sign") == "-":
            value = -value
    if not math.isfinite(value):
        raise ValueError(f"{shown(repr(text))} is not a finite number")
    return value


def _check_signs(text: str, match: re.Match[str], kind: NumberKind) -> None:
    """A currency sign on a number that is not money, or a percent sign on one that is not a fraction
    (or beside a suffix: `5k%`), is refused with what the number takes."""
    given = shown(repr(text))
    if match.group("currency") and kind in ("fraction", "count"):
        raise UnreadNumber(f"{given}: a currency sign ($) on a number that is not money")
    if match.group("percent") and kind != "fraction":
        raise UnreadNumber(
            f"{given}: a percent sign (%) on a number that is not a share (50% is 0.5 where one is)"
        )
    if match.group("percent") and match.group("suffix"):
        raise UnreadNumber(f"{given}: a percent sign (%) after a size suffix: write the share, e.g. 50%")


def _comma_problem(text: str, number: str) -> str:
    """Why a comma that is not a thousands separator is refused: it may be a decimal comma (`1,5`)."""
    one_comma = number.count(",") == 1 and "_" not in number
    decimal = f" ({shown(text.strip().replace(',', '.'))}?)" if one_comma else ""
    return (
        f"{shown(repr(text))}: use a dot for decimals{decimal}; a comma only separates thousands, "
        "in groups of three (2,048 or 1,000,000)"
    )


def format_si(value: float, unit: str = "", digits: int = 3) -> str:
    """Format 1.5e12 as `1.5T`, 7e10 as `70B` (decimal suffixes), with `digits` significant digits."""
    for factor, suffix in ((1e15, "P"), (1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.{digits}g}{suffix}{unit}"
    return f"{value:.{digits}g}{unit}"


def human_number(value: object, kind: NumberKind = "any") -> object:
    """A pydantic before-validator: "15T", "70B", "$2.10" become numbers; true and false are refused."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got {str(value).lower()}")
    if isinstance(value, str):
        return parse_number(value, kind)
    return value


def human_integer(value: object) -> object:
    """As `human_number`, and a whole float (2048.0, "2k") becomes an int."""
    value = human_number(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
