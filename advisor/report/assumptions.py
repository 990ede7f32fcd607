"""The assumptions a recommendation actually used, each with its value, source and date.

Read from the catalog sections behind every candidate (hardware, price, setup, reliability, capacity,
MFU calibration), the economics sections the pricing mode and job kind use, the model preset, and the
scenario's own overrides (which replace the catalog values they name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from pydantic import BaseModel

from advisor.core.costing.results import Estimate
from advisor.core.decision.evidence_age import stale_after_days
from advisor.core.decision.recommendation import Recommendation
from advisor.core.decision.rules import Rule
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog, ModelSpec, System
from advisor.core.model.sourced import Sourced, as_of_end
from advisor.core.model.workload import Workload
from advisor.core.scenario import Scenario
from advisor.core.unused import unused_answers
from advisor.present import numbers

Value = str | float | int | bool
ALL_SYSTEMS_LABEL = "all systems"
_PROVENANCE = frozenset(Sourced.model_fields)
_PRICE_TOPICS = frozenset({"rental", "capex", "electricity"})
_OWNER_ECONOMICS = frozenset({"colocation", "finance", "maintenance", "utilization"})


@dataclass(frozen=True)
class Flag:
    """A mark on an assumption: what it says to a reader, and which of AssumptionUsed's flags it is."""

    label: str
    field: str
    """`set_by_user`, `assumption` or `stale` (HTML marks a stale price differently)."""


FLAGS = (
    Flag("set in scenario", "set_by_user"),
    Flag("assumption", "assumption"),
    Flag("price over a year old", "stale"),
    Flag("your imported price", "user_price"),
)
"""Every flag an assumption can carry, in the order the reports list them."""


@dataclass(frozen=True)
class AssumptionUsed:
    """One group of figures from one source: e.g. the H100's power, or the PUE the scenario sets."""

    subject: str
    """A system id, `model`, `economics`, or `all systems` for an override that applies to every one."""
    topic: str
    """The catalog section (`power`, `rental`, `facility`, ...) or the overridden assumption's name."""
    values: tuple[tuple[str, Value], ...]
    """The figures, keyed by name with the unit in it (`gpu_tdp_w`, `price_usd_per_gpu_hour`)."""
    source: str
    as_of: str
    """Date of the figures (YYYY, YYYY-MM or YYYY-MM-DD); empty for a value set in the scenario."""
    note: str = ""
    urls: tuple[str, ...] = ()
    """Where the sources can be read; none for a value set in the scenario."""
    assumption: bool = False
    """The catalog marks it as an assumption (no published figure)."""
    set_by_user: bool = False
    """The scenario sets it, replacing the catalog's value."""
    stale: bool = False
    """A price older than the price-age rule allows (a year, in the shipped rules)."""
    user_price: bool = False
    """The user imported this price (`advisor prices import`); `as_of` is its date."""

    @property
    def flags(self) -> tuple[Flag, ...]:
        """The flags that are on, in FLAGS order."""
        return tuple(flag for flag in FLAGS if getattr(self, flag.field))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; `values` as an object."""
        return {
            "subject": self.subject,
            "topic": self.topic,
            "values": dict(self.values),
            "source": self.source,
            "as_of": self.as_of,
            "note": self.note,
            "urls": list(self.urls),
            "assumption": self.assumption,
            "set_by_user": self.set_by_user,
            "stale": self.stale,
            "user_price": self.user_price,
        }


@dataclass(frozen=True)
class _Ageing:
    """The report's date and the price age past which a price is stale (None: never)."""

    today: date
    stale_after_days: float | None

    def stale(self, as_of: str) -> bool:
        if self.stale_after_days is None:
            return False
        return (self.today - as_of_end(as_of)).days > self.stale_after_days


def assumptions_used(
    scenario: Scenario,
    workload: Workload,
    catalog: Catalog,
    rec: Recommendation,
    today: date,
    rules: Sequence[Rule],
) -> tuple[AssumptionUsed, ...]:
    """Every assumption behind `rec`: the scenario's overrides first, then model, systems, economics.

    A price is marked stale when it is older than the rules' price-age threshold (`stale_after_days`).
    """
    aged = _Ageing(today, stale_after_days(rules))
    rows = _overrides(scenario)
    rows.append(_model_row(workload.model, scenario))
    for candidate in rec.candidates:
        system = catalog.system(candidate.system)
        rows.extend(_system_rows(system, workload, scenario.assumptions, aged, candidate.estimate))
        if candidate.estimate is not None and workload.kind != "inference":
            rows.append(
                _mfu_row(candidate.system, candidate.estimate.mfu, candidate.estimate.mfu_basis, catalog)
            )
    if workload.kind != "inference" and any(
        c.estimate and not (c.estimate.mfu_basis.exact or c.estimate.mfu_basis.overridden)
        for c in rec.candidates
    ):
        rows.append(_section_row("economics", "mfu scaling", catalog.mfu_scaling, aged))
    for name in type(catalog.economics).model_fields:
        section = getattr(catalog.economics, name)
        if isinstance(section, Sourced) and _economics_used(name, workload, scenario.assumptions, rec):
            rows.append(_section_row("economics", name, section, aged))
    return tuple(rows)


def override_for(assumptions: Assumptions, name: str, system_id: str) -> Any:
    """The scenario's value of assumption `name` for `system_id` (a per-system map or one value)."""
    value = getattr(assumptions, name, None)
    if isinstance(value, dict):
        return value.get(system_id, value.get("*"))
    return value


NOT_USED = "not used: "
"""How an override the job leaves unused is noted, in the inputs and the assumptions tables."""


