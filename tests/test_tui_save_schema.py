"""A saved scenario names its JSON Schema by a path relative to the file, never an absolute one (item 4 of
app24): a file a team shares and diffs must not carry one engineer's install path. The schema named is a
team's copy beside the file or above it (up to the repository root), or the installed one when it lies in
the same repository; else no line. Files saved before, with an absolute `#:schema` line, still load."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from advisor.cli.main import main
from advisor.io.scenario_files import load_scenario, save_scenario, schema_comment
from advisor.schemas import schema_path
from tests.test_tui_helpers import (
    LLAMA_70B,
    fewer_collections,
    pilot_test,
    running,
    settle,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__)


def _team_schema(folder: Path) -> Path:
    """A team's copy of the schema, as `advisor schema scenario > scenario.schema.json` makes it."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / "scenario.schema.json"
    copy.write_text(Path(schema_path("scenario")).read_text())
    return copy


def _first_line(path: Path) -> str:
    return path.read_text().splitlines()[0]


def test_no_schema_at_hand_writes_no_line(tmp_path: Path):
    (tmp_path / ".git").mkdir()  # a repository without a schema copy
    (tmp_path / "plans").mkdir()
    saved = save_scenario(LLAMA_70B, tmp_path / "plans" / "a.toml")
    assert _first_line(saved) == "schema = 1"
    assert str(Path(schema_path("scenario")).parent) not in saved.read_text()


@pytest.mark.parametrize(
    ("schema_in", "saved_in", "line"),
    [
        ("", "", "#:schema ./scenario.schema.json"),
        ("", "plans/2026", "#:schema ../../scenario.schema.json"),
        ("plans", "plans", "#:schema ./scenario.schema.json"),
    ],
    ids=["beside", "two folders up", "in the same subfolder"],
)
def test_a_team_copy_is_named_relative_to_the_file(tmp_path: Path, schema_in: str, saved_in: str, line: str):
    (tmp_path / ".git").mkdir()
    copy = _team_schema(tmp_path / schema_in)
    (tmp_path / saved_in).mkdir(parents=True, exist_ok=True)
    saved = save_scenario(LLAMA_70B, tmp_path / saved_in / "a.toml")
    assert _first_line(saved) == line
    named = (saved.parent / line.removeprefix("#:schema ")).resolve()
    assert named == copy.resolve() and json.loads(named.read_text())["title"].startswith("advisor scenario")
    assert load_scenario(saved) == LLAMA_70B


def test_a_copy_outside_the_repository_is_not_named(tmp_path: Path):
    _team_schema(tmp_path)  # above the repository root: not part of what the team shares
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    assert schema_comment(tmp_path / "repo" / "a.toml") == ""


def test_the_installed_schema_is_named_relatively_inside_its_own_checkout():
    installed = Path(schema_path("scenario")).absolute()
    checkout = next((p for p in installed.parents if (p / ".git").exists()), None)
    if checkout is None:
        pytest.skip("the advisor is installed, not a checkout")
    line = schema_comment(checkout / "examples" / "a.toml")
    assert line == "#:schema ../advisor/schemas/scenario.schema.json\n"


def test_cli_save_writes_no_absolute_path(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    (tmp_path / ".git").mkdir()
    _team_schema(tmp_path)
    saved = tmp_path / "plan.toml"
    argv = ["recommend", "--model", "llama3-8b", "--tokens", "1T", "--save", str(saved)]
    assert main(argv) == 0
    capsys.readouterr()
    assert _first_line(saved) == "#:schema ./scenario.schema.json"
    assert str(tmp_path) not in saved.read_text()


def test_an_old_file_with_an_absolute_schema_line_still_loads(tmp_path: Path):
    old = tmp_path / "old.toml"
    body = save_scenario(LLAMA_70B, tmp_path / "new.toml").read_text()
    old.write_text(f"#:schema {Path(schema_path('scenario')).absolute().as_uri()}\n{body}")
    assert load_scenario(old) == LLAMA_70B
    assert tomllib.loads(old.read_text())["schema"] == 1


@pilot_test
async def test_the_apps_save_names_the_team_copy_relatively(tmp_path: Path):
    (tmp_path / ".git").mkdir()
    _team_schema(tmp_path)
    (tmp_path / "plans").mkdir()
    async with running() as (_app, pilot):
        await pilot.press("ctrl+s", *str(tmp_path / "plans" / "a70b"), "enter")
        await settle(pilot)
    saved = tmp_path / "plans" / "a70b.toml"
    assert _first_line(saved) == "#:schema ../scenario.schema.json"
