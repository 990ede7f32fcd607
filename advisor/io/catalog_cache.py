"""A cache of the validated catalog, keyed by the contents of every file the loader reads.

The key hashes Python's and pydantic's versions, the source of the package's `__init__` (its version),
the schema and the loader, and, for each catalog
folder, its path and every file's name and bytes: adding, removing or editing any file (or upgrading)
makes a new key. The cache file holds the key, a SHA-256 of the payload and the catalog as JSON,
validated again on reading (`Catalog.model_validate_json`: about 2 ms for twice the shipped catalog,
as fast as unpickling, and nothing in the file can run code). It is written atomically in the platform
cache dir or `$ADVISOR_CACHE_DIR`; a missing, stale, corrupt or unreadable cache is ignored and
rebuilt silently.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from advisor.io.paths import user_cache_dir

MAGIC = b"advisor-catalog-cache json 1\n"
"""The first bytes of a cache file (bumped if the layout changes)."""
_PACKAGE = Path(__file__).resolve().parent.parent
_LOADER = ("catalog_files.py", "catalog_cache.py", "price_overlay.py", "toml_read.py")
_FOLDER_FILES = ("economics.toml", "prices.toml")
_FOLDER_KINDS = ("systems", "models", "mfu")


class _Unreadable(Exception):
    """A file the cache does not read: missing, special or too large (the loader names the problem)."""


_CACHE_LIMIT = 256 * 2**20
"""The largest cache file read back (the shipped catalog's is under 2 MB)."""


def catalog_key(folders: Sequence[Path]) -> str:
    """SHA-256 (hex) of everything a load of `folders` depends on: code versions and every file read."""
    import pydantic

    digest = hashlib.sha256()
    digest.update(f"{sys.version}\0{pydantic.VERSION}\0".encode())
    for path in code_files():
        _add_file(digest, str(path), path)
    for folder in folders:
        digest.update(b"\0folder\0" + os.fsencode(folder.resolve()))
        for name in _FOLDER_FILES:
            _add_file(digest, name, folder / name)
        for kind in _FOLDER_KINDS:
            sub = folder / kind
            names = sorted(entry.name for entry in _scan(sub) if entry.name.endswith(".toml"))
            digest.update(f"\0{kind}:{len(names)}\0".encode())
            for name in names:
                _add_file(digest, f"{kind}/{name}", sub / name)
    return digest.hexdigest()


def code_files() -> list[Path]:
    """The source files whose change can change a loaded catalog: the version, the schema, the loader."""
    schema = sorted((_PACKAGE / "core" / "model").glob("*.py"))
    return [_PACKAGE / "__init__.py", *schema, *(_PACKAGE / "io" / name for name in _LOADER)]


def _scan(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _add_file(digest: Any, name: str, path: Path) -> None:
    from advisor.io.toml_read import read_bytes

    try:
        data = read_bytes(path, _Unreadable)  # a FIFO or device is not read (it could block or never end)
    except _Unreadable:
        digest.update(f"\0{name}:absent\0".encode())
        return
    digest.update(f"\0{name}:{len(data)}\0".encode())
    digest.update(data)


def cache_path(folders: Sequence[Path]) -> Path | None:
    """This set of folders' cache file (one per base-and-overlay pair), or None if caching is off."""
    root = user_cache_dir()
    if root is None:
        return None
    where = hashlib.sha256("\0".join(str(f.resolve()) for f in folders).encode()).hexdigest()[:16]
    return root / f"catalog-{where}.json"


def read_cached(path: Path, key: str) -> Any | None:
    """The catalog cached at `path` for `key`, or None (missing, stale, corrupt or unreadable)."""
    from pydantic import ValidationError

    from advisor.core.model.catalog import Catalog
    from advisor.io.toml_read import read_bytes

    try:
        data = read_bytes(path, _Unreadable, limit=_CACHE_LIMIT)
    except _Unreadable:
        return None
    header = len(MAGIC) + 130
    if len(data) < header or not data.startswith(MAGIC):
        return None
    stored_key, stored_digest = data[len(MAGIC) : header].decode("ascii", "replace").split("\n")[:2]
    payload = data[header:]
    if stored_key != key or stored_digest != hashlib.sha256(payload).hexdigest():
        return None
    try:
        return Catalog.model_validate_json(payload)
    except (ValidationError, ValueError):
        return None


def write_cached(path: Path, key: str, catalog: Any) -> None:
    """Store `catalog` for `key` at `path` atomically; any failure leaves the load uncached, silently."""
    from advisor.errors import AdvisorError
    from advisor.io.atomic import write_atomic

    with contextlib.suppress(OSError, AdvisorError, ValueError):
        payload = catalog.model_dump_json().encode()
        digest = hashlib.sha256(payload).hexdigest()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, MAGIC + f"{key}\n{digest}\n".encode() + payload, force=True)
