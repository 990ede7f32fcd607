"""How each user input is declared once: an `Input` in the pydantic field's `Annotated` metadata.

The field's type gives the kind and the choices (a `Literal`), its `Field` constraints the valid range;
`Input` adds what people read: a label, a one-line hint, a unit and the command-line flag (by default
the field name with dashes). The CLI, the app's questions, the report's inputs table and the rule facts
derive from `declared_inputs`.
A `dict[str, number]` field is a per-system map (`h100=1.5, b200=3.9`, or one value for every system):
its kind is `per_system`, its range and `value_kind` those of each value.
"""

from __future__ import annotations

import functools
import math
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ValidationInfo
from pydantic.fields import FieldInfo

from advisor.core.model.units import NumberKind, UnreadNumber, format_si, parse_number
from advisor.errors import shown

_PREFIXED = re.compile(r"^[-+]?0[xob][0-9a-f_]+$", re.IGNORECASE)
"""A hexadecimal, octal or binary literal (`0x10`): refused, never read as a product (0 x 10 = 0)."""
_PRODUCT = re.compile(r"^(?P<data>[^x×*]+?)\s*[x×*]\s*(?P<times>[^x×*]+)$", re.IGNORECASE)
InputKind = Literal["number", "integer", "choice", "check", "text", "per_system"]
Condition = Literal[
    "training",
    "finetune",
    "lora",
    "inference",
    "rate",
    "no_rate",
    "no_token_rate",
    "rent",
    "own",
    "deadline",
    "fixed_gpus",
    "no_wait",
    "low_precision",
    "release_month",
]
"""What another answer must be for an input to be used (`advisor.core.unused` says what each means)."""
ALL_SYSTEMS = "*"
"""The key of a per-system map's value for every system not named."""
_PAIR_SPACES = re.compile(r"\s*=\s*")
_PAIR_BREAKS = re.compile(r"(?:(?<![0-9]),|,(?![0-9])|[;\s])+")
"""What separates pairs: a comma between two digits is inside a number (`h100=2,048`), never a break."""


@dataclass(frozen=True)
class Input:
    """What a user reads about one input; put it in the field's `Annotated[...]` metadata."""

    label: str
    hint: str
    unit: str = ""
    flag: str = ""
    """The command-line flag when it is not the field's name (`owned_gpus`: `--owned`; default: the name
    with dashes, `--owned-gpus`); a check's flag sets the opposite of its default."""
    choice_labels: Mapping[str, str] = field(default_factory=dict)
    """How the app shows a choice's values (value: label); a value not listed shows as itself.
    A label written `value: explanation` explains the choice (the CLI's help repeats it)."""
    choice_words: Mapping[str, str] = field(default_factory=dict)
    """Other words a user may type to find a choice in the app's list (value: words): `serving` finds
    `inference`."""
    check_label: str = ""
    """A checkbox's label in the app: what ticking it says."""
    blank: str = ""
    """What leaving an optional input blank means ("none", "any time")."""
    asked_in_app: bool = True
    """False for inputs the app deliberately leaves to scenario files and flags."""
    every_system: bool = True
    """A per-system map: a bare value applies to every system; False when each value must name one."""
    fact: bool | str = False
    """Rules may test the input as a workload fact of its name: True means what the field's description
    says; a text says it where the field has none."""
    applies: tuple[Condition, ...] = ()
    """When the input is used: every condition named holds (empty: always). Otherwise the CLI warns of
    its flag, the app greys its question and the reports leave it out (`advisor.core.unused`)."""


