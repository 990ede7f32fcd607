"""Files the app writes and reads: scenario files and exported reports (text from `advisor.report`)."""

from __future__ import annotations

import stat
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from advisor import __version__
from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import ScenarioError
from advisor.io.atomic import write_atomic
from advisor.io.scenario_files import load_scenario
from advisor.report.formats import REPORT_FORMATS

if TYPE_CHECKING:
    from advisor.core.run import ScenarioResult
    from advisor.report.data import ReportData
    from advisor.tui.advice import Advice


def export_report(
    scenario: Scenario,
    catalog: Catalog,
    rules: Sequence[Rule],
    fmt: str,
    path: Path,
    *,
    force: bool,
    today: date,
    shown: tuple[Advice | None, ScenarioResult | None] = (None, None),
) -> Path:
    """Write the report of `scenario` in `fmt` to `path` (raises AdvisorError saying what went wrong).

    `shown` is the advice and analysis on screen: what of them is for `scenario` is used, not computed again.
    """
    report = _report(scenario, catalog, rules, today, *shown)
    return write_atomic(path, REPORT_FORMATS[fmt].render(report), force=force)


def _report(
    scenario: Scenario,
    catalog: Catalog,
    rules: Sequence[Rule],
    today: date,
    advice: Advice | None,
    analysis: ScenarioResult | None,
) -> ReportData:
    """The report from what is on screen for `scenario`: the advice, and the analysis if it is ready."""
    from advisor.report.data import build_report, report_from_result

    if advice is None or advice.scenario != scenario:
        return build_report(scenario, catalog, rules, today=today, version=__version__)
    if analysis is None or analysis.scenario != scenario:
        from advisor.tui.advice import compute_analysis

        analysis = compute_analysis(advice)
    return report_from_result(analysis, advice.assumptions, today=today, version=__version__)


MAX_FILE_BYTES = 1_000_000
"""Largest scenario or settings file the app reads (a real one is a few kB)."""


def check_readable(path: Path, error: type[Exception] = ScenarioError) -> None:
    """Refuse what is not a regular file of sensible size (a device, a FIFO, /dev/zero) before reading."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{path}: not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise error(f"{path}: {info.st_size:,} bytes; a scenario file is at most {MAX_FILE_BYTES:,}")


def open_scenario(path: Path, catalog: Catalog) -> Scenario:
    """A scenario file checked against the catalog (raises AdvisorError naming the problem)."""
    check_readable(path)
    try:
        scenario = load_scenario(path, catalog)  # an unknown id is named with the file and line
        scenario.workload.workload(catalog)
    except (ValueError, RecursionError, MemoryError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).splitlines()[0][:300]
        raise ScenarioError(f"{path}: {why}") from None
    return scenario
