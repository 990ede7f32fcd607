"""How the size of the NVLink (scale-up) domain moves MFU, measured on systems published side by side.

A system that borrows another's calibration (`mfu_proxy_system`) with a different scale-up domain — B300
(8 GPUs per NVLink domain) from GB300 NVL72 (72) — is carried by the MFU ratio measured on system pairs
of the same two domain sizes: the same model, sequence length, GPU count and precision published for both
in the same release (a month apart counts as one), e.g. B200 and GB200 NVL72 in Megatron-Bridge's tables.
The ratio is the geometric mean of MFU(small domain) ÷ MFU(large domain) over those pairs, per model family
(expert parallelism crosses the domain: MoE loses most). A configuration that fits in the smaller domain
(GPUs <= its size) runs the same on both, so such pairs are not counted and such workloads not carried.
A ratio above 1 (a smaller domain measured faster: B300-class dense, one pair, 1.012) is noise and
is applied as 1, so adding GPUs past the smaller domain never raises MFU.
The fitted value is stored in `catalog/mfu/scaling.toml` (`[scale_up_ratio]`, written by
`benchmarks/refit.py`); this module fits it and names the pairs behind it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from advisor.core.model.catalog import System
from advisor.core.model.mfu_points import Calibrated
from advisor.core.model.mfu_release import RELEASE_TOLERANCE_MONTHS, months
from advisor.core.model.sourced import PRECISIONS

SAME_DIE_TOLERANCE = 0.15
"""Two systems count as one GPU die in two packagings when every peak (BF16, FP8, FP4) and the HBM
bandwidth agree within this share (B200 and GB200: 4.5 vs 5 PFLOPS FP8, 8 TB/s each; B300 and GB300
likewise; B200 and GB300 differ in FP4, 9 vs 15 PFLOPS)."""


def same_die(a: System, b: System) -> bool:
    """Whether two systems carry the same GPU (within `SAME_DIE_TOLERANCE`), packaged differently."""

    def near(x: float | None, y: float | None) -> bool:
        if x is None or y is None:
            return x is None and y is None
        return abs(x / y - 1) <= SAME_DIE_TOLERANCE

    peaks = all(near(a.compute.peak_tflops(p), b.compute.peak_tflops(p)) for p in PRECISIONS)
    return peaks and near(a.memory.hbm_bandwidth_tbps, b.memory.hbm_bandwidth_tbps)


def domains_of(systems: Mapping[str, System]) -> dict[str, int]:
    """Each system's NVLink (scale-up) domain size in GPUs."""
    return {sid: s.interconnect.nvlink_domain_gpus for sid, s in systems.items()}


def ratio_key(family: str, small: int, large: int) -> str:
    """The `[scale_up_ratio]` key of a family and two domain sizes, e.g. `moe_8_per_72`."""
    return f"{family}_{small}_per_{large}"


@dataclass(frozen=True)
class DomainPair:
    """One configuration published on a small-domain and a large-domain system in the same release."""

    key: str
    text: str
    log_ratio: float


def domain_pairs(cals: Iterable[Calibrated], systems: Mapping[str, System]) -> list[DomainPair]:
    """Every (small-domain, large-domain) pair of figures of one configuration, precision and release,
    on two systems of the same GPU die."""
    domain_of = domains_of(systems)
    by_config: dict[tuple[str, int, int, str], list[Calibrated]] = {}
    for cal in cals:
        p = cal.point
        by_config.setdefault((p.model, cal.seq_len, p.gpus, p.precision), []).append(cal)
    out = []
    for (model, _, gpus, precision), members in by_config.items():
        for small in members:
            d_small = domain_of[small.point.system]
            if gpus <= d_small:
                continue
            larger = [
                c
                for c in members
                if domain_of[c.point.system] > d_small
                and same_die(systems[c.point.system], systems[small.point.system])
                and abs(months(c.point.software) - months(small.point.software)) <= RELEASE_TOLERANCE_MONTHS
            ]
            if not larger:
                continue
            big = min(larger, key=lambda c: abs(months(c.point.software) - months(small.point.software)))
            text = (
                f"{model} {precision} on {gpus} GPUs, {small.point.system} ÷ {big.point.system} "
                f"{small.point.software}: {small.mfu / big.mfu:.2f}"
            )
            key = ratio_key(small.family, d_small, domain_of[big.point.system])
            out.append(DomainPair(key, text, math.log(small.mfu / big.mfu)))
    return sorted(out, key=lambda p: (p.key, p.text))


def fit_scale_up_ratios(pairs: Iterable[DomainPair]) -> dict[str, float]:
    """Per key, the geometric mean of the pairs' MFU ratios (rounded as the catalog stores it)."""
    logs: dict[str, list[float]] = {}
    for pair in pairs:
        logs.setdefault(pair.key, []).append(pair.log_ratio)
    return {key: round(math.exp(sum(v) / len(v)), 3) for key, v in sorted(logs.items())}


class ScaleUp:
    """The stored `[scale_up_ratio]` values, applied to a proxy's figures, with the pairs behind them."""

    def __init__(
        self, systems: Mapping[str, System], cals: Iterable[Calibrated], ratios: Mapping[str, float]
    ) -> None:
        self._domains = domains_of(systems)
        self._pairs = domain_pairs(cals, systems)
        self._ratios = ratios

    def factor(self, system_id: str, proxy: str, family: str, gpus: int) -> tuple[float, str]:
        """The factor carrying `proxy`'s figure of `family` to `system_id` (1 when the NVLink domains are
        the same size or the workload fits in the smaller one), and a note naming the pairs behind it."""
        own, theirs = self._domains[system_id], self._domains[proxy]
        small, large = sorted((own, theirs))
        if own == theirs or gpus <= small:
            return 1.0, ""
        key = ratio_key(family, small, large)
        ratio = self._ratios.get(key)
        if ratio is None:
            return 1.0, f"no {family} pair measured between {small}- and {large}-GPU NVLink domains"
        capped = min(ratio, 1.0)  # a smaller domain is never faster: a measured gain is noise
        factor = capped if own == small else 1 / capped
        pairs = "; ".join(p.text for p in self._pairs if p.key == key)
        measured = f"measured {ratio:.3f}, at most 1, " if ratio > 1 else ""
        return factor, (
            f"{system_id}'s {own}-GPU NVLink domain vs {proxy}'s {theirs}: × {factor:.2f} "
            f"(scale_up_ratio {key}, {measured}measured on {pairs})"
        )
