"""Building one result from another object that holds most of its figures under the same names."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...]] = {}
"""Each dataclass's field names, in declaration order (found on first use)."""


def from_attributes(cls: type[T], source: object, **given: Any) -> T:
    """A `cls` (a dataclass): the fields in `given` as given, every other one `source`'s attribute of
    the same name (a missing one raises AttributeError: nothing is left to a default silently)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    return cls(**{name: getattr(source, name) for name in names if name not in given}, **given)
