"""Random key presses in the app (`pytest -m fuzz`): whatever is typed, the app never crashes.

1,200 key presses over 4 sessions, from a seeded generator: navigation, editing, human numbers and
garbage, dialogs opened and dismissed. Textual re-raises any exception from the app when the Pilot
session ends, so a crash fails the test. Quitting keys are left out (a session would just end).
"""

from __future__ import annotations

import asyncio
import random
from datetime import date

import pytest

from advisor.tui.app import make_app
from advisor.tui.settings import Settings

pytestmark = pytest.mark.fuzz

KEYS = (
    ["tab"] * 8
    + ["shift+tab"] * 3
    + ["enter"] * 4
    + ["escape"] * 3
    + ["up", "down", "left", "right"] * 3
    + ["backspace"] * 4
    + ["space", "home", "end", "pageup", "pagedown"]
    + list("0123456789")
    + list(".eETBkMx-$,")
    + ["question_mark", "f1", "f2", "ctrl+e", "ctrl+s", "ctrl+o"]
)


async def _session(seed: int, presses: int) -> None:
    rng = random.Random(seed)
    app = make_app(settings=Settings(), today=date(2026, 11, 29))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(presses):
            await pilot.press(rng.choice(KEYS))
        await pilot.pause()
        assert app.is_running


@pytest.mark.parametrize("seed", range(4))
def test_random_key_presses_never_crash_the_app(seed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # saves and exports the keys trigger land here, not in the checkout
    asyncio.run(_session(seed, 300))
