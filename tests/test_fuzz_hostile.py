"""Hostile generators (issue 16): deep nesting, huge and tiny floats, long strings, control characters,
markup and bidi overrides, special files. Each property runs a few dozen examples in the default run;
the `fuzz` marker runs the same properties with thousands (`pytest -m fuzz tests/test_fuzz_hostile.py`).

The promises: the sanitiser leaves nothing a terminal or a renderer would obey and loses nothing; every
file reader answers with the advisor's own error (never a traceback, a hang or a raw value); the
number parser is linear and ASCII-only; a write replaces only a regular file.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import tempfile
import tomllib
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from advisor.cli import commands, loading
from advisor.cli.main import main
from advisor.core.model.units import parse_number
from advisor.errors import AdvisorError, ReportError
from advisor.io.atomic import write_atomic
from advisor.io.rule_files import check_rule_files
from advisor.io.scenario_files import load_scenario
from advisor.io.toml_read import read_toml
from advisor.present.sanitise import plain_markup, printable, report_text
from tests.conftest import ROOT, shipped_catalog

CATALOG = shipped_catalog()
RULES = check_rule_files(sorted((ROOT / "rules").glob("*.toml")))
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""What must never reach a terminal raw (tab and newline aside)."""

MARKUP = st.sampled_from(["[/]", "[bold]", "[@click=app.quit]", "[link=https://x.example]", "\\", "[", "]"])
CONTROL = st.sampled_from(["\x1b]2;PWNED\x07", "\x1bc", "\x1b#8", "\r", "\x00", "\x7f", "\x9b", "\x08"])
BIDI = st.sampled_from(["\u202e", "\u202d", "\u2066", "\u2069", "\u200f"])
HOSTILE_TEXT = st.lists(
    st.one_of(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), MARKUP, CONTROL, BIDI),
    max_size=12,
).map("".join)
LONG_TEXT = st.integers(1, 100_000).map(lambda n: "x\x1b" * n)
FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -1e308, 5e-324, 1e-300, 0.0, -0.0, math.inf, -math.inf, math.nan]),
)
NUMBER_TEXT = st.one_of(
    st.text(st.sampled_from("0123456789,._eE+-$ kMBTP١٢０９"), max_size=80),
    st.integers(1, 30_000).map(lambda n: "1" * n + "x"),
    st.integers(1, 30_000).map(lambda n: " " * n + "1"),
    st.integers(1, 30_000).map(lambda n: "1," * n),
)


def _nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


NESTED = st.tuples(st.integers(1, 300), st.one_of(HOSTILE_TEXT, FLOATS)).map(lambda t: _nested(*t))

FAST = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=2_000, deadline=None, suppress_health_check=list(HealthCheck))


def fast_and_fuzz(strategy: st.SearchStrategy[Any]) -> Callable[[Callable[[Any], None]], Any]:
    """A property run twice: a quick pass in every run, and a long one under the `fuzz` marker."""

    def wrap(body: Callable[[Any], None]) -> Any:
        globals()[f"{body.__name__}_at_length"] = pytest.mark.fuzz(SLOW(given(strategy)(body)))
        return FAST(given(strategy)(body))

    return wrap


@fast_and_fuzz(st.one_of(HOSTILE_TEXT, LONG_TEXT))
def test_sanitised_text_holds_nothing_a_terminal_obeys(text: str) -> None:
    shown = printable(text)
    assert not UNSAFE.search(shown)
    assert not UNSAFE.search(printable(text, one_line=True).replace("\t", "").replace("\n", ""))
    if len(text) > 2_000:
        return  # long text is for the sanitiser's speed; Rich's own wrapping of it is not under test
    console = Console(file=io.StringIO(), width=10_000, color_system=None, soft_wrap=True, emoji=False)
    # As the CLI uses it, inside markup of its own: it never raises, styles or escapes the closing tag.
    console.print(f"[bold]{plain_markup(text, one_line=True)}[/bold]", end="")
    assert console.file.getvalue() == printable(text, one_line=True)  # type: ignore[attr-defined]


@fast_and_fuzz(HOSTILE_TEXT)
def test_report_text_keeps_json_and_toml_data(text: str) -> None:
    for rendered, parse in (
        (json.dumps({"name": text}, ensure_ascii=False), json.loads),
        # as advisor writes TOML: multi-line strings unless the text holds a carriage return (tomli_w
        # writes CRLF inside one as a bare newline, by design; scenario_files does the same)
        (tomli_w.dumps({"name": text}, multiline_strings="\r" not in text), tomllib.loads),
    ):
        safe = report_text(rendered)
        assert not re.search("[\u202a-\u202e\u2066-\u2069\x1b]", safe)
        assert parse(safe)["name"] == text


