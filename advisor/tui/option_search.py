"""Which options of a choice match what is typed in its list, and which of them to highlight. Pure: no
Textual. Every option whose words start with the typed words is shown, in the list's own order; the one
highlighted is the current option if it matches, else the match nearest the current option's name
(typing `70` on Llama 3 8B highlights Llama 3 70B, not MPT 70B, the first 70B in size order)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_WORDS = re.compile(r"[\s(),]+")
_PARTS = re.compile(r"[\s(),\-_/]+")


def _compact(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def words(label: str) -> set[str]:
    """`Qwen3 30B-A3B (30.5B, 3.3B active)`: its words and their hyphenated parts, case folded."""
    folded = label.casefold()
    return {word for word in (*_WORDS.split(folded), *_PARTS.split(folded)) if word}


def matches(label: str, value: str, typed: str, other_words: str = "") -> bool:
    """Whether an option is what `typed` asks for: each typed word starts a word of its label or of its
    `other_words` (`llama 3 70` finds Llama 3 70B, `70` every 70B, `serv` inference declared with the
    word `serving`), or the label or value starts with what is typed, spaces and punctuation ignored
    (`llama3-70` finds the model whose id is `llama3-70b`)."""
    query = typed.casefold().split()
    if not query:
        return True
    label_words = words(label) | words(other_words)
    if all(any(word.startswith(part) for word in label_words) for part in query):
        return True
    short = _compact(typed)
    return bool(short) and (_compact(label).startswith(short) or _compact(value).startswith(short))


def matching(
    options: Sequence[tuple[str, str]], typed: str, other_words: Mapping[str, str] | None = None
) -> list[int]:
    """The indices of the options that match `typed` (with `other_words` by value), in the list's order."""
    more = other_words or {}
    return [
        index
        for index, (label, value) in enumerate(options)
        if matches(label, value, typed, more.get(value, ""))
    ]


def _shared_words(label: str, other: str) -> int:
    """How many leading words two labels share: `Llama 3 70B` and `Llama 3 8B` share 2."""
    count = 0
    for mine, theirs in zip(label.casefold().split(), other.casefold().split(), strict=False):
        if mine != theirs:
            break
        count += 1
    return count


def best_match(options: Sequence[tuple[str, str]], found: Sequence[int], current: str) -> int | None:
    """The option to highlight among `found`: the current one if found, else the first of those whose
    name shares the most leading words with the current option's (its family), else the first found."""
    if not found:
        return None
    labels = {value: label for label, value in options}
    if current in labels and any(options[index][1] == current for index in found):
        return next(index for index in found if options[index][1] == current)
    mine = labels.get(current, "")
    return max(found, key=lambda index: (_shared_words(options[index][0], mine), -index))
