"""A software release month past the catalog's reach is refused with the valid range, as a flag, a
scenario key and through the core's id check; up to the MFU ladder's reach past the newest release it is
accepted (the figures published at or before it count, docs/calibration.md)."""

from __future__ import annotations

import pytest

from advisor.cli.main import main
from advisor.core.model.mfu_ladder import MAX_COST
from advisor.core.model.mfu_release import months
from advisor.core.scenario import Scenario
from advisor.errors import CatalogError
from tests.conftest import shipped_catalog

JOB = ["estimate", "--model", "llama3-8b", "--tokens", "1e11", "--system", "h100"]


def _releases() -> list[str]:
    catalog = shipped_catalog()
    return sorted(point.software for table in catalog.mfu_tables.values() for point in table.points)


def _month(count: int) -> str:
    year, month = divmod(count - 1, 12)
    return f"{year}-{month + 1:02d}"


def _last_valid() -> str:
    return _month(months(_releases()[-1]) + int(MAX_COST))


def test_a_release_far_in_the_future_is_refused_naming_the_flag_and_the_range(capsys):
    # --software 2099-01 was accepted and quietly used the newest release.
    code = main([*JOB, "--software", "2099-01"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("advisor: --software '2099-01' is past the catalog's newest release")
    assert f"valid: {_releases()[0]} to {_last_valid()}, or none for the latest published" in err


def test_the_last_month_in_reach_is_accepted_and_the_next_refused(capsys):
    assert main([*JOB, "--software", _last_valid()]) == 0
    capsys.readouterr()
    assert main([*JOB, "--software", _month(months(_last_valid()) + 1)]) == 2


def test_a_scenario_file_s_release_is_refused_with_its_line(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('schema = 1\n[workload]\nmodel = "llama3-8b"\ntokens = 1e11\nsoftware = "2099-01"\n')
    code = main(["estimate", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and f"{path}:5: workload.software: '2099-01' is past" in err


def test_the_core_check_refuses_it_too():
    data = {"schema": 1, "workload": {"model": "llama3-8b", "tokens": 1e11, "software": "2099-01"}}
    with pytest.raises(CatalogError, match=r"workload\.software: '2099-01' is past"):
        Scenario.model_validate(data).check_ids(shipped_catalog())
