"""benchmarks/noise_floor.py: pairs of end-to-end runs the model's inputs barely tell apart."""

from __future__ import annotations

from advisor.core.analysis import validation as V
from advisor.core.analysis.validation_results import CaseResult
from advisor.io.evidence_files import evidence_dir, load_evidence
from benchmarks import noise_floor
from tests.conftest import computed_once, shipped_catalog

CATALOG = shipped_catalog()
RUNS = load_evidence(evidence_dir(), set(CATALOG.systems), set(CATALOG.models))


def _time_error(case: CaseResult) -> float:
    """The error in the run's time, whether its figure was a time or a speed."""
    return case.error if case.run.published.quantity in noise_floor.TIMES else 1 / (1 + case.error) - 1


def _best_rescaled_worst(a: CaseResult, b: CaseResult) -> float:
    """Search: the smallest worst time error of the two when the model's times are both scaled by c."""
    grid = (0.2 * 1.0005**k for k in range(8000))  # c from 0.2 to about 10.9
    return min(max(abs(c * (1 + _time_error(a)) - 1), abs(c * (1 + _time_error(b)) - 1)) for c in grid)


def test_each_pairs_floor_is_the_least_worst_error_of_any_rescaling_and_the_largest_is_above_30_percent():
    # The floor, from the ratio of the two runs' slowness, must equal what a search over a common
    # rescaling of the model finds, whatever the pair's quantities (GPU-hours, days, TFLOP/s per GPU:
    # a speed's slowness is inverted). The largest floor is the claim docs/calibration.md makes about
    # issue #11's 30% worst-case target.
    found = noise_floor.pairs(computed_once(V.validate, RUNS, CATALOG), CATALOG)
    times = noise_floor.TIMES
    assert any(
        (a.run.published.quantity in times) != (b.run.published.quantity in times) for _, a, b in found
    )
    for ratio, a, b in found:
        assert ratio >= 1
        assert abs(_best_rescaled_worst(a, b) - noise_floor.floor(ratio)) < 1e-3, (a.run.id, b.run.id)
    assert noise_floor.floor(found[0][0]) > 0.30
