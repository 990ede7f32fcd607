"""The recommended run's headline figures as text: one composition for `Recommendation.headline`
(plain, in the core) and the app's styled headline (`advisor.present.headline`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from advisor.core import fmt
from advisor.core.costing.results import Estimate


@dataclass(frozen=True)
class HeadlineFigures:
    """What to do and what it costs: `Rent`, 8 GPUs of `h100`, and its time, cost and energy as text."""

    verb: Literal["Rent", "Buy", "Use"]
    """`Use` when every GPU is already owned."""
    gpus: int
    system: str
    train: str
    """Time to train, e.g. `37.5 days`."""
    cost: str
    per_million_tokens: str
    """Cost per million tokens, e.g. `54.2¢`."""
    energy: str
    to_do: str = "to train"
    """What the time is for, by job: `to train`, `to fine-tune`, `to serve the tokens`."""
    outlay: str = ""
    """When buying: the purchase, e.g. `$42.3M up front` or `512 owned, $16M up front`, else empty."""
    result: str = ""
    """Time to result when the lead time or the wait adds a day or more, e.g. `143.9 days`, else empty."""


_TO_DO = {"pretrain": "to train", "finetune": "to fine-tune", "inference": "to serve the tokens"}


def _outlay(est: Estimate) -> str:
    owned = est.purchase.gpus_owned if est.purchase else 0
    bought = f"{fmt.money(est.purchase_usd)} up front" if est.purchase_usd else ""
    if owned >= est.gpus:
        return "already owned"
    if owned:
        return f"{owned:,} already owned" + (f", {bought}" if bought else "")
    return bought


def _verb(est: Estimate, pricing: str) -> Literal["Rent", "Buy", "Use"]:
    if pricing == "rent":
        return "Rent"
    return "Use" if est.purchase and est.purchase.gpus_owned >= est.gpus else "Buy"


def headline_figures(est: Estimate, pricing: str) -> HeadlineFigures:
    """The figures of `est` (the recommended system's estimate) as the headlines show them."""
    waits = est.time_to_result_hours - est.time_to_train_hours >= 24
    return HeadlineFigures(
        verb=_verb(est, pricing),
        gpus=est.gpus,
        system=est.system,
        train=fmt.duration(est.time_to_train_hours),
        cost=fmt.money(est.cost_usd),
        per_million_tokens=fmt.cents_or_dollars(est.cost_per_million_tokens_usd),
        energy=fmt.energy(est.energy_kwh),
        to_do=_TO_DO.get(est.kind, "to train"),
        outlay=_outlay(est),
        result=fmt.duration(est.time_to_result_hours) if waits else "",
    )


def headline_sentence(figures: HeadlineFigures, objective: str) -> str:
    """`Rent 8x h100: 5.2 days to train, $12.3k (54.2¢ per 1M tokens), 850 kWh (best on cost)`."""
    f = figures
    result = f" ({f.result} to result)" if f.result else ""
    return (
        f"{f.verb} {f.gpus}x {f.system}{f' ({f.outlay})' if f.outlay else ''}: {f.train} {f.to_do}{result}, "
        f"{f.cost} ({f.per_million_tokens} per 1M tokens), {f.energy} (best on {objective})"
    )
