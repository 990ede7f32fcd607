"""Start the app from the command line (`advisor`, `advisor FILE.toml`, `advisor serve`).

Textual is imported only here, when the app starts; a bad catalog, rule folder or scenario file
raises AdvisorError before the screen opens, and the CLI prints it.
"""

from __future__ import annotations


def run_app(
    catalog_dir: str | None = None, rules_dir: str | None = None, scenario_path: str | None = None
) -> int:
    """Run the app until the user quits; returns the exit status."""
    from advisor.tui.app import make_app

    app = make_app(catalog_dir=catalog_dir, rules_dir=rules_dir, scenario_path=scenario_path)
    app.run()
    return app.return_code or 0


def serve_app(command: str, *, host: str, port: int, url: str) -> None:
    """Serve the app over HTTP (textual-serve): each browser session runs `command`; until interrupted."""
    from textual_serve.server import Server

    Server(command, host=host, port=port, title="advisor", public_url=url).serve()
