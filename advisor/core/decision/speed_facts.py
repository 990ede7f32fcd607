"""Whether a system's speed for the job rests on published figures of its own (the rules' `*_published`
facts, and how far past its largest published cluster the run goes): a recommendation should say when it
does not, as it says when a price is an assumption."""

from __future__ import annotations

from typing import Any, NamedTuple

from advisor.core.model.catalog import Catalog, System


def speed_facts(catalog: Catalog, system: System, family: str, gpus: int) -> dict[str, Any]:
    """`family_published`: a training figure of the model's family (dense or MoE) is published for the
    system or the system it borrows figures from (else its MFU is the other family's × moe_per_dense).
    `serving_published`: the system's serving stack was fitted on published serving points of it (the
    reference stack's efficiencies are fitted across NVIDIA's generations, so it counts as published).
    `published_gpus`: the largest GPU count of the system's own training figures (0 if none), and
    `gpus_over_published` the run's GPUs over it (None without one): past it, the weak-scaling loss fitted
    on other systems carries the speed."""
    published = _published(catalog)
    sources = (system.id, system.mfu_proxy_system)
    family_published = any((sid, family) in published.families for sid in sources)
    stack = system.serving_stack
    fitted_on = catalog.economics.inference.stack_systems.get(stack, []) if stack else []
    largest = published.largest_gpus.get(system.id, 0)
    return {
        "family_published": family_published,
        "serving_published": stack is None or system.id in fitted_on,
        "published_gpus": largest,
        "gpus_over_published": gpus / largest if largest else None,
    }


class _Published(NamedTuple):
    """What the calibration points publish, by system: the (system, family) pairs, and the largest GPU
    count of each system's points."""

    families: frozenset[tuple[str, str]]
    largest_gpus: dict[str, int]


def _published(catalog: Catalog) -> _Published:
    """Found in one pass over the calibration points, once per catalog and kept with it (`advise` runs
    many times in a break-even search)."""
    found = catalog.derived.get("published")
    if not isinstance(found, _Published):
        largest: dict[str, int] = {}
        families: set[tuple[str, str]] = set()
        for table in catalog.mfu_tables.values():
            for point in table.points:
                families.add((point.system, catalog.models[point.model].family))
                largest[point.system] = max(largest.get(point.system, 0), point.gpus)
        found = catalog.derived["published"] = _Published(frozenset(families), largest)
    return found
