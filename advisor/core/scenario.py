"""Scenario: the versioned, file-shaped description of a decision (schema 1).

A scenario holds the workload (a model preset or a custom size), constraints, the objective, the
systems to consider and assumption overrides. It is what `--save`, `advisor report` and the app's
Save write, and what `advisor estimate|recommend|report FILE` read. Numbers may be written as
human strings ("15T", "$2.10"). The TOML shape is documented in docs/scenarios.md.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, PrivateAttr, field_validator, model_validator

from advisor.core.model.assumptions import PER_SYSTEM, Assumptions
from advisor.core.model.catalog import Catalog, Frozen, ModelSpec
from advisor.core.model.flops import custom_model
from advisor.core.model.inputs import DeclaredInput, Input, declared_inputs
from advisor.core.model.mfu_ladder import MAX_COST
from advisor.core.model.mfu_release import months
from advisor.core.model.serving_rate import rate_too_high
from advisor.core.model.sourced import ParamCount
from advisor.core.model.units import human_integer, human_number
from advisor.core.model.workload import (
    NO_TOKENS,
    Constraints,
    Objective,
    Workload,
    WorkloadInputs,
    target_rate,
)
from advisor.errors import CatalogError, shown

SCHEMA_VERSION = 1


def _id_list(value: Any) -> Any:
    """`systems` must be an array: a lone string would otherwise read as a list of letters."""
    if isinstance(value, str):
        raise ValueError(f'must be an array of system ids, e.g. ["{shown(value, 40)}"]')
    if isinstance(value, list | tuple):
        seen: set[str] = set()
        for item in (item for item in value if isinstance(item, str)):
            if item in seen:
                raise ValueError(f"{shown(item, 40)!r} is listed twice; name each system once")
            seen.add(item)
    return value


SeqLen = Annotated[int, BeforeValidator(human_integer), Field(gt=0, le=10_000_000)]


class CustomModel(Frozen):
    """A model given by size; the architecture is inferred where not given."""

    params: Annotated[ParamCount, BeforeValidator(human_number)]
    active_params: Annotated[ParamCount, BeforeValidator(human_number)] | None = None
    layers: Annotated[int, Field(gt=0, le=10_000)] | None = None
    hidden: Annotated[int, Field(gt=0, le=1_000_000)] | None = None
    name: str | None = None

    @model_validator(mode="after")
    def _check_active(self) -> CustomModel:
        if self.active_params is not None and self.active_params > self.params:
            raise ValueError("active_params must not exceed params")
        return self


class WorkloadSpec(WorkloadInputs):
    """The `[workload]` table: what to run, by model preset id or `[workload.custom]` size."""

    model: str | None = Field(None, description="A model preset id (see `advisor models`).")
    custom: CustomModel | None = None
    config_file: str | None = Field(
        None,
        alias="model_config",
        min_length=1,
        description="A Hugging Face config.json describing the model (read by the file loader).",
    )
    seq_len: Annotated[
        SeqLen | None,
        Field(description="Training sequence length; default: the model's."),
        Input(
            "Sequence length",
            "Training sequence length; default: the model's",
            "tokens",
            asked_in_app=False,
            applies=("training",),
        ),
    ] = None

    _config_model: ModelSpec | None = PrivateAttr(None)
    """The model `config_file` describes, set by the file loader (the core reads no files)."""

    model_config = Frozen.model_config | {"populate_by_name": True}

    @model_validator(mode="after")
    def _one_model(self) -> WorkloadSpec:
        if sum(x is not None for x in (self.model, self.custom, self.config_file)) != 1:
            raise ValueError(
                'give exactly one of model = "<preset id>", model_config = "<config.json>" '
                "or a [workload.custom] table"
            )
        return self

    @model_validator(mode="after")
    def _tokens_or_rate(self) -> WorkloadSpec:
        """Only serving at a target rate may leave out the tokens (it is then a month of serving)."""
        rate = target_rate(self.kind, self.target_tokens_per_second, self.requests_per_second, 1)
        if self.tokens is None and rate is None:
            raise ValueError(NO_TOKENS)
        too_high = rate_too_high(self.kind, self.requests_per_second, self.output_tokens)
        if too_high is not None:
            raise ValueError(too_high)
        return self

    def model_spec(self, catalog: Catalog) -> ModelSpec:
        """The preset (with `seq_len` applied) or the custom model's inferred architecture."""
        if self.custom is not None:
            c = self.custom
            return custom_model(
                c.params, c.active_params, layers=c.layers, hidden=c.hidden, seq_len=self.seq_len, name=c.name
            )
        if self.config_file is not None:
            if self._config_model is None:
                raise CatalogError(f"workload.model_config: {self.config_file} was not read")
            spec = self._config_model
        else:
            assert self.model is not None
            spec = catalog.model(self.model)
        if self.seq_len is not None and self.seq_len != spec.seq_len:
            spec = spec.model_copy(update={"seq_len": self.seq_len})
        return spec

    def with_config_model(self, spec: ModelSpec) -> WorkloadSpec:
        """A copy holding the model read from `config_file` (the loader's step)."""
        copy = self.model_copy()
        copy._config_model = spec
        return copy

    def workload(self, catalog: Catalog) -> Workload:
        """The core `Workload` for this spec; an unknown model id raises CatalogError with the valid ids.
        Only the inputs given are passed, so the workload knows which were (`model_fields_set`: a serving
        job given no precision serves the weights as released)."""
        given = self.model_fields_set & WorkloadInputs.model_fields.keys()
        inputs = {name: getattr(self, name) for name in given}
        return Workload(model=self.model_spec(catalog), **inputs)


