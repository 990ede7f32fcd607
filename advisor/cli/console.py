"""The Rich console the commands print through: fitted to a terminal, or whole lines for a pipe.

On a terminal, tables fit its width as usual. Into a pipe or a file there is no width to fit: tables
take the width their cells need (an id is never cut to `deepsee…`), text is not wrapped, and no line
ends in spaces, so `grep`, `cut` and `diff` see what a person sees. The choice follows `sys.stdout` at
each print, so output redirected later (a test's capture) is handled the same way.
"""

from __future__ import annotations

import sys
from typing import IO, Any, cast

from rich.console import Console

from advisor.present.sanitise import printable

# Wide enough for any row the commands print; tables take only the width their cells need.
PIPE_WIDTH = 100_000


class _Console(Console):
    """A console that shows control characters as escapes, and whose closed pipe raises `BrokenPipeError`
    (Rich's default exits with status 1)."""

    def render_str(self, text: str, **kwargs: Any) -> Any:
        """`text` as Rich renders it, control characters and bidi overrides shown as escapes (`\\x1b`).

        Markup from outside (ids, names) is escaped where it is put in (`plain_markup`); this catches
        the rest.
        """
        return super().render_str(printable(text), **kwargs)

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


class TrimmedLines:
    """A text stream that writes whole lines to the current `sys.stdout`, each without trailing spaces."""

    def __init__(self) -> None:
        self._pending = ""

    def write(self, text: str) -> int:
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        if lines:
            sys.stdout.write("".join(line.rstrip(" ") + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._pending.strip(" ") == "":
            self._pending = ""
        elif not self._pending.endswith(" "):
            sys.stdout.write(self._pending)
            self._pending = ""
        sys.stdout.flush()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return getattr(sys.stdout, "encoding", None) or "utf-8"


def _is_terminal() -> bool:
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class _CurrentConsole:
    """`console.print(...)` on the console for whatever `sys.stdout` is now (see the module docstring)."""

    def __init__(self) -> None:
        self._for: tuple[Any, bool] | None = None
        self._console: Console | None = None

    def current(self) -> Console:
        key = (sys.stdout, _is_terminal())
        if self._console is None or self._for != key:
            self._for = key
            self._console = _Console() if key[1] else _pipe_console()
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current(), name)


def _pipe_console() -> Console:
    return _Console(
        file=cast(IO[str], TrimmedLines()),
        width=PIPE_WIDTH,
        soft_wrap=True,
        color_system=None,
        highlight=False,
    )


console: Any = _CurrentConsole()