def _overrides(scenario: Scenario) -> list[AssumptionUsed]:
    """The scenario's assumptions, each noted "not used" where the job leaves it unused (goodput and an
    MFU set for a serving job: `advisor.core.unused`), as the command line warns."""
    rows, unused = [], unused_answers(scenario)
    for name, value in scenario.assumptions.model_dump(mode="json", exclude_none=True).items():
        why = unused.get(f"assumptions.{name}")
        per_system = value.items() if isinstance(value, dict) else [("*", value)]
        for key, item in per_system:
            rows.append(
                AssumptionUsed(
                    subject=ALL_SYSTEMS_LABEL if key == "*" else key,
                    topic=name,
                    values=((name, item),),
                    source=f"set in the scenario (assumptions.{name})",
                    as_of="",
                    note=f"{NOT_USED}{why[1]}" if why else "",
                    set_by_user=True,
                )
            )
    return rows


def _model_row(model: ModelSpec, scenario: Scenario) -> AssumptionUsed:
    fields = ("params_total", "params_active", "layers", "hidden", "seq_len", "experts")
    values = tuple((f, getattr(model, f)) for f in fields if getattr(model, f) is not None)
    if scenario.workload.custom is not None:
        source = "set in the scenario ([workload.custom])"
        if model.inferred:
            source += "; layers and hidden size inferred from the parameter count"
        return AssumptionUsed("model", model.name, values, source, "", set_by_user=True)
    if scenario.workload.config_file is not None:
        source = f"counted from the Hugging Face config {scenario.workload.config_file} (model_config)"
        return AssumptionUsed("model", model.name, values, source, "", model.note, set_by_user=True)
    return AssumptionUsed(
        "model", model.name, values, model.source, model.as_of, model.note, _urls(model.url)
    )


def _system_rows(
    system: System, workload: Workload, assumptions: Assumptions, aged: _Ageing, est: Estimate | None
) -> list[AssumptionUsed]:
    chosen = est.price_offer if est else None
    rows = []
    for name in type(system).model_fields:
        section = getattr(system, name)
        if name == "rental":
            offer_name = chosen.offer if chosen else assumptions.rental_offer
            section = system.rental_offer(offer_name)
        if not isinstance(section, Sourced) or not _system_section_used(name, system, workload, assumptions):
            continue
        row = _section_row(system.id, name, section, aged)
        if name == "rental" and chosen:
            row = replace(row, values=(*row.values, ("why", chosen.why)))
        rows.append(row)
    return rows


def _system_section_used(name: str, system: System, workload: Workload, assumptions: Assumptions) -> bool:
    if name == "rental":
        return (
            workload.pricing == "rent"
            and override_for(assumptions, "price_usd_per_gpu_hour", system.id) is None
        )
    if name == "capex":
        return (
            workload.pricing == "own" and override_for(assumptions, "capex_usd_per_node", system.id) is None
        )
    if name == "reliability":
        return workload.kind != "inference" and override_for(assumptions, "goodput", system.id) is None
    if name == "availability":
        return override_for(assumptions, "wait_hours", system.id) is None
    return True


def _economics_used(name: str, workload: Workload, assumptions: Assumptions, rec: Recommendation) -> bool:
    if name == "electricity":
        return workload.pricing == "own" and assumptions.electricity_usd_per_kwh is None
    if name == "facility":
        return assumptions.pue is None
    if name in _OWNER_ECONOMICS:
        return workload.pricing == "own"
    if name == "checkpointing":
        return workload.kind != "inference" and any(
            override_for(assumptions, "goodput", c.system) is None for c in rec.candidates
        )
    if name == "inference":
        return workload.kind == "inference"
    if name == "serving":  # the defaults a rate takes where the user sets no TPOT limit or headroom
        unset = workload.tpot_limit_ms is None or workload.serving_headroom is None
        return workload.serving_rate is not None and unset
    return True


def _section_row(subject: str, topic: str, section: Sourced, aged: _Ageing) -> AssumptionUsed:
    values = tuple(
        (key, _plain(value))
        for key, value in _fields(section)
        if key not in _PROVENANCE
        and key not in ("default", "default_reserved", "imported_from")
        and value is not None
        and not (key == "term_days" and not value)
    )
    stale = topic in _PRICE_TOPICS and aged.stale(section.as_of)
    user_price = bool(getattr(section, "imported_from", ""))
    return AssumptionUsed(
        subject,
        topic,
        values,
        section.source,
        section.as_of,
        section.note,
        _urls(section.url),
        section.assumption,
        stale=stale,
        user_price=user_price,
    )


def _mfu_row(system_id: str, mfu: float, basis: Any, catalog: Catalog) -> AssumptionUsed:
    values: tuple[tuple[str, Value], ...] = (("mfu", mfu), ("basis", basis.basis))
    if basis.overridden:
        return AssumptionUsed(
            system_id, "mfu", values, "set in the scenario (assumptions.mfu)", "", set_by_user=True
        )
    tables = [t for t in catalog.mfu_tables.values() if t.source in basis.sources]
    dates = sorted({t.as_of for t in tables})
    urls = tuple(dict.fromkeys(t.url for t in tables if t.url))
    return AssumptionUsed(system_id, "mfu", values, "; ".join(basis.sources), ", ".join(dates), urls=urls)


def _urls(url: str) -> tuple[str, ...]:
    return (url,) if url else ()


def _fields(section: BaseModel) -> list[tuple[str, Any]]:
    return [(key, getattr(section, key)) for key in type(section).model_fields]


def _plain(value: Any) -> Value:
    """Catalog values as plain scalars (a per-precision table or a sub-section becomes `key=value` text)."""
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, dict):
        return ", ".join(f"{k}={numbers.catalog_value(v)}" for k, v in value.items())
    return value
