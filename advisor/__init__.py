"""GPU procurement advisor: which accelerator to buy or rent, and what the choice costs.

The public Python API: `load_catalog()`, `Workload`, `estimate()` and `advise()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Workload", "__version__", "advise", "estimate", "load_catalog", "load_rules"]

if TYPE_CHECKING:
    from advisor.core.costing.estimate import Estimate
    from advisor.core.model.catalog import Catalog
    from advisor.core.model.workload import Workload


def load_catalog(path: Any = None, *, user_dir: Any = None) -> Catalog:
    """Load the shipped catalog (or the one at `path`), with the user's overrides on top."""
    from advisor.io.catalog_files import load_catalog as _load

    return _load(path, user_dir=user_dir)


def load_rules(path: Any = None) -> Any:
    """Load the shipped rule set (or the rule files under `path`)."""
    from advisor.io.rule_files import load_rules as _load

    return _load(path)


def estimate(workload: Workload, system: str, catalog: Catalog | None = None, **kwargs: Any) -> Estimate:
    """Estimate time, cost and energy of `workload` on one catalogued system."""
    from advisor.core.costing.estimate import estimate as _estimate

    return _estimate(workload, system, catalog if catalog is not None else load_catalog(), **kwargs)


def advise(workload: Workload, catalog: Catalog | None = None, rules: Any = None, **kwargs: Any) -> Any:
    """Recommend a system for `workload`: every candidate estimated, rules applied, ranked.

    Keyword arguments are the other fields of `AdviceRequest` (constraints, objective, assumptions ...).
    """
    from advisor.core.decision.advise import advise as _advise
    from advisor.core.decision.request import AdviceRequest

    return _advise(
        AdviceRequest(
            workload,
            catalog if catalog is not None else load_catalog(),
            rules if rules is not None else load_rules(),
            **kwargs,
        )
    )


def __getattr__(name: str) -> Any:
    if name == "Workload":
        from advisor.core.model.workload import Workload

        return Workload
    raise AttributeError(name)
