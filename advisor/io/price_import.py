"""Read dated rental offers from a price file: our CSV or JSON columns, or SkyPilot's catalog CSV.

Nothing here writes; `advisor.io.price_overlay` merges what this returns into the user's catalog.
A malformed file raises `PriceFileError` naming the file and the row (CSV line, or JSON item).
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.core.model.catalog import RentalOffer
from advisor.core.model.units import DecimalCommaError, parse_number
from advisor.errors import CatalogError, shown
from advisor.io.field_errors import expected, problem
from advisor.io.toml_read import MAX_DEPTH, check_bounds, key_path, read_text

SKYPILOT_ACCELERATORS = {
    "A100-80GB": "a100",
    "H100": "h100",
    "H200": "h200",
    "B200": "b200",
    "GB200": "gb200-nvl72",
}
"""SkyPilot's `AcceleratorName` → catalog system id; other accelerators are skipped and listed."""

SKYPILOT_COLUMNS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price")
"""Columns a SkyPilot `vms.csv` must have (catalog schema v5 onwards; `Region`, `SpotPrice` optional)."""

COLUMNS = {
    "system": ("system",),
    "offer": ("offer",),
    "price_usd_per_gpu_hour": ("price_usd_per_gpu_hour", "price"),
    "low_usd_per_gpu_hour": ("low_usd_per_gpu_hour", "low"),
    "high_usd_per_gpu_hour": ("high_usd_per_gpu_hour", "high"),
    "as_of": ("as_of", "date"),
    "source": ("source",),
}
"""Our own format: each field and the column names accepted for it (low and high may be empty)."""
_REQUIRED = ("system", "offer", "price_usd_per_gpu_hour", "as_of", "source")


class PriceFileError(CatalogError):
    """A price file is unreadable or malformed; the message names the file and row."""


@dataclass(frozen=True)
class ImportedOffer:
    """One offer read from a price file, for the catalog system `system`."""

    system: str
    offer: RentalOffer


@dataclass
class PriceImport:
    """What a price file holds: the offers, and the rows skipped (with why)."""

    offers: list[ImportedOffer] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def read_price_file(
    path: Path, systems: Iterable[str], *, as_of: str, provider: str | None = None
) -> PriceImport:
    """The offers in `path` (format told by its columns); `as_of` dates SkyPilot rows, which have none."""
    text = read_text(path, PriceFileError)
    known = set(systems)
    if path.suffix.lower() == ".json" or text.lstrip().startswith(("[", "{")):
        return _from_json(path, text, known)
    reader = csv.DictReader(io.StringIO(text))
    header = [name.strip() for name in reader.fieldnames or ()]
    if not header:
        raise PriceFileError(f"{path}: empty file (expected a CSV header row)")
    if "AcceleratorName" in header or "InstanceType" in header:
        missing = [name for name in SKYPILOT_COLUMNS if name not in header]
        if missing:
            raise PriceFileError(f"{path}:1: SkyPilot catalog CSV without column(s) {', '.join(missing)}")
        return _from_skypilot(path, reader, provider or _provider_name(path), as_of)
    return _from_rows(path, _csv_rows(reader), header, known)


def _csv_rows(reader: csv.DictReader[str]) -> Iterable[tuple[str, Mapping[str, Any]]]:
    try:
        for row in reader:
            if None in row:
                raise PriceFileError(f"line {reader.line_num}: more cells than the header has columns")
            yield f"line {reader.line_num}", {key.strip(): value for key, value in row.items() if key}
    except csv.Error as exc:
        raise PriceFileError(f"line {reader.line_num}: not valid CSV ({exc})") from None


