"""Building one result from another object that holds most of its figures under the same names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")

Reader = Callable[[object], tuple[Any, ...]]

_PLANS: dict[tuple[type, tuple[str, ...]], tuple[Reader, tuple[tuple[int, str], ...]]] = {}
"""Per dataclass and the fields given: what reads the other fields from a source (in declaration order),
and where each given field goes among them (found on first use)."""


def from_attributes(cls: type[T], source: object, **given: Any) -> T:
    """A `cls` (a dataclass): the fields in `given` as given, every other one `source`'s attribute of
    the same name (a missing one raises AttributeError: nothing is left to a default silently)."""
    key = (cls, tuple(given))
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _plan(cls, given)
    read, inserts = plan
    if not inserts:
        return cls(*read(source))
    values = list(read(source))
    for position, name in inserts:
        values.insert(position, given[name])
    return cls(*values)


def _plan(cls: type, given: dict[str, Any]) -> tuple[Reader, tuple[tuple[int, str], ...]]:
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    read = [name for name in names if name not in given]
    getter = attrgetter(*read)
    reader: Reader = (lambda source: (getter(source),)) if len(read) == 1 else getter
    return reader, tuple((names.index(name), name) for name in sorted(given, key=names.index))
