"""Load `catalog/` (shipped, explicit, or the user's overlay) into a `Catalog`.

Layout: `systems/*.toml` and `models/*.toml` (one entry per file), `mfu/*.toml` (one published table
per file, plus `mfu/scaling.toml`) and `economics.toml`. A user overlay folder with the same layout
overrides entries by id (economics by key) and adds new ones; shipped files are never touched.
A malformed system, model or MFU table file is skipped with a warning naming file, line and key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from advisor.core.model.catalog import Catalog, Economics, MfuScaling, MfuTable, ModelSpec, System
from advisor.errors import CatalogError
from advisor.io.field_errors import expected
from advisor.io.paths import not_a_folder, shipped_dir, user_config_dir
from advisor.io.toml_read import read_toml, validation_messages


def _validate(model: type[BaseModel], data: dict[str, Any], path: Path, text: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise CatalogError("\n".join(validation_messages(exc, path, text, model))) from None


def _entries(
    folder: Path, model: type[BaseModel], kind: str, warnings: list[str], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Every `*.toml` entry in `folder`, keyed by id; bad files become warnings."""
    found: dict[str, Any] = {}
    if not folder.is_dir():
        return found
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.name.endswith(".toml"))
    except OSError as exc:  # glob would skip an unreadable folder silently
        raise CatalogError(f"{folder}: cannot list the {kind} files ({exc.strerror or exc})") from None
    for path in (folder / name for name in names):
        if path.name in skip:
            continue
        try:
            data, text = read_toml(path, CatalogError)
            entry = _validate(model, data, path, text)
        except CatalogError as exc:
            warnings.append(f"skipped {kind} file: {exc}")
            continue
        if entry.id in found:
            warnings.append(f"skipped {kind} file: {path}: id {entry.id!r} already defined in this folder")
            continue
        found[entry.id] = entry
    return found


def _deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read_merged(name: str, folders: list[Path]) -> tuple[dict[str, Any], Path, str]:
    """`name` from the first folder, overlaid key by key with the same file in later folders."""
    data: dict[str, Any] = {}
    where, text = folders[0] / name, ""
    for index, folder in enumerate(folders):
        path = folder / name
        if not path.exists():
            if index == 0:
                raise CatalogError(f"{path}: no such file (the catalog needs it)")
            continue
        part, part_text = read_toml(path, CatalogError)
        data = _deep_merge(data, part)
        where, text = path, part_text
    return data, where, text


def load_catalog(
    path: Path | str | None = None, *, user_dir: Path | str | bool | None = None, cache: bool = True
) -> Catalog:
    """Load the catalog at `path` (default: the shipped one) with the user overlay on top.

    `user_dir`: None = the platform config dir's `catalog/` (if it exists), False = no overlay,
    or a folder (`--catalog DIR`). With `cache`, a validated copy keyed by every file's contents is
    reused (`advisor.io.catalog_cache`).
    """
    base = Path(path) if path is not None else shipped_dir("catalog")
    if not base.is_dir():
        raise CatalogError(not_a_folder(base, "catalog folder"))
    folders = [base]
    overlay = overlay_dir(user_dir)
    if overlay is not None:
        if not overlay.is_dir():
            if user_dir is None:
                overlay = None
            else:
                raise CatalogError(not_a_folder(overlay, "user catalog folder"))
        if overlay is not None:
            folders.append(overlay)
    if not cache:
        return _build(base, folders, overlay)
    from advisor.io.catalog_cache import cache_path, catalog_key, read_cached, write_cached

    where = cache_path(folders)
    if where is None:
        return _build(base, folders, overlay)
    key = catalog_key(folders)
    cached = read_cached(where, key)
    if cached is not None:
        return cached
    catalog = _build(base, folders, overlay)
    write_cached(where, key, catalog)
    return catalog


def _build(base: Path, folders: list[Path], overlay: Path | None) -> Catalog:
    """Read and validate every file of `folders` (the base catalog, then the overlay) into a Catalog."""
    warnings: list[str] = []
    systems: dict[str, System] = {}
    models: dict[str, ModelSpec] = {}
    tables: dict[str, MfuTable] = {}
    for folder in folders:
        systems.update(_entries(folder / "systems", System, "system", warnings))
        models.update(_entries(folder / "models", ModelSpec, "model", warnings))
        tables.update(_entries(folder / "mfu", MfuTable, "MFU table", warnings, skip=("scaling.toml",)))
    if overlay is not None:
        _apply_prices(systems, overlay, warnings)

    econ_data, econ_path, econ_text = _read_merged("economics.toml", folders)
    economics = _validate(Economics, econ_data, econ_path, econ_text)
    scaling_data, scaling_path, scaling_text = _read_merged("mfu/scaling.toml", folders)
    scaling = _validate(MfuScaling, scaling_data, scaling_path, scaling_text)

    usable = {tid: _usable_points(table, systems, models, warnings) for tid, table in tables.items()}
    tables = {tid: table for tid, table in usable.items() if table is not None}
    for system in list(systems.values()):
        if system.mfu_proxy_system and system.mfu_proxy_system not in systems:
            warnings.append(
                f"system {system.id}: mfu_proxy_system {system.mfu_proxy_system!r} not loaded; ignored"
            )
            systems[system.id] = system.model_copy(update={"mfu_proxy_system": None})
    if not systems:
        raise CatalogError(f"{base}: no usable system files in systems/")
    try:
        return Catalog(
            systems=systems,
            models=models,
            mfu_tables=tables,
            mfu_scaling=scaling,
            economics=economics,
            load_warnings=tuple(warnings),
        )
    except ValidationError as exc:
        raise CatalogError(
            f"{base}: " + "; ".join(expected(e) for e in exc.errors(include_url=False))
        ) from None


def overlay_dir(user_dir: Path | str | bool | None) -> Path | None:
    """The user overlay folder `load_catalog(user_dir=...)` reads: platform, `--catalog DIR` or none."""
    if user_dir is None:
        return user_config_dir() / "catalog"
    if user_dir is False:
        return None
    return Path(str(user_dir))


def _apply_prices(systems: dict[str, System], overlay: Path, warnings: list[str]) -> None:
    """The offers imported into `overlay/prices.toml`; a malformed file is skipped with a warning."""
    from advisor.io.price_overlay import apply_entries, read_entries

    try:
        entries = read_entries(overlay)
    except CatalogError as exc:
        warnings.append(f"skipped imported prices: {exc}")
        return
    apply_entries(systems, entries, overlay, warnings)


def _usable_points(
    table: MfuTable, systems: dict[str, System], models: dict[str, ModelSpec], warnings: list[str]
) -> MfuTable | None:
    """Drop points naming a system, model or precision that is not loaded (with a warning each)."""
    keep = []
    seen: set[tuple[Any, ...]] = set()
    for index, point in enumerate(table.points):
        where = f"MFU table {table.id!r}, points[{index}]"
        system = systems.get(point.system)
        key = (point.system, point.precision, point.model, point.seq_len, point.gpus, point.software)
        if system is None:
            warnings.append(f"{where}: unknown system {point.system!r}; point skipped")
        elif point.model not in models:
            warnings.append(f"{where}: unknown model {point.model!r}; point skipped")
        elif system.compute.peak_tflops(point.precision) is None:
            warnings.append(f"{where}: {point.system} has no {point.precision} peak; point skipped")
        elif key in seen:
            warnings.append(f"{where}: duplicate configuration {key}; point skipped")
        else:
            seen.add(key)
            keep.append(point)
    if not keep:
        return None
    return table if len(keep) == len(table.points) else table.model_copy(update={"points": tuple(keep)})
