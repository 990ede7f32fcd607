"""Start the app from the command line (`advisor`, `advisor FILE.toml`, `advisor serve`).

Textual is imported only here, when the app starts; a bad catalog, rule folder or scenario file
raises AdvisorError before the screen opens, and the CLI prints it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


def run_app(
    catalog_dir: str | None = None, rules_dir: str | None = None, scenario_path: str | None = None
) -> int:
    """Run the app until the user quits; returns the exit status."""
    with keys_kept_as_typed(sys.stdin.fileno()):
        from advisor.tui.app import make_app

        app = make_app(catalog_dir=catalog_dir, rules_dir=rules_dir, scenario_path=scenario_path)
        app.run()
    return app.return_code or 0


@contextmanager
def keys_kept_as_typed(fd: int) -> Iterator[None]:
    """Keys typed while the app loads (Textual, the catalog: 0.5-1.5 s) reach it as typed: the terminal
    stops editing and echoing lines from here, not only once Textual starts, since a line-editing
    terminal erased `Tab Tab` with `Backspace Backspace` and turned Enter into Ctrl+J before the app could
    read them. Ctrl+C still interrupts the loading; the terminal's settings are restored at the end."""
    try:
        import termios
    except ImportError:  # Windows: its console keeps keys as typed
        yield
        return
    try:
        before = termios.tcgetattr(fd)
    except termios.error:  # not a terminal
        yield
        return
    held = [*before]
    held[0] &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON | termios.IXOFF)
    held[3] &= ~(termios.ICANON | termios.ECHO | termios.IEXTEN)
    held[6] = [*before[6]]
    held[6][termios.VMIN], held[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSANOW, held)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, before)


def serve_app(command: str, *, host: str, port: int, url: str) -> None:
    """Serve the app over HTTP (textual-serve): each browser session runs `command`; until interrupted."""
    from textual_serve.server import Server

    Server(command, host=host, port=port, title="advisor", public_url=url).serve()
