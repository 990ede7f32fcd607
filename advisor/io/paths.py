"""Where the shipped data and the user's configuration live."""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_ENV = "ADVISOR_CONFIG_DIR"
"""Set to a folder to use it instead of the platform config dir (tests do, so they never read yours)."""


def not_a_folder(path: Path, what: str) -> str:
    """Why `path` given as the `what` folder (`rules folder`) cannot be read: it is a file, or absent."""
    from advisor.errors import shown

    if path.exists():
        return f"{shown(path)}: is a file, not a folder; give the {what}"
    return f"{shown(path)}: {what} not found"


def shipped_dir(name: str) -> Path:
    """`catalog` or `rules` as shipped: inside the installed wheel, else beside the package in a checkout."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "_data" / name
    if installed.is_dir():
        return installed
    return package.parent / name


def user_config_dir() -> Path:
    """The advisor's folder in the platform config dir (e.g. ~/.config/advisor), or $ADVISOR_CONFIG_DIR."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from platformdirs import user_config_path

    return user_config_path("advisor", appauthor=False)


CACHE_ENV = "ADVISOR_CACHE_DIR"
"""Set to a folder to keep the catalog cache there (tests do), or to `off` to load without a cache."""


def user_cache_dir() -> Path | None:
    """The advisor's folder in the platform cache dir (e.g. ~/.cache/advisor), $ADVISOR_CACHE_DIR, or None."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return None if override == "off" else Path(override)
    from platformdirs import user_cache_path

    return user_cache_path("advisor", appauthor=False)
