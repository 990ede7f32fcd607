"""Atomic file writes: a temporary file in the same folder, then a rename over the target."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from advisor.errors import ReportError


def write_atomic(path: Path | str, content: str | bytes, *, force: bool = False) -> Path:
    """Write `content` to `path` so readers see the old file or the new one, never half of either.

    An existing file is replaced only with `force`; an unwritable folder raises ReportError naming it.
    """
    target = Path(path)
    if target.is_dir():
        raise ReportError(f"{target}: is a folder; give a file name")
    if target.exists() and not force:
        raise ReportError(f"{target}: already exists; use --force to replace it")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ReportError(f"{folder}: no such folder")
    data = content.encode("utf-8") if isinstance(content, str) else content
    import tempfile  # here, not at the top: most runs write nothing, and the import costs start-up time

    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ReportError(f"{folder}: cannot write here ({exc.strerror})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(temp_name, target.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp_name, 0o666 & ~umask)
        os.replace(temp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise ReportError(f"{target}: cannot write ({exc.strerror})") from None
    return target
