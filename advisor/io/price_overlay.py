"""The user's imported prices: `prices.toml` in a catalog overlay folder, merged into the systems' offers.

Each `[[offer]]` is a rental offer with the `system` it prices. Imports merge into the file (an offer
with the same system and name is replaced, every other entry kept) and write it atomically.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import Field, ValidationError

from advisor.core.model.catalog import RentalOffer, System
from advisor.errors import CatalogError
from advisor.io.atomic import write_atomic
from advisor.io.price_import import ImportedOffer
from advisor.io.toml_read import read_toml, validation_messages

PRICES_FILE = "prices.toml"
"""The file in a catalog overlay folder that holds imported offers."""


class PriceEntry(RentalOffer):
    """An imported offer as stored: a rental offer and the catalog system it prices."""

    system: str = Field(description="The catalog system id this offer prices.")


def read_entries(folder: Path) -> list[PriceEntry]:
    """The offers in `folder/prices.toml` (none if missing); a malformed file raises CatalogError."""
    path = folder / PRICES_FILE
    if not path.exists():
        return []
    data, text = read_toml(path, CatalogError)
    offers = data.get("offer", [])
    unknown = sorted(set(data) - {"offer"})
    if unknown or not isinstance(offers, list):
        raise CatalogError(f"{path}: expected only [[offer]] tables (found {', '.join(unknown) or 'offer'})")
    entries = []
    problems: list[str] = []
    for index, item in enumerate(offers):
        try:
            entries.append(PriceEntry.model_validate(item))
        except ValidationError as exc:
            problems.extend(validation_messages(exc, path, text, PriceEntry, prefix=("offer", index)))
    if problems:
        raise CatalogError("\n".join(problems))
    return entries


def apply_entries(
    systems: dict[str, System], entries: Sequence[PriceEntry], where: Path, warnings: list[str]
) -> None:
    """Add the imported offers to their systems; an imported default replaces the shipped one."""
    by_system: dict[str, list[RentalOffer]] = {}
    for entry in entries:
        if entry.system not in systems:
            warnings.append(
                f"{where / PRICES_FILE}: offer {entry.offer!r}: unknown system {entry.system!r}; skipped"
            )
            continue
        by_system.setdefault(entry.system, []).append(RentalOffer(**entry.model_dump(exclude={"system"})))
    for system_id, offers in by_system.items():
        system = systems[system_id]
        names = {offer.offer for offer in offers}
        kept = [offer for offer in system.rental if offer.offer not in names]
        if any(offer.default for offer in offers):
            kept = [offer.model_copy(update={"default": False}) if offer.default else offer for offer in kept]
            first = next(i for i, offer in enumerate(offers) if offer.default)
            offers = [
                o.model_copy(update={"default": False}) if o.default and i != first else o
                for i, o in enumerate(offers)
            ]
        systems[system_id] = system.model_copy(update={"rental": (*kept, *offers)})


def merged_entries(
    existing: Sequence[PriceEntry], new: Sequence[ImportedOffer], *, make_default: bool, imported_from: str
) -> list[PriceEntry]:
    """`existing` with `new` merged in: same system and offer name replaced, the rest kept.

    With `make_default`, the first new offer of each system becomes its default and earlier imported
    defaults of that system are cleared; otherwise the new offers are not defaults.
    """
    incoming: list[PriceEntry] = []
    defaulted: set[str] = set()
    for item in new:
        default = make_default and item.system not in defaulted
        if default:
            defaulted.add(item.system)
        data = item.offer.model_dump()
        data.update(system=item.system, default=default, imported_from=imported_from)
        incoming.append(PriceEntry.model_validate(data))
    replaced = {(entry.system, entry.offer) for entry in incoming}
    kept = []
    for entry in existing:
        if (entry.system, entry.offer) in replaced:
            continue
        if entry.default and entry.system in defaulted:
            entry = entry.model_copy(update={"default": False})
        kept.append(entry)
    return [*kept, *incoming]


def write_entries(folder: Path, entries: Sequence[PriceEntry]) -> Path:
    """Write `entries` to `folder/prices.toml` atomically (the folder is created if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    offers = [_plain(entry) for entry in entries]
    text = "# Rental offers imported with `advisor prices import`; edit or delete entries freely.\n\n"
    return write_atomic(folder / PRICES_FILE, text + tomli_w.dumps({"offer": offers}), force=True)


def _plain(entry: PriceEntry) -> dict[str, Any]:
    data = entry.model_dump(exclude_none=True)
    first = {"system": data.pop("system"), "offer": data.pop("offer")}
    return {**first, **{k: v for k, v in data.items() if v not in ("", False) or k == "default"}}