def _tidy(value: Any) -> Any:
    """15000000000000.0 written as 15000000000000: whole numbers read better without the '.0'."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, dict):
        return {k: _tidy(v) for k, v in value.items()}
    return value


def software_beyond(software: str | None, catalog: Catalog) -> str:
    """Why a software month is past what the catalog can describe, with the valid range ("" when it is
    not): later than the newest release of its MFU figures by more than the MFU ladder's reach
    (`MAX_COST` months), so no published figure stands near it."""
    releases = sorted(point.software for table in catalog.mfu_tables.values() for point in table.points)
    if software is None or not releases or months(software) <= months(releases[-1]) + MAX_COST:
        return ""
    year, month = divmod(months(releases[-1]) + int(MAX_COST) - 1, 12)
    newest, reach = releases[-1], f"{MAX_COST:g} months"
    return (
        f"{software!r} is past the catalog's newest release ({newest}) by more than {reach}; "
        f"valid: {releases[0]} to {year}-{month + 1:02d}, or none for the latest published"
    )


def unknown_system(key: str, catalog: Catalog) -> str:
    """`unknown system 'h10' (did you mean 'h100'?); valid: a100, ...`."""
    import difflib

    close = difflib.get_close_matches(key, list(catalog.systems), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown system {shown(key, 40)!r}{hint}; valid: {', '.join(sorted(catalog.systems))}, *"


class Scenario(Frozen):
    """A saved decision: workload, constraints, objective, candidate systems and assumptions."""

    schema_: int = Field(SCHEMA_VERSION, alias="schema", ge=1)
    name: str = Field("untitled", min_length=1, max_length=200)
    notes: str = ""
    objective: Annotated[
        Objective,
        Field(description="What the ranking minimises."),
        Input(
            "Optimise for",
            "What the ranking minimises; balanced = cost and time together",
            choice_words={"cost": "cheapest money price", "time": "fastest speed", "energy": "power"},
        ),
    ] = "cost"
    systems: Annotated[tuple[str, ...], BeforeValidator(_id_list)] = Field(
        (), description="Systems to consider; empty = every catalogued one."
    )
    size_to_deadline: Annotated[
        bool,
        Field(description="Size each system to the smallest GPU count that meets the deadline."),
        Input(
            "Size to it",
            "Each system gets the smallest GPU count that meets the deadline",
            check_label="per system",
            applies=("deadline", "no_rate"),
        ),
    ] = False
    workload: WorkloadSpec
    constraints: Constraints = Constraints()
    assumptions: Assumptions = Assumptions()

    model_config = Frozen.model_config | {"populate_by_name": True}

    @field_validator("schema_")
    @classmethod
    def _known_schema(cls, value: int) -> int:
        if value > SCHEMA_VERSION:
            raise ValueError(
                f"schema {value} is newer than this advisor understands (schema {SCHEMA_VERSION}); "
                "upgrade advisor"
            )
        return value

    @model_validator(mode="after")
    def _deadline_for_sizing(self) -> Scenario:
        if self.size_to_deadline and self.constraints.deadline_days is None:
            raise ValueError("size_to_deadline needs constraints.deadline_days (--deadline-days)")
        return self

    def check_ids(self, catalog: Catalog) -> None:
        """Every system and model id named exists in `catalog` (raises CatalogError listing valid ids)."""
        for system_id in self.systems:
            catalog.system(system_id)
        for name in PER_SYSTEM:
            values = getattr(self.assumptions, name)
            for key in values if isinstance(values, dict) else ():
                if key != "*" and key not in catalog.systems:
                    raise CatalogError(f"assumptions.{name}: {unknown_system(key, catalog)}")
        if self.workload.model is not None:
            catalog.model(self.workload.model)
        if beyond := software_beyond(self.workload.software, catalog):
            raise CatalogError(f"workload.software: {beyond}")
        self._check_offer(catalog)

    def _check_offer(self, catalog: Catalog) -> None:
        """`assumptions.rental_offer` names an offer that at least one considered system lists."""
        name = self.assumptions.rental_offer
        systems = [catalog.system(s) for s in self.system_ids(catalog)]
        if name is None or any(o.offer == name for s in systems for o in s.rental):
            return
        valid = sorted({o.offer for s in systems for o in s.rental})
        listed = ", ".join(repr(offer) for offer in valid)
        raise CatalogError(f"assumptions.rental_offer: no system lists offer {name!r}; valid: {listed}")

    def system_ids(self, catalog: Catalog) -> tuple[str, ...]:
        """The systems to consider: those named, else every catalogued one."""
        return self.systems or tuple(catalog.systems)

    def to_data(self) -> dict[str, Any]:
        """Plain data in file order, without defaults that add nothing (the TOML writer's input)."""
        data: dict[str, Any] = {"schema": self.schema_, "name": self.name}
        if self.notes:
            data["notes"] = self.notes
        data["objective"] = self.objective
        if self.systems:
            data["systems"] = list(self.systems)
        if self.size_to_deadline:
            data["size_to_deadline"] = True
        # The answers a reader looks for always; other fields only where they differ from the default. The
        # precision only where given: a serving job given none serves the weights as the model is released.
        always = {"model", "model_config", "custom", "tokens", "gpus", "kind", "pricing"}
        always |= {"precision"} & self.workload.model_fields_set
        workload = self.workload.model_dump(mode="json", exclude_none=True, by_alias=True)
        changed = self.workload.model_dump(
            mode="json", exclude_none=True, exclude_defaults=True, by_alias=True
        )
        order = ("model", "model_config", "custom", "seq_len", *WorkloadInputs.model_fields)
        data["workload"] = {
            k: _tidy(workload[k]) for k in order if k in workload and (k in always or k in changed)
        }
        constraints = self.constraints.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        assumptions = self.assumptions.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        assumptions = {k: v for k, v in assumptions.items() if v != {}}
        for key, table in (("constraints", constraints), ("assumptions", assumptions)):
            if table:
                data[key] = _tidy(table)
        return data


def _all_inputs() -> dict[str, DeclaredInput]:
    tables: tuple[tuple[str, type[Frozen]], ...] = (
        ("", Scenario),
        ("workload", WorkloadSpec),
        ("constraints", Constraints),
        ("assumptions", Assumptions),
    )
    return {item.key: item for table, model in tables for item in declared_inputs(model, table).values()}


INPUTS: dict[str, DeclaredInput] = _all_inputs()
"""Every declared input by scenario key path (`workload.gpus`, `objective`), in scenario order."""
