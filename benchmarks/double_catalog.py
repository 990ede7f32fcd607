"""Write a user catalog that doubles the shipped one: a renamed copy of every system, model and MFU table.

    .venv/bin/python benchmarks/double_catalog.py /tmp/double
    hyperfine -N -w 3 -r 30 'advisor --catalog /tmp/double estimate --model llama3-70b --tokens 1T \
        --system h100 --gpus 64 --json'

With the copies loaded as an overlay the CLI reads and validates twice today's files (the speed target
in docs/performance.md is set on this catalog).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = "-copy"


def double_catalog(target: Path, shipped: Path = ROOT / "catalog") -> int:
    """Write copies of every system, model and MFU table of `shipped` under new ids into `target`."""
    written = 0
    for kind in ("systems", "models", "mfu"):
        (target / kind).mkdir(parents=True, exist_ok=True)
        for path in sorted((shipped / kind).glob("*.toml")):
            if path.name == "scaling.toml":
                continue
            text = re.sub(r'^id = "([^"]+)"', rf'id = "\1{SUFFIX}"', path.read_text(), count=1, flags=re.M)
            text = re.sub(
                r'^mfu_proxy_system = "([^"]+)"', rf'mfu_proxy_system = "\1{SUFFIX}"', text, flags=re.M
            )
            if kind == "mfu":
                text = re.sub(r'^(system|model) = "([^"]+)"', rf'\1 = "\2{SUFFIX}"', text, flags=re.M)
            (target / kind / f"{path.stem}{SUFFIX}.toml").write_text(text)
            written += 1
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write a user catalog folder holding a renamed copy of every shipped system, model "
        "and MFU table (load it with `advisor --catalog DIR`: twice today's catalog)."
    )
    parser.add_argument("target", type=Path, help="the folder to write (created if missing)")
    args = parser.parse_args(argv)
    if args.target.exists() and not args.target.is_dir():
        parser.error(f"{args.target} exists and is not a folder")
    try:
        count = double_catalog(args.target)
    except OSError as exc:
        print(f"double_catalog: cannot write {args.target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {count} files to {args.target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
