"""GPU procurement advisor: which accelerator to buy or rent, and what the choice costs.

The Python API (docs/api.md), imported on first use so that `import advisor` stays cheap:
`estimate()`, `recommend()`, `report()` and `build_scenario()` take the command line's human inputs
(`advisor.api`); `load_catalog()`, `load_rules()`, `load_scenario()`, `Workload` and `advise()` reach
the core's objects. Their types are declared in `advisor/__init__.pyi` (importing them here would
import them at start-up, or make a cycle with `advisor.api`).
"""

from __future__ import annotations

from collections.abc import Callable

__version__ = "0.1.0"

__all__ = [
    "Workload",
    "__version__",
    "advise",
    "build_scenario",
    "estimate",
    "load_catalog",
    "load_rules",
    "load_scenario",
    "recommend",
    "report",
]

_LAZY = {
    "advise": "advisor.api",
    "build_scenario": "advisor.api",
    "estimate": "advisor.api",
    "recommend": "advisor.api",
    "report": "advisor.api",
    "Workload": "advisor.core.model.workload",
    "load_catalog": "advisor.io.catalog_files",
    "load_rules": "advisor.io.rule_files",
    "load_scenario": "advisor.io.scenario_files",
}
"""Public name -> the module that defines it (imported when the name is first used)."""


def lazy_attributes(package: str, defined_in: dict[str, str]) -> Callable[[str], object]:
    """A module `__getattr__` for `package` (here and in its sub-packages): the name `n` is imported
    from the module `defined_in[n]` when it is first used, so that importing the package stays cheap."""

    def __getattr__(name: str) -> object:
        if name in defined_in:
            from importlib import import_module

            return getattr(import_module(defined_in[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


__getattr__ = lazy_attributes(__name__, _LAZY)
