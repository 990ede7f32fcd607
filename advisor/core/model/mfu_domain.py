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
A system that borrows a proxy with an NVLink domain of the same size — MI300X (750 W, 5.3 TB/s) from
MI325X (1,000 W, 6 TB/s), the same compute die — is carried by the proxy ratio measured on that very pair:
the geometric mean of MFU(system) ÷ MFU(proxy) over configurations both publish in one release, per
family (a family without pairs takes the geometric mean of the pair's other families). It is stored
beside the domain ratios as `{family}_{system}_per_{proxy}` and fitted on the same path, so
leave-one-out refits it without the point left out. Only a ratio below 1 is applied: the proxy's figure
is then an upper bound the measurement brings down (less power and bandwidth on the same die). A system
measured faster than its proxy (H200 ÷ H100, one MLPerf v4.1 LoRA configuration, 1.134) keeps the proxy's
figures as a floor: its gain depends on how memory-bound the workload is, and one configuration would
set it for every workload (docs/calibration.md, "Proxy ratio").
The fitted values are stored in `catalog/mfu/scaling.toml` (`[scale_up_ratio]`, written by
`benchmarks/refit.py`); this module fits them and names the pairs behind them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import get_args

from advisor.core.model.catalog import Family, System
from advisor.core.model.mfu_points import Calibrated
from advisor.core.model.mfu_release import RELEASE_TOLERANCE_MONTHS, months
from advisor.core.model.sourced import PRECISIONS

FAMILIES: tuple[str, ...] = get_args(Family)

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


def _by_config(cals: Iterable[Calibrated]) -> dict[tuple[str, int, int, str], list[Calibrated]]:
    """The figures grouped by configuration: (model, sequence length, GPUs, precision)."""
    by_config: dict[tuple[str, int, int, str], list[Calibrated]] = {}
    for cal in cals:
        p = cal.point
        by_config.setdefault((p.model, cal.seq_len, p.gpus, p.precision), []).append(cal)
    return by_config


def domain_pairs(cals: Iterable[Calibrated], systems: Mapping[str, System]) -> list[DomainPair]:
    """Every (small-domain, large-domain) pair of figures of one configuration, precision and release,
    on two systems of the same GPU die."""
    domain_of = domains_of(systems)
    by_config = _by_config(cals)
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


def proxy_key(family: str, system: str, proxy: str) -> str:
    """The `[scale_up_ratio]` key of a system measured against its proxy, e.g. `dense_mi300x_per_mi325x`."""
    return f"{family}_{system}_per_{proxy}"


def proxy_pairs(cals: Iterable[Calibrated], systems: Mapping[str, System]) -> list[DomainPair]:
    """Every pair of figures of one configuration (model, sequence length, GPUs), precision and release
    on a system and its `mfu_proxy_system` when both have NVLink domains of the same size."""
    by_config = _by_config(cals)
    out = []
    for (model, _, gpus, precision), members in by_config.items():
        for own in members:
            system = systems[own.point.system]
            proxy = system.mfu_proxy_system
            if proxy is None or systems[proxy].interconnect.nvlink_domain_gpus != (
                system.interconnect.nvlink_domain_gpus
            ):
                continue
            theirs = [
                c
                for c in members
                if c.point.system == proxy
                and abs(months(c.point.software) - months(own.point.software)) <= RELEASE_TOLERANCE_MONTHS
            ]
            if not theirs:
                continue
            other = min(theirs, key=lambda c: abs(months(c.point.software) - months(own.point.software)))
            ratio = own.mfu / other.mfu
            text = f"{model} {precision} on {gpus} GPUs, {own.point.software}: {ratio:.3f}"
            out.append(DomainPair(proxy_key(own.family, system.id, proxy), text, math.log(ratio)))
    return sorted(out, key=lambda p: (p.key, p.text))


def fit_scale_up_ratios(pairs: Iterable[DomainPair]) -> dict[str, float]:
    """Per key, the geometric mean of the pairs' MFU ratios (rounded as the catalog stores it)."""
    logs: dict[str, list[float]] = {}
    for pair in pairs:
        logs.setdefault(pair.key, []).append(pair.log_ratio)
    return {key: round(math.exp(sum(v) / len(v)), 3) for key, v in sorted(logs.items())}


def fit_ratios(cals: Iterable[Calibrated], systems: Mapping[str, System]) -> dict[str, float]:
    """Every `[scale_up_ratio]` value: the NVLink-domain ratios and the proxy ratios."""
    cals = list(cals)
    return {
        **fit_scale_up_ratios(domain_pairs(cals, systems)),
        **fit_scale_up_ratios(proxy_pairs(cals, systems)),
    }


class ScaleUp:
    """The stored `[scale_up_ratio]` values, applied to a proxy's figures, with the pairs behind them."""

    def __init__(
        self, systems: Mapping[str, System], cals: Iterable[Calibrated], ratios: Mapping[str, float]
    ) -> None:
        cals = list(cals)
        self._domains = domains_of(systems)
        self._pairs = domain_pairs(cals, systems) + proxy_pairs(cals, systems)
        self._ratios = ratios

    def _proxy_factor(self, system_id: str, proxy: str, family: str) -> tuple[float, str] | None:
        """The stored proxy ratio of `system_id` ÷ `proxy` for `family` (else the geometric mean of the
        pair's other families), with a note naming the pairs behind it; None when none is stored or it is
        not below 1 (the proxy's figures then hold as they are)."""
        keys = [proxy_key(family, system_id, proxy)]
        if keys[0] not in self._ratios:
            suffix = f"_{system_id}_per_{proxy}"
            keys = [k for k in self._ratios if k.endswith(suffix) and k.split("_", 1)[0] in FAMILIES]
        if not keys:
            return None
        factor = math.exp(sum(math.log(self._ratios[k]) for k in keys) / len(keys))
        if factor >= 1.0:
            return None
        pairs = [p.text for p in self._pairs if p.key in keys]
        on = f"{len(pairs)} " if pairs else ""
        named = f"{'; '.join(pairs)}; " if pairs else ""
        return factor, (
            f"× {factor:.3f}, {system_id} ÷ {proxy} measured on {on}configurations published for both "
            f"({named}scale_up_ratio {', '.join(keys)})"
        )

    def kind(self, system_id: str, proxy: str) -> str:
        """What carries `proxy`'s figures to `system_id`, as a basis names it."""
        return "proxy ratio" if self._domains[system_id] == self._domains[proxy] else "NVLink domain"

    def factor(self, system_id: str, proxy: str, family: str, gpus: int) -> tuple[float, str]:
        """The factor carrying `proxy`'s figure of `family` to `system_id`, and a note naming the pairs
        behind it: the measured proxy ratio when one is stored; else across NVLink domain sizes (1 when
        the domains are the same size or the workload fits in the smaller one)."""
        by_pair = self._proxy_factor(system_id, proxy, family)
        if by_pair is not None:
            return by_pair
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
