"""Where the test suite's time goes: runs it (or part of it) once and summarises the time by file and by test.

    python benchmarks/suite_time.py                      # the whole suite, as .ci/run runs it on 2 workers
    python benchmarks/suite_time.py tests/test_rules.py  # some files
    python benchmarks/suite_time.py --xml run.xml        # summarise a run already made (pytest --junitxml)

Each test's CPU seconds are recorded too (this module is loaded into pytest as a plugin, `-p
benchmarks.suite_time`): its process's CPU and that of the subprocesses it waited for, in set-up, call and
tear-down; under load, a test's wall time mostly measures the other processes, its CPU time far less.

The run is `pytest -n 2 -p no:randomly -m "not fuzz" -p no:cacheprovider --dist loadgroup -o addopts=""`
with a JUnit XML report; each test's time there is its set-up, call and tear-down in its worker. Printed:
the wall time of the whole run, the worker time summed over tests (above wall x workers, the rest is
collection, start-up and idle workers), the files and tests that take the most, and the load average
before and after (compare runs only under like load; run each twice). Not a test: speed is measured here,
never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["-n", "2", "-p", "no:randomly", "-m", "not fuzz", "-p", "no:cacheprovider", "--dist", "loadgroup"]


_STARTED: dict[str, float] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Pytest hook (as a plugin): note the CPU seconds spent before the test's set-up."""
    _STARTED[item.nodeid] = _cpu_seconds()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> None:
    """Pytest hook: before the tear-down's report (which the JUnit report reads), the test's CPU seconds."""
    if call.when == "teardown" and item.nodeid in _STARTED:
        item.user_properties.append(("cpu_s", f"{_cpu_seconds() - _STARTED.pop(item.nodeid):.4f}"))


def _cpu_seconds() -> float:
    """This process's CPU seconds and those of the child processes it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(paths: list[str], xml: Path, workers: str) -> tuple[float, float]:
    """Run pytest on `paths` (the suite when empty) with a JUnit report at `xml`; the wall seconds taken and
    the CPU seconds of pytest and its workers (which other load on the machine inflates far less)."""
    plugin = ["-p", "benchmarks.suite_time", f"--junitxml={xml}", "-rfE"]
    command = [sys.executable, "-m", "pytest", *COMMAND, "-o", "addopts=", "-q", *plugin, *paths]
    command[command.index("-n") + 1] = workers
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = cpu_after.ru_utime + cpu_after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime
    lines = done.stdout.strip().splitlines()
    for line in lines:
        if line.startswith(("FAILED", "ERROR")):
            print(line)
    print(lines[-1] if lines else done.stderr[-2000:])
    return wall, cpu


def tests_of(xml: Path) -> list[tuple[str, str, float, float]]:
    """Each test in the report as (file, name, wall seconds, CPU seconds; 0 when not recorded)."""
    found = []
    for case in ET.parse(xml).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")
        name = case.get("name", "")
        where = "/".join(module[: 2 if module[:1] == ["tests"] else 1]) + ".py"
        cpu = [float(p.get("value", 0)) for p in case.iter("property") if p.get("name") == "cpu_s"]
        found.append((where, name, float(case.get("time", 0) or 0), sum(cpu)))
    return found


def summary(tests: list[tuple[str, str, float, float]], top: int) -> str:
    """The wall and CPU time by file, and the tests taking the most CPU (wall, where CPU went unrecorded)."""
    by_file: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for where, _, wall, cpu in tests:
        by_file[where].append((wall, cpu))
    wall_total = sum(test[2] for test in tests)
    cpu_total = sum(test[3] for test in tests)
    key = 3 if cpu_total else 2
    total = cpu_total or wall_total
    lines = [
        f"{len(tests)} tests: {wall_total:.1f} s of worker wall time, {cpu_total:.1f} s of CPU",
        "",
        "by file (wall s, CPU s, CPU share, tests, most CPU of one test s):",
    ]
    for where, times in sorted(by_file.items(), key=lambda item: -sum(t[key - 2] for t in item[1]))[:top]:
        wall, cpu = sum(t[0] for t in times), sum(t[1] for t in times)
        share = (cpu if cpu_total else wall) / total
        most = max(t[key - 2] for t in times)
        lines.append(f"  {wall:7.1f}  {cpu:7.1f}  {share:5.1%}  {len(times):4d}  {most:6.2f}  {where}")
    lines += ["", "tests taking the most (wall s, CPU s):"]
    for where, name, wall, cpu in sorted(tests, key=lambda test: -test[key])[:top]:
        lines.append(f"  {wall:7.2f}  {cpu:7.2f}  {where}::{name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", help="test files or node ids (default: the whole suite)")
    parser.add_argument("--xml", type=Path, help="summarise this JUnit report instead of running")
    parser.add_argument("--workers", default="2", help="xdist workers (-n), default 2")
    parser.add_argument("--top", type=int, default=25, help="how many files and tests to list")
    options = parser.parse_args()
    if options.xml:
        print(summary(tests_of(options.xml), options.top))
        return
    with tempfile.TemporaryDirectory() as folder:
        xml = Path(folder) / "suite.xml"
        before = os.getloadavg()[0]
        wall, cpu = run(options.paths, xml, options.workers)
        after = os.getloadavg()[0]
        load = f"load average {before:.1f} before, {after:.1f} after"
        print(f"wall {wall:.1f} s, CPU {cpu:.1f} s on {options.workers} workers; {load}")
        print(summary(tests_of(xml), options.top))


if __name__ == "__main__":
    main()
