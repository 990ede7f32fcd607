"""Load the published serving benchmarks of `catalog/evidence/serving/` (one TOML file per point)."""

from __future__ import annotations

from pathlib import Path

from advisor.core.model.serving_evidence import ServingPoint
from advisor.io.evidence_files import evidence_dir, load_entries


def serving_evidence_dir(catalog_dir: str | Path | None = None) -> Path:
    """`evidence/serving` inside the given catalog folder, else the shipped one."""
    return evidence_dir(catalog_dir, "serving")


def load_serving_evidence(
    folder: Path, known_systems: set[str], known_models: set[str]
) -> tuple[ServingPoint, ...]:
    """Every published serving point in `folder`."""
    return load_entries(folder, ServingPoint, known_systems, known_models, "serving points")
