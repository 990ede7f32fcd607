"""Does one more feature of a run separate the end-to-end runs the production line misses?

Each published end-to-end run in catalog/evidence/training gives y = log(published speed / reference
speed) (the shipped catalog's reference, as `advisor validate` computes it). The shipped line fits y on
log(total parameters / 70B); each candidate adds one feature. Every run is predicted leave-one-out (the
line refitted without it) and the absolute error in the published time is summarised by its median and
worst, as docs/calibration.md ("Production runs the line does not separate") reports them. The numbers
differ from `advisor validate`'s by the goodput.

    python benchmarks/production_features.py
"""

from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from advisor.core.analysis.validation import predict
from advisor.io.catalog_files import load_catalog
from advisor.io.evidence_files import evidence_dir, load_evidence

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_PARAMS = 7e10


def _solve(rows: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    """Least squares by the normal equations (a handful of columns; Gauss-Jordan with pivoting)."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(k)]
    for i in range(k):
        p = max(range(i, k), key=lambda r: abs(a[r][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for r in range(k):
            if r != i:
                f = a[r][i] / a[i][i]
                a[r] = [x - f * z for x, z in zip(a[r], a[i], strict=True)]
                b[r] -= f * b[i]
    return [b[i] / a[i][i] for i in range(k)]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * z for x, z in zip(a, b, strict=True))


def _corr(a: Sequence[float], b: Sequence[float]) -> float:
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    sa = math.sqrt(sum((x - ma) ** 2 for x in a))
    sb = math.sqrt(sum((x - mb) ** 2 for x in b))
    return sum((x - ma) * (z - mb) for x, z in zip(a, b, strict=True)) / (sa * sb) if sa and sb else 0.0


def leave_one_out(columns: Sequence[Sequence[float]], ys: Sequence[float]) -> tuple[list[float], list[float]]:
    """(|error| of each run's published time predicted without it, in-sample residuals of the full fit)."""
    rows = [[1.0, *(c[n] for c in columns)] for n in range(len(ys))]
    errors = []
    for i in range(len(ys)):
        coef = _solve(rows[:i] + rows[i + 1 :], [*ys[:i], *ys[i + 1 :]])
        errors.append(abs(math.exp(ys[i] - _dot(rows[i], coef)) - 1))
    coef = _solve(rows, ys)
    return errors, [y - _dot(r, coef) for r, y in zip(rows, ys, strict=True)]


def _runs() -> list[dict]:
    catalog = load_catalog(user_dir=False)
    runs = load_evidence(evidence_dir(ROOT / "catalog"), set(catalog.systems), set(catalog.models))
    out = []
    for run in (r for r in runs if r.kind == "production"):
        case = predict(run, catalog, ranged=False)
        arch = run.architecture(catalog.models)
        out.append(
            {
                "id": run.id,
                "y": math.log(case.speed_ratio),
                "params": arch.params_total,
                "active": arch.params_active,
                "tokens": run.tokens,
                "gpus": run.gpus,
                "seq": run.seq_len or arch.seq_len,
                "experts": arch.experts or 0,
                "hidden": arch.hidden,
                "layers": arch.layers,
                "system": run.system,
                "days": run.published.quantity == "days",
                "basis": case.basis_class,
                "mfu": case.mfu,
                "year": int(run.software[:4]) + int(run.software[5:7]) / 12,
            }
        )
    return out


def _filled(values: Sequence[float | None]) -> list[float]:
    """Runs published as a throughput have no token count: they take the mean (no effect on the slope)."""
    known = [v for v in values if v is not None]
    mean = statistics.fmean(known)
    return [mean if v is None else v for v in values]


FEATURES: dict[str, Callable[[dict], float | None]] = {
    "log tokens per parameter": lambda r: math.log(r["tokens"] / r["params"]) if r["tokens"] else None,
    "log tokens per active parameter": lambda r: math.log(r["tokens"] / r["active"]) if r["tokens"] else None,
    "published as wall-clock days": lambda r: float(r["days"]),
    "log hidden size": lambda r: math.log(r["hidden"]),
    "log layers": lambda r: math.log(r["layers"]),
    "reference transferred": lambda r: float(r["basis"] == "transferred"),
    "log(1 + experts)": lambda r: math.log(1 + r["experts"]),
    "MoE with at most 16 experts": lambda r: float(0 < r["experts"] <= 16),
    "log reference MFU": lambda r: math.log(r["mfu"]),
    "log GPUs": lambda r: math.log(r["gpus"]),
    "log sequence length": lambda r: math.log(r["seq"]),
    "H100 rather than A100": lambda r: float(r["system"] != "a100"),
    "year of the software": lambda r: r["year"],
    "log tokens per GPU": lambda r: math.log(r["tokens"] / r["gpus"]) if r["tokens"] else None,
}


def main() -> None:
    # `--without ID,ID`: the same search with those runs left out, to see whether a feature's gain rests on
    # one or two runs (a robustness check, stop 26).
    args = sys.argv[1:]
    left_out = set(args[args.index("--without") + 1].split(",")) if "--without" in args else set()
    runs = [r for r in _runs() if r["id"] not in left_out]
    ys = [r["y"] for r in runs]
    size = [math.log(r["params"] / REFERENCE_PARAMS) for r in runs]

    def show(name: str, errors: list[float], note: str = "") -> None:
        worst = max(range(len(errors)), key=errors.__getitem__)
        print(
            f"{name:44s} median {statistics.median(errors):6.1%}  worst {errors[worst]:6.1%}"
            f" ({runs[worst]['id']}){note}"
        )

    print(
        f"{len(runs)} end-to-end runs, leave-one-out"
        + (f" (without {', '.join(sorted(left_out))})" if left_out else "")
    )
    errors, shipped = leave_one_out([size], ys)
    show("total parameters (shipped)", errors)
    show("one factor, no size term", leave_one_out([], ys)[0])
    for name, feature in FEATURES.items():
        values = _filled([feature(r) for r in runs])
        show(f"+ {name}", leave_one_out([size, values], ys)[0], f"  corr {_corr(values, shipped):+.2f}")


if __name__ == "__main__":
    main()
