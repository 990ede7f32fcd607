"""Which software release an estimate's MFU rests on, and whether other systems' figures are newer."""

from __future__ import annotations

import pytest

from advisor.core.model.mfu import mfu_index, resolve_mfu
from advisor.core.model.mfu_result import MfuResult, newer_elsewhere


def _basis(catalog, system: str, precision: str = "fp8", software: str | None = None) -> str:
    model = catalog.model("llama3-70b")
    return resolve_mfu(catalog, system, precision, model, 256, software).basis  # type: ignore[arg-type]


# Without --software each system's figures are its latest published: B200's dense Llama figures end at
# Megatron-Bridge 25.11 (2025-12), B300's (GB300's) at 26.04.01 (2026-05), other systems' at 2026-06
# (docs/calibration.md, "B200 and B300: which release"). Side by side, part of the difference is software,
# and the basis says so; the system with the newest figures, or a month asked for, needs no such note.
def test_an_older_release_than_other_systems_is_said_in_the_basis(catalog):
    newest = max(c.point.software for c in mfu_index(catalog).calibrated_points() if c.family == "dense")
    b200 = _basis(catalog, "b200")
    assert "software release 2025-04, 2025-12 (the latest published for each configuration)" in b200
    assert f"other systems have dense figures up to release {newest}, so part of a gap" in b200
    assert "--software YYYY-MM" in b200
    assert "other systems'" not in _basis(catalog, "gb300-nvl72")
    assert "other systems'" not in _basis(catalog, "b200", software="2025-12")


@pytest.mark.parametrize(
    ("releases", "newest", "noted"),
    [
        (("2025-04", "2025-12"), "2026-06", True),
        (("2026-05",), "2026-06", False),  # a month apart counts as one release
        (("2026-06",), "2026-06", False),
        ((), "2026-06", False),  # no figure named (a user's MFU): nothing to compare
        (("2025-12",), None, False),
    ],
)
def test_newer_elsewhere_notes_only_a_release_older_than_the_newest(releases, newest, noted):
    result = MfuResult(0.4, "fp8", False, "interpolated from x", (), releases=releases)
    out = newer_elsewhere(result, "dense", newest)
    assert (out.basis != result.basis) is noted
    assert out.mfu == result.mfu
