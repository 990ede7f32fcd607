"""MFU for a workload, from published calibration points.

The method (also in docs/methodology.md, "How MFU is chosen"):

1. The workload's own configuration (model, sequence length) first, nearest rung first (`mfu_ladder`):
   on the system at the precision that runs and the asked release; at another release, earlier or
   later, carried by the release ratio measured on the system's configurations of the same family
   published in both (`mfu_release`); at another precision, × the ratio the system's configurations
   published at both precisions show (`mfu_precision`; else the published `precision_ratio_to_fp8`);
   then the same on the proxy system (`mfu_proxy_system`), carried across NVLink domain sizes by the measured
   `scale_up_ratio` (`mfu_domain`). A matching GPU count gives that point's MFU exactly; otherwise MFU is
   interpolated in log2(GPUs) between the configuration's points and extrapolated beyond them by the
   weak-scaling loss per doubling of the cluster (`loss_per_doubling`, which grows above
   `LOSS_PIVOT_GPUS` as (GPUs / pivot)^`loss_growth`). Without a `software` month each
   configuration's latest release counts.
2. Otherwise, other models. Points of the system at the precision that will run (FP8 on a GPU without
   it runs BF16); a `software` release keeps points published at or before it. Points are grouped by
   (model, sequence length); each group keeps only its latest release, carried to the asked month by
   the release ratio. Groups more than `max_age_months` older than the newest release on the system and
   precision are dropped as superseded (2023 H100 figures give way to 2025 ones).
3. A system with an `mfu_proxy_system` (H200 → H100: same compute die) borrows the proxy's groups (× the
   `scale_up_ratio` across NVLink domain sizes); for a configuration both have, the newer release wins.
   When the system has no figure for the workload's family (dense or MoE) at the precision that runs,
   the same family at another precision is used, scaled by the published ratio
   (`precision_ratio_to_fp8`); only then the other family, scaled by `moe_per_dense`.
4. Across groups, MFU is interpolated in log(active parameters) between the nearest smaller and larger
   models of the family (a MoE model between the published MoE models by both measures: in log(total
   parameters), `mfu_points._placed`), among groups whose sequence length is within `seq_window`x of
   the workload's.
   Above the largest model its value holds; below the smallest, MFU falls as (active parameters /
   smallest's)^`small_model_exponent[family]` (smaller GEMMs, larger shares of communication and of
   non-matrix work), an exponent fitted leave-one-out on the published points (`advisor validate`).

Every basis names the figures, the releases and the ratios used.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from advisor.core.model.catalog import Precision
from advisor.core.model.flops import model_flops_per_token
from advisor.core.model.mfu_domain import ScaleUp
from advisor.core.model.mfu_ladder import PRECISION_MONTHS, Rung, cheapest, model_rungs
from advisor.core.model.mfu_points import (
    Calibrated,
    Group,
    across_models,
    along_gpus,
    published_at,
)
from advisor.core.model.mfu_precision import PrecisionRatios
from advisor.core.model.mfu_release import RELEASE_TOLERANCE_MONTHS, Figure, ReleaseRatios, months
from advisor.core.model.mfu_result import MfuResult, exact, interpolated, newer_elsewhere
from advisor.core.model.sourced import PRECISIONS
from advisor.errors import CatalogError

if TYPE_CHECKING:
    from advisor.core.model.catalog import Catalog, ModelSpec


__all__ = ["Calibrated", "MfuIndex", "MfuResult", "mfu_index", "resolve_mfu"]


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
                cal = Calibrated(
                    point,
                    mfu,
                    seq_len,
                    model.params_active,
                    model.family,
                    table.source,
                    params_total=model.params_total,
                )
                self._by_key.setdefault((point.system, point.precision), []).append(cal)
        self._releases = ReleaseRatios(
            Figure(
                c.point.system,
                c.point.precision,
                (c.point.model, c.seq_len, c.point.gpus),
                c.point.software,
                c.mfu,
                c.family,
                c.source,
            )
            for c in self.calibrated_points()
        )
        self._scale_up = ScaleUp(catalog.systems, self.calibrated_points(), self._scaling.scale_up_ratio)
        self._precisions = PrecisionRatios(self.calibrated_points())
        self._newest: dict[str, str] = {}
        for cal in self.calibrated_points():
            self._newest[cal.family] = max(self._newest.get(cal.family, ""), cal.point.software)
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
            cal.point.system, cal.point.precision, cal.point.software, software, cal.family
        )
        return replace(cal, mfu=cal.mfu * ratio, carried=cal.carried * ratio) if pairs else cal

    def _direct_groups(
        self, system_id: str, precision: Precision, software: str | None, gpus: int
    ) -> tuple[list[Group], list[str]]:
        """The system's own groups merged with its proxy's (carried across NVLink domain sizes): for a
        configuration both have, the newer release wins (a tie keeps the system's own figure)."""
        groups, warnings = self._groups(system_id, precision, software)
        proxy = self._catalog.systems[system_id].mfu_proxy_system
        if proxy is None:
            return groups, warnings
        proxy_groups, proxy_warnings = self._groups(proxy, precision, software)
        merged = {(g[0].point.model, g[0].seq_len): g for g in groups}
        notes: dict[str, str] = {}
        for group in proxy_groups:
            key = (group[0].point.model, group[0].seq_len)
            if key not in merged or group[0].point.software > merged[key][0].point.software:
                factor, notes[group[0].family] = self._scale_up.factor(
                    system_id, proxy, group[0].family, gpus
                )
                kind = self._scale_up.kind(system_id, proxy)
                merged[key] = tuple(
                    replace(c, proxy_of=proxy, mfu=c.mfu * factor, scale_up=factor, scale_up_kind=kind)
                    for c in group
                )
        if any(g[0].proxy_of for g in merged.values()):
            warnings = warnings + proxy_warnings + [n for n in notes.values() if n]
        return list(merged.values()), warnings

    def _candidate_groups(
        self, system_id: str, precision: Precision, family: str, software: str | None, gpus: int
    ) -> tuple[list[Group], float, list[str], str]:
        """Groups of the workload's family at `precision`; else the same family at another precision
        (× the published precision ratio); else the other family (× moe_per_dense). Returns the groups,
        the factor to apply, warnings and a note for the basis."""
        ratios = self._scaling.precision_ratio_to_fp8
        moe = self._scaling.moe_per_dense
        others = [p for p in PRECISIONS if p != precision and p in ratios and precision in ratios]
        for same_family in (True, False):
            for source in [precision, *others]:
                groups, warnings = self._direct_groups(system_id, source, software, gpus)
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

    def _same_configuration(
        self, system_id: str, precision: Precision, config: tuple[str, str, int], software: str | None
    ) -> Rung | None:
        """The nearest figure of the workload's own configuration (model, family, sequence length) on the
        system or its proxy (mfu_ladder)."""
        model_id, family, seq_len = config
        ratios = self._scaling.precision_ratio_to_fp8
        others = [p for p in PRECISIONS if p != precision and p in ratios and precision in ratios]
        proxy = self._catalog.systems[system_id].mfu_proxy_system
        found: list[Rung] = []
        for system in (system_id, proxy) if proxy else (system_id,):
            for source in (precision, *others):

                def ratio_of(release: str, s: str = system, q: str = source) -> tuple[float, int]:
                    assert software is not None  # rungs() asks only with a software month
                    return self._releases.ratio(s, q, release, software, family)

                extra = 0.0 if source == precision else PRECISION_MONTHS
                pool = self._by_key.get((system, source), [])
                found += model_rungs(pool, (model_id, seq_len), software, ratio_of, self._scaling, extra)
        return cheapest(found, latest_first=software is None)

    def _from_rung(
        self,
        rung: Rung,
        system_id: str,
        precision: Precision,
        workload: tuple[str, int, int],
        software: str | None,
    ) -> MfuResult:
        """The MFU of the workload (family, sequence length, GPUs) from its own model's figures (a rung)."""
        family, seq_len, gpus = workload
        group, factor, notes = rung.group, 1.0, []
        if rung.precision != precision:
            factor, note = self._precisions.factor(
                group[0].point.system, family, precision, rung.precision, self._scaling.precision_ratio_to_fp8
            )
            notes.append(
                f"MFU from this configuration's {rung.precision} figures × {factor:.2f} ({note}): "
                f"no {precision} figure is published"
            )
        proxy = group[0].point.system if group[0].point.system != system_id else None
        if proxy is not None:
            scale, note = self._scale_up.factor(system_id, proxy, family, gpus)
            kind = self._scale_up.kind(system_id, proxy)
            group = tuple(
                replace(c, proxy_of=proxy, mfu=c.mfu * scale, scale_up=scale, scale_up_kind=kind)
                for c in group
            )
            notes += [note] if note else []
        if software is not None and rung.gap < -RELEASE_TOLERANCE_MONTHS and not rung.pairs:
            notes.append("no configuration published in both releases: used as published")
        if group[0].seq_len != seq_len:
            notes.append(f"figures at {group[0].seq_len:,}-token sequences, the workload's is {seq_len:,}")
        at = [c for c in group if c.point.gpus == gpus]
        if at and factor == 1.0 and proxy is None and group[0].seq_len == seq_len:
            return exact(at, precision, notes, software)
        loss = self._scaling.loss_per_doubling.get(rung.precision, 0.0)  # type: ignore[call-overload]
        mfu = min(1.0, along_gpus(group, gpus, loss, self._scaling.loss_growth) * factor)
        transferred = factor != 1.0 or proxy is not None
        same_model = not transferred and group[0].seq_len == seq_len
        return interpolated(
            mfu,
            precision,
            group,
            (gpus, software),
            note="; ".join(notes),
            warnings=notes,
            transferred=transferred,
            same_model=same_model,
            along_own=same_model,
            other_release=software is not None and rung.release != software,
        )

    def _resolve(
        self,
        system_id: str,
        precision: Precision,
        model_id: str,
        family: str,
        params: tuple[float, float],
        seq_len: int,
        gpus: int,
        software: str | None,
        compared: bool = True,
    ) -> MfuResult:
        """`_found`; when systems are `compared` without a `software` month, its basis says when other
        systems' figures of the family are of a newer release (`newer_elsewhere`): an estimate of one
        system compares nothing. `lru_cache`d per catalog as `resolve`."""
        found = self._found(system_id, precision, model_id, family, params, seq_len, gpus, software)
        if software is not None or not compared:
            return found
        return newer_elsewhere(found, family, self._newest.get(family))

    def _found(
        self,
        system_id: str,
        precision: Precision,
        model_id: str,
        family: str,
        params: tuple[float, float],
        seq_len: int,
        gpus: int,
        software: str | None,
    ) -> MfuResult:
        """See the module docstring (`params`: active, total)."""
        params_active = params[0]
        rung = self._same_configuration(system_id, precision, (model_id, family, seq_len), software)
        if rung is not None:
            return self._from_rung(rung, system_id, precision, (family, seq_len, gpus), software)
        groups, factor, warnings, basis_note = self._candidate_groups(
            system_id, precision, family, software, gpus
        )
        if not groups:
            raise LookupError(
                f"no MFU calibration for {system_id} at {precision}; give the MFU explicitly (--mfu)"
            )
        if factor == 1.0:
            found = published_at(groups, model_id, seq_len, gpus)
            if found:
                return exact(found, precision, warnings, software)
        same_family = groups
        window = self._scaling.seq_window
        near = [g for g in same_family if 1 / window <= g[0].seq_len / seq_len <= window]
        pool = near or same_family
        loss = self._scaling.loss_per_doubling.get(precision, 0.0)
        exponent = self._scaling.small_model_exponent.get(family, 0.0)  # type: ignore[call-overload]
        value, used = across_models(pool, params, gpus, (loss, self._scaling.loss_growth), exponent)
        mfu = min(1.0, value * factor)
        smallest = min(g[0].params_active for g in pool)
        transferred = bool(basis_note) or any(c.proxy_of for c in used)
        same_model = all(c.point.model == model_id and c.seq_len == seq_len for c in used)
        return interpolated(
            mfu,
            precision,
            used,
            (gpus, software),
            note=basis_note,
            warnings=warnings,
            transferred=transferred,
            same_model=same_model and not transferred,
            along_own=same_model,
            other_release=software is not None and any(c.point.software != software for c in used),
            size_ratio=min(1.0, params_active / smallest),
        )


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
    *,
    compared: bool = True,
) -> MfuResult:
    """MFU of `model` on `gpus` GPUs of `system_id` at `precision` (already a precision the system runs);
    `compared`: the estimate is one of several systems' (see `MfuIndex._resolve`)."""
    return mfu_index(catalog).resolve(
        system_id,
        precision,
        model.id,
        model.family,
        (model.params_active, model.params_total),
        model.seq_len,
        gpus,
        software,
        compared,
    )
