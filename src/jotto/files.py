"""Files, read with one-line errors and written atomically.

Writes go to a temporary file beside the target, flushed to disk, then renamed over it, so a
reader (or a run resumed after a crash, SIGKILL or power loss) sees either the old file or the
new one, never a torn one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["read_bytes", "write_atomic"]


def read_bytes(path: str | os.PathLike[str], what: str, error: type[Exception]) -> bytes:
    """The bytes of ``path``, or ``error`` with a one-line message naming the file (``what``
    says which kind of file was expected: "no such strategy file")."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise error(f"{name}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{name}: is a directory, not a {what}") from None
    except OSError as exc:
        raise error(f"{name}: cannot read: {exc.strerror or exc}") from None


def _mode_for(target: Path) -> int:
    """The permissions a plain write would give: the existing file's, else 0666 less umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; :class:`OSError` if the directory is not
    writable (nothing is left behind)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, _mode_for(target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
