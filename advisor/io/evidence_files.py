"""Load the published runs of `catalog/evidence/` (one TOML file per run) for `advisor validate`."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from advisor.core.model.evidence import EvidenceRun
from advisor.errors import CatalogError
from advisor.io.paths import shipped_dir
from advisor.io.toml_read import read_toml, validation_messages


def evidence_dir(catalog_dir: str | Path | None = None) -> Path:
    """`evidence/training` inside the given catalog folder, else the shipped one."""
    root = Path(catalog_dir) if catalog_dir else shipped_dir("catalog")
    return root / "evidence" / "training"


def load_evidence(folder: Path, known_systems: set[str], known_models: set[str]) -> tuple[EvidenceRun, ...]:
    """Every run in `folder`, sorted by id; any bad file is an error naming the file and key."""
    runs: dict[str, EvidenceRun] = {}
    paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    if not paths:
        raise CatalogError(f"{folder}: no published runs (*.toml) found")
    for path in paths:
        data, text = read_toml(path, CatalogError)
        try:
            run = EvidenceRun.model_validate(data)
        except ValidationError as exc:
            raise CatalogError("\n".join(validation_messages(exc, path, text, EvidenceRun))) from None
        if run.system not in known_systems:
            raise CatalogError(f"{path}: system {run.system!r} is not in the catalog")
        if run.model is not None and run.model not in known_models:
            raise CatalogError(f"{path}: model {run.model!r} is not a preset in the catalog")
        if run.id in runs:
            raise CatalogError(f"{path}: id {run.id!r} already used by another run")
        runs[run.id] = run
    return tuple(runs[rid] for rid in sorted(runs))
