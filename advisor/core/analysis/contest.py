"""An unsettled choice: when the expected winner wins fewer than half the sampled inputs, the systems
that share the wins, and the uncertain input whose value would settle it most.

The ranking is by expected values and stays so. What settles it is found on the samples already drawn:
for each uncertain input of each system sharing the wins (a shared one, as electricity, once), the
samples are cut into quarters by that input's value, and the input that settles most is the one whose
quarters each have the most decided winner (the mean of the quarters' leading shares). Pinning it (a
quote, a measured throughput) moves the answer towards one of its quarters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from advisor.core import fmt
from advisor.core.costing.results import Estimate
from advisor.core.decision.gaps import OBJECTIVE_NOUN
from advisor.core.decision.verdict import split_words
from advisor.core.model.catalog import Catalog
from advisor.core.model.sourced import Sourced

QUARTERS = 4
"""The samples are cut into this many equally likely slices of each input's range."""
CONTENDERS = 3
"""At most this many systems are named as sharing the wins."""
COVER = 0.75
"""Systems are named, most wins first, until they hold this share of the samples."""
MIN_GAIN = 0.05
"""An input that raises the leading share by less than this settles nothing worth naming."""
THROUGHPUT = "the throughput of {systems}, measured on this model with a pinned software release"
PINS = {
    "mfu": THROUGHPUT,
    "efficiency": THROUGHPUT,
    "goodput": "the failure and restart overhead of {systems} at this scale (the provider's record)",
    "price": "a firm rental quote for {systems}",
    "capex": "a firm purchase quote for {systems}",
    "electricity": "your electricity price",
    "pue": "your facility's PUE",
    "depreciation": "the depreciation life you will use",
    "cost_of_capital": "your cost of capital",
    "maintenance": "your maintenance contract's price",
    "utilization": "how busy your fleet will be",
    "colocation": "your colocation rent",
}
"""Each uncertain input (`uncertainty.input_spreads`): what would pin it."""
NOUNS = {
    "efficiency": "throughput",
    "price": "rental price",
    "capex": "purchase price",
    "electricity": "electricity price",
    "depreciation": "depreciation life",
    "utilization": "fleet utilisation",
    "colocation": "colocation rent",
}
"""An input's name where a sentence about settling the choice needs more than `fmt.input_label`."""


@dataclass(frozen=True)
class Settler:
    """One uncertain input and how decided the winner is within each quarter of its range."""

    system: str | None
    """The system whose input it is (None: shared by every system, as electricity)."""
    input: str
    settled_share: float
    """The mean of the quarters' leading shares: what knowing the input leaves the leader, on average."""
    lowest: tuple[str, float]
    """The leader and its share among the samples in the lowest quarter of the input's range."""
    highest: tuple[str, float]


def contenders(shares: Mapping[str, float], winner: str) -> tuple[tuple[str, float], ...]:
    """The systems sharing the wins, most first (the winner always among them): until they hold `COVER`
    of the samples, at most `CONTENDERS`."""
    named: list[tuple[str, float]] = []
    for sid, share in sorted(shares.items(), key=lambda item: (-item[1], item[0])):
        if share <= 0 or len(named) == CONTENDERS or sum(s for _, s in named) >= COVER:
            break
        named.append((sid, share))
    if winner not in (sid for sid, _ in named):
        named = [*named[: CONTENDERS - 1], (winner, shares.get(winner, 0.0))]
    return tuple(named)


def _quarter_leaders(order: Sequence[int], winners: Sequence[str | None]) -> list[tuple[str, float]]:
    size = len(order) // QUARTERS
    leaders = []
    for q in range(QUARTERS):
        part = order[q * size : (q + 1) * size] if q < QUARTERS - 1 else order[q * size :]
        counts = Counter(w for w in (winners[i] for i in part) if w is not None)
        sid, n = min(counts.items(), key=lambda item: (-item[1], item[0])) if counts else ("", 0)
        leaders.append((sid, n / len(part) if part else 0.0))
    return leaders


