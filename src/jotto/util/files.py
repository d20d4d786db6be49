"""Files: read within a size limit with one-line errors, written atomically, locked while a run
writes them, and never overwritten unasked.

Writes go to a temporary file beside the target, flushed to disk, then renamed over it, so a
reader (or a run resumed after a crash, SIGKILL or power loss) sees either the old file or the
new one, never a torn one; an error names the target, never the temporary.

Reads stop at :func:`input_limit` bytes (64 MiB unless ``JOTTO_MAX_INPUT_MB`` says otherwise),
for the file as stored and again after gzip decompression, so a small file that would expand to
gigabytes is refused after reading at most the limit.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

__all__ = [
    "FileLockedError",
    "JSONInputError",
    "check_new_output",
    "check_writable",
    "gunzip",
    "input_limit",
    "output_lock",
    "parse_json",
    "quote",
    "read_bytes",
    "write_atomic",
    "writing_atomic",
]

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; runs are not protected from each other there
    fcntl = None  # type: ignore[assignment]

#: Default for :func:`input_limit`, in MiB: far above any real word list, tree or strategy file
#: (the bundled ENABLE list is 1.7 MB, a 5-letter solve's strategy file about 1 MB).
DEFAULT_INPUT_MB = 64
_CHUNK = 1 << 20


def input_limit() -> int:
    """The most bytes an input file may hold, stored or decompressed: ``JOTTO_MAX_INPUT_MB``
    MiB if set (a positive integer), else :data:`DEFAULT_INPUT_MB`."""
    text = os.environ.get("JOTTO_MAX_INPUT_MB")
    if text is None:
        return DEFAULT_INPUT_MB << 20
    try:
        mb = int(text)
    except ValueError:
        mb = 0
    if not 0 < mb < 1 << 40:
        raise ValueError(
            f"JOTTO_MAX_INPUT_MB must be a positive whole number of MiB, not {quote(text)}"
        )
    return mb << 20


def quote(text: object, limit: int = 40) -> str:
    """``repr(text)``, cut to about ``limit`` characters with its length said: for echoing a
    piece of input in a message, however long the input was."""
    if isinstance(text, (str, bytes)) and len(text) > limit:
        return f"{text[:limit]!r}… ({len(text)} characters)"
    shown = repr(text)
    return shown if len(shown) <= limit + 2 else shown[:limit] + "…"


def _too_big(name: str, what: str, limit: int) -> str:
    return (
        f"{name}: {what} more than {limit >> 20} MiB, the input limit (set "
        f"JOTTO_MAX_INPUT_MB to raise it)"
    )


def read_bytes(path: str | os.PathLike[str], what: str, error: type[Exception]) -> bytes:
    """The bytes of ``path``, or ``error`` with a one-line message naming the file (``what``
    says which kind of file was expected: "no such strategy file"); at most
    :func:`input_limit` bytes are read."""
    name = os.fspath(path)
    limit = input_limit()
    try:
        with open(name, "rb") as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{name}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{name}: is a directory, not a {what}") from None
    except OSError as exc:
        raise error(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(_too_big(name, "holds", limit))
    return data


def gunzip(data: bytes, name: str, error: type[Exception]) -> bytes:
    """``data`` decompressed (gzip, any number of members), stopping with ``error`` once the
    output passes :func:`input_limit`; ``zlib.error`` or ``EOFError`` if it is damaged or
    truncated."""
    limit = input_limit()
    out = bytearray()
    while True:
        d = zlib.decompressobj(wbits=31)
        while not d.eof:
            chunk = d.decompress(data, limit + 1 - len(out))
            out += chunk
            if len(out) > limit:
                raise error(_too_big(name, "decompresses to", limit))
            data = d.unconsumed_tail
            if not chunk and not data:
                raise EOFError("compressed data ends early")
        data = d.unused_data
        if not data.strip(b"\0"):  # trailing zero padding is allowed, as gzip allows it
            return bytes(out)


class JSONInputError(ValueError):
    """JSON that :func:`parse_json` refuses; the message says why in a few words."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JSONInputError(f"key {quote(key)} appears twice in one object")
        out[key] = value
    return out


