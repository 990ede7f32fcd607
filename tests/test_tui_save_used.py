"""Pilot tests: a saved scenario holds only the answers its job uses (new-user walk, app27 item 5). A
serving job at a target rate kept the Tokens and GPUs typed for a training job, which it does not use;
the CLI's --save writes the same file, and re-opening it gives the same screen."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from advisor.cli.main import main
from advisor.core.scenario import Scenario
from advisor.tui.answers import read_answers
from advisor.tui.screens.path_dialog import PathDialog
from tests.test_tui_helpers import (
    fewer_collections,
    fill,
    no_ranges,
    pilot_test,
    running,
    settle,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

SERVING = Scenario.model_validate(
    {
        "schema": 1,
        "name": "chat",
        "workload": {
            "model": "llama3-70b",
            "tokens": "1T",
            "gpus": 64,
            "kind": "inference",
            "target_tokens_per_second": "50k",
        },
    }
)
"""A chat service at 50k tokens/s, with the Tokens and GPUs of the training job it was first asked as."""


def _shown(app) -> dict:  # type: ignore[no-untyped-def]
    """Every answer as the form shows it, and which questions are asked."""
    main_screen = app.main
    rows = main_screen.form.rows
    return {row.question.key: (row.answer, row.disabled, row.display, row.unused) for row in rows} | {
        "read": read_answers(main_screen.scenario, main_screen.catalog)
    }


@pilot_test
async def test_a_saved_serving_job_holds_only_what_it_uses_and_opens_as_it_was_shown(tmp_path: Path):
    path = tmp_path / "chat.toml"
    async with running(scenario=SERVING) as (app, pilot):
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, PathDialog), "the Save dialog")
        await fill(pilot, "#path", str(path))
        await pilot.press("enter")
        await until(pilot, lambda: app.main.scenario_path == path, "the scenario saved")
        await settle(pilot)
        shown_after_saving = _shown(app)
        headline = app.main.advice.recommendation.headline
    workload = tomllib.loads(path.read_text())["workload"]
    assert "tokens" not in workload and "gpus" not in workload, workload
    assert workload["target_tokens_per_second"] == 50_000
    async with running(scenario_path=path) as (again, _pilot):
        assert _shown(again) == shown_after_saving
        assert again.main.advice.recommendation.headline == headline
        assert not again.main.unsaved


def test_the_cli_save_writes_the_same_file_as_the_app(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """`recommend --save` warned that --tokens and --gpus are not used, then saved them anyway."""
    flags = ["--model", "llama3-70b", "--kind", "inference", "--target-tokens-per-second", "50k"]
    saved = tmp_path / "saved.toml"
    assert main(["recommend", *flags, "--tokens", "1T", "--gpus", "64", "--save", str(saved)]) == 0
    capsys.readouterr()
    workload = tomllib.loads(saved.read_text())["workload"]
    assert "tokens" not in workload and "gpus" not in workload, workload
    assert workload["target_tokens_per_second"] == 50_000
