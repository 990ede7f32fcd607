"""How fast the app is: time to the first interactive screen, and recompute after an edit.

    .venv/bin/python benchmarks/bench_tui.py        # prints both; benchmarks/run.py uses the functions

First screen: a fresh Python process is started (the parent notes the wall clock first); it imports the
app, loads the catalog and rules, runs the app headless and reports when the screen is first painted
(the questions, taking keys: the first interactive screen) and when the headline is painted with the
first recommendation, in wall time and in the process's CPU time (which a loaded machine does not
inflate). Recompute: in a running app, one keystroke in the GPUs field, timed from
the key event to the headline painted with the new result (the ranges follow later, off the clock; their
time is printed too). Default settings are used, never the developer's.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _child_first_screen(started: float) -> None:
    """In the child: run the app until the first recommendation is painted; print, as JSON, the wall
    seconds from `started` and the process's CPU seconds (interpreter start-up included) at the first
    paint of the screen (the questions, ready for keys) and at the first recommendation painted."""
    import json

    from advisor.tui.app import make_app
    from advisor.tui.settings import Settings
    from advisor.tui.widgets.headline import Headline

    marks: dict[str, tuple[float, float]] = {}
    render = Headline.render

    def timed_render(self: Headline):  # type: ignore[no-untyped-def]
        now = (time.time() - started, time.process_time())
        marks.setdefault("interactive", now)
        if self.advice is not None:
            marks.setdefault("answer", now)
        return render(self)

    Headline.render = timed_render  # type: ignore[method-assign]
    app = make_app(settings=Settings())

    async def wait_for_paint(pilot) -> None:  # type: ignore[no-untyped-def]
        while "answer" not in marks:
            await asyncio.sleep(0.002)
        app.exit()

    app.run(headless=True, size=(100, 30), auto_pilot=wait_for_paint)
    print(json.dumps(marks))


@dataclass(frozen=True)
class FirstScreen:
    """Medians over the runs, in seconds: wall clock and CPU, to the interactive screen and to the
    first recommendation. CPU time is what an idle machine's wall time would be, near enough; on a
    loaded machine the wall time grows with the load while the CPU time does not."""

    interactive_wall: float
    interactive_cpu: float
    answer_wall: float
    answer_cpu: float


def first_screen(runs: int = 5) -> FirstScreen:
    """Start the app `runs` times (after one warm-up) and take the medians."""
    import json

    samples = []
    with tempfile.TemporaryDirectory() as config:
        env = {**os.environ, "ADVISOR_CONFIG_DIR": config}
        for _ in range(runs + 1):
            started = time.time()
            out = subprocess.run(
                [sys.executable, __file__, "--child", repr(started)],
                check=True,
                capture_output=True,
                text=True,
                env=env,
                cwd=ROOT,
            )
            samples.append(json.loads(out.stdout.strip().splitlines()[-1]))
    samples = samples[1:]  # the first run warms the file cache

    def median(mark: str, index: int) -> float:
        return statistics.median(sample[mark][index] for sample in samples)

    return FirstScreen(
        median("interactive", 0), median("interactive", 1), median("answer", 0), median("answer", 1)
    )


def first_screen_seconds(runs: int = 5) -> float:
    """Median wall time from starting a process to the first interactive screen painted."""
    return first_screen(runs).interactive_wall


async def _recompute_times(edits: int) -> tuple[list[float], list[float]]:
    from textual import events

    from advisor.tui.widgets.headline import Headline
    from tests.test_tui_helpers import app_for_test, settle

    renders: list[tuple[float, object]] = []
    render = Headline.render

    def timed_render(self: Headline):  # type: ignore[no-untyped-def]
        renders.append((time.perf_counter(), self.advice.scenario if self.advice else None))
        return render(self)

    Headline.render = timed_render  # type: ignore[method-assign]
    app = app_for_test()
    recompute: list[float] = []
    analysis: list[float] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, analysis=True)
        main = app.main
        main.form.focus_question("gpus")
        await pilot.press("end")
        for index in range(edits):
            key = "backspace" if index % 2 == 0 else "4"
            before = main.scenario
            started = time.perf_counter()
            app._driver.send_message(events.Key(key, None if key == "backspace" else key))  # type: ignore[union-attr]
            while main.scenario == before or not any(
                t > started and s == main.scenario for t, s in renders[-3:]
            ):
                await asyncio.sleep(0.0005)
            painted = next(t for t, s in renders if t > started and s == main.scenario)
            recompute.append(painted - started)
            while main.analysis is None or main.analysis.scenario != main.scenario:
                await asyncio.sleep(0.005)
            analysis.append(time.perf_counter() - started)
            await pilot.pause(0.05)
    Headline.render = render  # type: ignore[method-assign]
    return recompute, analysis


async def _help_times(opens: int) -> list[float]:
    """CPU seconds from F1 to the help screen painted, `opens` times (Esc closes it between)."""
    from advisor.tui.screens.help_screen import HelpScreen
    from tests.test_tui_helpers import app_for_test, settle

    app = app_for_test()
    times: list[float] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(opens):
            started = time.process_time()
            await pilot.press("f1")
            while not isinstance(app.screen, HelpScreen):
                await asyncio.sleep(0.001)
            await pilot.pause()
            times.append(time.process_time() - started)
            await pilot.press("escape")
            await pilot.pause()
    return times


def recompute_seconds(edits: int = 20) -> float:
    """Median time from a keystroke that changes an answer to the new headline painted."""
    with tempfile.TemporaryDirectory() as config:
        os.environ["ADVISOR_CONFIG_DIR"] = config
        recompute, _ = asyncio.run(_recompute_times(edits))
    return statistics.median(recompute)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child_first_screen(float(sys.argv[2]))
        return
    first = first_screen()
    with tempfile.TemporaryDirectory() as config:
        os.environ["ADVISOR_CONFIG_DIR"] = config
        recompute, analysis = asyncio.run(_recompute_times(20))
        help_opens = asyncio.run(_help_times(5))
    print(
        f"first interactive screen (questions painted, keys taken): {first.interactive_wall * 1000:.0f} ms "
        f"wall, {first.interactive_cpu * 1000:.0f} ms CPU "
        f"(median of 5; load average {os.getloadavg()[0]:.1f})"
    )
    print(
        f"first recommendation painted: {first.answer_wall * 1000:.0f} ms wall, "
        f"{first.answer_cpu * 1000:.0f} ms CPU"
    )
    print(
        f"recompute, keystroke to new headline painted: median {statistics.median(recompute) * 1000:.1f} ms, "
        f"max {max(recompute) * 1000:.1f} ms ({len(recompute)} edits)"
    )
    print(
        f"ranges and break-evens, keystroke to shown (0.4 s debounce included): "
        f"median {statistics.median(analysis) * 1000:.0f} ms"
    )
    print(f"help (F1) opened and painted: median {statistics.median(help_opens) * 1000:.0f} ms CPU (5 opens)")


if __name__ == "__main__":
    main()
