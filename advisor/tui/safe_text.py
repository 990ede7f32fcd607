"""Text from outside (files, settings, catalog) made safe to draw: control characters and bidi
overrides shown as escapes, so nothing in a file can move the cursor, retitle the terminal or
reverse text. Markup is not interpreted where this text is drawn (notifications use markup=False)."""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with control and bidi-override characters replaced by their escapes (`\\x1b`, `\\u202e`)."""
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