@dataclass(frozen=True)
class Limits:
    """A numeric input's valid range (None: unbounded on that side)."""

    low: float | None = None
    high: float | None = None
    above: bool = False
    """True when `low` itself is not allowed (`gt` rather than `ge`)."""

    def allows(self, value: float) -> bool:
        """Whether `value` is in range."""
        if self.low is not None and (value <= self.low if self.above else value < self.low):
            return False
        return self.high is None or value <= self.high

    def describe(self, integer: bool = False) -> str:
        """`a whole number from 1 to 1M`, `above 0, up to 10`, `at least 1`."""
        low, above = self.low, self.above
        if integer and above and low is not None:
            low, above = math.floor(low) + 1, False  # whole numbers above 0 start at 1
        kind = "a whole number " if integer else ""
        if low is None:
            return (
                f"{kind or 'a number '}up to {format_bound(self.high)}"
                if self.high is not None
                else "a number"
            )
        if self.high is not None:
            span = (
                f"above {format_bound(low)}, up to {format_bound(self.high)}"
                if above
                else f"from {format_bound(low)} to {format_bound(self.high)}"
            )
        else:
            span = f"above {format_bound(low)}" if above else f"at least {format_bound(low)}"
        return kind + span


def format_bound(value: float) -> str:
    """A bound (or a value checked against one) as people write it: 1M, 36,500, 0.5; from 1e18 on, past
    the largest suffix's thousands (not `1000P` or `1e+15P`), as a power of ten: 1e18, 1e30."""
    if abs(value) >= 1e18:
        return f"{value:.4g}".replace("e+", "e")
    return format_si(value, digits=4) if abs(value) >= 1e6 else f"{value:,.6g}"


@dataclass(frozen=True)
class DeclaredInput:
    """One declared input with what its field's type says: kind, choices, range, default."""

    table: str
    """Where it sits in a scenario: `workload`, `constraints`, `assumptions`, or "" (the top)."""
    name: str
    """The field name, also the app's question key."""
    meta: Input
    """What people read about it."""
    kind: InputKind
    """How it is answered: a number, a whole number, a choice, a tick, text or a per-system map."""
    choices: tuple[str, ...]
    """A choice's values, from its `Literal` (empty for other kinds)."""
    limits: Limits
    """A number's valid range, from its `Field` constraints."""
    optional: bool
    """None is allowed (a blank answer)."""
    required: bool
    """The field has no default (a scenario must give it)."""
    default: Any
    """The field's default (None when required)."""
    annotation: Any
    """The field's whole type with its constraints, to validate one value alone (`TypeAdapter`)."""
    value_kind: InputKind = "number"
    """How one value is answered: the kind itself, or for a per-system map its values' kind."""
    fact: str = ""
    """What the input means as a rule fact ("" when rules do not see it)."""

    @property
    def number_kind(self) -> NumberKind:
        """Money (a unit in USD) takes `$`, a fraction (a range within 0 to 1) `%`; other numbers neither."""
        return number_kind(self.meta.unit, self.limits)

    @property
    def key(self) -> str:
        """The scenario key path, `workload.gpus` (or `objective` at the top)."""
        return f"{self.table}.{self.name}" if self.table else self.name

    @property
    def dest(self) -> str:
        """The argparse destination of the flag (`--no-fp8-stack` -> `no_fp8_stack`)."""
        return self.meta.flag.removeprefix("--").replace("-", "_")

    def explained_choices(self) -> tuple[str, ...]:
        """The choice labels that explain their value (`reference: a vendor-tuned recipe`)."""
        labels = {value: self.meta.choice_labels.get(value, "") for value in self.choices}
        return tuple(label for value, label in labels.items() if label.startswith(f"{value}: "))

    def choice_pairs(self) -> tuple[tuple[str, str], ...]:
        """(label, value) pairs of a choice, as the app lists them."""
        return tuple((self.meta.choice_labels.get(value, value), value) for value in self.choices)


def _flatten(annotation: Any) -> tuple[Any, list[Any], bool]:
    """The bare type under `Annotated` and `X | None`, the metadata found on the way, and optionality."""
    metadata: list[Any] = []
    optional = False
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation, *extra = get_args(annotation)
            for item in extra:
                metadata.extend(item.metadata if isinstance(item, FieldInfo) else [item])
        elif origin in (Union, types.UnionType):
            members = [a for a in get_args(annotation) if a is not type(None)]
            optional = optional or len(members) < len(get_args(annotation))
            if len(members) != 1:
                return annotation, metadata, optional
            annotation = members[0]
        else:
            return annotation, metadata, optional


