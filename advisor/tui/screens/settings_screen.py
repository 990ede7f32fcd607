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

from advisor.core.model.assumptions import ElectricityUsdPerKwh, PueRatio
from advisor.core.model.economics import Economics
from advisor.core.model.inputs import format_bound, limits_of
from advisor.core.model.units import DecimalCommaError, parse_number
from advisor.tui.settings import Settings
from advisor.tui.widgets.ordered_input import OrderedInput

NUMBERS = {
    "electricity": ("Electricity, USD per kWh", limits_of(ElectricityUsdPerKwh)),
    "pue": ("PUE", limits_of(PueRatio)),
}
"""The number fields by id: the label a message names them by, and the range the settings take (the
settings' own field types)."""


class SettingsScreen(ModalScreen[Settings | None]):
    """Edit the settings; dismiss with the new settings, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#theme"
    """The first field has the focus (not the scrolling dialog around it): Tab Tab reaches electricity."""

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
            yield Label(f"{NUMBERS['electricity'][0]} (blank: the catalog's)", classes="dialog-label")
            yield OrderedInput(
                "" if s.electricity_usd_per_kwh is None else f"{s.electricity_usd_per_kwh:g}",
                placeholder=f"{econ.electricity.usd_per_kwh:g} (catalog, {econ.electricity.as_of})",
                id="electricity",
            )
            pue, limits = NUMBERS["pue"]
            yield Label(f"{pue}, {limits.describe()} (blank: the catalog's)", classes="dialog-label")
            yield OrderedInput(
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
                electricity_usd_per_kwh=self._number("electricity"),
                pue=self._number("pue"),
            )
        except ValueError as exc:
            if isinstance(exc, ValidationError):
                first = exc.errors(include_url=False)[0]
                error.update(f"{first['loc'][0]}: {first['msg']}")
            else:
                error.update(str(exc))
            return
        self.dismiss(settings)

    def _number(self, field: str) -> float | None:
        """The number in field `field`, None when blank; ValueError naming the field as labelled, its
        range and what was typed (not the settings file's key and pydantic's words)."""
        label, limits = NUMBERS[field]
        text = self.query_one(f"#{field}", Input).value.strip()
        if not text:
            return None
        span = f"must be {limits.describe()}"
        try:
            value = parse_number(text)
        except DecimalCommaError as exc:
            raise ValueError(f"{label}: {exc}; {span}") from None
        except ValueError:
            raise ValueError(f"{label}: {text!r} is not a number; {span}") from None
        if not limits.allows(value):
            raise ValueError(f"{label}: {span} (got {format_bound(value)})")
        return value
