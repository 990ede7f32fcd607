"""The rate a serving job must sustain, as a scenario or a caller gives it."""

from __future__ import annotations

from typing import Any

from advisor.core.model.units import human_number


def target_rate(kind: str, target: float | None, requests: float | None, output_tokens: int) -> float | None:
    """The generated tokens per second a serving job must sustain (tokens/s, else requests/s x output
    tokens), or None for a batch job."""
    if kind != "inference":
        return None
    if target is not None:
        return target
    return requests * output_tokens if requests is not None else None


def given_number(value: Any) -> float | None:
    """A number as a scenario or caller gives it ("50k", 5e4), or None."""
    try:
        number = human_number(value) if value is not None else None
    except ValueError:
        return None  # the field's own validation names it
    return float(number) if isinstance(number, int | float) and not isinstance(number, bool) else None
