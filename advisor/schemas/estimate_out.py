"""Pydantic models describing `estimate --json` (one system's estimate and its ranges).

They describe the output only: the estimate is built by `to_dict()` in `advisor/core/costing/results.py`
and the ranges in `advisor/core/analysis/uncertainty.py`; the keys are documented in docs/json.md. An
object whose keys and types are the core result's own takes them from it (`mirrored`).
"""

from __future__ import annotations

import typing
from dataclasses import fields
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.core.analysis import uncertainty
from advisor.core.costing import results

Number = float
"""A JSON number (integers included)."""


class Out(BaseModel):
    """An output object: every key documented, no other key allowed."""

    model_config = ConfigDict(extra="forbid")


def mirrored(core: type, **types: Any) -> dict[str, Any]:
    """The fields (an output object's `__annotations__`) of the core result dataclass `core` as its
    `to_dict()` gives them: in order, but for its `NOT_IN_JSON`, all required, typed as the core types
    them (or as `types` names them: a nested output object, a closed set of strings), tuples as the
    JSON arrays they become."""
    hints = typing.get_type_hints(core)
    leave_out: frozenset[str] = getattr(core, "NOT_IN_JSON", frozenset())
    unknown = set(types) - {f.name for f in fields(core)}
    if unknown:
        raise TypeError(f"mirrored({core.__name__}): no field {', '.join(sorted(unknown))}")
    return {
        f.name: types.get(f.name, _json_type(hints[f.name])) for f in fields(core) if f.name not in leave_out
    }


def _json_type(hint: Any) -> Any:
    """A core field's type as JSON holds it: a tuple as a list."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return list[args[0]]  # type: ignore[valid-type]
    return hint


class ModelOut(Out):
    """The model the estimate is for."""

    id: str
    name: str
    family: Literal["dense", "moe"]
    params_total: Number
    params_active: Number
    seq_len: int
    layers: int
    hidden: int
    inferred: bool = Field(description="Architecture inferred from the parameter count.")


class MfuBasis(Out):
    """How the MFU was chosen."""

    __annotations__ = mirrored(results.MfuBasis)


class GoodputDetail(Out):
    """What set the goodput."""

    __annotations__ = mirrored(results.GoodputDetail)


class MemoryOut(Out):
    """Whether the job fits, and what it needs."""

    __annotations__ = mirrored(results.MemorySummary)


class ServingOut(Out):
    """Inference only: the serving layout and its rates."""

    __annotations__ = {
        **mirrored(results.ServingSummary, decode_bound=Literal["memory", "compute", "communication"]),
        **{
            old: Annotated[Number, Field(description=f"Deprecated (schema 1 name): the same as `{new}`.")]
            for old, new in results.DEPRECATED_ALIASES.items()
        },
    }


class PriceOfferOut(Out):
    """When renting: the catalog offer the price is (null: the user's own price), and why it applies."""

    __annotations__ = mirrored(results.PriceOffer)


class PurchaseOut(Out):
    """When buying: the nodes or racks bought and what owning them costs."""

    __annotations__ = mirrored(
        results.Purchase,
        unit=Literal["node", "rack"],
        runs_per_year=Number | None,
        cost_per_run_usd=Number | None,
    )


class Spread(Out):
    """One output's range: expected, every input at the end of its range, and sampled P10-P90."""

    __annotations__ = mirrored(uncertainty.Range)


class UncertainInput(Out):
    """One uncertain input and its range."""

    __annotations__ = mirrored(uncertainty.Spread)


class RangeOut(Out):
    """One system's ranges."""

    system: str
    time_to_result_hours: Spread
    cost_usd: Spread
    cost_per_million_tokens_usd: Spread
    energy_kwh: Spread
    inputs: dict[str, UncertainInput]


class EstimateCore(Out):
    """One system's estimate: time, cost and energy (the keys of docs/json.md, "estimate --json")."""

    __annotations__ = mirrored(
        results.Estimate,
        precision=str,
        precision_requested=str,
        pricing=Literal["rent", "own"],
        kind=Literal["pretrain", "finetune", "inference"],
        efficiency=Literal["reference", "production"],
        model=ModelOut,
        mfu_basis=MfuBasis,
        goodput_detail=GoodputDetail,
        purchase=PurchaseOut | None,
        price_offer=PriceOfferOut | None,
        memory=MemoryOut,
        serving=ServingOut | None,
    )


class EstimateItem(EstimateCore):
    """One system's estimate with its ranges (an entry of `estimate --json --system all`)."""

    range: RangeOut


class EstimateOne(EstimateItem):
    """`estimate --json --system ID`."""

    schema_version: Literal[1]


class EstimateAll(Out):
    """`estimate --json` for every system (`--system all`)."""

    schema_version: Literal[1]
    estimates: list[EstimateItem]
