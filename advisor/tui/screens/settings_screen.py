"""Settings: theme, and the pricing, electricity price and PUE a new scenario starts with."""

from __future__ import annotations

from typing import ClassVar

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from advisor.core.model.economics import Economics
from advisor.core.model.units import parse_number
from advisor.tui.settings import Settings


class SettingsScreen(ModalScreen[Settings | None]):
    """Edit the settings; dismiss with the new settings, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, settings: Settings, themes: list[str], economics: Economics) -> None:
        super().__init__()
        self.settings = settings
        self.themes = themes
        self.economics = economics

    def compose(self) -> ComposeResult:
        s, econ = self.settings, self.economics
        with VerticalScroll(classes="dialog"):
            yield Label("Settings", classes="dialog-title")
            yield Label("Theme", classes="dialog-label")
            yield Select([(t, t) for t in self.themes], value=s.theme, allow_blank=False, id="theme")
            yield Label("Pricing of a new scenario", classes="dialog-label")
            yield Select([("rent", "rent"), ("own", "own")], value=s.pricing, allow_blank=False, id="pricing")
            yield Label("Electricity, USD per kWh (blank: the catalog's)", classes="dialog-label")
            yield Input(
                "" if s.electricity_usd_per_kwh is None else f"{s.electricity_usd_per_kwh:g}",
                placeholder=f"{econ.electricity.usd_per_kwh:g} (catalog, {econ.electricity.as_of})",
                id="electricity",
            )
            yield Label("PUE, 1-3 (blank: the catalog's)", classes="dialog-label")
            yield Input(
                "" if s.pue is None else f"{s.pue:g}",
                placeholder=f"{econ.facility.pue:g} (catalog, {econ.facility.as_of})",
                id="pue",
            )
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", variant="primary", id="submit")
                yield Button("Cancel", id="cancel")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    @on(Button.Pressed, "#submit")
    def _submit(self) -> None:
        error = self.query_one("#dialog-error", Static)
        try:
            settings = Settings(
                theme=str(self.query_one("#theme", Select).value),
                pricing=self.query_one("#pricing", Select).value,  # type: ignore[arg-type]
                electricity_usd_per_kwh=self._number("#electricity"),
                pue=self._number("#pue"),
            )
        except ValueError as exc:
            if isinstance(exc, ValidationError):
                first = exc.errors(include_url=False)[0]
                error.update(f"{first['loc'][0]}: {first['msg']}")
            else:
                error.update(str(exc))
            return
        self.dismiss(settings)

    def _number(self, selector: str) -> float | None:
        text = self.query_one(selector, Input).value.strip()
        return parse_number(text) if text else None
