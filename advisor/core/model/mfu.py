"""MFU for a workload, from published calibration points.

The method (also in docs/methodology.md, "How MFU is chosen"):

1. Points of the system at the precision that will run (FP8 on a GPU without it runs BF16). A
   `software` release keeps points published at or before it; by default every release counts.
2. Points are grouped by (model, sequence length); each group keeps only its latest release. So the
   default is the newest published figure for each configuration, and `--software 2024-01` reproduces
   the January 2024 table. Groups more than `max_age_months` older than the newest release on the
   system and precision are dropped as superseded (2023 H100 figures give way to 2025 ones). With a
   `software` month, a group of another release is carried to it by the release ratio measured on the
   system's configurations published in both (`mfu_release`); every basis names the releases used.
3. A system with an `mfu_proxy_system` (H200 → H100: same compute die) borrows the proxy's groups; for a
   configuration both have, the newer release wins. When the system has no figure for the workload's
   family (dense or MoE) at the precision that runs, the same family at another precision is used,
   scaled by the published ratio (`precision_ratio_to_fp8`); only then the other family, scaled by
   `moe_per_dense`.
4. A workload matching a point (model, sequence length, GPU count) gets that point's MFU exactly.
5. Otherwise, within each group MFU is interpolated in log2(GPUs) between its points and extrapolated
   beyond them by the published weak-scaling loss per doubling of the cluster (`loss_per_doubling`).
6. Across groups, MFU is interpolated in log(active parameters) between the nearest smaller and larger
   models of the family, among groups whose sequence length is within `seq_window`x of the workload's.
   Above the largest model its value holds; below the smallest, MFU falls as (active parameters /
   smallest's)^`small_model_exponent[family]` (smaller GEMMs, larger shares of communication and of
   non-matrix work), an exponent fitted leave-one-out on the published points (`advisor validate`).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from advisor.core.model.catalog import MfuPoint, Precision
from advisor.core.model.flops import model_flops_per_token
from advisor.core.model.mfu_release import Figure, ReleaseRatios, months
from advisor.core.model.sourced import PRECISIONS
from advisor.errors import CatalogError

if TYPE_CHECKING:
    from advisor.core.model.catalog import Catalog, ModelSpec


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
    """The release or system ratio this figure was carried by (1 as published; see mfu_release)."""


@dataclass(frozen=True)
class MfuResult:
    """The MFU used for an estimate, and how it was arrived at."""

    mfu: float
    precision: Precision
    exact: bool
    basis: str
    sources: tuple[str, ...]
    warnings: tuple[str, ...] = field(default=())
    transferred: bool = False
    """Borrowed from another system, precision or model family (less certain than interpolation)."""
    other_release: bool = False
    """A published figure of this configuration, but from a release other than the requested month."""
    same_model: bool = False
    """Interpolated only along the cluster size of the workload's own published configuration."""
    doublings_beyond: float = 0.0
    """For `same_model`: doublings of the cluster beyond the configuration's published range (negative
    below it), over which `loss_per_doubling` was applied."""
    size_ratio: float = 1.0
    """Active parameters ÷ the smallest published model's, when below it (else 1): the MFU carries
    (size_ratio)^small_model_exponent."""


Group = tuple[Calibrated, ...]  # one (model, seq_len) configuration, one release, sorted by GPUs


def _label(cal: Calibrated) -> str:
    proxy = f" (via {cal.proxy_of})" if cal.proxy_of else ""
    carried = f" × {cal.carried:.2f} (carried)" if cal.carried != 1.0 else ""
    return f"{cal.point.model} on {cal.point.gpus} GPUs, {cal.point.stack}{proxy}{carried}"


