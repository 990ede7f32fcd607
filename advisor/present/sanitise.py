"""Text from outside (files, flags, settings, catalog) made safe to show, in one place.

A terminal obeys control characters (ESC can retitle or reset it, CR can overwrite a line) and Rich and
Textual obey markup (`[/]` raises, `[@click=...]` makes a link); bidi overrides (U+202A-U+202E,
U+2066-U+2069) reorder what follows them in a terminal, a browser or an editor. Each is shown as its
escape (`\\x1b`, `\\u202e`) instead, so the text reads as written and does nothing.
"""

from __future__ import annotations

import re

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_TERMINAL_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
"""Control characters but tab and newline, and the bidi marks and overrides."""
_LINE_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
"""As `_TERMINAL_UNSAFE`, newline and tab too (for one-line labels: ids, names, titles)."""
_REPORT_UNSAFE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]")
"""What a report file must not hold raw: as `_TERMINAL_UNSAFE`, a CR (of a CRLF) allowed."""
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])|\[")
"""A Rich or Textual markup tag (the same pattern both use to escape), or any other `[`: Rich reads a
backslash before a bare `[` as an escape too (`\\[` shows `[`), so that `[` gets one of its own."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object, *, one_line: bool = False) -> str:
    """`text` with control characters and bidi overrides shown as escapes (`\\x1b`, `\\u202e`).

    Tabs and newlines stay unless `one_line` (then they show as `\\t`, `\\n` too).
    """
    pattern = _LINE_UNSAFE if one_line else _TERMINAL_UNSAFE
    return pattern.sub(_escape, str(text))


def plain_markup(text: object, *, one_line: bool = False) -> str:
    """`printable(text)` escaped for Rich or Textual markup, so it shows as written (`[/]` stays `[/]`)."""
    escaped = _MARKUP_TAG.sub(
        lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}" if m.group(2) else "\\[",
        printable(text, one_line=one_line),
    )
    # Backslashes at the end would escape the markup that follows (a closing tag): each is doubled, as
    # Rich's own `escape` does for one.
    return escaped + "\\" * (len(escaped) - len(escaped.rstrip("\\")))


def report_text(text: str) -> str:
    """A rendered report with control characters and bidi overrides written as `\\u202e`-style escapes.

    In JSON and TOML strings `\\uXXXX` is the character's own escape (the data reads back unchanged);
    in Markdown and HTML it shows the character instead of obeying it.
    """
    return _REPORT_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
