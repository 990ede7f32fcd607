"""Refit the constants `advisor validate` fits and write them into the shipped catalog files.

The MFU and production constants, the uncertainty spreads, and the serving constants (`[inference]`:
efficiencies, each serving stack's `stack_factor.<stack>`, the spread and the number of points).

Run after adding calibration points or published runs:

    python benchmarks/refit.py          # show what would change
    python benchmarks/refit.py --write  # rewrite the values in place (comments and layout kept)

tests/test_validation.py and tests/test_serving_validation.py fail while shipped values differ from the fit.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from advisor.core.analysis.fitting import serving_spread
from advisor.core.analysis.serving_fit import fitted_values, validate_serving
from advisor.core.analysis.validation import validate
from advisor.io.catalog_files import load_catalog
from advisor.io.evidence_files import evidence_dir, load_evidence
from advisor.io.serving_evidence_files import load_serving_evidence, serving_evidence_dir

ROOT = Path(__file__).resolve().parent.parent


def _values(fitted: dict, inference: dict[str, object]) -> dict[str, dict[tuple[str, str], object]]:
    """{file: {(table, key): value}} for every fitted constant (`inference`: the serving ones by key)."""
    scaling: dict[tuple[str, str], object] = {}
    production = fitted["production"] or {}
    for key in ("throughput_factor", "size_exponent", "spread_low", "spread_high", "runs"):
        if key in production:
            scaling[("production", key)] = production[key]
    scaling[("", "loss_growth")] = fitted["loss_growth"]
    for key, value in fitted["strong_scaling"].items():
        scaling[("strong_scaling", key)] = value
    for table in ("loss_per_doubling", "small_model_exponent", "scale_up_ratio"):
        for key, value in fitted[table].items():
            scaling[(table, key)] = value
    economics = {("uncertainty", key): value for key, value in fitted["uncertainty"].items()}
    economics |= {("inference", key): value for key, value in inference.items()}
    return {"catalog/mfu/scaling.toml": scaling, "catalog/economics.toml": economics}


_STALE_FAMILY_SHARES = re.compile(r"^(mfu_\w+_(?:dense|moe)) = ", flags=re.M)


def _rewrite(text: str, table: str, key: str, value: object) -> str:
    """`key = …` inside `[table]` (before the first table when `table` is "") set to `value`, the rest of
    the line (a comment) kept; a `[scale_up_ratio]` key not yet there is added at the table's end."""
    pattern = r"\A(.*?)(?=^\[)" if not table else rf"^\[{re.escape(table)}\]\n(.*?)(?=^\[|\Z)"
    section = re.search(pattern, text, flags=re.M | re.S)
    if section is None:
        raise SystemExit(f"no [{table}] table")
    body = section.group(1)
    line = re.compile(rf"^{re.escape(key)} = [^#\n]*?(\s*(#.*)?)$", flags=re.M)
    if line.search(body):
        new_body = line.sub(lambda m: f"{key} = {value}{m.group(1)}", body, count=1)
    elif table == "scale_up_ratio":  # a newly measured pair of systems or domain sizes gets its line
        stripped = body.rstrip("\n")
        new_body = f"{stripped}\n{key} = {value}\n" + body[len(stripped) + 1 :]
    elif table == "uncertainty":  # a newly fitted family share goes after the table's last share
        last = list(re.finditer(r"^mfu_\w+ = [^\n]*\n", body, flags=re.M))[-1]
        new_body = body[: last.end()] + f"{key} = {value}\n" + body[last.end() :]
    else:
        raise SystemExit(f"no {key} in [{table}]")
    return text[: section.start(1)] + new_body + text[section.end(1) :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the catalog files")
    args = parser.parse_args()
    catalog = load_catalog(user_dir=False)
    runs = load_evidence(evidence_dir(ROOT / "catalog"), set(catalog.systems), set(catalog.models))
    fitted = validate(runs, catalog).to_dict()["fitted"]
    points = load_serving_evidence(serving_evidence_dir(), set(catalog.systems), set(catalog.models))
    serving = validate_serving(points, catalog)
    low, high = serving_spread(serving)
    inference = fitted_values(serving.fitted) | {"spread_low": low, "spread_high": high}
    inference["fit_points"] = len(points)
    for name, values in _values(fitted, inference).items():
        path = ROOT / name
        text = new = path.read_text(encoding="utf-8")
        for key in _STALE_FAMILY_SHARES.findall(text):  # a family share no longer fitted (too few cases)
            if ("uncertainty", key) not in values:
                new = re.sub(rf"^{key} = [^\n]*\n", "", new, flags=re.M)
        for (table, key), value in values.items():
            new = _rewrite(new, table, key, value)
        if new == text:
            print(f"{name}: unchanged")
            continue
        print(f"{name}: refitted {', '.join(f'{t}.{k} = {v}' for (t, k), v in values.items())}")
        if args.write:
            path.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
