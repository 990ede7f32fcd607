"""The recommended run's headline figures as text: one composition for `Recommendation.headline`
(plain, in the core) and the app's styled headline (`advisor.present.headline`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from advisor.core import fmt
from advisor.core.costing.results import Estimate, ServingSummary


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
    serving: ServingFigures | None = None
    """Serving at a target rate: the fleet and its monthly figures (the headline is about them)."""
    at_quantile: str = ""
    """When the deadline is judged at a quantile of the time to result: it, e.g. `29.1 days at P90`."""


@dataclass(frozen=True)
class ServingFigures:
    """A serving fleet for a target rate as the headlines show it: 15 replicas of 2 GPUs, `$42.8k` a month."""

    rate: str
    """The target, e.g. `50k tokens/s`."""
    replicas: int
    replica_gpus: int
    per_month: str
    """The fleet's cost for a month of serving, e.g. `$42.76k`."""
    per_million_output_tokens: str
    """All-in: the fleet's cost over the tokens it generates at the target rate, e.g. `32.5¢`."""
    tpot: str
    """Time per output token of the plan, e.g. `99.6 ms`."""
    tpot_limit: str
    """The limit it meets, e.g. `limit 100 ms, the default for chat`, or what it misses."""
    month_tokens: str
    """The output tokens a month at the rate generates, e.g. `131B`."""
    starts: str = ""
    """The wait before serving starts (lead time, capacity) when a day or more, e.g. `120 days`."""


_TO_DO = {"pretrain": "to train", "finetune": "to fine-tune", "inference": "to serve the tokens"}


def _outlay(est: Estimate) -> str:
    """`16 racks, $69.6M up front`: what buying means, in the units bought (so `1,152x` is GPUs), and
    what is already owned."""
    owned = est.purchase.gpus_owned if est.purchase else 0
    bought = ""
    if est.purchase_usd and est.purchase is not None:
        units = est.purchase.units
        unit = est.purchase.unit + ("s" if units != 1 else "")
        bought = f"{units:,} {unit}, {fmt.money(est.purchase_usd)} up front"
    if owned >= est.gpus:
        return "already owned"
    if owned:
        return f"{owned:,} already owned" + (f", {bought}" if bought else "")
    return bought


def _verb(est: Estimate, pricing: str) -> Literal["Rent", "Buy", "Use"]:
    if pricing == "rent":
        return "Rent"
    return "Use" if est.purchase and est.purchase.gpus_owned >= est.gpus else "Buy"


def serving_figures(est: Estimate) -> ServingFigures | None:
    """The fleet `est` sizes for a target rate, as the headlines show it (None: not serving to a rate)."""
    s = est.serving
    if s is None or s.target_tokens_per_second is None:
        return None
    wait = est.time_to_result_hours - est.time_to_train_hours
    return ServingFigures(
        rate=f"{fmt.count(s.target_tokens_per_second)} tokens/s",
        replicas=s.replicas,
        replica_gpus=s.replica_gpus,
        per_month=fmt.money(est.cost_usd),
        per_million_output_tokens=fmt.cents_or_dollars(est.cost_per_million_tokens_usd),
        tpot=f"{s.tpot_ms:,.3g} ms",
        tpot_limit=_tpot_limit(s),
        month_tokens=fmt.count(est.tokens),
        starts=fmt.duration(wait) if wait >= 24 else "",
    )


def _tpot_limit(s: ServingSummary) -> str:
    """`limit 100 ms, the default for chat`, `limit 40 ms`, or that the plan misses the limits."""
    if s.tpot_limit_ms is None:
        return "no limit set"
    if not s.meets_limits:
        return f"misses the latency limits: TPOT {s.tpot_limit_ms:,.4g} ms"
    default = ", the default for chat" if s.tpot_limit_default else ""
    return f"limit {s.tpot_limit_ms:,.4g} ms{default}"


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
        serving=serving_figures(est),
    )


def rank_words(objective: str, best: bool, sampled: str = "") -> str:
    """`best on cost`, or `first on cost after the rules' weights` for a winner another system beats on
    the objective itself (the rules' weights put it first); when the sampled inputs do not bear it out
    (`sampled`, `Verdict.sampled_words`), on the expected values and what the samples say instead:
    `best on expected cost; mi300x wins 73% of sampled inputs`."""
    on = f"expected {objective}" if sampled else objective
    words = f"best on {on}" if best else f"first on {on} after the rules' weights"
    return f"{words}; {sampled}" if sampled else words


def settled_headline(headline: str, objective: str, best: bool, sampled: str) -> str:
    """`headline` (as `headline_sentence` wrote it) with its closing rank words saying what the sampled
    inputs say (`rank_words`), so the headline never contradicts the verdict."""
    said = f"({rank_words(objective, best)})"
    if not sampled or not headline.endswith(said):
        return headline
    return headline.removesuffix(said) + f"({rank_words(objective, best, sampled)})"


def headline_sentence(figures: HeadlineFigures, objective: str, best: bool = True) -> str:
    """`Rent 8x h100: 5.2 days to train, $12.3k (54.2¢ per 1M tokens), 850 kWh (best on cost)`; serving
    to a rate, the fleet's month (`serving_sentence`). `best`: no feasible system beats it on the
    objective itself (see `rank_words`)."""
    f = figures
    if f.serving is not None:
        return serving_sentence(f, f.serving, rank_words(objective, best))
    result = f" ({f.result} to result)" if f.result else ""
    if f.at_quantile:
        result = f" ({f.result + ' to result, ' if f.result else ''}{f.at_quantile})"
    outlay = f" ({f.outlay})" if f.outlay else ""
    return (
        f"{f.verb} {f.gpus:,}x {f.system}{outlay}: {f.train} {f.to_do}{result}, "
        f"{f.cost} ({f.per_million_tokens} per 1M tokens), {f.energy} ({rank_words(objective, best)})"
    )


def replica_layout(replicas: int, replica_gpus: int) -> str:
    """How a serving fleet splits into replicas, e.g. `15 replicas of 2 GPUs`, `1 replica of 8 GPUs`;
    empty for one replica on one GPU (the fleet's GPU count says it all)."""
    if replicas == 1 and replica_gpus == 1:
        return ""
    return f"{_counted(replicas, 'replica')} of {_counted(replica_gpus, 'GPU')}"


def _counted(n: int, noun: str) -> str:
    """`1 GPU`, `2 GPUs`, `1,024 replicas`."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def serving_sentence(f: HeadlineFigures, s: ServingFigures, rank: str) -> str:
    """`Rent 30x mi325x (15 replicas of 2 GPUs) to serve 50k tokens/s: $42.8k/month, 32.5¢ per 1M output
    tokens (prompts included), 99.9 ms per output token (limit 100 ms, the default for chat); a month:
    131B tokens, 47.8 MWh (best on cost)`."""
    notes = [note for note in (replica_layout(s.replicas, s.replica_gpus), f.outlay) if note]
    fleet = f" ({', '.join(notes)})" if notes else ""
    starts = f", starts in {s.starts}" if s.starts else ""
    return (
        f"{f.verb} {f.gpus:,}x {f.system}{fleet} to serve {s.rate}: "
        f"{s.per_month}/month, {s.per_million_output_tokens} per 1M output tokens (prompts included), "
        f"{s.tpot} per output "
        f"token ({s.tpot_limit}); a month: {s.month_tokens} tokens, {f.energy}{starts} ({rank})"
    )
