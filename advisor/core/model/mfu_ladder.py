"""The nearest published figure of the workload's own configuration (model and sequence length).

Before MFU is interpolated across other models, the workload's own configuration is looked for, nearest
first (docs/methodology.md, "How MFU is chosen"); each candidate figure gets a cost in months of release
gap, and the cheapest is used:

- at the asked precision and release (a month apart counts as one): cost 0;
- at another release, earlier or later, carried by the release ratio measured on the system's
  configurations published in both (`mfu_release`): the gap in months;
- at another precision (× the precision ratio measured on the system, `mfu_precision`):
  `PRECISION_MONTHS` more.

An earlier release with no configuration in both to carry it is used as published (the gap is its cost);
a later one is not used (its software gains would be credited to an older release). A figure costing
more than `MAX_COST` gives way to interpolation across the other models of the asked release.

Without a `software` month, the same model at another sequence length (within `seq_window`) costs
`SEQ_LEN_MONTHS` more; with one, only the workload's sequence length counts (leave-one-out, B200
DeepSeek-V3 FP8 26.04 from 26.02.01's 4,096-token figure was 23% too slow instead of 6% too fast).
The system's own figures and its proxy's (`mfu_proxy_system`) compete on cost; a tie goes to the
system's own. Without a `software` month each configuration's latest release counts as published, unless
superseded: more than `max_age_months` older than the newest release on the system and precision, or
older than the model's figure at another sequence length (GB200's DeepSeek-V3 BF16: DGX Cloud's early
25.05 recipe at 4,096 tokens, 9% MFU, gives way to Megatron-Bridge 25.11 at 8,192, 33%).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from advisor.core.model.catalog import MfuScaling, Precision
from advisor.core.model.mfu_points import Calibrated, Group
from advisor.core.model.mfu_release import RELEASE_TOLERANCE_MONTHS, months

PRECISION_MONTHS = 6.0
"""A figure at another precision, × the precision ratio, ranks with a figure carried across this many
months of releases. An assumption: the published BF16/FP8 ratios on H100 spread ±9% (1.26-1.51), about
the error of a figure carried 3 months (leave-one-out: median |log error| 0.07 within 3 months of
release gap). 6 gives the same leave-one-out results (docs/calibration.md)."""

SEQ_LEN_MONTHS = 3.0
"""Without a `software` month, the same model at another sequence length (within `seq_window`) ranks with a
figure of another precision less this many months (an assumption: DeepSeek-V3 on 256 B200 at 4,096 and
8,192 tokens, 15.1% and 19.6% MFU in releases two months apart, differ less than a precision ratio's
spread and a few releases' gains)."""

MAX_COST = 12.0
"""A figure of the configuration costing more months than this gives way to interpolation across other
models (an assumption: leave-one-out, GB200 DeepSeek-V3 FP8 26.08 from DGX Cloud's BF16 25.05 figure, 15
months earlier, is 72% too slow; across models, 6%)."""


@dataclass(frozen=True)
class Rung:
    """One release of the configuration at one precision, carried to the asked release."""

    group: Group
    precision: Precision
    release: str
    pairs: int
    cost: float
    gap: int
    """Months from the asked release to this one (negative: earlier; 0 without a `software` month)."""


def _group(cals: Sequence[Calibrated], release: str, ratio: float) -> Group:
    kept = sorted((c for c in cals if c.point.software == release), key=lambda c: c.point.gpus)
    if ratio == 1.0:
        return tuple(kept)
    return tuple(replace(c, mfu=c.mfu * ratio, carried=c.carried * ratio) for c in kept)


def rungs(
    cals: Sequence[Calibrated],
    software: str | None,
    ratio_of: Callable[[str], tuple[float, int]],
    max_age: int,
    newest: int,
    extra: float,
) -> list[Rung]:
    """The usable releases of one configuration at one precision, each with its cost (plus `extra`).

    `ratio_of(release)` is the measured release ratio from that release to `software` and its pairs;
    `newest` the newest release (in months) on the system and precision."""
    releases = sorted({c.point.software for c in cals})
    if not releases:
        return []
    if software is None:
        latest = releases[-1]
        if newest - months(latest) > max_age:
            return []
        return [Rung(_group(cals, latest, 1.0), cals[0].point.precision, latest, 0, extra, 0)]
    out = []
    for release in releases:
        gap = months(release) - months(software)
        if abs(gap) > max_age:
            continue
        ratio, pairs, cost = 1.0, 0, extra
        if abs(gap) > RELEASE_TOLERANCE_MONTHS:
            ratio, pairs = ratio_of(release)
            if not pairs and gap > 0:
                continue
            cost += abs(gap)
        out.append(Rung(_group(cals, release, ratio), cals[0].point.precision, release, pairs, cost, gap))
    return out


def model_rungs(
    pool: Sequence[Calibrated],
    workload: tuple[str, int],
    software: str | None,
    ratio_of: Callable[[str], tuple[float, int]],
    scaling: MfuScaling,
    extra: float,
) -> list[Rung]:
    """The rungs of the workload's model (id, sequence length) among `pool`, one system and precision: its
    own sequence length, and others within `seq_window` at `SEQ_LEN_MONTHS` more."""
    model_id, seq_len = workload
    window = scaling.seq_window
    same = [c for c in pool if c.point.model == model_id and 1 / window <= c.seq_len / seq_len <= window]
    if not same:
        return []
    newest = max(months(c.point.software) for c in pool)
    lengths = {c.seq_len for c in same}
    if software is None:  # a sequence length whose latest figure is older than another's is superseded
        latest = {n: max(months(c.point.software) for c in same if c.seq_len == n) for n in lengths}
        lengths = {n for n in lengths if max(latest.values()) - latest[n] <= RELEASE_TOLERANCE_MONTHS}
    else:  # a release asked for: its own sequence length only (leave-one-out: another costs accuracy)
        lengths &= {seq_len}
    out = []
    for length in sorted(lengths):
        cals = [c for c in same if c.seq_len == length]
        cost = extra + (0.0 if length == seq_len else SEQ_LEN_MONTHS)
        out += rungs(cals, software, ratio_of, scaling.max_age_months, newest, cost)
    return out


def cheapest(candidates: Sequence[Rung], latest_first: bool) -> Rung | None:
    """The cheapest rung. Ties go to the newer release when no month is asked for (`latest_first`), else
    to the nearer release, then the earlier one; then to the first listed (the system's own figures)."""
    candidates = [r for r in candidates if r.cost <= MAX_COST]
    if not candidates:
        return None
    if latest_first:
        return min(candidates, key=lambda r: (r.cost, -months(r.release)))
    return min(candidates, key=lambda r: (r.cost, abs(r.gap), r.gap))
