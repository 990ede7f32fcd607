"""The rate a serving job must sustain, as a scenario or a caller gives it."""

from __future__ import annotations

from typing import Any

from advisor.core.model.units import human_number

MAX_TOKENS = 1e18
"""The most tokens a job may train or generate."""
MAX_TOKENS_PER_SECOND = 1e11
"""The highest serving rate, generated tokens per second: a month of it stays within `MAX_TOKENS`
(about 2.6e17 tokens), and it is hundreds of times any published fleet's."""


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


def rate_too_high(kind: str, requests: float | None, output_tokens: int) -> str | None:
    """Why requests/s x output tokens is too high a serving rate (the product of two fields each within
    range can exceed `MAX_TOKENS_PER_SECOND`), or None when it is not."""
    rate = target_rate(kind, None, requests, output_tokens)
    if rate is None or rate <= MAX_TOKENS_PER_SECOND:
        return None
    return (
        f"requests_per_second x output_tokens: {requests:g} requests/s x {output_tokens:,} tokens is "
        f"{rate:.3g} tokens/s, more than the {MAX_TOKENS_PER_SECOND:.0e} a serving rate may be"
    )
