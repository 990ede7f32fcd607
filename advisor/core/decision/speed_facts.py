"""Whether a system's speed for the job rests on published figures of its own (the rules' `*_published`
facts): a recommendation should say when it does not, as it says when a price is an assumption."""

from __future__ import annotations

from advisor.core.model.catalog import Catalog, System


def speed_facts(catalog: Catalog, system: System, family: str) -> dict[str, bool]:
    """`family_published`: a training figure of the model's family (dense or MoE) is published for the
    system or the system it borrows figures from (else its MFU is the other family's × moe_per_dense).
    `serving_published`: the system's serving stack was fitted on published serving points of it (the
    reference stack's efficiencies are fitted across NVIDIA's generations, so it counts as published)."""
    published = _published_families(catalog)
    family_published = any((sid, family) in published for sid in (system.id, system.mfu_proxy_system))
    stack = system.serving_stack
    fitted_on = catalog.economics.inference.stack_systems.get(stack, []) if stack else []
    return {
        "family_published": family_published,
        "serving_published": stack is None or system.id in fitted_on,
    }


def _published_families(catalog: Catalog) -> frozenset[tuple[str, str]]:
    """(system, family) of every calibration point, found once per catalog and kept with it (`advise`
    runs many times in a break-even search)."""
    found = catalog.derived.get("published_families")
    if not isinstance(found, frozenset):
        found = catalog.derived["published_families"] = frozenset(
            (point.system, catalog.models[point.model].family)
            for table in catalog.mfu_tables.values()
            for point in table.points
        )
    return found
