"""Tab completion of a typed path, as a shell does it: the folder's entries that start with what was
typed; one match completes (a folder gains `/`), several extend to what they share."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SHOWN_MATCHES = 8
"""Names listed when several entries match (the rest are counted)."""


@dataclass(frozen=True)
class Completion:
    """The text after completion and, when it stays ambiguous, the names that match."""

    text: str
    matches: tuple[str, ...] = ()

    def hint(self) -> str:
        """The matches as one line: `plans/  plan.toml  … (3 more)`."""
        more = len(self.matches) - SHOWN_MATCHES
        names = "  ".join(self.matches[:SHOWN_MATCHES])
        return names + (f"  … ({more} more)" if more > 0 else "")


def _entries(folder: Path) -> list[str]:
    """The folder's entry names, folders marked with `/`; empty if it cannot be read."""
    try:
        with os.scandir(folder) as found:
            return sorted(e.name + ("/" if e.is_dir() else "") for e in found)
    except OSError:
        return []


def _shared_start(names: list[str]) -> str:
    """The characters every name starts with (names, not path components: `plan` of `plan-a`, `plans/`)."""
    first, last = min(names), max(names)
    length = next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), len(first))
    return first[:length]


def complete_path(text: str, root: Path | None = None, suffixes: tuple[str, ...] = ()) -> Completion:
    """Complete `text` (relative to the current folder, or to `root` when files are confined to it).

    Hidden entries are offered only when the typed name starts with a dot; with `suffixes`, only files
    with one of them (and folders) are offered, so Open lists scenarios, not exported reports.
    """
    folder_text, _, typed = text.rpartition("/")
    folder_text = folder_text + "/" if "/" in text else ""
    folder = Path(folder_text or ".").expanduser()
    if root is not None:
        resolved = (root / folder).resolve()
        if not resolved.is_relative_to(root.resolve()):
            return Completion(text)
        folder = resolved
    names = [
        n
        for n in _entries(folder)
        if n.startswith(typed)
        and (typed[:1] == "." or n[:1] != ".")
        and (not suffixes or n.endswith("/") or n.endswith(suffixes))
    ]
    if not names:
        return Completion(text)
    shared = _shared_start(names)
    if len(names) == 1 or len(shared) > len(typed):
        return Completion(folder_text + shared, tuple(names) if len(names) > 1 else ())
    return Completion(text, tuple(names))
