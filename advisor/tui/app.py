"""The Textual app: lifecycle, app-wide bindings, the command palette, settings. `make_app` builds it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from advisor.core.decision.rules import Rule
from advisor.core.model.catalog import Catalog
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.io.catalog_files import load_catalog
from advisor.io.rule_files import load_rules
from advisor.present.sanitise import printable
from advisor.report.formats import REPORT_FORMATS, format_names
from advisor.tui.answers import new_scenario
from advisor.tui.exporting import open_scenario
from advisor.tui.questions import QUESTIONS, SECTIONS, numbered_sections
from advisor.tui.screens.main_screen import MainScreen
from advisor.tui.settings import DARK_THEME, LIGHT_THEME, Settings, load_settings, save_settings
from advisor.tui.widgets.results_panel import TABS


class AdvisorApp(App[None]):
    """Which GPU system to rent or buy: questions in, a live recommendation out."""

    CSS_PATH = "app.tcss"
    TITLE = "advisor"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help"),
        Binding("f2", "settings", "Settings"),
        Binding("ctrl+t", "toggle_dark", "Light/dark", show=False),
        Binding("ctrl+n", "new_scenario", "New", show=False),
        Binding("q", "quit", "Quit", show=False),
    ]

    def __init__(
        self,
        catalog: Catalog,
        rules: Sequence[Rule],
        settings: Settings,
        *,
        scenario: Scenario | None = None,
        scenario_path: Path | None = None,
        today: date | None = None,
        startup_messages: Sequence[str] = (),
        file_root: Path | None = None,
    ) -> None:
        super().__init__()
        self.file_root = file_root
        """Served in a browser: the only folder file dialogs may use (None: any, as in a terminal)."""
        self.catalog = catalog
        self.rules = tuple(rules)
        self.settings = settings
        self.today = today or date.today()
        self.first_scenario = scenario or new_scenario(catalog, settings)
        self.first_path = scenario_path
        self.startup_messages = tuple(startup_messages)
        self.theme = settings.theme if settings.theme in self.available_themes else DARK_THEME
        self._keys_before_ready: list[events.Key] | None = []
        """Keys typed before the first frame, held until it shows (None after)."""

    def get_default_screen(self) -> Screen:
        return MainScreen(self.catalog, self.rules, self.first_scenario, self.today, self.first_path)

    @property
    def main(self) -> MainScreen:
        """The main screen (always at the bottom of the stack)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, MainScreen)
        return screen

    async def on_event(self, event: events.Event) -> None:
        """Keys typed before the first frame wait for it, in order, and go where the main screen's focus
        is then: handled at once, a Tab moved the focus of a screen still mounting and the first
        question's focus undid it (`Tab Tab 2T Enter` typed at start-up went to the model's field)."""
        if isinstance(event, events.Key) and self._keys_before_ready is not None and not event.is_forwarded:
            self._keys_before_ready.append(event)
            return
        await super().on_event(event)
        if isinstance(event, events.Ready) and self._keys_before_ready is not None:
            held, self._keys_before_ready = self._keys_before_ready, None
            for key in held:
                await super().on_event(key)

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.settings.theme not in self.available_themes:
            self.notify(f"unknown theme {self.settings.theme!r} in the settings; using {DARK_THEME}")
        for message in self.startup_messages:
            self.notify(message, severity="warning", timeout=10)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every notification as plain text: file names, settings and catalog values are never markup
        (a `[/]` does not crash, a `[@click=...]` is not a link) and control characters show escaped."""
        super().notify(
            printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False
        )

    def _theme_changed(self, theme: Theme) -> None:
        if theme.name != self.settings.theme:
            self._store(self.settings.model_copy(update={"theme": theme.name}))

    def _store(self, settings: Settings) -> None:
        self.settings = settings
        if self.file_root is not None:
            self.notify("A served app never writes the settings: they apply to this session only")
            return
        try:
            save_settings(settings)
        except (AdvisorError, OSError) as exc:
            self.notify(f"settings not saved: {exc}", severity="error")

    # --- actions --------------------------------------------------------------------------------------

    def action_help(self) -> None:
        from advisor.tui.screens.help_screen import HelpScreen  # Markdown is slow to import: on demand

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(show_settings_path=self.file_root is None))

    def action_settings(self) -> None:
        from advisor.tui.screens.settings_screen import SettingsScreen

        themes = sorted(self.available_themes)
        self.push_screen(SettingsScreen(self.settings, themes, self.catalog.economics), self._settings_chosen)

    def _settings_chosen(self, settings: Settings | None) -> None:
        if settings is None or settings == self.settings:
            return
        self._store(settings)
        self.theme = settings.theme
        self.notify("Settings saved; pricing, electricity and PUE apply to new scenarios (Ctrl+N)")

    def action_focus_next(self) -> None:
        """Tab: what is typed is taken first, so a question it brings in comes next (a deadline typed
        brings in Size to it; moving on before it was taken skipped it)."""
        self.main.take_typed()
        super().action_focus_next()

    def action_focus_previous(self) -> None:
        """Shift+Tab: as Tab, what is typed taken first."""
        self.main.take_typed()
        super().action_focus_previous()

    def action_toggle_dark(self) -> None:
        self.theme = LIGHT_THEME if self.current_theme.dark else DARK_THEME

    def action_new_scenario(self) -> None:
        self.main.confirm_discard("Start a new one", self._new_scenario)

    def _new_scenario(self) -> None:
        self.main.load(new_scenario(self.catalog, self.settings), None)
        self.notify("New scenario from the defaults")

    async def action_quit(self) -> None:
        """Quit, asking first if the answers have changed since they were last saved."""
        self.main.confirm_discard("Quit", self.exit)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        main = self.main
        yield SystemCommand("Save scenario", "Save the answers as a TOML file (Ctrl+S)", main.action_save)
        yield SystemCommand("Open scenario", "Open a scenario file (Ctrl+O)", main.action_open)
        formats = format_names(REPORT_FORMATS)
        yield SystemCommand("Export report", f"{formats} (Ctrl+E)", main.action_export)
        yield SystemCommand(
            "New scenario", "Start again from the defaults (Ctrl+N)", self.action_new_scenario
        )
        yield SystemCommand("Settings", "Theme, default pricing, electricity, PUE (F2)", self.action_settings)
        yield SystemCommand("Help", "Keys and how the app works (F1 or ?)", self.action_help)
        yield SystemCommand("Light or dark theme", "Switch between the two (Ctrl+T)", self.action_toggle_dark)
        serving = main.scenario is not None and main.scenario.workload.kind == "inference"
        for tab, label in TABS.items():
            if tab == "serving" and not serving:
                continue  # the tab is hidden for a training job, as in the tab bar
            yield SystemCommand(
                f"Show {label}", f"The {label} tab of the results", lambda t=tab: main.show_tab(t)
            )
        sections = numbered_sections(serving)
        for question in QUESTIONS:
            section = sections.get(question.section, f"{SECTIONS[question.section]}, for a serving job")
            yield SystemCommand(
                f"Go to question: {question.label}{_key_words(question.key, question.label)}",
                f"{' '.join(section.split())}: {question.hint}",
                lambda key=question.key: main.form.focus_question(key),
                discover=False,
            )


def _key_words(key: str, label: str) -> str:
    """` (pricing)`: the question's scenario key and flag stem, so the palette finds it by the name a
    scenario file or `--pricing` uses as well as by its label; nothing when the label already says it."""
    said = label.lower()
    return "" if all(word in said for word in key.split("_")) else f" ({key})"


def make_app(
    *,
    catalog_dir: str | Path | None = None,
    rules_dir: str | Path | None = None,
    settings: Settings | None = None,
    scenario_path: str | Path | None = None,
    scenario: Scenario | None = None,
    today: date | None = None,
    file_root: Path | None = None,
) -> AdvisorApp:
    """The app for the CLI and the tests: the catalog (with `catalog_dir` as overlay), the rules, the
    settings (read from the config dir unless given) and a scenario file (or scenario) to start with."""
    catalog = load_catalog(user_dir=catalog_dir) if catalog_dir else load_catalog()
    rules = load_rules(rules_dir)
    messages = [f"catalog: {warning}" for warning in catalog.load_warnings]
    if settings is None:
        settings, problem = load_settings()
        if problem:
            messages.append(problem)
    if file_root is not None and messages:  # served: no local path outside the folder is shown
        messages = [f"{len(messages)} problem(s) in the catalog or settings; see where advisor serve runs"]
    path = Path(scenario_path) if scenario_path else None
    if path is not None:
        scenario = open_scenario(path, catalog)
    return AdvisorApp(
        catalog,
        rules,
        settings,
        scenario=scenario,
        scenario_path=path,
        today=today,
        startup_messages=messages,
        file_root=file_root,
    )
