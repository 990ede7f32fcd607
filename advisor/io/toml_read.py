"""Read TOML files and turn parse and validation errors into messages naming file, line and key."""

from __future__ import annotations

import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from advisor.errors import os_reason, shown
from advisor.io.field_errors import problem

_HEADER = re.compile(r"^\s*(\[\[?)([^\]]*)\]\]?\s*(?:#.*)?$")
"""A `[table]` or `[[array]]` header line (no nested quantifiers, so matching is linear in the line)."""
MAX_MESSAGES = 20
"""Validation errors listed per file; the rest are counted (2,000 errors are not each located)."""
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")


MAX_FILE_BYTES = 8 * 2**20
"""The largest input file read (8 MiB; the largest shipped file is under 100 KB)."""
MAX_DEPTH = 32
"""The deepest nesting of tables and arrays in a TOML file (the shipped files nest 7 deep)."""
MAX_STRING_CHARS = 65_536
"""The longest string value in a TOML file (notes included)."""


def read_text(path: Path, error: type[Exception]) -> str:
    """The file's text (UTF-8, a byte-order mark dropped); a missing, unreadable, special (FIFO, device,
    folder) or oversized file raises `error`. A FIFO is opened without blocking, so it never hangs."""
    data = read_bytes(path, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{shown(path)}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_bytes(path: Path, error: type[Exception], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them; anything else raises `error`."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise error(f"{shown(path)}: no such file") from None
    except OSError as exc:
        raise error(f"{shown(path)}: cannot read ({os_reason(exc)})") from None
    try:
        status = os.fstat(handle)
        mode = status.st_mode
        if not stat.S_ISREG(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO, device or socket)"
            raise error(f"{shown(path)}: is {what}; give a file")
        with os.fdopen(handle, "rb", closefd=False) as stream:
            # read(n) allocates n bytes first: ask for the file's size (and the rest if it grew meanwhile)
            data = stream.read(min(limit, status.st_size) + 1)
            if status.st_size < len(data) <= limit:
                data += stream.read(limit + 1 - len(data))
    except OSError as exc:
        raise error(f"{shown(path)}: cannot read ({os_reason(exc)})") from None
    finally:
        os.close(handle)
    if len(data) > limit:
        raise error(f"{shown(path)}: too large (over {limit // 2**20} MiB); an input file is at most that")
    return data


def read_toml(path: Path, error: type[Exception]) -> tuple[dict[str, Any], str]:
    """Parse `path`; a missing, unreadable or malformed file, or one past the limits on nesting, string
    length and numbers (finite only), raises `error` naming the file, line and key."""
    import tomllib  # not at import: a command served from the catalog cache parses no TOML

    text = read_text(path, error)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{shown(path)}: not valid TOML: {exc}") from None
    except RecursionError:
        raise error(
            f"{shown(path)}: nested too deeply (at most {MAX_DEPTH} levels of tables and arrays)"
        ) from None
    problem = check_bounds(data)
    if problem is not None:
        loc, message = problem
        line = locate(text, loc)
        raise error(f"{shown(path)}{f':{line}' if line else ''}: {key_path(loc)}: {message}")
    return data, text


def check_bounds(data: Any) -> tuple[tuple[str | int, ...], str] | None:
    """The first value past the limits (too deep, a string too long, a number not finite), with its key
    path; None if there is none. Iterative, so a deep file cannot exhaust the stack."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while stack:
        loc, value = stack.pop()
        if isinstance(value, dict | list):
            if len(loc) >= MAX_DEPTH:
                return loc, f"nested too deeply (at most {MAX_DEPTH} levels of tables and arrays)"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend(((*loc, key), item) for key, item in items)
        elif isinstance(value, str) and len(value) > MAX_STRING_CHARS:
            return loc, f"text too long ({len(value):,} characters; at most {MAX_STRING_CHARS:,})"
        elif isinstance(value, float) and not math.isfinite(value):
            return loc, f"{value} is not a finite number"
    return None


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
            table = tuple(part.strip().strip("\"'") for part in header.group(2).strip().split("."))
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
    if model is None:
        return []
    return [field.alias or name for name, field in model.model_fields.items()]  # `schema`, not `schema_`


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
    return shown(out) if out else "(top level)"


def suggest(name: str, valid: list[str]) -> str:
    """` (did you mean 'x'?)` when a close match exists, else the valid names."""
    import difflib

    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (valid: {', '.join(sorted(valid))})" if valid else ""


def validation_messages(
    exc: ValidationError, path: Path | str, text: str, model: type[BaseModel] | None, prefix: tuple = ()
) -> list[str]:
    """One line per error: `file:line: key.path: what is wrong (got ...)`."""
    lines = []
    errors = exc.errors(include_url=False)
    for err in errors[:MAX_MESSAGES]:
        loc = tuple(part for part in (*prefix, *err["loc"]) if not (isinstance(part, str) and "[" in part))
        line = locate(text, loc) if text else None
        where = f"{path}:{line}" if line else f"{path}"
        if err["type"] == "extra_forbidden":
            name = str(loc[-1])
            msg = f"unknown key {name!r}{suggest(name, _fields_at(model, err['loc']))}"
        elif err["type"] == "missing":
            msg = "missing (required)"
        else:
            msg = problem(err)
        lines.append(f"{shown(where)}: {key_path(loc)}: {msg}")
    if len(errors) > MAX_MESSAGES:
        lines.append(f"{shown(path)}: … and {len(errors) - MAX_MESSAGES:,} more problems")
    return lines