@fast_and_fuzz(NUMBER_TEXT)
def test_number_parser_is_ascii_and_finite(text: str) -> None:
    try:
        value = parse_number(text)
    except ValueError as exc:
        assert len(str(exc)) < 300
        return
    assert math.isfinite(value)
    assert text.isascii()


def _scenario_with(extra: dict[str, Any]) -> dict[str, Any]:
    return {"schema": 1, "workload": {"model": "llama3-8b", "tokens": "1T", "gpus": 8, **extra}}


FILE_DATA = st.one_of(
    st.builds(lambda v: _scenario_with({"tokens": v}), FLOATS),
    st.builds(lambda v: _scenario_with({"precision": v}), HOSTILE_TEXT),
    st.builds(lambda v: {**_scenario_with({}), "name": v}, st.one_of(HOSTILE_TEXT, LONG_TEXT)),
    st.builds(lambda v: {**_scenario_with({}), "notes": v}, NESTED),
    st.builds(lambda v: {**_scenario_with({}), "systems": v}, st.lists(HOSTILE_TEXT, max_size=5)),
    st.builds(lambda v: {**_scenario_with({}), "assumptions": {"mfu": v}}, FLOATS),
)


def _dump(data: dict[str, Any]) -> str | None:
    try:
        return tomli_w.dumps(data)
    except (ValueError, TypeError, RecursionError):
        return None


@fast_and_fuzz(FILE_DATA)
def test_a_hostile_scenario_file_loads_or_is_named(data: dict[str, Any]) -> None:
    text = _dump(data)
    if text is None:
        return
    path = Path(tempfile.gettempdir()) / f"advisor-fuzz-{os.getpid()}.toml"
    path.write_text(text, encoding="utf-8")
    try:
        load_scenario(path, CATALOG)
    except AdvisorError as exc:
        message = str(exc)
        assert str(path) in message and len(message) < 10_000
        assert not UNSAFE.search(printable(message))
    finally:
        path.unlink()


@pytest.fixture(autouse=True)
def _shipped_catalog_in_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (commands, loading):
        monkeypatch.setattr(module, "load_catalog", lambda args: CATALOG)
        monkeypatch.setattr(module, "load_rules", lambda args, catalog: RULES)


FLAG_VALUES = st.tuples(
    st.sampled_from(["--tokens", "--gpus", "--model", "--mfu", "--software"]), HOSTILE_TEXT
)


@fast_and_fuzz(FLAG_VALUES)
def test_a_hostile_flag_gets_exit_2_and_a_safe_message(flag_value: tuple[str, str]) -> None:
    flag, value = flag_value
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["estimate", "--model", "llama3-8b", "--tokens", "1T", f"{flag}={value}", "--json"])
    assert code in (0, 2)
    assert "\x1b" not in out.getvalue() + err.getvalue()
    if code == 2:
        assert flag in err.getvalue() or "command line" in err.getvalue() or "unknown" in err.getvalue()


@pytest.mark.parametrize("kind", ["fifo", "folder", "device", "dangling", "huge", "deep"])
def test_a_special_or_oversized_file_is_refused_at_once(kind: str, tmp_path: Path):
    path = tmp_path / "in.toml"
    if kind == "fifo":
        os.mkfifo(path)  # opened without blocking: reading it never waits for a writer
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "dangling":
        path.symlink_to(tmp_path / "nowhere")
    elif kind == "huge":
        with path.open("wb") as stream:
            stream.truncate(9 * 2**20)  # sparse: 9 MiB of zeros
    else:
        path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(AdvisorError, match=re.escape(str(path))):
        read_toml(path, AdvisorError)


NAMES = st.one_of(
    HOSTILE_TEXT.filter(lambda s: "/" not in s and "\x00" not in s and s not in ("", ".", "..")),
    st.integers(200, 400).map(lambda n: "n" * n),
)


@fast_and_fuzz(NAMES)
def test_a_write_makes_a_file_or_says_why(name: str) -> None:
    folder = Path(tempfile.gettempdir()) / f"advisor-fuzz-writes-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    try:
        written = write_atomic(folder / name, "x", force=False)
        assert written.read_text() == "x"
        with pytest.raises(ReportError, match="already exists"):
            write_atomic(folder / name, "y", force=False)
    except ReportError as exc:
        assert len(str(exc)) < 1_000
    finally:
        for leftover in folder.iterdir():
            leftover.unlink()
        folder.rmdir()
