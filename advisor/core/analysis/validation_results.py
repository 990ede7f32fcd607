"""What `advisor validate` returns: each case's prediction against the published figure, the
summaries by group, and the constants fitted on all cases."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from advisor.core.analysis.fitting import serving_spread
from advisor.core.analysis.serving_fit import ServingValidation
from advisor.core.model.catalog import ProductionEfficiency
from advisor.core.model.evidence import EvidenceRun
from advisor.core.model.strong_scaling import StrongScalingFit


@dataclass(frozen=True)
class CaseResult:
    """One published run: the figure, the model's leave-one-out prediction and its P10-P90."""

    run: EvidenceRun
    predicted: float
    p10: float
    p90: float
    mfu: float
    mfu_basis: str
    basis_class: str
    """How the MFU was found: `exact`, `scaled`, `interpolated`, `other_release` or `transferred` (sets the
    reference spread)."""
    speed_ratio: float
    """Published speed ÷ the reference model's speed (what the production factor is fitted on)."""
    family: str = ""
    """The run's model family (`dense` or `moe`): a spread class may be fitted per family."""
    sequences_per_replica: float | None = None
    """At the run's published global batch, sequences per model replica per step (None: not stated)."""

    @property
    def strong_scaling(self) -> bool:
        """Fewer sequences per step than the cluster has model replicas: the strong-scaling loss applies."""
        return self.sequences_per_replica is not None and self.sequences_per_replica < 1

    @property
    def published(self) -> float:
        return self.run.published.value

    @property
    def error(self) -> float:
        """Relative error of the prediction in the published quantity (+ = model says more)."""
        return self.predicted / self.published - 1.0

    @property
    def inside(self) -> bool:
        return self.p10 <= self.published <= self.p90

    def to_dict(self) -> dict[str, Any]:
        run = self.run
        return {
            "id": run.id,
            "title": run.title,
            "kind": run.kind,
            "system": run.system,
            "gpus": run.gpus,
            "precision": run.precision,
            "software": run.software,
            "quantity": run.published.quantity,
            "published": self.published,
            "predicted": self.predicted,
            "error": self.error,
            "p10": self.p10,
            "p90": self.p90,
            "inside_p10_p90": self.inside,
            "mfu": self.mfu,
            "mfu_basis": self.mfu_basis,
            "basis_class": self.basis_class,
            "sequences_per_replica": self.sequences_per_replica,
            "source": run.published.source,
            "url": run.published.url,
            "as_of": run.published.as_of,
        }


@dataclass(frozen=True)
class GroupStats:
    """Median and worst absolute error, and P10-P90 coverage, of a group of runs."""

    name: str
    runs: int
    median_abs_error: float
    worst_abs_error: float
    coverage: float

    @classmethod
    def of(cls, name: str, cases: Sequence[CaseResult]) -> GroupStats:
        errors = [abs(c.error) for c in cases]
        return cls(
            name,
            len(cases),
            statistics.median(errors),
            max(errors),
            sum(c.inside for c in cases) / len(cases),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "median_abs_error": self.median_abs_error,
            "worst_abs_error": self.worst_abs_error,
            "coverage_p10_p90": self.coverage,
        }


@dataclass(frozen=True)
class ScalingFit:
    """The MFU scaling constants fitted on the calibration points."""

    loss_per_doubling: dict[str, float]
    small_model_exponent: dict[str, float]
    scale_up_ratio: dict[str, float]
    """MFU on a smaller NVLink domain ÷ on a larger one, per family (see mfu_domain)."""
    loss_growth: float = 0.0
    """Above `LOSS_PIVOT_GPUS` the loss per doubling grows as (GPUs / pivot)^this (see
    mfu_points.effective_doublings)."""

    def scaling_values(self) -> dict[str, Any]:
        """The fitted values as `MfuScaling` fields (to put into a catalog): every field is one."""
        return asdict(self)


@dataclass(frozen=True)
class Validation:
    """Every case, leave-one-out, and the production constants fitted on all of them."""

    cases: tuple[CaseResult, ...]
    production: ProductionEfficiency | None
    scaling: ScalingFit
    reference_spreads: dict[str, float]
    """The catalog's `[uncertainty]` MFU shares, fitted on the benchmark residuals."""
    held_out: bool = False
    """Predicted with the shipped constants (runs nothing was fitted on), not leave-one-out."""
    serving: ServingValidation | None = None
    """The serving model against published serving benchmarks (`catalog/evidence/serving/`)."""
    strong_scaling: StrongScalingFit = field(default_factory=StrongScalingFit)
    """The strong-scaling loss fitted on the runs below one sequence per replica per step."""

    def groups(self) -> list[GroupStats]:
        """All runs, then by kind, by how the MFU was found (the spread class), by model family and by
        system."""
        out = [GroupStats.of("all", self.cases)]
        keys = (
            ("kind", lambda c: c.run.kind),
            ("basis", lambda c: c.basis_class),
            ("family", lambda c: c.family),
            ("system", lambda c: c.run.system),
        )
        for label, key in keys:
            for value in sorted({key(c) for c in self.cases}):
                members = [c for c in self.cases if key(c) == value]
                out.append(GroupStats.of(f"{label}={value}", members))
        return out

    def _serving_dict(self) -> dict[str, Any]:
        """The `serving` object: the serving cases, summary and fitted constants with their spread."""
        assert self.serving is not None
        data = self.serving.to_dict()
        data["fitted"]["spread_low"], data["fitted"]["spread_high"] = serving_spread(self.serving)
        return data

    def to_dict(self) -> dict[str, Any]:
        return {
            "cases": [c.to_dict() for c in self.cases],
            "summary": {g.name: g.to_dict() for g in self.groups()},
            "method": "held out (shipped constants)" if self.held_out else "leave-one-out",
            "fitted": {
                "production": self.production.model_dump() if self.production else None,
                "loss_per_doubling": self.scaling.loss_per_doubling,
                "loss_growth": self.scaling.loss_growth,
                "small_model_exponent": self.scaling.small_model_exponent,
                "scale_up_ratio": self.scaling.scale_up_ratio,
                "strong_scaling": self.strong_scaling.model_dump(),
                "uncertainty": self.reference_spreads,
            },
            **({"serving": self._serving_dict()} if self.serving is not None else {}),
        }
