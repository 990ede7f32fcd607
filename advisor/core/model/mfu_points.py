"""A calibration point with its MFU resolved, and how a basis names it (shared by the MFU modules)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

from advisor.core.model.catalog import MfuPoint


@dataclass(frozen=True)
class Calibrated:
    """A calibration point with its MFU resolved (published, or derived from tokens/s)."""

    point: MfuPoint
    mfu: float
    seq_len: int
    params_active: float
    family: str
    source: str
    proxy_of: str | None = None
    carried: float = 1.0
    """The release ratio this figure was carried by (1 as published; see mfu_release)."""
    scale_up: float = 1.0
    """The ratio a proxy's figure was carried by: across NVLink domain sizes, or the proxy ratio measured
    between two systems of the same domain size (1 as published; see mfu_domain)."""
    scale_up_kind: str = "NVLink domain"
    params_total: float = 0.0
    """Total parameters (0: unknown, then only the active parameters place the model)."""


Group = tuple[Calibrated, ...]  # one (model, seq_len) configuration, one release, sorted by GPUs


def label(cal: Calibrated) -> str:
    """The figure as a basis names it: model, GPUs, stack, the proxy it came from and any carry."""
    proxy = f" (via {cal.proxy_of})" if cal.proxy_of else ""
    carried = f" × {cal.carried:.2f} (carried)" if cal.carried != 1.0 else ""
    digits = 3 if cal.scale_up_kind == "proxy ratio" else 2  # a proxy ratio as scaling.toml stores it
    domain = f" × {cal.scale_up:.{digits}f} ({cal.scale_up_kind})" if cal.scale_up != 1.0 else ""
    return f"{cal.point.model} on {cal.point.gpus} GPUs, {cal.point.stack}{proxy}{carried}{domain}"


LOSS_PIVOT_GPUS = 2048
"""Above this cluster size the loss per doubling grows (`loss_growth`); an assumption: the largest weak-
scaling benchmark series (NVIDIA's, SemiAnalysis's) end at 2,048-2,304 GPUs, with the global batch grown
with the cluster, while a real run's batch is bounded by convergence."""


def _doublings_weight_integral(gpus: float, growth: float) -> float:
    """∫ max(1, n / pivot)^growth d(log2 n) from the pivot to `gpus` (negative below the pivot)."""
    if gpus <= LOSS_PIVOT_GPUS or growth == 0:
        return math.log2(gpus / LOSS_PIVOT_GPUS)
    return ((gpus / LOSS_PIVOT_GPUS) ** growth - 1) / (growth * math.log(2))


def effective_doublings(gpus: float, doublings: float, growth: float) -> float:
    """The doublings from gpus / 2^doublings to `gpus`, those above 2,048 GPUs weighted by
    (cluster size / 2,048)^growth: with growth 0 every doubling counts once; with growth > 0 a doubling at
    16,384 GPUs counts 8^growth times one below 2,048. At a fixed global batch the tokens per GPU per step
    halve with each doubling, so the exposed gradient reduction and pipeline fill grow as a share of the
    step. Negative doublings (below a published range) count negatively."""
    if growth == 0 or doublings == 0:
        return doublings
    start = gpus / 2**doublings
    return _doublings_weight_integral(gpus, growth) - _doublings_weight_integral(start, growth)


def along_gpus(group: Group, gpus: int, loss_per_doubling: float, growth: float = 0.0) -> float:
    """MFU of one configuration at `gpus`: log2 interpolation between points, weak-scaling loss beyond
    (`loss_per_doubling` per doubling up to 2,048 GPUs, growing as (GPUs / 2,048)^`growth` above)."""
    counts = [c.point.gpus for c in group]
    mfus = [c.mfu for c in group]
    if gpus <= counts[0]:
        beyond = effective_doublings(gpus, math.log2(gpus / counts[0]), growth)
        return mfus[0] * (1 - loss_per_doubling) ** beyond
    if gpus >= counts[-1]:
        beyond = effective_doublings(gpus, math.log2(gpus / counts[-1]), growth)
        # At worst added GPUs do not shorten the step (tokens per GPU-second fall as 1/GPUs), never worse.
        return mfus[-1] * max((1 - loss_per_doubling) ** beyond, counts[-1] / gpus)
    hi = bisect.bisect_left(counts, gpus)
    lo = hi - 1
    t = math.log2(gpus / counts[lo]) / math.log2(counts[hi] / counts[lo])
    return mfus[lo] + t * (mfus[hi] - mfus[lo])