def _limits(metadata: list[Any]) -> Limits:
    """The strictest bounds among `Gt`, `Ge` and `Le` constraints (`Lt` is not used by inputs)."""
    low: float | None = None
    high: float | None = None
    above = False
    for item in metadata:
        if isinstance(item, annotated_types.Gt | annotated_types.Ge):
            bound = float(item.gt if isinstance(item, annotated_types.Gt) else item.ge)  # type: ignore[arg-type]
            strict = isinstance(item, annotated_types.Gt)
            if low is None or bound > low or (bound == low and strict):
                low, above = bound, strict
        elif isinstance(item, annotated_types.Le):
            high = float(item.le) if high is None else min(high, float(item.le))  # type: ignore[arg-type]
        elif isinstance(item, annotated_types.Lt):
            raise TypeError("inputs bound their range with le, not lt (the surfaces describe 'up to')")
    return Limits(low, high, above)


def _kind(bare: Any) -> InputKind:
    if get_origin(bare) is Literal:
        return "choice"
    kinds: dict[Any, InputKind] = {bool: "check", int: "integer", float: "number", str: "text"}
    if bare not in kinds:
        raise TypeError(f"an input must be a number, a whole number, a Literal, a bool or text, not {bare!r}")
    return kinds[bare]


def _per_system_values(bare: Any) -> tuple[InputKind, list[Any]] | None:
    """A per-system map's value kind and the constraints of its values (None if `bare` is no map)."""
    if get_origin(bare) is not dict:
        return None
    key, value = get_args(bare)
    value_bare, value_metadata, _ = _flatten(value)
    value_kind = _kind(value_bare)
    if key is not str or value_kind not in ("number", "integer"):
        raise TypeError(f"a per-system input maps system ids to numbers, not {bare!r}")
    return value_kind, value_metadata


def describe(table: str, name: str, info: FieldInfo) -> DeclaredInput | None:
    """The declared input of one pydantic field (None when the field carries no `Input`)."""
    bare, metadata, optional = _flatten(info.annotation)
    metadata = [*info.metadata, *metadata]
    meta = next((item for item in metadata if isinstance(item, Input)), None)
    if meta is None:
        return None
    if not meta.flag:
        meta = replace(meta, flag="--" + name.replace("_", "-"))
    per_system = _per_system_values(bare)
    if per_system is not None:
        kind: InputKind = "per_system"
        value_kind, value_metadata = per_system
        limits = _limits(value_metadata)
    else:
        kind = value_kind = _kind(bare)
        limits = _limits(metadata)
    choices = tuple(str(value) for value in get_args(bare)) if kind == "choice" else ()
    required = info.is_required()
    default = None if required else info.get_default(call_default_factory=True)
    whole = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation  # type: ignore[valid-type]
    fact = _fact_meaning(name, meta, info)
    return DeclaredInput(
        table, name, meta, kind, choices, limits, optional, required, default, whole, value_kind, fact
    )


def _fact_meaning(name: str, meta: Input, info: FieldInfo) -> str:
    """What the input means as a rule fact: `Input.fact`'s text, or the field's description."""
    if isinstance(meta.fact, str):
        return meta.fact
    if meta.fact and not info.description:
        raise TypeError(f"{name}: a fact means what the field's description says, and it has none")
    return (info.description or "") if meta.fact else ""


def unnamed_system(value: str) -> str:
    """Why a value without a system is refused where each value must name one (`owned_gpus`)."""
    try:
        parse_number(value)
    except ValueError:
        return f"{value!r} is not SYSTEM=N (e.g. h100=1024)"
    return f"name the system: SYSTEM={value}, e.g. h100={value}"


