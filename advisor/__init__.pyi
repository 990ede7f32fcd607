# Types of the lazily imported public API of advisor/__init__.py (see docs/api.md).
from collections.abc import Callable

from advisor.api import advise as advise
from advisor.api import build_scenario as build_scenario
from advisor.api import estimate as estimate
from advisor.api import recommend as recommend
from advisor.api import report as report
from advisor.core.model.workload import Workload as Workload
from advisor.io.catalog_files import load_catalog as load_catalog
from advisor.io.rule_files import load_rules as load_rules
from advisor.io.scenario_files import load_scenario as load_scenario

__version__: str
__all__: list[str]

def lazy_attributes(package: str, defined_in: dict[str, str]) -> Callable[[str], object]: ...
