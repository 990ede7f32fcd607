"""What a serving job's two GPU counts mean, in the words every surface uses.

An inference recommendation carries two GPU counts per system: the cluster the job's tokens are
costed on (`gpus`: the headline's and the comparison's count) and, with a target rate, the fleet that
sustains the rate (replicas × GPUs each: the serving table's). A buyer must not have to guess which
one to buy: the surfaces label both and tie them with these sentences.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from advisor.core.costing.results import Estimate, ServingSummary
from advisor.core.decision.recommendation import Recommendation
from advisor.present import numbers

ACQUIRE = {"rent": "rent", "own": "buy"}
"""The verb for getting GPUs under each pricing."""

PER_MILLION_OUTPUT = "$/1M output"
"""The price a buyer pays per 1M output tokens: the fleet's cost over the output tokens it serves, prompt
processing and spare capacity included (`Estimate.cost_per_million_tokens_usd`, the headline's figure)."""
FULL_LOAD_INPUT = "$/1M input at full load"
FULL_LOAD_OUTPUT = "$/1M output at full load"
"""The engineering split (`ServingSummary.usd_per_million_*_tokens_at_full_load`): never the price."""
PER_MILLION_NOTE = (
    "$/1M output: the fleet's cost over the output tokens it serves (prompts included), the headline's "
    "figure; at full load: a GPU-hour split between prompt processing (input) and generation (output) "
    "with every replica busy, the floor a per-token price could reach, not what this fleet's tokens cost"
)
"""How to read the two kinds of per-token price, in the words every surface uses."""
SERVING_HEADINGS = {
    "time_to_train_hours": "Time to serve the tokens",
    "time_to_result_hours": "Time with the capacity wait",
    "cost_per_million_tokens_usd": PER_MILLION_OUTPUT,
}
"""A serving job's words (by estimate key) for figures named in training words: its time serves, its
tokens are output tokens."""
TRAINING_ONLY = frozenset({"mfu", "mfu_effective", "goodput"})
"""Figures that say nothing of a serving job: its speed is the serving model's, its goodput 1."""
TRAINING_ONLY_PARTS = frozenset({"overhead", "downtime"})
"""Time parts a serving job never has (a training run's production overhead and failures, always 0 in
its estimate): not shown for it."""
SERVING_TIME_TITLE = "Time to serve"
SERVING_TIME_BLURB = "Waiting for capacity, setting up (none for a month at a target rate), and serving."
"""A serving job's time breakdown (a month of serving and the wait for it, not a training run's result)."""


def shown_parts(parts: Mapping[str, float], kind: str) -> dict[str, float]:
    """A breakdown's parts as shown for a job of `kind`: a serving job's without the training-only ones."""
    return {k: v for k, v in parts.items() if kind != "inference" or k not in TRAINING_ONLY_PARTS}


def fleet_gpus(serving: ServingSummary) -> int:
    """The fleet's GPUs: sized for the target rate, else the replicas that fit the cluster given."""
    if serving.gpus_for_target is not None:
        return serving.gpus_for_target
    return serving.replicas * serving.replica_gpus


def fleet_text(serving: ServingSummary) -> str:
    """`12 × 1`, `29 × 4 = 116`: replicas × GPUs each, and the total when it is not plain."""
    gpus = fleet_gpus(serving)
    replicas = gpus // serving.replica_gpus if serving.replica_gpus else 0
    text = f"{replicas:,} × {serving.replica_gpus}"
    return text + (f" = {gpus:,}" if serving.replica_gpus > 1 else "")


def _served(rec: Recommendation) -> Iterator[tuple[Estimate, ServingSummary]]:
    for cand in rec.candidates:
        if cand.estimate is not None and cand.estimate.serving is not None:
            yield cand.estimate, cand.estimate.serving


def serving_target(rec: Recommendation) -> tuple[Estimate, float] | None:
    """An estimate of the job and the target rate in generated tokens/s (None without a target)."""
    for est, serving in _served(rec):
        if serving.target_tokens_per_second:
            return est, serving.target_tokens_per_second
    return None


def rate_text(tokens_per_second: float) -> str:
    """`50k tokens/s`."""
    return f"{numbers.count(tokens_per_second)} tokens/s"


def sized_to_fleet(est: Estimate, serving: ServingSummary) -> bool:
    """Whether the job's cluster is the fleet for the target rate (serving to a rate sizes it so)."""
    return est.gpus == fleet_gpus(serving)


def job_gpus_note(rec: Recommendation, fleet_where: str) -> str | None:
    """How to read the GPUs of the comparison for a serving job with a target rate whose cluster is not
    its fleet (None otherwise); `fleet_where` says where the fleet is shown."""
    target = serving_target(rec)
    if target is None or all(sized_to_fleet(e, s) for e, s in _served(rec)):
        return None
    est, rate = target
    return (
        f"GPUs: the cluster each system serves the job's {numbers.count(est.tokens)} tokens on (its time "
        f"and cost); the GPUs to {ACQUIRE.get(est.pricing, 'get')} for {rate_text(rate)} are {fleet_where}"
    )


def headroom_note(rec: Recommendation) -> str | None:
    """How much of each fleet the target rate uses, and the headroom it was sized with (None without a
    target rate): the fleet carries rate / (1 - headroom), in whole replicas."""
    sized = [s for _, s in _served(rec) if s.target_tokens_per_second and s.headroom is not None]
    if not sized:
        return None
    headroom = sized[0].headroom or 0.0
    low, high = min(s.utilisation for s in sized), max(s.utilisation for s in sized)
    used = numbers.percent(low, 0) + (
        "" if round(low, 2) == round(high, 2) else f"–{numbers.percent(high, 0)}"
    )
    rate = rate_text(sized[0].target_tokens_per_second or 0.0)
    if headroom == 0:
        return (
            f"headroom: none, each fleet sized to {rate} exactly ({used} utilisation at it): a burst over "
            "the rate breaks the latency limits"
        )
    return (
        f"headroom: {numbers.percent(headroom, 0)} of each fleet kept spare for bursts, so {rate} uses "
        f"{used} of its capacity (at most {numbers.percent(1 - headroom, 0)}, in whole replicas)"
    )


def fleet_note(rec: Recommendation) -> str:
    """How to read the serving table's fleet and $/month."""
    target = serving_target(rec)
    if target is None:
        return (
            "fleet: replicas × GPUs each on the cluster given (no target rate; give one to size the fleet "
            "for it); $/month: that cluster's"
        )
    est, rate = target
    split = "$/1M out: the fleet's cost over the output tokens it serves (prompts included), as headlined"
    headroom = headroom_note(rec)
    split += f"; {headroom}" if headroom else ""
    if all(sized_to_fleet(e, s) for e, s in _served(rec)):
        return (
            f"fleet: the GPUs to {ACQUIRE.get(est.pricing, 'get')} to sustain {rate_text(rate)} (the GPUs "
            f"above), replicas × GPUs each; $/month: that fleet's; {split}"
        )
    return (
        f"fleet: the GPUs to {ACQUIRE.get(est.pricing, 'get')} to sustain {rate_text(rate)}, replicas × GPUs "
        f"each; $/month: that fleet's (not the {numbers.count(est.tokens)}-token job's cluster); {split}"
    )


def serving_line(rec: Recommendation) -> str | None:
    """The winner's fleet for the target rate in one sentence, tied to the headline's GPU count."""
    winner = rec.winner_candidate
    est = winner.estimate if winner is not None else None
    serving = est.serving if est is not None else None
    if est is None or serving is None or not serving.target_tokens_per_second:
        return None
    if sized_to_fleet(est, serving):  # the headline is the fleet already
        return None
    gpus = fleet_gpus(serving)
    replicas = gpus // serving.replica_gpus
    layout = f"{replicas:,} replicas × {serving.replica_gpus} GPU{'s' if serving.replica_gpus != 1 else ''}"
    unit = est.purchase
    if unit is not None and unit.units:  # bought whole: say so, as "what buying means" does
        layout += f"; bought in whole {unit.unit}s of {unit.gpus_bought // unit.units}"
    return (
        f"To serve {rate_text(serving.target_tokens_per_second)}: {ACQUIRE.get(est.pricing, 'get')} "
        f"{gpus:,} {est.system} GPUs ({layout}), {numbers.money(serving.usd_per_month)}/month; "
        f"the {est.gpus:,} GPUs above are the cluster the job's {numbers.count(est.tokens)} tokens are "
        "costed on."
    )
