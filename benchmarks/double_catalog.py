"""Write a user catalog that doubles the shipped one: a renamed copy of every system, model and MFU table.

    .venv/bin/python benchmarks/double_catalog.py /tmp/double
    hyperfine -N -w 3 -r 30 'advisor --catalog /tmp/double estimate --model llama3-70b --tokens 1T \
        --system h100 --gpus 64 --json'

With the copies loaded as an overlay the CLI reads and validates twice today's files (the speed target
in docs/performance.md is set on this catalog).
"""

from __future__ import annotations

import re
import sys
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


if __name__ == "__main__":
    count = double_catalog(Path(sys.argv[1]))
    print(f"wrote {count} files to {sys.argv[1]}")
