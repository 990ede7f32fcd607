"""`--format table|csv|tsv|json`: one declaration of a listing's columns, printed for people or programs.

A `Column` names its machine key (the CSV header and the JSON key, with its unit in the name), the raw
value (a number stays a number: `cost_usd` is 4630000.0, not `$4.63M`) and, for the table, a title and
the text a person reads. CSV and TSV have a header row and one row per item; JSON is a list of objects.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from advisor.present.sanitise import plain_markup, printable

FORMATS = ("table", "csv", "tsv", "json")
Format = Literal["table", "csv", "tsv", "json"]


@dataclass(frozen=True)
class Column:
    """One column: its machine key, its raw value, and how the table shows it."""

    key: str
    value: Callable[[Any], Any]
    title: str = ""
    show: Callable[[Any], str] | None = None
    justify: Literal["left", "right"] = "left"
    optional: bool = False
    """Long text (a name, a source) left out of a table too wide for the terminal; never of a pipe."""

    def text(self, item: Any) -> str:
        """What a person reads in the table."""
        if self.show is not None:
            return self.show(item)
        value = self.value(item)
        return "–" if value is None else str(value)


def add_format_flags(parser: argparse.ArgumentParser, *, json_help: str = "print JSON") -> None:
    """`--format table|csv|tsv|json`, and `--json` as the short form of `--format json`."""
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="table for people (the default), csv or tsv (a header row, raw numbers with units in the "
        "column names) or json",
    )
    parser.add_argument("--json", action="store_true", help=f"{json_help} (the same as --format json)")


def chosen_format(args: argparse.Namespace) -> Format:
    """The format the flags ask for: `--format`, else json for `--json`, else table."""
    if args.json and args.format not in (None, "json"):
        from advisor.errors import UsageError

        raise UsageError(f"--json and --format {args.format} disagree: give one of them")
    fmt: Format = args.format or ("json" if args.json else "table")
    return fmt


def records(columns: Sequence[Column], items: Iterable[Any]) -> list[dict[str, Any]]:
    """Each item as a mapping from column key to raw value."""
    return [{c.key: c.value(item) for c in columns} for item in items]


def write_delimited(columns: Sequence[Column], items: Iterable[Any], fmt: Literal["csv", "tsv"]) -> None:
    """A header row of keys, then one row per item: raw values, empty for none."""
    writer = csv.writer(sys.stdout, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow([c.key for c in columns])
    for row in records(columns, items):
        writer.writerow([_cell(value) for value in row.values()])


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, tuple | list):
        return "; ".join(map(str, value))
    return printable(str(value).replace("\t", " ").replace("\n", " "), one_line=True)


def emit(columns: Sequence[Column], items: Sequence[Any], fmt: Format, *, title: str = "") -> None:
    """`items` in `fmt`: a Rich table (with `title`), CSV, TSV or a JSON list of objects."""
    if fmt in ("csv", "tsv"):
        write_delimited(columns, items, fmt)  # type: ignore[arg-type]
    elif fmt == "json":
        from advisor.cli.loading import print_json

        print_json(records(columns, items))
    else:
        print_table(columns, items, title=title)


def print_table(columns: Sequence[Column], items: Sequence[Any], *, title: str = "") -> None:
    """The Rich table of `items`. The first column (the id) is never wrapped or cut; on a terminal too
    narrow for every column, the optional ones are left out (and named below the table)."""
    from rich import box
    from rich.table import Table

    from advisor.cli.console import console

    rows = [[column.text(item) for column in columns] for item in items]
    shown = _fitting(columns, rows, console.width if console.is_terminal else None)
    table = Table(box=box.SIMPLE, title=title or None, title_justify="left", pad_edge=False)
    for index in shown:
        column = columns[index]
        widest = max((len(row[0]) for row in rows), default=0) if index == 0 else None
        table.add_column(
            column.title or column.key, justify=column.justify, no_wrap=index == 0, min_width=widest
        )
    for row in rows:
        table.add_row(*(plain_markup(row[index], one_line=True) for index in shown))
    console.print(table)
    left_out = [columns[i].title or columns[i].key for i in range(len(columns)) if i not in shown]
    if left_out:
        console.print(f"[dim]not shown at this width: {', '.join(left_out)} (see --format csv or json)[/]")


def _fitting(columns: Sequence[Column], rows: list[list[str]], width: int | None) -> list[int]:
    """The indexes of the columns to show: all of them, or without optional ones from the right until
    the table fits `width` (None: no limit)."""
    shown = list(range(len(columns)))
    if width is None:
        return shown

    def needed(index: int) -> int:  # the widest cell, its padding and the column's divider
        title = columns[index].title or columns[index].key
        return max(len(title), *(len(row[index]) for row in rows)) + 3 if rows else len(title) + 3

    for index in reversed(range(len(columns))):
        if sum(needed(i) for i in shown) <= width:
            break
        if columns[index].optional:
            shown.remove(index)
    return shown