def settlers(
    winners: Sequence[str | None],
    draws: Mapping[str, Sequence[Mapping[str, float]]],
    shared: Mapping[str, bool],
    systems: Sequence[str],
) -> list[Settler]:
    """Each uncertain input of `systems` (a shared one once), most settling first. `winners` is each
    sample's winner (None: no system feasible in it), `draws` each system's input values per sample,
    `shared` whether an input is drawn once for every system."""
    found: dict[tuple[str | None, str], Settler] = {}
    for sid in systems:
        rows = draws.get(sid, ())
        if len(rows) != len(winners) or len(rows) < QUARTERS:
            continue
        for name in rows[0]:
            key = (None if shared.get(name) else sid, name)
            if key in found:
                continue
            order = sorted(range(len(rows)), key=lambda i: (rows[i][name], i))
            leaders = _quarter_leaders(order, winners)
            mean = sum(share for _, share in leaders) / QUARTERS
            found[key] = Settler(key[0], name, mean, leaders[0], leaders[-1])
    return sorted(found.values(), key=lambda s: (-s.settled_share, s.system or "", s.input))


def _assumed_price(settler: Settler, catalog: Catalog, estimates: Mapping[str, Estimate]) -> bool:
    """Whether the input is a price the catalog assumes (no published quote behind it)."""
    est = estimates.get(settler.system) if settler.system is not None else None
    if est is None:
        return False
    system = catalog.system(est.system)
    priced: Sourced | None = None
    if settler.input == "capex":
        priced = system.capex
    elif settler.input == "price" and est.price_offer is not None and est.price_offer.offer is not None:
        priced = system.rental_offer(est.price_offer.offer)
    return priced is not None and priced.assumption


def _pins(found: Sequence[Settler], catalog: Catalog, estimates: Mapping[str, Estimate]) -> list[str]:
    """What would pin the inputs, one phrase per input (`the throughput of b300 and gb300-nvl72, ...`,
    `a firm purchase quote for b300 (the price here is an assumption)`)."""
    by_input: dict[str, list[Settler]] = {}
    for settler in found:
        by_input.setdefault(settler.input, []).append(settler)
    pins = []
    for name, group in by_input.items():
        words = PINS.get(name, "the " + fmt.input_label(name) + " of {systems}")
        systems = " and ".join(s.system for s in group if s.system)
        text = words.format(systems=systems)
        if any(_assumed_price(s, catalog, estimates) for s in group):
            text += " (the price here is an assumption)"
        pins.append(text)
    return pins


def unsettled_sentence(
    winner: str,
    objective: str,
    named: Sequence[tuple[str, float]],
    found: Sequence[Settler],
    leading_share: float,
    catalog: Catalog,
    estimates: Mapping[str, Estimate],
) -> str:
    """`gb300-nvl72 leads on expected cost, but the choice is not settled: ...; what would settle it
    most: ...`, naming the systems that share the wins and the input that decides most among them."""
    metric = OBJECTIVE_NOUN.get(objective, objective)
    text = f"{winner} leads on expected {metric}, but the choice is not settled: {split_words(named)}"
    useful = [s for s in found if s.settled_share - leading_share >= MIN_GAIN]
    if not useful:
        return text + "; no single uncertain input decides it: weigh what else separates them"
    pins = _pins(useful[:2], catalog, estimates)
    best = useful[0]
    noun = NOUNS.get(best.input) or fmt.input_label(best.input)
    whose = f"{best.system}'s {noun}" if best.system else f"the {noun}"
    (low_sid, low), (high_sid, high) = best.lowest, best.highest
    detail = (
        f"with {whose} in the lowest quarter of its range {low_sid} wins {fmt.percent(low, 0)} of samples, "
        f"in the highest {high_sid} {fmt.percent(high, 0)}"
    )
    return f"{text}; what would settle it most: {' and '.join(pins)} ({detail})"
