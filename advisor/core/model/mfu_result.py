"""An MFU found (`MfuResult`) and the two ways `advisor.core.model.mfu` finds one: a published
configuration (`exact`) or an interpolation between published points (`interpolated`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from advisor.core.model.catalog import Precision
from advisor.core.model.mfu_points import Calibrated, label, releases_note
from advisor.core.model.mfu_release import RELEASE_TOLERANCE_MONTHS, months


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
    releases: tuple[str, ...] = ()
    """The software releases (`YYYY-MM`) of the figures the MFU rests on."""


def newer_elsewhere(result: MfuResult, family: str, newest: str | None) -> MfuResult:
    """`result` whose basis also says, when its newest figure is older than `newest` (the newest release
    of the family's figures on any system), that a comparison with other systems compares releases too:
    without a `software` month each system's figures are its latest published, which differ by system."""
    if newest is None or not result.releases:
        return result
    if months(newest) - months(max(result.releases)) <= RELEASE_TOLERANCE_MONTHS:
        return result
    note = (
        f"; other systems have {family} figures up to release {newest}, so part of a gap to them is "
        "software, not hardware (--software YYYY-MM compares every system at figures published by then)"
    )
    return replace(result, basis=result.basis + note)


def exact(
    found: list[Calibrated], precision: Precision, warnings: list[str], software: str | None
) -> MfuResult:
    """The MFU of a published configuration: several publications of one release give their mean."""
    return MfuResult(
        sum(c.mfu for c in found) / len(found),
        precision,
        True,
        "published: " + "; ".join(label(c) for c in found) + releases_note(found, software),
        tuple(dict.fromkeys(c.source for c in found)),
        tuple(warnings),
        other_release=software is not None and found[0].point.software != software,
        releases=tuple(sorted({c.point.software for c in found})),
    )


def interpolated(
    mfu: float,
    precision: Precision,
    used: Sequence[Calibrated],
    at: tuple[int, str | None],
    *,
    note: str,
    warnings: Sequence[str],
    transferred: bool,
    same_model: bool,
    along_own: bool,
    other_release: bool,
    size_ratio: float = 1.0,
) -> MfuResult:
    """An interpolated MFU at `at` (GPUs, software release): its basis names the points `used` (and
    `note`); `along_own` when interpolated along the cluster sizes of the workload's own published
    configuration, so the doublings beyond their range are counted."""
    gpus, software = at
    basis = "interpolated from " + "; ".join(label(c) for c in used)
    basis += (f" ({note})" if note else "") + releases_note(used, software)
    counts = [c.point.gpus for c in used]
    beyond = max(0.0, math.log2(gpus / max(counts))) + min(0.0, math.log2(gpus / min(counts)))
    return MfuResult(
        mfu,
        precision,
        False,
        basis,
        tuple(dict.fromkeys(c.source for c in used)),
        tuple(warnings),
        transferred,
        other_release=other_release,
        same_model=same_model,
        doublings_beyond=beyond if along_own else 0.0,
        size_ratio=size_ratio,
        releases=tuple(sorted({c.point.software for c in used})),
    )
