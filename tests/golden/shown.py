"""Read numbers back out of rendered reports: tables of Markdown and HTML, and the figures in them.

Each shown figure is parsed with the precision it was printed at, so a test can check that the text
and the raw JSON value agree to within half a unit of the last digit shown.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SHOWN = re.compile(
    r"^(?P<dollar>\$)?(?P<num>-?[\d,]*\.?\d+)(?P<mult>[kMB])?\s*(?P<unit>¢|%|min|h|days|years|Wh|kWh|MWh|GWh|g|t)?$"
)
_MULT = {None: 1.0, "k": 1e3, "M": 1e6, "B": 1e9}
_UNIT = {
    None: 1.0,
    "¢": 0.01,
    "%": 0.01,
    "min": 1 / 60,
    "h": 1.0,
    "days": 24.0,
    "years": 365 * 24.0,
    "Wh": 1e-3,
    "kWh": 1.0,
    "MWh": 1e3,
    "GWh": 1e6,
    "t": 1.0,
    "g": 1e-6,
}


def parse_shown(text: str) -> tuple[float, float]:
    """`$2.48M` -> (2.48e6, 5e3): the value in base units (USD, hours, kWh, fraction) and half its last digit."""
    match = _SHOWN.match(text.strip())
    if match is None:
        raise ValueError(f"not a shown figure: {text!r}")
    digits = match.group("num").replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    scale = _MULT[match.group("mult")] * _UNIT[match.group("unit")]
    return float(digits) * scale, 0.5 * 10**-decimals * scale


def agrees(text: str, raw: float) -> bool:
    """Whether the shown `text` is `raw` rounded as printed."""
    value, half = parse_shown(text)
    return abs(value - raw) <= half * (1 + 1e-9) + 1e-12


def markdown_table(markdown: str, heading: str) -> list[list[str]]:
    """Rows (header first) of the first table under the `## heading` (or `### heading`) line."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip("#").strip() == heading and line[0] == "#")
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            cells = [c.strip().replace("\\", "") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


class HtmlTables(HTMLParser):
    """Every table's rows of cell texts, keyed by the id of the section it sits in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[list[str]]]] = {}
        self._section = ""
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self._section = dict(attrs).get("id") or ""
        elif tag == "table":
            self.tables.setdefault(self._section, []).append([])
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._section][-1].append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(html: str) -> dict[str, list[list[list[str]]]]:
    """Tables of an HTML report by section id: `{"systems": [[header, row, ...]], ...}`."""
    parser = HtmlTables()
    parser.feed(html)
    return parser.tables
