"""Load the published serving benchmarks of `catalog/evidence/serving/` (one TOML file per point)."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from advisor.core.model.serving_evidence import ServingPoint
from advisor.errors import CatalogError
from advisor.io.paths import shipped_dir
from advisor.io.toml_read import read_toml, validation_messages


def serving_evidence_dir(catalog_dir: str | Path | None = None) -> Path:
    """`evidence/serving` inside the given catalog folder, else the shipped one."""
    root = Path(catalog_dir) if catalog_dir else shipped_dir("catalog")
    return root / "evidence" / "serving"


def load_serving_evidence(
    folder: Path, known_systems: set[str], known_models: set[str]
) -> tuple[ServingPoint, ...]:
    """Every point in `folder`, sorted by id; any bad file is an error naming the file and key."""
    points: dict[str, ServingPoint] = {}
    paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not paths:
        raise CatalogError(f"{folder}: no published serving points (*.toml) found")
    for path in paths:
        data, text = read_toml(path, CatalogError)
        try:
            point = ServingPoint.model_validate(data)
        except ValidationError as exc:
            raise CatalogError("\n".join(validation_messages(exc, path, text, ServingPoint))) from None
        if point.system not in known_systems:
            raise CatalogError(f"{path}: system {point.system!r} is not in the catalog")
        if point.model not in known_models:
            raise CatalogError(f"{path}: model {point.model!r} is not a preset in the catalog")
        if point.id in points:
            raise CatalogError(f"{path}: id {point.id!r} already used by another point")
        points[point.id] = point
    return tuple(points[pid] for pid in sorted(points))