class _Refused:
    """A JSON value :func:`parse_json` refuses, left where it stood until its place is found."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _where(doc: Any, target: _Refused) -> str:
    """The path to ``target`` in ``doc``: keys joined by dots, list indices in brackets."""
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        value, path = stack.pop()
        if value is target:
            return path
        if isinstance(value, dict):
            stack.extend(
                (v, f"{path}.{quote(k) if len(k) > 40 else k}".lstrip("."))
                for k, v in reversed(value.items())
            )
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(value))))
    return ""


def parse_json(text: str | bytes) -> Any:
    """Strict JSON: :class:`JSONInputError` for a key given twice in one object (``json``
    would silently keep the last), nesting too deep to read, text that is not JSON, or a value
    Python cannot hold: ``NaN``, ``Infinity``, or an integer of more digits than Python
    converts (``sys.get_int_max_str_digits``).  The last are named by their place in the
    document (``tree.branches.2.size: NaN is not a JSON number``)."""
    refused: list[_Refused] = []

    def constant(name: str) -> _Refused:
        refused.append(_Refused(f"{name} is not a JSON number"))
        return refused[-1]

    def integer(digits: str) -> int | _Refused:
        limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()  # Python >= 3.10.7
        if limit and len(digits.lstrip("-")) > limit:
            refused.append(
                _Refused(f"an integer of {len(digits.lstrip('-'))} digits (at most {limit})")
            )
            return refused[-1]
        return int(digits)

    try:
        doc = json.loads(
            text, object_pairs_hook=_unique_keys, parse_constant=constant, parse_int=integer
        )
    except JSONInputError:
        raise
    except RecursionError:
        raise JSONInputError("nested too deeply to read") from None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        raise JSONInputError(f"not JSON ({exc})") from None
    if refused:
        where = _where(doc, refused[0])
        raise JSONInputError(f"{where}: {refused[0].problem}" if where else refused[0].problem)
    return doc


def _mode_for(target: Path) -> int:
    """The permissions a plain write would give: the existing file's, else 0666 less umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _directory(target: Path) -> Path:
    return target.parent if str(target.parent) else Path(".")


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically; :class:`OSError` naming ``path`` if it cannot
    be written (nothing is left behind)."""
    with writing_atomic(path) as fh:
        fh.write(data)


@contextlib.contextmanager
def writing_atomic(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, atomically: what is written goes to a temporary
    file beside it, renamed over ``path`` when the block ends (after the data reached the disk),
    or removed if it raises.  For files too large to hold in memory (certificates);
    :class:`OSError` naming ``path`` if it cannot be written."""
    target = Path(path)
    directory = _directory(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise _naming(exc, target) from None
    try:
        os.chmod(tmp, _mode_for(target))
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _naming(exc, target) from None
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


def _naming(exc: OSError, target: Path) -> OSError:
    """``exc`` told about ``target`` (the user's file) rather than a temporary beside it."""
    return type(exc)(exc.errno, exc.strerror or str(exc), os.fspath(target))


def check_writable(path: str | os.PathLike[str]) -> None:
    """:class:`OSError` naming ``path`` unless a file can be written there now: its directory
    exists and takes new files, and ``path`` is not a directory or a read-only file.  Called
    before long work, so that a bad output location is found at once, not at the end."""
    target = Path(path)
    directory = _directory(target)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file", os.fspath(target))
    if not directory.is_dir():
        problem = "does not exist" if not directory.exists() else "is not a directory"
        raise FileNotFoundError(
            errno.ENOENT, f"cannot write it: {directory} {problem}", os.fspath(target)
        )
    if target.exists() and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, "the file is read-only", os.fspath(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise type(exc)(
            exc.errno, f"cannot write in {directory}: {exc.strerror or exc}", os.fspath(target)
        ) from None
    os.close(fd)
    os.unlink(tmp)


def check_new_output(path: str | os.PathLike[str], force: bool, option: str = "--force") -> None:
    """:func:`check_writable`, and :class:`FileExistsError` if ``path`` exists unless
    ``force``: no command replaces a file it was not asked to."""
    if not force and os.path.lexists(path) and not os.path.isdir(path):
        raise FileExistsError(errno.EEXIST, f"exists; {option} overwrites it", os.fspath(path))
    check_writable(path)


class FileLockedError(BlockingIOError):
    """Another process is writing the output file (it holds its lock)."""


#: Locks this process holds, by lock file path: (file descriptor, how many holders).
_held: dict[str, list[int]] = {}


def _lock_path(target: Path) -> Path:
    return _directory(target) / f".{target.name}.lock"


@contextlib.contextmanager
def output_lock(path: str | os.PathLike[str], wait: float = 0.0) -> Iterator[None]:
    """Hold the exclusive right to write ``path`` for the block: a second process asking for it
    gets :class:`FileLockedError` at once, or after waiting up to ``wait`` seconds for the
    holder to finish (for a short read-modify-write, such as recording a game); a lock held
    again in the same process just nests.

    The lock is an ``flock`` on ``.NAME.lock`` beside the file, removed when the block ends.  The
    kernel drops it when its process dies, so a run killed by SIGKILL leaves no lock behind that
    could refuse its resumption (at most the empty lock file).  :class:`OSError` naming ``path``
    if the lock file cannot be made (the directory is missing or read-only).  Without ``fcntl``
    (Windows) the block runs unlocked.
    """
    target = Path(path)
    lock = _lock_path(target)
    key = os.path.realpath(lock)
    if fcntl is None:
        yield
        return
    if key in _held:
        _held[key][1] += 1
        try:
            yield
        finally:
            _held[key][1] -= 1
        return
    fd = _acquire(lock, target, wait)
    _held[key] = [fd, 1]
    try:
        yield
    finally:
        del _held[key]
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)  # closing releases the lock, after the unlink: no window for a stale file


def _acquire(lock: Path, target: Path, wait: float) -> int:
    """A descriptor of ``lock`` holding its flock, tried again every few milliseconds for up to
    ``wait`` seconds while another process holds it, and retried when the file was replaced or
    removed between opening and locking it (by a holder that just finished)."""
    deadline = time.monotonic() + wait
    changes = 0
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            check_writable(target)
            raise _naming(exc, target) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_pid(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise _naming(exc, target) from None
            if time.monotonic() < deadline:
                time.sleep(0.005)
                continue
            by = f"another process (pid {holder})" if holder else "another process"
            raise FileLockedError(
                errno.EWOULDBLOCK,
                f"{by} is writing this file; "
                + (
                    f"it did not finish within {wait:g} s"
                    if wait
                    else "wait for it to finish or choose another output file"
                ),
                os.fspath(target),
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        os.close(fd)
        changes += 1
        if changes >= 100 and time.monotonic() >= deadline:
            raise FileLockedError(
                errno.EWOULDBLOCK, "its lock keeps changing hands; try again", os.fspath(target)
            )


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
