"""`advisor estimate` with every system on a terminal of 80, 100 or 160 columns (item 3 of app24): the
systems are split over tables that fit the width, no cell is cut (`$667.…`) or wrapped, and the numbers
are those of the one wide table a pipe gets."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from advisor.cli.main import main

ARGV = ["estimate", "--model", "llama3-70b", "--tokens", "1T"]
SERVE = ["estimate", "--model", "llama3-70b", "--kind", "inference", "--target-tokens-per-second", "50k"]


def _terminal(monkeypatch: pytest.MonkeyPatch, width: int) -> io.StringIO:
    """The commands' console as a terminal `width` columns wide, writing to the returned buffer."""
    out = io.StringIO()
    terminal = Console(file=out, width=width, color_system=None, force_terminal=True, highlight=False)
    for module in ("advisor.cli.render", "advisor.cli.render_estimates"):
        monkeypatch.setattr(f"{module}.console", terminal)
    return out


def _rows(text: str) -> dict[str, list[str]]:
    """Each table row's cells by its label (the systems under "system"), the cells of one label in the
    successive tables joined in order."""
    rows: dict[str, list[str]] = {}
    lines = text.splitlines()
    for line, below in zip(lines, [*lines[1:], ""], strict=True):
        if below.strip().startswith("━"):
            rows.setdefault("system", []).extend(line.split())
        elif line.startswith("  ") and re.search(r"\S {2,}\S", line.strip()):
            label, *cells = re.split(r" {2,}", line.strip())
            rows.setdefault(label, []).extend(cells)
    return rows


@pytest.mark.parametrize("argv", [ARGV, SERVE], ids=["training", "serving at a rate"])
@pytest.mark.parametrize("width", [80, 100, 160])
def test_every_system_fits_the_terminal_with_the_same_numbers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int, argv: list[str]
) -> None:
    assert main(argv) == 0
    piped = capsys.readouterr().out
    table = piped.split("\n\n", 2)[1]  # the one wide table a pipe gets
    out = _terminal(monkeypatch, width)
    assert main(argv) == 0
    shown = out.getvalue()
    tables = shown.split("memory, GiB per GPU:")[0]
    assert all(len(line) <= width for line in tables.splitlines()), "a table is wider than the terminal"
    assert "…" not in tables, "a cell is cut"
    wide, narrow = _rows(table), _rows(tables)
    assert narrow == wide and len(wide["total cost"]) == 10, "the same rows and numbers, every system"
    assert len(wide["system"]) == 10
    assert tables.count("\n ━") <= 5, "at least two systems a table, even at 80 columns"


def test_a_serving_estimate_speaks_of_serving(capsys: pytest.CaptureFixture[str]) -> None:
    """At a target rate each system's fleet is sized to the rate: the title gives the rate, not the
    workload's 8 GPUs, and a training run's rows (MFU, goodput, time to train) and time parts
    (production overhead, downtime) are not shown."""
    assert main(SERVE) == 0
    title, table = capsys.readouterr().out.split("\n\n", 2)[:2]
    assert "serving 50k tokens/s" in title and "on 8 GPUs" not in title
    labels = set(_rows(table))
    assert {"time to serve the tokens", "$/1M output", "GPUs for target rate"} <= labels
    assert not labels & {"MFU", "goodput", "time to train", "cost per 1M tokens"}
    assert main([*SERVE, "--system", "h100"]) == 0
    shown = capsys.readouterr().out
    assert "compute" in shown and "production overhead" not in shown and "downtime" not in shown
