"""How small can the worst end-to-end error be? Pairs of published runs the model's inputs barely tell apart.

Two end-to-end runs on the same system, precision and family, with total parameters within 2x of each
other, differ to the model only by size, GPU count, sequence length and software month. If their
published speeds, each divided by the model's leave-one-out prediction, differ by a ratio r, then any
model that predicts the same ratio between them as this one does misses one of the two by at least
(r - 1) / (r + 1) (errors +x and -x, (1 + x) / (1 - x) = r, in the error of the published time). A
model can only do better by separating the two runs with its inputs, and docs/calibration.md
("Production runs the line does not separate") lists the features tried for that.

    python benchmarks/noise_floor.py            # pairs with the largest ratio first
    python benchmarks/noise_floor.py --all      # every pair
"""

from __future__ import annotations

import itertools
import sys

from advisor.core.analysis.validation import validate
from advisor.core.analysis.validation_results import CaseResult, Validation
from advisor.core.model.catalog import Catalog, ModelSpec
from advisor.io.catalog_files import load_catalog
from advisor.io.evidence_files import evidence_dir, load_evidence

SIZE_WINDOW = 2.0
"""Total parameters within this factor count as the same size class."""


TIMES = ("gpu_hours", "days")
"""Published quantities that grow as the run slows down (the others are speeds)."""


def _slowness(case: CaseResult) -> float:
    """The published run's time ÷ the model's: above 1 when the run was slower than predicted."""
    ratio = case.published / case.predicted
    return ratio if case.run.published.quantity in TIMES else 1.0 / ratio


def _spec(case: CaseResult, catalog: Catalog) -> ModelSpec:
    run = case.run
    return run.model_spec or catalog.models[str(run.model)]


def floor(ratio: float) -> float:
    """The least worst error of two runs whose slowness differs by `ratio`, at the model's ratio of them."""
    return (ratio - 1) / (ratio + 1)


def pairs(result: Validation, catalog: Catalog) -> list[tuple[float, CaseResult, CaseResult]]:
    """(ratio of slowness, run, run) for end-to-end runs the inputs barely tell apart, largest first."""
    cases = [c for c in result.cases if c.run.kind == "production"]
    rows = []
    for a, b in itertools.combinations(cases, 2):
        sa, sb = _spec(a, catalog), _spec(b, catalog)
        if (a.run.system, a.run.precision, sa.family) != (b.run.system, b.run.precision, sb.family):
            continue
        if max(sa.params_total, sb.params_total) / min(sa.params_total, sb.params_total) > SIZE_WINDOW:
            continue
        ra, rb = _slowness(a), _slowness(b)
        rows.append((max(ra, rb) / min(ra, rb), a, b))
    return sorted(rows, key=lambda row: -row[0])


def main(argv: list[str]) -> int:
    catalog = load_catalog()
    runs = load_evidence(evidence_dir(), set(catalog.systems), set(catalog.models))
    found = pairs(validate(runs, catalog), catalog)
    shown = found if "--all" in argv else found[:12]
    print(f"{len(found)} pairs of end-to-end runs of one system, precision, family and size class")
    print(f"{'ratio':>6} {'floor':>6}  runs (total parameters, GPUs, software)")

    def run(case: CaseResult) -> str:
        params = _spec(case, catalog).params_total / 1e9
        return f"{case.run.id} ({params:.1f}B, {case.run.gpus} GPUs, {case.run.software})"

    for r, a, b in shown:
        print(f"{r:6.2f} {floor(r):6.1%}  {run(a)} vs {run(b)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
