"""Error types. Every message names the file, field or line at fault and what would be valid."""

from __future__ import annotations

import errno

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT), while loading or running."""


class AdvisorError(Exception):
    """Base class for every error the advisor reports to a user (never shown as a traceback)."""


class UsageError(AdvisorError):
    """A command-line flag or API argument is missing, unknown or out of range."""


class CatalogError(AdvisorError):
    """A catalog file is malformed, or a lookup names an id the catalog does not hold."""


class RuleError(AdvisorError):
    """A rule file is malformed or uses a fact, operator or effect outside the vocabulary."""


class ScenarioError(AdvisorError):
    """A scenario file is malformed, of an unknown schema version, or out of range."""


class InfeasibleError(AdvisorError):
    """The workload cannot run on the requested system as given (e.g. it does not fit in memory)."""


class ReportError(AdvisorError):
    """A report or scenario could not be written."""


SHOWN_CHARS = 120
"""The most characters of one value from outside an error message repeats (a 100 KB value is cut)."""


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """`value` as text for a message, cut to `limit` characters with its full length noted."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text):,} characters)"


def os_reason(exc: OSError) -> str:
    """Why the operating system refused a file operation, in words (for a message naming the path)."""
    if exc.errno == errno.ENAMETOOLONG:
        return "the name is too long"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    return exc.strerror or str(exc)
