"""Base models for catalog data: immutable, strict about keys, every number with a source and date."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

Precision = Literal["bf16", "fp8", "fp4"]
PRECISIONS: tuple[Precision, ...] = ("bf16", "fp8", "fp4")

Positive = Annotated[float, Field(ge=1e-9, le=1e18, allow_inf_nan=False)]
"""A positive catalog number, 1e-9 to 1e18: wider than any quantity catalogued, narrow enough that no
product or quotient of a few of them overflows to inf or underflows to 0."""
NonNegative = Annotated[float, Field(ge=0, le=1e18, allow_inf_nan=False)]
Fraction = Annotated[float, Field(gt=0, le=1, allow_inf_nan=False)]
PositiveInt = Annotated[int, Field(gt=0, le=10**12)]
ParamCount = Annotated[float, Field(ge=1e6, le=1e14, allow_inf_nan=False)]
"""A model's parameter count: 1M to 100T (a preset's or a custom model's)."""

_URL_IN_TEXT = re.compile(r"https?://\S+")


def url_in(text: str) -> str:
    """The last http(s) address a source text names (without the punctuation that ends a sentence), or
    empty: a source names its publication and where it can be read in one text, and `url` is read from it."""
    found = _URL_IN_TEXT.findall(text)
    return found[-1].rstrip(".,;)]") if found else ""


def with_url_from_source(data: object) -> object:
    """Model input with `url` read from `source` where the file gives none (a before-validator)."""
    if isinstance(data, dict) and not data.get("url") and isinstance(data.get("source"), str):
        found = url_in(data["source"])
        if found:
            return {**data, "url": found}
    return data


AS_OF_PATTERN = re.compile(r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$")
"""A source's date: YYYY, YYYY-MM or YYYY-MM-DD (catalog sections and rules alike)."""
RELEASE_PATTERN = re.compile(r"^[0-9]{4}-[0-9]{2}$")


class Frozen(BaseModel):
    """Base for catalog models: immutable, and unknown keys are errors (typos must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Sourced(Frozen):
    """A group of numbers from one source, with the date the figures describe."""

    source: str = Field(min_length=3, description="The original publication, with its URL (or [A]).")
    as_of: str = Field(description="Date of the figures: YYYY, YYYY-MM or YYYY-MM-DD.")
    note: str = Field("", description="Derivation or caveat, in one or two sentences.")
    url: str = Field(
        "", pattern=r"^(https?://\S+)?$", description="Where it can be read: by default the URL in `source`."
    )
    assumption: bool = Field(False, description="True where no published figure exists ([A]).")

    url_from_source = model_validator(mode="before")(with_url_from_source)

    @field_validator("as_of")
    @classmethod
    def _check_as_of(cls, value: str) -> str:
        if not AS_OF_PATTERN.match(value):
            raise ValueError(f"as_of {value!r} must be YYYY, YYYY-MM or YYYY-MM-DD")
        return value


def as_of_end(as_of: str) -> date:
    """The last day an `as_of` date (YYYY, YYYY-MM or YYYY-MM-DD) can mean: ages are never overstated."""
    parts = [int(p) for p in as_of.split("-")]
    if len(parts) == 3:
        return date(*parts)
    if len(parts) == 2:
        year, month = parts
        return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
    return date(parts[0], 12, 31)


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def as_of_words(as_of: str) -> str:
    """An `as_of` date as a reader says it: `Aug 2025` for 2025-08 or 2025-08-20, `2024` for 2024."""
    parts = as_of.split("-")
    return f"{_MONTHS[int(parts[1]) - 1]} {parts[0]}" if len(parts) > 1 else parts[0]


def check_release(value: str) -> str:
    """A software release month `YYYY-MM` (month 01-12); a ValueError says what is expected."""
    if not RELEASE_PATTERN.match(value) or not 1 <= int(value[5:]) <= 12:
        raise ValueError(f"software {value!r} must be a release month like 2024-12")
    return value


Release = Annotated[str, AfterValidator(check_release)]
"""A software release month, YYYY-MM."""
