"""`advisor serve`: the app in a web browser (textual-serve), for a team looking at one screen.

It listens on the loopback address unless `--host` says otherwise (then it warns: anyone who can reach
the port can use the app). Each browser session runs the app with its file dialogs confined to one
folder (`--root`, or the current folder) and its settings read but never written.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from advisor.cli.command import add_command
from advisor.errors import AdvisorError

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8000


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The `serve` command and its flags."""
    parser = add_command(sub, serve)
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"address to listen on (default {LOOPBACK}: this machine only); any other address lets "
        "anyone who can reach the port use the app",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--root", metavar="DIR", help="the only folder the app may open or save in (default: the current one)"
    )


def app_command(root: Path, catalog: str | None, rules: str | None) -> str:
    """The shell command each browser session runs: the app confined to `root`."""
    words = [sys.executable, "-m", "advisor.tui.served", "--root", str(root)]
    if catalog:
        words += ["--catalog", str(Path(catalog).resolve())]
    if rules:
        words += ["--rules", str(Path(rules).resolve())]
    return shlex.join(words)


def serve(args: argparse.Namespace) -> int:
    """open the app in a web browser (on this machine unless --host is given)

    Serve the app over HTTP with textual-serve. File dialogs in the browser are
    confined to one folder; settings are read, never written.
    """
    root = Path(args.root or ".").resolve()
    if not root.is_dir():
        raise AdvisorError(f"--root {args.root}: not a folder")
    if not 0 < args.port < 65536:
        raise AdvisorError(f"--port {args.port}: must be 1 to 65535")
    if args.host not in (LOOPBACK, "localhost", "::1"):
        print(
            f"advisor serve: WARNING: listening on {args.host}: anyone who can reach port {args.port} "
            f"can use the app and open or save files in {root}",
            file=sys.stderr,
        )
    from advisor.tui.launch import serve_app

    url_host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{url_host}:{args.port}"
    print(f"advisor serve: open {url} in a browser (files confined to {root}); Ctrl+C stops it", flush=True)
    serve_app(app_command(root, args.catalog, args.rules), host=args.host, port=args.port, url=url)
    return 0