def _placed(pool: list[Group], params: tuple[float, float]) -> tuple[dict[float, list[Group]], float]:
    """The groups by the size that places a model among the others, and the workload's size: active
    parameters; for a MoE workload between the smallest and largest published MoE models by both
    measures, total parameters. Active parameters misplace MoE models whose few active parameters come
    with many experts (leave-one-out, docs/calibration.md: gpt-oss-120b, 5.1B of 117B, placed next to
    Qwen3 30B-A3B's 3.3B ran 22-42% faster than that). Below the smallest (the small-model exponent is
    fitted on active parameters) and above the largest, active parameters."""
    active, total = params
    by_active: dict[float, list[Group]] = {}
    by_total: dict[float, list[Group]] = {}
    for group in pool:
        by_active.setdefault(group[0].params_active, []).append(group)
        by_total.setdefault(group[0].params_total, []).append(group)
    moe = all(g[0].family == "moe" and g[0].params_total > 0 for g in pool)
    inside = min(by_active) < active < max(by_active) and min(by_total) < total < max(by_total)
    return (by_total, total) if moe and inside else (by_active, active)


def across_models(
    pool: list[Group],
    params: tuple[float, float],
    gpus: int,
    loss: tuple[float, float],
    small_exponent: float,
) -> tuple[float, list[Calibrated]]:
    """Interpolate in log(size) between the nearest smaller and larger configurations; `params` are the
    workload's (active, total) parameters, the size is chosen by `_placed`; `loss` is (loss per
    doubling, its growth) for each configuration's cluster size (`along_gpus`)."""
    by_size, params_active = _placed(pool, params)
    sizes = sorted(by_size)

    def at(size: float) -> float:
        groups = by_size[size]
        return sum(along_gpus(g, gpus, *loss) for g in groups) / len(groups)

    def members(size: float) -> list[Calibrated]:
        return [c for g in by_size[size] for c in g]

    if params_active <= sizes[0]:
        return at(sizes[0]) * (params_active / sizes[0]) ** small_exponent, members(sizes[0])
    if params_active >= sizes[-1]:
        return at(sizes[-1]), members(sizes[-1])
    hi = bisect.bisect_left(sizes, params_active)
    if sizes[hi] == params_active:
        return at(sizes[hi]), members(sizes[hi])
    lo = hi - 1
    t = math.log(params_active / sizes[lo]) / math.log(sizes[hi] / sizes[lo])
    return at(sizes[lo]) + t * (at(sizes[hi]) - at(sizes[lo])), members(sizes[lo]) + members(sizes[hi])


def releases_note(used: Sequence[Calibrated], software: str | None) -> str:
    """The software releases the figure rests on, and why those (the default, or the month asked for)."""
    releases = ", ".join(sorted({c.point.software for c in used}))
    why = "the latest published for each configuration" if software is None else f"asked for {software}"
    carried = (
        "; carried: the release ratio measured on the system's configurations of the same family "
        "published in both releases, shrunk toward 1 (their mean log ratio over their number + 0.5)"
        if any(c.carried != 1.0 for c in used)
        else ""
    )
    return f"; software release {releases} ({why}){carried}"


def published_at(groups: list[Group], model_id: str, seq_len: int, gpus: int) -> list[Calibrated]:
    """The system's own published points of exactly this configuration and cluster size."""
    return [
        cal
        for group in groups
        if group[0].point.model == model_id and group[0].seq_len == seq_len
        for cal in group
        if cal.point.gpus == gpus and cal.proxy_of is None
    ]
