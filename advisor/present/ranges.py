"""Why an expected figure can lie outside its own P10–P90, said where the ranges are shown.

An estimate takes each input's expected value. Some inputs' expected value is at or near one end of
their range (an owned fleet used every hour, the longest depreciation life): most draws are less
favourable, so the sampled P10 can lie above the expected cost. A buyer reading "$14.8M ($15.5M to
$27.9M)" should be told that the figure is the favourable end, and by which inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from advisor.core.analysis.uncertainty import HIGHER_HELPS
from advisor.present import numbers

SPEED = frozenset({"mfu", "efficiency", "goodput"})
FIGURES: tuple[tuple[str, str, frozenset[str] | None], ...] = (
    ("time_to_result_hours", "time to result", SPEED),
    ("cost_usd", "cost", None),
    ("energy_kwh", "energy", SPEED | {"pue"}),
)
"""The ranged figures a sentence may name, as the ranges tables order them, and the uncertain inputs
each depends on (None: all of them; `uncertainty.input_spreads` names them)."""


def break_even_lines(sens: Any, rec: Any = None) -> list[str]:
    """What would flip the answer within the ranges: each break-even point, then how much faster a
    dearer system must be to win per dollar (the report's "How sure the answer is", after robustness).

    Given the recommendation whose "what would change the answer" already says the runner-up's price to
    win (`Recommendation.price_to_win`, which the break-even reuses), that point is left out here rather
    than said twice in other words."""
    stated = _stated_price(rec)
    points = [b.sentence for b in sens.break_evens if (b.input, b.system) != stated]
    return [*points, *sens.speed_for_price]


def _stated_price(rec: Any) -> tuple[str, str] | None:
    """(`price`, the runner-up) when `rec` says the runner-up's rental price to win; else None."""
    price = getattr(rec, "price_to_win", None)
    if price is None or price.pricing != "rent" or price.sentence not in rec.what_would_change:
        return None
    return ("price", price.system)


def _series(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


LOPSIDED = 0.25
"""An input whose expected value lies within this share of its range's width from one end is lopsided."""


def one_sided(inputs: Mapping[str, Any], *, favourable: bool) -> dict[str, str]:
    """The inputs whose expected value is at or near (`LOPSIDED`) the `favourable` end of their range
    (else the unfavourable end): name, then `label (value; the other end …)` for people."""
    shown = {}
    for name, s in inputs.items():
        at_high = (name in HIGHER_HELPS) == favourable
        near, far = (s.high, s.low) if at_high else (s.low, s.high)
        if s.low < s.high and abs(s.expected - near) <= LOPSIDED * (s.high - s.low):
            value, other = (numbers.input_value(name, v) for v in (s.expected, far))
            shown[name] = f"{numbers.input_label(name)} ({value}; the other end {other})"
    return shown


def outside_note(ranges: Mapping[str, Any]) -> str:
    """A sentence naming the systems whose expected figure lies outside its sampled P10–P90, and the
    one-sided inputs that put it there; empty when every expected figure is inside."""
    outside: dict[tuple[str, str], list[str]] = {}
    ends: dict[str, str] = {}
    for system, rng in ranges.items():
        for key, noun, depends in FIGURES:
            r = getattr(rng, key)
            side = "below its P10" if r.expected < r.p10 else "above its P90" if r.expected > r.p90 else ""
            if side:
                outside.setdefault((noun, side), []).append(system)
                found = one_sided(rng.inputs, favourable=r.expected < r.p10)
                ends |= {n: t for n, t in found.items() if depends is None or n in depends}
    if not outside:
        return ""
    parts = [f"{noun} of {_series(systems)} lies {side}" for (noun, side), systems in outside.items()]
    named = list(ends.values())
    because = (
        f"the expected {_series(named)} {'is' if len(named) == 1 else 'are'} at or near one end of "
        f"{'its range' if len(named) == 1 else 'their ranges'}"
        if named
        else "most of the inputs' ranges run one way from their expected values"
    )
    return (
        f"The expected {'; the '.join(parts)}: {because}, so most samples fall on one side of the "
        "expected figure; plan on the P10 to P90."
    )
