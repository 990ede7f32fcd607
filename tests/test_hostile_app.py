"""The hostile-input corpus through the app's open and settings paths (issue 16): every bad scenario
is refused with a message naming the file, shown without control characters, and the app keeps its
answers; a hostile settings file is ignored with a message and the app starts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.errors import AdvisorError
from advisor.present.sanitise import printable
from advisor.tui.exporting import open_scenario
from advisor.tui.settings import load_settings, settings_path
from tests.conftest import shipped_catalog
from tests.test_hostile import HOSTILE
from tests.test_tui_helpers import (
    SIZE,
    app_for_test,
    fewer_collections,
    no_ranges,
    pilot_test,
    settle,
    until,
)

VALID = {"bom.toml", "bidi-in-name.toml", "control-and-markup-in-name.toml"}
"""Corpus scenarios that are valid data (hostile only in what they would print)."""
BAD = sorted(p for p in (HOSTILE / "scenarios").glob("*.toml") if p.name not in VALID)


@pytest.mark.parametrize("path", BAD, ids=[p.name for p in BAD])
def test_opening_a_bad_corpus_scenario_names_the_file(path: Path):
    with pytest.raises(AdvisorError) as caught:
        open_scenario(path, shipped_catalog())
    shown = printable(str(caught.value))
    assert path.name in shown and "\x1b" not in shown and len(shown) < 5_000


@pytest.mark.parametrize("name", sorted(VALID))
def test_a_valid_corpus_scenario_opens(name: str):
    assert open_scenario(HOSTILE / "scenarios" / name, shipped_catalog()) is not None


SETTINGS = {
    "deep": "pricing = " + "[" * 2000 + "]" * 2000 + "\n",
    "inf": "electricity_usd_per_kwh = inf\n",
    "long": f'pricing = "{"x" * 100_000}"\n',
    "control": 'pricing = "\\u001b]2;PWNED\\u0007[/]"\n',
    "huge": "# " + "x" * (9 * 2**20) + "\n",
}


@pytest.mark.parametrize("kind", [*SETTINGS, "fifo", "folder"])
def test_a_hostile_settings_file_is_ignored_with_a_message(kind: str, tmp_path: Path):
    path = tmp_path / "settings.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text(SETTINGS[kind], encoding="utf-8")
    settings, message = load_settings(path)
    assert message is not None and "settings ignored" in message and len(message) < 5_000
    assert "\x1b" not in printable(message)
    assert settings.pricing in ("rent", "own")


@pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)
@pilot_test
async def test_the_app_starts_past_a_deeply_nested_settings_file():
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(SETTINGS["deep"], encoding="utf-8")
    app = app_for_test(settings=None)
    async with app.run_test(size=SIZE) as pilot:
        # read before the app settles: a loaded machine can take longer than the notice's 10 s to settle
        notices = lambda: [n.message for n in app._notifications]  # noqa: E731
        await until(pilot, lambda: any("nested too deeply" in m for m in notices()), "the notice")
        await settle(pilot)
        assert app.is_running
