"""The example scenarios shipped with the package: listed by `advisor examples`, copied out by name."""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from advisor.errors import UsageError
from advisor.io.atomic import write_atomic
from advisor.io.paths import shipped_dir


@dataclass(frozen=True)
class Example:
    """One shipped scenario: its name (path under examples/, no suffix), file and title."""

    name: str
    path: Path
    title: str


def example_scenarios() -> list[Example]:
    """Every shipped example scenario, by name (`compare/…` for the comparison pair)."""
    folder = shipped_dir("examples")
    examples = []
    for path in sorted(folder.rglob("*.toml")):
        try:
            title = str(tomllib.loads(path.read_text(encoding="utf-8")).get("name", ""))
        except (OSError, tomllib.TOMLDecodeError):
            title = ""
        examples.append(Example(path.relative_to(folder).with_suffix("").as_posix(), path, title))
    return examples


def find_example(name: str) -> Example:
    """The example `name` (with or without `.toml`); an unknown name raises UsageError naming the valid."""
    examples = {example.name: example for example in example_scenarios()}
    key = name.removesuffix(".toml")
    if key in examples:
        return examples[key]
    close = difflib.get_close_matches(key, list(examples), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise UsageError(f"no example {name!r}{hint} (valid: {', '.join(examples)})")


def copy_example(name: str, dest: Path | str | None = None, *, force: bool = False) -> Path:
    """Copy example `name` to `dest` (a file, or a folder to put NAME.toml in; default: the current
    folder); an existing file is replaced only with `force`."""
    example = find_example(name)
    target = Path(dest) if dest is not None else Path.cwd()
    if target.is_dir():
        target = target / example.path.name
    return write_atomic(target, example.path.read_bytes(), force=force)
