"""Files the app writes and reads: scenario files and exported reports (text from `advisor.report`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from advisor import __version__
from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import ScenarioError
from advisor.io.atomic import write_atomic
from advisor.io.scenario_files import load_scenario
from advisor.report.formats import REPORT_FORMATS


def export_report(
    scenario: Scenario,
    catalog: Catalog,
    rules: Sequence[Rule],
    fmt: str,
    path: Path,
    *,
    force: bool,
    today: date,
) -> Path:
    """Write the report of `scenario` in `fmt` to `path` (raises AdvisorError saying what went wrong)."""
    from advisor.report.data import build_report

    report = build_report(scenario, catalog, rules, today=today, version=__version__)
    return write_atomic(path, REPORT_FORMATS[fmt].render(report), force=force)


def open_scenario(path: Path, catalog: Catalog) -> Scenario:
    """A scenario file checked against the catalog (raises AdvisorError naming the problem)."""
    scenario = load_scenario(path)
    scenario.check_ids(catalog)
    try:
        scenario.workload.workload(catalog)
    except ValueError as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    return scenario
