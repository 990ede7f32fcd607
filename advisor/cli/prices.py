"""`advisor prices import FILE` and `advisor prices list`: current rental prices in the user catalog."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import Any

from advisor.cli.tabular import add_format_flags, chosen_format, write_delimited
from advisor.errors import UsageError
from advisor.present.sanitise import printable


def register(sub: argparse._SubParsersAction) -> None:
    """The `prices` subcommand and its `import` and `list` actions."""
    p = sub.add_parser("prices", help="import current rental prices, or list every offer")
    actions = p.add_subparsers(dest="prices_command", metavar="ACTION", parser_class=type(p))
    q = actions.add_parser(
        "import",
        help="import dated rental offers (CSV, JSON or a SkyPilot catalog CSV) into the user catalog",
        description="Merge the offers in FILE into prices.toml of the user catalog (--catalog DIR, or the "
        "platform config dir's catalog/). Imported offers become their system's default price.",
    )
    q.add_argument("file", metavar="FILE", help="a price file: CSV or JSON, or SkyPilot's vms.csv")
    q.add_argument(
        "--provider",
        help="SkyPilot files: the provider's name (default: the folder of vms.csv, or the file's)",
    )
    q.add_argument(
        "--as-of", dest="as_of", help="SkyPilot files: the prices' date, YYYY-MM-DD (default: today)"
    )
    q.add_argument(
        "--no-default", action="store_true", help="add the offers without making them the default price"
    )
    q.set_defaults(handler=cmd_import)
    q = actions.add_parser("list", help="every offer per system: price, age in days, where it came from")
    add_format_flags(q)
    q.set_defaults(handler=cmd_list)
    p.set_defaults(handler=lambda args: _missing_action(p))


def _missing_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def cmd_import(args: argparse.Namespace) -> int:
    from advisor.core.model.sourced import as_of_end
    from advisor.io.catalog_files import load_catalog
    from advisor.io.paths import user_config_dir
    from advisor.io.price_import import read_price_file
    from advisor.io.price_overlay import merged_entries, read_entries, write_entries

    as_of = args.as_of or date.today().isoformat()
    try:
        as_of_end(as_of)
    except (ValueError, TypeError):
        raise UsageError(f"--as-of {as_of!r}: expected a date, YYYY-MM-DD") from None
    folder = Path(args.catalog) if args.catalog else user_config_dir() / "catalog"
    catalog = load_catalog(user_dir=args.catalog if args.catalog else None)
    path = Path(args.file)
    found = read_price_file(path, catalog.systems, as_of=as_of, provider=args.provider)
    entries = merged_entries(
        read_entries(folder),
        found.offers,
        make_default=not args.no_default,
        imported_from=str(path.resolve()),
    )
    written = write_entries(folder, entries)
    for item in found.offers:
        offer = item.offer
        spread = ""
        if offer.low_usd_per_gpu_hour is not None and offer.high_usd_per_gpu_hour is not None:
            spread = f" ({offer.low_usd_per_gpu_hour:.2f}-{offer.high_usd_per_gpu_hour:.2f})"
        role = "" if args.no_default else ", now the default"
        print(
            printable(
                f"{item.system}: {offer.offer}: ${offer.price_usd_per_gpu_hour:.2f}/GPU-h{spread}"
                f" as of {offer.as_of}{role}"
            )
        )
    for line in found.skipped:
        print(printable(f"skipped: {line}"))
    print(printable(f"imported {len(found.offers)} offer(s) into {written}"))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from advisor.cli.loading import load_catalog, print_json

    catalog = load_catalog(args)
    rows = offer_rows(catalog, date.today())
    fmt = chosen_format(args)
    if fmt == "json":
        from advisor.schemas import listing

        print_json(listing("prices", rows))
        return 0
    if fmt in ("csv", "tsv"):
        from advisor.cli.listings import OFFER_COLUMNS

        write_delimited(OFFER_COLUMNS, rows, fmt)  # type: ignore[arg-type]
        return 0
    for system_id in catalog.systems:
        print(printable(system_id))
        for row in (r for r in rows if r["system"] == system_id):
            mark = "*" if row["default"] else "R" if row["default_reserved"] else " "
            spread = ""
            if row["low_usd_per_gpu_hour"] is not None and row["high_usd_per_gpu_hour"] is not None:
                spread = f" ({row['low_usd_per_gpu_hour']:.2f}-{row['high_usd_per_gpu_hour']:.2f})"
            print(
                printable(
                    f"  {mark} ${row['price_usd_per_gpu_hour']:.2f}{spread}  {row['age_days']:>5} days"
                    f"  {row['offer']}  [{row['origin']}]"
                )
            )
    print(
        "* the default price; R the reserved price, used beyond on-demand capacity or when its term costs "
        "less than the run on demand; ages count from the end of the as_of period"
    )
    return 0


def offer_rows(catalog: Any, today: date) -> list[dict[str, Any]]:
    """Every rental offer of every system with its age in days and its origin (shipped, or which file)."""
    from advisor.core.model.sourced import as_of_end

    rows = []
    for system in catalog.systems.values():
        default = system.default_rental
        for offer in system.rental:
            rows.append(
                {
                    "system": system.id,
                    "offer": offer.offer,
                    "price_usd_per_gpu_hour": offer.price_usd_per_gpu_hour,
                    "low_usd_per_gpu_hour": offer.low_usd_per_gpu_hour,
                    "high_usd_per_gpu_hour": offer.high_usd_per_gpu_hour,
                    "default": offer is default,
                    "default_reserved": offer.default_reserved,
                    "term_days": offer.term_days,
                    "as_of": offer.as_of,
                    "age_days": max(0, (today - as_of_end(offer.as_of)).days),
                    "origin": f"imported from {offer.imported_from}" if offer.imported_from else "shipped",
                    "source": offer.source,
                }
            )
    return rows


def user_price_lines(catalog: Any, system_ids: Any) -> list[str]:
    """One line per system whose default price the user imported: the price, its date and file."""
    lines = []
    for system_id in system_ids:
        offer = catalog.systems[system_id].default_rental
        if offer.imported_from:
            lines.append(
                f"{system_id}: ${offer.price_usd_per_gpu_hour:.2f}/GPU-h is your imported price "
                f"({offer.offer}, as of {offer.as_of}, from {offer.imported_from})"
            )
    return lines
