"""The app's settings (theme, default pricing, electricity price, PUE), kept in `settings.toml`.

The file lives in the platform config dir (`user_config_dir()`, or `$ADVISOR_CONFIG_DIR`). A missing
file means the defaults; a corrupt one means the defaults plus a message for the app to show.
"""

from __future__ import annotations

from pathlib import Path

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.core.model.assumptions import ElectricityUsdPerKwh, PueRatio
from advisor.core.model.workload import Pricing
from advisor.errors import AdvisorError, ScenarioError
from advisor.io.atomic import write_atomic
from advisor.io.paths import user_config_dir
from advisor.io.toml_read import read_toml, validation_messages

SETTINGS_FILE = "settings.toml"
DARK_THEME = "textual-dark"
LIGHT_THEME = "textual-light"


class Settings(BaseModel):
    """What the app remembers between runs; None means the catalog's sourced default."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    theme: str = Field(DARK_THEME, min_length=1, description="A Textual theme name.")
    pricing: Pricing = Field("rent", description="Pricing of a new scenario: rent or own.")
    electricity_usd_per_kwh: ElectricityUsdPerKwh | None = Field(
        None, description="Electricity price of a new scenario; None = the catalog's."
    )
    pue: PueRatio | None = Field(None, description="Facility PUE of a new scenario; None = the catalog's.")


def settings_path() -> Path:
    """Where the settings live: `settings.toml` in the advisor's config dir."""
    return user_config_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, or the defaults and a message saying why the file was not usable."""
    path = path or settings_path()
    if not path.exists():
        return Settings(), None
    from advisor.tui.exporting import check_readable

    try:
        check_readable(path)
        data, text = read_toml(path, ScenarioError)
        return Settings.model_validate(data), None
    except RecursionError:
        return Settings(), f"settings ignored: {path}: nested too deeply"
    except AdvisorError as exc:
        return Settings(), f"settings ignored: {exc}"
    except ValidationError as exc:
        problems = "; ".join(validation_messages(exc, path, text, Settings))
        return Settings(), f"settings ignored: {problems}"


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (creating the config dir); raises ReportError if it cannot."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(path, tomli_w.dumps(settings.model_dump(exclude_none=True)), force=True)
