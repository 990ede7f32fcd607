"""Atomic file writes: a temporary file in the same folder, then linked or renamed onto the target.

Only a regular file (or a symlink to one) is ever replaced, and only with `force`: never a folder, a
FIFO, a device or a socket. Without `force` the temporary file is hard-linked into place, which fails
if the name exists, so two writers cannot both claim a new name (no check-then-rename race).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from advisor.errors import ReportError, os_reason, shown

_NAME_MAX = 255
"""Bytes in one file name on common file systems (ext4, APFS, NTFS); longer names are refused."""


def write_atomic(path: Path | str, content: str | bytes, *, force: bool = False) -> Path:
    """Write `content` to `path` so readers see the old file or the new one, never half of either.

    An existing regular file is replaced only with `force`; anything else at `path`, a missing or
    unwritable folder, or a name too long raises ReportError naming it.
    """
    target = Path(path)
    _check_name(target)
    folder = target.parent if str(target.parent) else Path(".")
    _check_folder(folder)
    existing = _existing_kind(target)
    if existing == "a folder":
        raise ReportError(f"{shown(target)}: is a folder; give a file name")
    if existing is not None and existing != "file":
        raise ReportError(f"{shown(target)}: is {existing}; only a regular file is ever replaced")
    if existing is not None and not force:
        raise ReportError(f"{shown(target)}: already exists; use --force to replace it")
    data = content.encode("utf-8") if isinstance(content, str) else content
    temp_name = _write_temp(folder, target, data)
    try:
        _set_mode(temp_name, target)
        if force:
            os.replace(temp_name, target)
        else:
            _link_new(temp_name, target)
    except OSError as exc:
        raise ReportError(f"{shown(target)}: cannot write ({os_reason(exc)})") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
    return target


def _check_name(target: Path) -> None:
    """Refuse an empty name or one longer than a file system keeps, before touching the disk."""
    if not target.name or target.name in (".", ".."):
        raise ReportError(f"{shown(target)}: is a folder; give a file name")
    size = len(os.fsencode(target.name))
    if size > _NAME_MAX:
        raise ReportError(
            f"{shown(target)}: the file name is too long ({size} bytes; the limit is {_NAME_MAX})"
        )


def _check_folder(folder: Path) -> None:
    """The folder must exist and be a folder; a file on the way is named as such."""
    try:
        mode = os.stat(folder).st_mode
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            raise ReportError(f"{shown(folder)}: {_file_on_path(folder)} is a file, not a folder") from None
        if exc.errno == errno.ENOENT:
            raise ReportError(f"{shown(folder)}: no such folder") from None
        raise ReportError(f"{shown(folder)}: cannot use this folder ({os_reason(exc)})") from None
    if not stat.S_ISDIR(mode):
        raise ReportError(f"{shown(folder)}: is a file, not a folder")


def _file_on_path(folder: Path) -> Path:
    """The first part of `folder` that exists but is not a folder."""
    for part in reversed((folder, *folder.parents)):
        if part.exists() and not part.is_dir():
            return part
    return folder


def _existing_kind(target: Path) -> str | None:
    """None if nothing is at `target`, "file" for a regular file (or a symlink to one or to nothing),
    else what is there ("a folder", "a FIFO", "a device", ...)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ReportError(f"{shown(target)}: cannot write ({os_reason(exc)})") from None
    if stat.S_ISLNK(mode):
        try:
            mode = os.stat(target).st_mode
        except OSError:
            return "file"  # a dangling link: replacing it loses nothing, but it still needs --force
    return _kind(mode)


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _write_temp(folder: Path, target: Path, data: bytes) -> str:
    """A new temporary file in `folder` holding `data`, flushed to disk; its name."""
    import tempfile  # here, not at the top: most runs write nothing, and the import costs start-up time

    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name[:32]}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ReportError(f"{shown(folder)}: cannot write here ({os_reason(exc)})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise ReportError(f"{shown(target)}: cannot write ({os_reason(exc)})") from None
    return temp_name


def _set_mode(temp_name: str, target: Path) -> None:
    """The replaced file's permissions, or the umask's for a new file (mkstemp makes it 0600)."""
    try:
        os.chmod(temp_name, os.stat(target).st_mode & 0o777)
        return
    except OSError:
        pass
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp_name, 0o666 & ~umask)


def _link_new(temp_name: str, target: Path) -> None:
    """Put the temporary file at `target` only if nothing is there, in one step."""
    try:
        os.link(temp_name, target)
        return
    except FileExistsError:
        raise ReportError(f"{shown(target)}: already exists; use --force to replace it") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
    # No hard links here (some network and FAT file systems): claim the name exclusively, then rename.
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise ReportError(f"{shown(target)}: already exists; use --force to replace it") from None
    os.replace(temp_name, target)
