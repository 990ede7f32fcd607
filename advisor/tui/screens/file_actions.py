"""Save, Open and Export for the main screen: each opens a dialog whose action reports back inline."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.io.scenario_files import save_scenario, used_only
from advisor.report.formats import REPORT_FORMATS
from advisor.tui.exporting import export_report, open_scenario
from advisor.tui.questions import QUESTION_BY_KEY
from advisor.tui.screens.export_dialog import ExportDialog
from advisor.tui.screens.path_dialog import PathDialog

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    from advisor.core.run import ScenarioResult
    from advisor.tui.advice import Advice


class ScenarioScreen(Protocol):
    """What the file actions need of the screen that owns the scenario (the main screen)."""

    scenario: Scenario | None
    scenario_path: Path | None
    saved_scenario: Scenario
    errors: Mapping[str, str]
    advice: Advice | None
    analysis: ScenarioResult | None
    catalog: Catalog
    rules: tuple[Rule, ...]

    @property
    def app(self) -> App[Any]: ...

    def load(self, scenario: Scenario, path: Path | None) -> None: ...

    def notify(
        self, message: str, *, title: str = ..., severity: SeverityLevel = ..., markup: bool = ...
    ) -> None: ...


DEFAULT_SCENARIO_FILE = "scenario.toml"
REPLACE_HINT = "{path} already exists: tick “Replace the file if it exists” to replace it"
DEFAULT_REPORT_STEM = "report"


def refused(screen: ScenarioScreen, what: str) -> bool:
    """Whether an answer on screen is not accepted; if so, say which (nothing is written then, so a
    file never holds a value the screen does not show)."""
    if not screen.errors:
        return False
    labels = ", ".join(QUESTION_BY_KEY[key].title for key in screen.errors)
    screen.notify(
        f"Not {what}: {labels} not accepted. Correct or clear the answer first.",
        title=f"Not {what}",
        severity="error",
        markup=False,
    )
    return True


def save(screen: ScenarioScreen) -> None:
    """Ctrl+S: save the answers as a scenario file."""
    if refused(screen, "saved"):
        return
    start = screen.scenario_path or Path(DEFAULT_SCENARIO_FILE)

    def write(path: Path, overwrite: bool) -> str | None:
        scenario = screen.scenario
        assert scenario is not None
        if not path.suffix:  # the dialog asks for a TOML file: `plan` means plan.toml
            path = path.with_suffix(".toml")
        if path.exists() and not overwrite and path != screen.scenario_path:
            return REPLACE_HINT.format(path=path)
        if scenario.name == "untitled":
            scenario = scenario.model_copy(update={"name": path.stem or "untitled"})
        scenario = used_only(scenario)  # the screen shows what opening the file again gives
        try:
            written = save_scenario(scenario, path, force=overwrite or path == screen.scenario_path)
        except AdvisorError as exc:
            return str(exc)
        screen.scenario = scenario
        screen.saved_scenario = scenario
        screen.scenario_path = written
        screen.notify(f"Saved {written}", title="Saved")
        return None

    screen.app.push_screen(PathDialog("Save scenario", str(start), "Save", write, overwrite_option=True))


def open_file(screen: ScenarioScreen) -> None:
    """Ctrl+O: open a scenario file, replacing every answer."""
    start = screen.scenario_path or Path(DEFAULT_SCENARIO_FILE)

    def read(path: Path, _overwrite: bool) -> str | None:
        try:
            scenario = open_scenario(path, screen.catalog)
        except AdvisorError as exc:
            return str(exc)
        screen.load(scenario, path)
        screen.notify(f"Opened {path}", title="Opened")
        return None

    screen.app.push_screen(PathDialog("Open scenario", str(start), "Open", read))


def export(screen: ScenarioScreen, today: date) -> None:
    """Ctrl+E: export the current result in one of the report formats."""
    if refused(screen, "exported"):
        return
    base = screen.scenario_path.with_suffix("") if screen.scenario_path else Path(DEFAULT_REPORT_STEM)
    scenario: Scenario | None = screen.scenario
    assert scenario is not None

    def write(fmt: str, path: Path, overwrite: bool) -> str | None:
        if path.exists() and not overwrite:
            return REPLACE_HINT.format(path=path)
        try:
            shown = (screen.advice, screen.analysis)
            written = export_report(
                scenario, screen.catalog, screen.rules, fmt, path, force=overwrite, today=today, shown=shown
            )
        except AdvisorError as exc:
            return str(exc)
        screen.notify(f"Wrote {REPORT_FORMATS[fmt].name} report {written}", title="Exported")
        return None

    screen.app.push_screen(ExportDialog(str(base) + ".md", write))
