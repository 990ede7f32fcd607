"""The app as one browser session of `advisor serve` runs it (`python -m advisor.tui.served --root DIR`):
file dialogs confined to DIR, settings read but never written, no local path outside DIR shown."""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Run one served session of the app."""
    parser = argparse.ArgumentParser(prog="advisor-served")
    parser.add_argument("--root", required=True)
    parser.add_argument("--catalog")
    parser.add_argument("--rules")
    args = parser.parse_args(argv)
    from advisor.tui.app import make_app

    app = make_app(catalog_dir=args.catalog, rules_dir=args.rules, file_root=Path(args.root).resolve())
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
