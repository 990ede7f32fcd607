"""Start the app from the command line."""

from __future__ import annotations


def run_app(
    catalog_dir: str | None = None, rules_dir: str | None = None, scenario_path: str | None = None
) -> int:
    print("advisor: the interactive app is not built yet; try `advisor estimate --help`.")
    return 0
