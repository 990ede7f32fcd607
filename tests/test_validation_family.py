"""Reference MFU spreads fitted per model family (dense, MoE) where a class has enough cases."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from advisor.core.analysis import validation as V
from tests.conftest import shipped_catalog


def _cases(basis_class: str, family: str, errors: list[float]) -> list[SimpleNamespace]:
    """Benchmark residuals as `reference_spreads` reads them: |log(published / predicted)| = each error."""
    return [SimpleNamespace(basis_class=basis_class, family=family, speed_ratio=math.exp(e)) for e in errors]


def test_a_class_gets_a_share_per_family_where_the_family_has_enough_cases():
    dense = _cases("other_release", "dense", [0.01 * i for i in range(1, 21)])  # 20 small residuals
    moe = _cases("other_release", "moe", [0.04 * i for i in range(1, 11)])  # 10 larger ones
    spreads = V.reference_spreads([*dense, *moe])  # type: ignore[arg-type]
    pooled, own_dense, own_moe = (spreads[f"mfu_other_release{s}"] for s in ("", "_dense", "_moe"))
    assert own_dense < pooled < own_moe
    # Each is the share of its own residuals alone (the rank-ceil(0.8(n+1)) smallest).
    assert own_dense == V.reference_spreads(dense)["mfu_other_release"]  # type: ignore[arg-type]
    assert own_moe == V.reference_spreads(moe)["mfu_other_release"]  # type: ignore[arg-type]
    # One case fewer than MIN_FAMILY_RESIDUALS: that family takes the pooled share (no key of its own).
    fewer = V.reference_spreads([*dense, *moe[1:]])  # type: ignore[arg-type]
    assert "mfu_other_release_moe" not in fewer and "mfu_other_release_dense" in fewer


def test_a_familys_transferred_share_is_never_narrower_than_its_interpolated_one():
    cases = [
        *_cases("interpolated", "moe", [0.3] * 10),
        *_cases("transferred", "moe", [0.05] * 10),
        *_cases("interpolated", "dense", [0.02] * 10),
    ]
    spreads = V.reference_spreads(cases)  # type: ignore[arg-type]
    assert spreads["mfu_transferred_moe"] == spreads["mfu_interpolated_moe"]
    # Dense has no transferred cases: its transferred share is the pooled one, at least its interpolated.
    assert spreads["mfu_transferred_dense"] >= spreads["mfu_interpolated_dense"]


def test_an_estimate_takes_its_familys_share_else_the_pooled_one():
    unc = shipped_catalog().economics.uncertainty
    update = {"mfu_other_release": 0.3, "mfu_other_release_moe": 0.8, "mfu_other_release_dense": None}
    unc = unc.model_copy(update=update)
    assert unc.mfu_share("other_release", "moe") == pytest.approx(0.8)
    assert unc.mfu_share("other_release", "dense") == pytest.approx(0.3)


def test_a_family_share_left_out_of_a_leave_one_out_fit_is_unset_not_kept():
    # A case's own spread is fitted without it: a family share its fit does not reach (too few cases)
    # must fall back to the pooled share, not keep the shipped value it helped fit.
    catalog = shipped_catalog()
    assert catalog.economics.uncertainty.mfu_other_release_moe is not None
    refitted = V._with_reference_spreads(catalog, {"mfu_other_release": 0.3})
    assert refitted.economics.uncertainty.mfu_other_release_moe is None
    assert refitted.economics.uncertainty.mfu_share("other_release", "moe") == pytest.approx(0.3)