class MfuIndex:
    """Calibration points of one catalog, indexed for fast lookup (built once per catalog)."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._scaling = catalog.mfu_scaling
        self._by_key: dict[tuple[str, str], list[Calibrated]] = {}
        for table in catalog.mfu_tables.values():
            for point in table.points:
                model = catalog.models[point.model]
                seq_len = point.seq_len or model.seq_len
                if point.mfu is not None:
                    mfu = point.mfu
                else:
                    peak = catalog.systems[point.system].compute.peak_tflops(point.precision)
                    assert peak is not None and point.tokens_per_s_per_gpu is not None  # checked by Catalog
                    mfu = point.tokens_per_s_per_gpu * model_flops_per_token(model, seq_len) / (peak * 1e12)
                    if mfu > 1:
                        raise CatalogError(
                            f"MFU table {table.id!r}, point {point.system}/{point.precision}/{point.model}: "
                            f"tokens_per_s_per_gpu = {point.tokens_per_s_per_gpu:g} implies MFU "
                            f"{mfu:.1%}, above 100% of the {peak:g} TFLOPS peak"
                        )
                cal = Calibrated(point, mfu, seq_len, model.params_active, model.family, table.source)
                self._by_key.setdefault((point.system, point.precision), []).append(cal)
        self._releases = ReleaseRatios(
            Figure(
                c.point.system,
                c.point.precision,
                (c.point.model, c.seq_len, c.point.gpus),
                c.point.software,
                c.mfu,
            )
            for c in self.calibrated_points()
        )
        self.resolve = lru_cache(maxsize=4096)(self._resolve)

    def calibrated_points(self) -> list[Calibrated]:
        """Every point with its resolved MFU (for tests and the assumptions view)."""
        return [cal for cals in self._by_key.values() for cal in cals]

    def _groups(
        self, system_id: str, precision: Precision, software: str | None
    ) -> tuple[list[Group], list[str]]:
        """Latest-release groups of `system_id` at `precision`, plus warnings about the release filter."""
        warnings: list[str] = []
        cals = self._by_key.get((system_id, precision), [])
        if software is not None and cals:
            kept = [c for c in cals if c.point.software <= software]
            if not kept:
                earliest = min(c.point.software for c in cals)
                warnings.append(
                    f"no {system_id} {precision} figure is as old as software {software}; "
                    f"using the earliest published ({earliest})"
                )
                kept = [c for c in cals if c.point.software == earliest]
            cals = kept
        if cals:
            newest = months(max(c.point.software for c in cals))
            cals = [c for c in cals if newest - months(c.point.software) <= self._scaling.max_age_months]
        by_config: dict[tuple[str, int], list[Calibrated]] = {}
        for cal in cals:
            by_config.setdefault((cal.point.model, cal.seq_len), []).append(cal)
        groups = []
        for members in by_config.values():
            latest = max(c.point.software for c in members)
            kept = sorted((c for c in members if c.point.software == latest), key=lambda c: c.point.gpus)
            groups.append(tuple(self._to_release(c, software) for c in kept))
        return groups, warnings

    def _to_release(self, cal: Calibrated, software: str | None) -> Calibrated:
        """A figure of another release carried to `software` by the release ratio (see mfu_release)."""
        if software is None:
            return cal
        ratio, pairs = self._releases.ratio(
            cal.point.system, cal.point.precision, cal.point.software, software
        )
        return replace(cal, mfu=cal.mfu * ratio, carried=cal.carried * ratio) if pairs else cal

    def _direct_groups(
        self, system_id: str, precision: Precision, software: str | None
    ) -> tuple[list[Group], list[str]]:
        """The system's own groups merged with its proxy's: for a configuration both have, the newer
        release wins (a tie keeps the system's own figure)."""
        groups, warnings = self._groups(system_id, precision, software)
        proxy = self._catalog.systems[system_id].mfu_proxy_system
        if proxy is None:
            return groups, warnings
        proxy_groups, proxy_warnings = self._groups(proxy, precision, software)
        merged = {(g[0].point.model, g[0].seq_len): g for g in groups}
        for group in proxy_groups:
            key = (group[0].point.model, group[0].seq_len)
            if key not in merged or group[0].point.software > merged[key][0].point.software:
                merged[key] = tuple(replace(c, proxy_of=proxy) for c in group)
        if any(g[0].proxy_of for g in merged.values()):
            warnings = warnings + proxy_warnings
        return list(merged.values()), warnings

    def _candidate_groups(
        self, system_id: str, precision: Precision, family: str, software: str | None
    ) -> tuple[list[Group], float, list[str], str]:
        """Groups of the workload's family at `precision`; else the same family at another precision
        (× the published precision ratio); else the other family (× moe_per_dense). Returns the groups,
        the factor to apply, warnings and a note for the basis."""
        ratios = self._scaling.precision_ratio_to_fp8
        moe = self._scaling.moe_per_dense
        others = [p for p in PRECISIONS if p != precision and p in ratios and precision in ratios]
        for same_family in (True, False):
            for source in [precision, *others]:
                groups, warnings = self._direct_groups(system_id, source, software)
                groups = [g for g in groups if (g[0].family == family) == same_family]
                if not groups:
                    continue
                factor, notes = 1.0, []
                if source != precision:
                    factor *= ratios[precision] / ratios[source]
                    notes.append(
                        f"no published {precision} {family} figure for {system_id}; {source} calibration × "
                        f"{ratios[precision] / ratios[source]:.2f} (published {precision}/{source} MFU ratio)"
                    )
                if not same_family:
                    ratio = moe if family == "moe" else 1 / moe
                    factor *= ratio
                    other = "dense" if family == "moe" else "moe"
                    notes.append(
                        f"no {family} figure for {system_id}; {other} calibration × {ratio:.2f} "
                        "(moe_per_dense)"
                    )
                return groups, factor, [*warnings, *notes], "; ".join(notes)
        return [], 1.0, [], ""

    def _resolve(
        self,
        system_id: str,
        precision: Precision,
        model_id: str,
        family: str,
        params_active: float,
        seq_len: int,
        gpus: int,
        software: str | None,
    ) -> MfuResult:
        """See the module docstring; `lru_cache`d per catalog as `resolve`."""
        groups, factor, warnings, basis_note = self._candidate_groups(system_id, precision, family, software)
        if not groups:
            raise LookupError(
                f"no MFU calibration for {system_id} at {precision}; give the MFU explicitly (--mfu)"
            )
        if factor == 1.0:
            found = _published(groups, model_id, seq_len, gpus)
            if found:
                return _exact(found, precision, warnings, software)
        same_family = groups
        window = self._scaling.seq_window
        near = [g for g in same_family if 1 / window <= g[0].seq_len / seq_len <= window]
        pool = near or same_family
        loss = self._scaling.loss_per_doubling.get(precision, 0.0)
        exponent = self._scaling.small_model_exponent.get(family, 0.0)  # type: ignore[call-overload]
        value, used = _across_models(pool, params_active, gpus, loss, exponent)
        mfu = min(1.0, value * factor)
        smallest = min(g[0].params_active for g in pool)
        basis = "interpolated from " + "; ".join(_label(c) for c in used)
        if basis_note:
            basis += f" ({basis_note})"
        basis += _releases_note(used, software)
        sources = tuple(dict.fromkeys(c.source for c in used))
        transferred = bool(basis_note) or any(c.proxy_of for c in used)
        size_ratio = min(1.0, params_active / smallest)
        same_model = all(c.point.model == model_id and c.seq_len == seq_len for c in used)
        counts = [c.point.gpus for c in used]
        beyond = max(0.0, math.log2(gpus / max(counts))) + min(0.0, math.log2(gpus / min(counts)))
        return MfuResult(
            mfu,
            precision,
            False,
            basis,
            sources,
            tuple(warnings),
            transferred,
            size_ratio=size_ratio,
            same_model=same_model and not transferred,
            doublings_beyond=beyond if same_model else 0.0,
            other_release=software is not None and any(c.point.software != software for c in used),
        )


def _exact(
    found: list[Calibrated], precision: Precision, warnings: list[str], software: str | None
) -> MfuResult:
    """The MFU of a published configuration: several publications of one release give their mean."""
    return MfuResult(
        sum(c.mfu for c in found) / len(found),
        precision,
        True,
        "published: " + "; ".join(_label(c) for c in found) + _releases_note(found, software),
        tuple(dict.fromkeys(c.source for c in found)),
        tuple(warnings),
        other_release=software is not None and found[0].point.software != software,
    )


def _releases_note(used: Sequence[Calibrated], software: str | None) -> str:
    """The software releases the figure rests on, and why those (the default, or the month asked for)."""
    releases = ", ".join(sorted({c.point.software for c in used}))
    why = "the latest published for each configuration" if software is None else f"asked for {software}"
    return f"; software release {releases} ({why})"


def _published(groups: list[Group], model_id: str, seq_len: int, gpus: int) -> list[Calibrated]:
    """The system's own published points of exactly this configuration and cluster size."""
    return [
        cal
        for group in groups
        if group[0].point.model == model_id and group[0].seq_len == seq_len
        for cal in group
        if cal.point.gpus == gpus and cal.proxy_of is None
    ]


def _along_gpus(group: Group, gpus: int, loss_per_doubling: float) -> float:
    """MFU of one configuration at `gpus`: log2 interpolation between points, weak-scaling loss beyond."""
    counts = [c.point.gpus for c in group]
    mfus = [c.mfu for c in group]
    if gpus <= counts[0]:
        return mfus[0] * (1 - loss_per_doubling) ** math.log2(gpus / counts[0])
    if gpus >= counts[-1]:
        return mfus[-1] * (1 - loss_per_doubling) ** math.log2(gpus / counts[-1])
    hi = bisect.bisect_left(counts, gpus)
    lo = hi - 1
    t = math.log2(gpus / counts[lo]) / math.log2(counts[hi] / counts[lo])
    return mfus[lo] + t * (mfus[hi] - mfus[lo])


def _across_models(
    pool: list[Group], params_active: float, gpus: int, loss: float, small_exponent: float
) -> tuple[float, list[Calibrated]]:
    """Interpolate in log(active parameters) between the nearest smaller and larger configurations."""
    by_size: dict[float, list[Group]] = {}
    for group in pool:
        by_size.setdefault(group[0].params_active, []).append(group)
    sizes = sorted(by_size)

    def at(size: float) -> float:
        groups = by_size[size]
        return sum(_along_gpus(g, gpus, loss) for g in groups) / len(groups)

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


def mfu_index(catalog: Catalog) -> MfuIndex:
    """The catalog's calibration points indexed for MFU lookup, built on first use and kept with it."""
    index = catalog.derived.get("mfu_index")
    if not isinstance(index, MfuIndex):
        index = catalog.derived["mfu_index"] = MfuIndex(catalog)
    return index


def resolve_mfu(
    catalog: Catalog,
    system_id: str,
    precision: Precision,
    model: ModelSpec,
    gpus: int,
    software: str | None = None,
) -> MfuResult:
    """MFU of `model` on `gpus` GPUs of `system_id` at `precision` (already a precision the system runs)."""
    return mfu_index(catalog).resolve(
        system_id, precision, model.id, model.family, model.params_active, model.seq_len, gpus, software
    )
