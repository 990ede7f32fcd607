"""Read TOML files and turn parse and validation errors into messages naming file, line and key."""

from __future__ import annotations

import difflib
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")


def read_text(path: Path, error: type[Exception]) -> str:
    """The file's text (UTF-8, a byte-order mark dropped); a missing or unreadable file raises `error`."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror})") from None


def read_toml(path: Path, error: type[Exception]) -> tuple[dict[str, Any], str]:
    """Parse `path`; a missing, unreadable or malformed file raises `error` naming the file and line."""
    text = read_text(path, error)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None


def locate(text: str, loc: tuple[str | int, ...]) -> int | None:
    """1-based line of the key at `loc` (e.g. ('rental', 1, 'price')) in TOML `text`, if it can be found."""
    keys = [part for part in loc if isinstance(part, str)]
    indices = [part for part in loc if isinstance(part, int)]
    table: tuple[str, ...] = ()
    seen_arrays: dict[tuple[str, ...], int] = {}
    array_index: dict[tuple[str, ...], int] = {}
    best: int | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = tuple(part.strip().strip("\"'") for part in header.group(2).split("."))
            if header.group(1) == "[[":
                seen_arrays[table] = seen_arrays.get(table, -1) + 1
                array_index[table] = seen_arrays[table]
            if _table_matches(table, keys, indices, array_index) and list(table) == keys[: len(table)]:
                if len(table) == len(keys):
                    return number
                best = best or number
            continue
        key = _KEY.match(line)
        if key:
            name = key.group(1).strip("\"'")
            full = [*table, *name.split(".")]
            if full == keys[: len(full)] and _table_matches(table, keys, indices, array_index):
                if len(full) == len(keys):
                    return number
                best = best or number
    return best


def _table_matches(
    table: tuple[str, ...], keys: list[str], indices: list[int], array_index: dict[tuple[str, ...], int]
) -> bool:
    if table in array_index and indices:
        return array_index[table] == indices[0]
    return True


def _fields_at(model: type[BaseModel] | None, loc: tuple[str | int, ...]) -> list[str]:
    """Field names valid at `loc` (for "did you mean" on an unknown key)."""
    for part in loc[:-1]:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        if field is None:
            return []
        model = _model_of(field.annotation)
    return list(model.model_fields) if model is not None else []


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def key_path(loc: tuple[str | int, ...]) -> str:
    """`('rental', 0, 'price')` as `rental[0].price`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def suggest(name: str, valid: list[str]) -> str:
    """` (did you mean 'x'?)` when a close match exists, else the valid names."""
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (valid: {', '.join(sorted(valid))})" if valid else ""


def _plain(value: Any) -> str:
    """A value as it would be written in TOML: true, 1.5, "text"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def validation_messages(
    exc: ValidationError, path: Path | str, text: str, model: type[BaseModel] | None, prefix: tuple = ()
) -> list[str]:
    """One line per error: `file:line: key.path: what is wrong (got ...)`."""
    lines = []
    for err in exc.errors(include_url=False):
        loc = tuple(part for part in (*prefix, *err["loc"]) if not (isinstance(part, str) and "[" in part))
        line = locate(text, loc) if text else None
        where = f"{path}:{line}" if line else f"{path}"
        if err["type"] == "extra_forbidden":
            name = str(loc[-1])
            msg = f"unknown key {name!r}{suggest(name, _fields_at(model, err['loc']))}"
        elif err["type"] == "missing":
            msg = "missing (required)"
        else:
            got = err.get("input")
            quoted = isinstance(got, str) and repr(got) in err["msg"]
            shown = f" (got {_plain(got)})" if not isinstance(got, dict | list) and not quoted else ""
            msg = f"{err['msg'].removeprefix('Value error, ')}{shown}"
        lines.append(f"{where}: {key_path(loc)}: {msg}")
    return lines