def _from_json(path: Path, text: str, known: set[str]) -> PriceImport:
    try:
        data = json.loads(text, parse_constant=_not_finite)
    except json.JSONDecodeError as exc:
        raise PriceFileError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise PriceFileError(f"{path}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:
        raise PriceFileError(f"{path}: {exc}") from None
    problem = check_bounds(data)
    if problem is not None:
        raise PriceFileError(f"{path}: {key_path(problem[0])}: {problem[1]}")
    if isinstance(data, dict):
        data = data.get("offers")
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise PriceFileError(f'{path}: expected a list of offer objects (or {{"offers": [...]}})')
    header = sorted({key for item in data for key in item})
    return _from_rows(path, ((f"item [{i}]", item) for i, item in enumerate(data)), header, known)


def _from_rows(
    path: Path, rows: Iterable[tuple[str, Mapping[str, Any]]], header: list[str], known: set[str]
) -> PriceImport:
    """Our own format: one offer per row."""
    names = {name: next((c for c in columns if c in header), None) for name, columns in COLUMNS.items()}
    missing = [COLUMNS[name][0] for name in _REQUIRED if names[name] is None]
    if missing:
        raise PriceFileError(
            f"{path}: missing column(s) {', '.join(missing)}; expected "
            f"{', '.join(columns[0] for columns in COLUMNS.values())} (or a SkyPilot catalog CSV)"
        )
    result = PriceImport()
    try:
        for where, row in rows:
            values = {name: row.get(column) for name, column in names.items() if column is not None}
            values = {k: v.strip() if isinstance(v, str) else v for k, v in values.items()}
            values = {k: v for k, v in values.items() if v not in (None, "")}
            system = str(values.pop("system", ""))
            if system not in known:
                raise PriceFileError(
                    f"{where}: unknown system {shown(repr(system))}; valid: {', '.join(sorted(known))}"
                )
            result.offers.append(ImportedOffer(system, _offer(values, where)))
    except PriceFileError as exc:
        raise PriceFileError(f"{path}: {exc}") from None
    if not result.offers:
        raise PriceFileError(f"{path}: no offers in the file")
    return result


def _offer(values: dict[str, Any], where: str) -> RentalOffer:
    try:
        return RentalOffer.model_validate({**values, "as_of": str(values.get("as_of", ""))})
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            key = ".".join(str(part) for part in err["loc"])
            problems.append(f"{shown(key)}: {problem(err)}" if key else expected(err))
        raise PriceFileError(f"{where}: " + "; ".join(problems)) from None


def _provider_name(path: Path) -> str:
    """SkyPilot keeps one folder per cloud (`catalogs/v7/lambda/vms.csv`); else the file's own name."""
    return path.parent.name if path.stem == "vms" and path.parent.name else path.stem


def _number(text: str | None, column: str, where: str) -> float | None:
    if text is None or not text.strip():
        return None
    try:
        value = parse_number(text)
    except DecimalCommaError as exc:
        raise PriceFileError(f"{where}: {column} {exc}") from None
    except ValueError:
        raise PriceFileError(f"{where}: {column} {shown(repr(text.strip()))} is not a number") from None
    if not value > 0:
        raise PriceFileError(f"{where}: {column} must be above 0 (got {shown(text.strip())})")
    return value


def _not_finite(name: str) -> float:
    """JSON's NaN and Infinity are refused: a price is a finite number."""
    raise ValueError(f"{name} is not a finite number")


def _from_skypilot(path: Path, reader: csv.DictReader[str], provider: str, as_of: str) -> PriceImport:
    """One offer per system: median on-demand price per GPU-hour of the rows; min and max are the range."""
    on_demand: dict[str, list[float]] = defaultdict(list)
    spot: dict[str, list[float]] = defaultdict(list)
    regions: dict[str, set[str]] = defaultdict(set)
    skipped: dict[str, int] = defaultdict(int)
    try:
        for where, row in _csv_rows(reader):
            name = (row.get("AcceleratorName") or "").strip()
            if not name:
                continue
            system = SKYPILOT_ACCELERATORS.get(name)
            if system is None:
                skipped[name] += 1
                continue
            count = _number(row.get("AcceleratorCount"), "AcceleratorCount", where)
            if count is None:
                raise PriceFileError(f"{where}: AcceleratorCount is empty")
            price = _number(row.get("Price"), "Price", where)
            spot_price = _number(row.get("SpotPrice"), "SpotPrice", where)
            if price is not None:
                on_demand[system].append(price / count)
                regions[system].add((row.get("Region") or "").strip())
            if spot_price is not None:
                spot[system].append(spot_price / count)
    except PriceFileError as exc:
        raise PriceFileError(f"{path}: {exc}") from None
    result = PriceImport(
        skipped=[f"{name} ({rows} row(s)): no catalog system" for name, rows in skipped.items()]
    )
    for system in sorted(set(on_demand) | set(spot)):
        prices = on_demand.get(system)
        if not prices:
            result.skipped.append(f"{system}: spot prices only; no on-demand price to import")
            continue
        where = f"{len(regions[system])} region(s)" if any(regions[system]) else f"{len(prices)} row(s)"
        note = f"Median of {len(prices)} on-demand row(s) over {where}; low and high are their min and max."
        if spot.get(system):
            note += f" Spot median ${statistics.median(spot[system]):.2f} per GPU-hour."
        offer = _offer(
            {
                "offer": f"{provider} on-demand (SkyPilot catalog)",
                "price_usd_per_gpu_hour": round(statistics.median(prices), 4),
                "low_usd_per_gpu_hour": round(min(prices), 4),
                "high_usd_per_gpu_hour": round(max(prices), 4),
                "as_of": as_of,
                "source": f"SkyPilot catalog, {provider} ({path.name}): Price / AcceleratorCount",
                "note": note,
            },
            f"{path}: {system}",
        )
        result.offers.append(ImportedOffer(system, offer))
    if not result.offers:
        raise PriceFileError(
            f"{path}: no rows for a catalogued accelerator "
            f"({', '.join(SKYPILOT_ACCELERATORS)}); nothing imported"
        )
    return result
