"""Speed goals, measured: prints a table of measured time against each target.

Run from the repository root (not part of CI; numbers depend on the machine):

    .venv/bin/python benchmarks/run.py          # everything
    .venv/bin/python benchmarks/run.py --core   # only advise() and 10,000 estimates

Each figure is the median of several runs after a warm-up; the CLI is timed as a fresh process.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def median_seconds(
    fn: Callable[[], object], runs: int, warmup: int = 1, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Median of `runs` calls after `warmup`, by `clock` (wall time; `time.process_time` for CPU)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def bench_cli() -> float:
    advisor = Path(sys.executable).parent / "advisor"
    argv = [
        str(advisor),
        "estimate",
        "--model",
        "llama3-70b",
        "--tokens",
        "15e12",
        "--system",
        "h100",
        "--gpus",
        "2048",
        "--precision",
        "fp8",
        "--pricing",
        "own",
        "--json",
    ]
    return median_seconds(lambda: subprocess.run(argv, check=True, capture_output=True), runs=10)


def report_rows(catalog: Any, rules: Any, today: date) -> list[tuple[str, float, float]]:
    """Building and rendering a report of a 70B pretrain, in each registered format."""
    from advisor.core.scenario import Scenario
    from advisor.report.data import build_report
    from advisor.report.formats import REPORT_FORMATS, Format

    workload = {"model": "llama3-70b", "tokens": 15e12, "gpus": 2048, "precision": "fp8", "pricing": "own"}
    scenario = Scenario.model_validate({"schema": 1, "name": "benchmark", "workload": workload})
    rows = []
    for fmt in REPORT_FORMATS.values():

        def one(fmt: Format = fmt) -> str:
            return fmt.render(build_report(scenario, catalog, rules, today=today, version="bench"))

        rows.append((f"report generation, {fmt.extension}", median_seconds(one, runs=10), 0.2))
    return rows


def core_rows(catalog: Any, rules: Any, today: date) -> list[tuple[str, float, float]]:
    """The Python API in a warm process: `advise()` over every system, and 10,000 estimates."""
    from advisor.core.costing.estimate import estimate
    from advisor.core.decision.advise import advise
    from advisor.core.decision.request import AdviceRequest
    from advisor.core.model.workload import Workload

    workload = Workload(
        model=catalog.model("llama3-70b"), tokens=15e12, gpus=2048, precision="fp8", pricing="own"
    )
    cpu = time.process_time  # on a shared machine wall time follows the load; this is one thread's work
    advice = median_seconds(
        lambda: advise(AdviceRequest(workload, catalog, rules, today=today)), runs=200, warmup=5, clock=cpu
    )
    workloads = [workload.model_copy(update={"tokens": 1e12 + i}) for i in range(10_000)]
    many = median_seconds(lambda: [estimate(w, "h100", catalog) for w in workloads], runs=3, clock=cpu)
    return [
        ("advise() over all systems, CPU", advice, 0.002),
        ("10,000 estimates (Python API), CPU", many, 1.0),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Speed goals, measured against their targets.")
    parser.add_argument(
        "--core", action="store_true", help="only the Python API: advise() and 10,000 estimates (CPU time)"
    )
    args = parser.parse_args(argv)
    from benchmarks.bench_catalog import compile_bytecode

    compile_bytecode()
    from advisor.io.catalog_files import load_catalog
    from advisor.io.rule_files import load_rules

    catalog = load_catalog(user_dir=False)
    rules = load_rules()
    today = date.today()
    rows: list[tuple[str, float, float]] = []
    if not args.core:
        rows.append(("CLI `estimate --json` wall time", bench_cli(), 0.4))
        from benchmarks.bench_catalog import rows as catalog_rows

        rows.extend((name, seconds, target) for name, seconds, target in catalog_rows() if target is not None)
    rows.extend(core_rows(catalog, rules, today))
    if not args.core:
        from benchmarks.bench_tui import first_screen_seconds, recompute_seconds

        rows.append(("TUI time to first interactive screen", first_screen_seconds(), 1.0))
        rows.append(("TUI recompute after an edit", recompute_seconds(), 0.05))
        rows.extend(report_rows(catalog, rules, today))

    width = max(len(name) for name, _, _ in rows)
    print(f"| {'benchmark':<{width}} | measured | target | ok |")
    print(f"| {'-' * width} | --- | --- | --- |")
    for name, seconds, target in rows:
        ok = "yes" if seconds <= target else "NO"
        print(f"| {name:<{width}} | {_show(seconds)} | {_show(target)} | {ok} |")


def _show(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


if __name__ == "__main__":
    asyncio.set_event_loop_policy(None)
    main()