def system_pairs(value: Any) -> Any:
    """A per-system map from what people write: a table, one value for every system (`2.1` is
    `{"*": 2.1}`), or `SYSTEM=VALUE` pairs (`"h100=2.1, b200=3.9"`, or a list of them)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return {ALL_SYSTEMS: value}
    if not isinstance(value, str | list | tuple):
        return value
    text = ", ".join(str(part) for part in value) if isinstance(value, list | tuple) else value
    pairs: dict[str, str] = {}
    for pair in (part for part in _PAIR_BREAKS.split(_PAIR_SPACES.sub("=", text)) if part):
        system, sep, number = pair.partition("=") if "=" in pair else ("", "", pair)
        if "=" in number:
            raise ValueError(
                f"{pair!r} has more than one '=': give SYSTEM=VALUE (e.g. h100=2.1) for each system"
            )
        key = system if sep else ALL_SYSTEMS
        if (sep and not system) or not number:
            raise ValueError(f"{pair!r} is not SYSTEM=VALUE (e.g. h100=2.1) or one value for every system")
        if key in pairs:
            what = "one value for every system" if key == ALL_SYSTEMS else repr(key)
            raise ValueError(f"{what} is given twice")
        pairs[key] = number
    return pairs


def declared_inputs(model: type[BaseModel], table: str = "") -> dict[str, DeclaredInput]:
    """Every input `model` declares, by field name, in declaration order."""
    found = {}
    for name, info in model.model_fields.items():
        declared = describe(table, name, info)
        if declared is not None:
            found[name] = declared
    return found


def number_kind(unit: str, limits: Limits) -> NumberKind:
    """What signs a number of `unit` in `limits` takes: `$` if money, `%` if a fraction (0 to 1)."""
    if unit.startswith("USD"):
        return "money"
    if limits.low is not None and limits.high is not None and limits.low >= 0 and limits.high <= 1:
        return "fraction"
    return "count"


def read_signs(cls: type[BaseModel], value: Any, info: ValidationInfo) -> Any:
    """A before-validator for every field of a model of inputs: a declared number's text read by its
    kind (`number_kind`), so a scenario file refuses `$5` tokens at their key and takes `50%` where a
    fraction is asked. Other fields pass as they are."""
    item = _declared(cls, info.field_name or "")
    if item is None or item.kind not in ("number", "integer", "per_system"):
        return value
    kind = item.number_kind
    if item.kind == "per_system" and isinstance(value, str | list | tuple):
        value = system_pairs(value)
    if isinstance(value, dict):
        return {key: parse_number(v, kind) if isinstance(v, str) else v for key, v in value.items()}
    return parse_number(value, kind) if isinstance(value, str) else value


@functools.cache
def _declared(cls: type[BaseModel], name: str) -> DeclaredInput | None:
    info = cls.model_fields.get(name)
    return describe("", name, info) if info is not None else None


def parse_amount(text: str, kind: NumberKind = "any") -> float:
    """A human number (`15T`, `$2.10`), or a product of two (`5T x 3`: dataset tokens times epochs)."""
    if _PREFIXED.match(text.strip()):
        raise UnreadNumber(
            f"{shown(repr(text))} is not read as hexadecimal, octal or binary: write it in decimal"
        )
    match = _PRODUCT.match(text.strip())
    if match:
        return parse_number(match["data"], kind) * parse_number(match["times"], "count")
    return parse_number(text, kind)


def choices_of(model: type[BaseModel], name: str) -> tuple[str, ...]:
    """The values a choice field of `model` allows (from its `Literal`)."""
    bare, _, _ = _flatten(model.model_fields[name].annotation)
    return tuple(str(value) for value in get_args(bare))


def field_limits(model: type[BaseModel], name: str) -> Limits:
    """The range a field of `model` allows."""
    info = model.model_fields[name]
    _, metadata, _ = _flatten(info.annotation)
    return _limits([*info.metadata, *metadata])


def limits_of(annotation: Any) -> Limits:
    """The range an annotated type allows (`Annotated[float, Field(gt=0, le=1000)]`)."""
    _, metadata, _ = _flatten(annotation)
    return _limits(metadata)
