"""Load published evidence from `catalog/evidence/`: training runs and serving points, one TOML file each."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from advisor.core.model.evidence import EvidenceRun
from advisor.errors import CatalogError
from advisor.io.paths import shipped_dir
from advisor.io.toml_read import read_toml, validation_messages


class _Evidence(Protocol):
    id: str
    system: str
    model: str | None


E = TypeVar("E", bound=BaseModel)


def evidence_dir(catalog_dir: str | Path | None = None, kind: str = "training") -> Path:
    """`evidence/<kind>` (training or serving) inside the given catalog folder, else the shipped one."""
    root = Path(catalog_dir) if catalog_dir else shipped_dir("catalog")
    return root / "evidence" / kind


def load_entries(
    folder: Path, schema: type[E], known_systems: set[str], known_models: set[str], what: str
) -> tuple[E, ...]:
    """Every entry in `folder`, sorted by id; any bad file is an error naming the file and key."""
    found: dict[str, E] = {}
    paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not paths:
        raise CatalogError(f"{folder}: no published {what} (*.toml) found")
    for path in paths:
        data, text = read_toml(path, CatalogError)
        try:
            entry = schema.model_validate(data)
        except ValidationError as exc:
            raise CatalogError("\n".join(validation_messages(exc, path, text, schema))) from None
        item: _Evidence = entry  # type: ignore[assignment]
        if item.system not in known_systems:
            raise CatalogError(f"{path}: system {item.system!r} is not in the catalog")
        if item.model is not None and item.model not in known_models:
            raise CatalogError(f"{path}: model {item.model!r} is not a preset in the catalog")
        if item.id in found:
            raise CatalogError(f"{path}: id {item.id!r} already used by another entry")
        found[item.id] = entry
    return tuple(found[key] for key in sorted(found))


def load_evidence(folder: Path, known_systems: set[str], known_models: set[str]) -> tuple[EvidenceRun, ...]:
    """Every published training run in `folder`."""
    return load_entries(folder, EvidenceRun, known_systems, known_models, "runs")
