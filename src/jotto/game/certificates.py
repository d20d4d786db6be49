"""Certificate files: proofs of lower bounds that :func:`jotto.check_certificate` verifies
without the search (docs/certificates.md describes the format).

A certificate is a gzip stream: one line of JSON (the header: the word list and its rules, the
hider's exact integer weights, the claim), then binary records, each a state (the increasing
indices of its targets) and a proven lower bound on its value F, every record after the records
its proof uses, then an end marker.  The search writes the records as it proves them
(search_certificate.c: every bound it stores in its memo) to a raw stream beside the target;
:class:`CertificateWriter` then writes the header, compresses the stream into a temporary file
chunk by chunk and renames it over the target, so neither the search nor the writing ever holds
the proof in memory, and an interrupted run leaves no certificate behind.

Records carry no splits: the checker recomputes every split of every state from the words, and
finds a class's record by the class's set of targets.  So the file holds only what cannot be
recomputed: which states were proven, and to which bound.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import gzip
import json
import os
import tempfile
import zlib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

import numpy as np

from ..util.files import check_writable, writing_atomic
from .words import WordList

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["CertificateError", "CertificateHeader", "CertificateWriter", "FORMAT", "VERSION",
           "check_certificate_path", "read_certificate", "remove_stale_streams"]

#: The header's ``format`` and the version this package writes and reads.
FORMAT = "jotto-certificate"
VERSION = 1
#: The longest header line read (a 5-letter list with its weights is under 1 MB).
_MAX_HEADER = 64 << 20
_CHUNK = 1 << 20


class CertificateError(ValueError):
    """A certificate file that cannot be read: not one, another version, malformed, truncated.
    The message is one line naming the file and the problem."""


@dataclass(frozen=True)
class CertificateHeader:
    """What a certificate claims, from its header.

    Attributes:
        words: the word list (its rules included).
        weights: the hider's exact integer weights, one per word.
        bound: the claimed lower bound on ``sum_i weights_i guesses_i`` of every tree (or of
            every tree opening with ``first_guess``).
        first_guess: None (any tree), or the word every tree considered opens with (a
            certificate per opener).
        about: what the bound is of, in words (``"best response"``, ``"game value"``).
        records: how many records follow.
    """

    words: WordList
    weights: np.ndarray
    bound: int
    first_guess: str | None
    about: str
    records: int

    @property
    def total(self) -> int:
        """The weights' sum: the claim in expected guesses is ``bound / total``."""
        return int(sum(int(x) for x in self.weights))

    @property
    def claim(self) -> Fraction:
        """The claimed lower bound in expected guesses."""
        return Fraction(self.bound, self.total)


def _header_record(words: WordList, weights: Sequence[int], bound: int, records: int,
                   about: str, first_guess: str | None) -> dict[str, Any]:
    total = sum(int(x) for x in weights)
    return {"format": FORMAT, "version": VERSION, "about": about,
            "claim": {"bound": int(bound), "total": total,
                      "expected_guesses": f"{Fraction(int(bound), total)}",
                      "first_guess": first_guess},
            "weights": [int(x) for x in weights], "words": words.to_record(),
            "records": int(records)}


def check_certificate_path(path: str | os.PathLike[str]) -> None:
    """:class:`OSError` naming ``path`` unless a new certificate can be written there: a
    certificate is never written over an existing file (:class:`FileExistsError`)."""
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "exists; a certificate never replaces a file: "
                              "remove it or name another", os.fspath(path))
    check_writable(path)


def _lock(fd: int) -> bool:
    """Take the exclusive advisory lock of an open file without waiting: False if another
    open file holds it (True where there are no such locks)."""
    if fcntl is None:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def remove_stale_streams(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the record streams of ``path``'s certificate (``.NAME.*.records`` beside it) that
    no run is writing any more, and say which: a writer holds its stream's lock until it ends,
    and the system releases it when the process dies, however it dies (SIGKILL included), so an
    unlocked stream is one a killed run left behind.  (Without advisory locks, as on Windows,
    nothing is removed.)"""
    p = Path(path)
    directory = p.parent if str(p.parent) else Path(".")
    removed = []
    if fcntl is None:  # pragma: no cover - Windows
        return removed
    for stream in directory.glob(f".{glob.escape(p.name)}.*.records"):
        try:
            fd = os.open(stream, os.O_RDONLY)
        except OSError:
            continue
        try:
            if _lock(fd):
                with contextlib.suppress(FileNotFoundError):
                    stream.unlink()
                    removed.append(stream)
        finally:
            os.close(fd)
    return removed


class CertificateWriter:
    """Writes one certificate to ``path``: :attr:`stream` is the file the search appends its
    raw records to (beside ``path``, hidden), :meth:`finish` writes the certificate from it
    atomically; :meth:`discard` (or leaving the ``with`` block) removes the stream.
    :class:`FileExistsError` at once if ``path`` exists (:func:`check_certificate_path`).

    The writer holds the stream's advisory lock while it lives, so that a later writer of the
    same certificate removes the streams of runs that were killed (:func:`remove_stale_streams`)
    and leaves a running one's alone."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        check_certificate_path(self.path)
        remove_stale_streams(self.path)
        directory = self.path.parent if str(self.path.parent) else Path(".")
        fd, raw = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".records",
                                   dir=directory)
        self._fd: int | None = fd
        _lock(fd)
        self.stream = Path(raw)

    def __enter__(self) -> "CertificateWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def discard(self) -> None:
        """Remove the raw stream (after :meth:`finish`, or instead of it), then let its lock
        go."""
        with contextlib.suppress(FileNotFoundError):
            self.stream.unlink()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def finish(self, words: WordList, weights: Sequence[int], bound: int, records: int,
               about: str, first_guess: str | None = None) -> None:
        """Write the certificate: the header, the stream's ``records`` records compressed, the
        end marker; then remove the stream."""
        header = json.dumps(_header_record(words, weights, bound, records, about, first_guess),
                            separators=(",", ":")).encode() + b"\n"
        with writing_atomic(self.path) as fh:
            with gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=6, mtime=0) as gz:
                gz.write(header)
                with open(self.stream, "rb") as raw:
                    while chunk := raw.read(_CHUNK):
                        gz.write(chunk)
                gz.write(b"\x00")  # the end marker: a record of no targets
        self.discard()


# ---- reading ---------------------------------------------------------------------------------


def _fail(path: Path, problem: str) -> CertificateError:
    return CertificateError(f"{path}: {problem}")


def _read_header(path: Path, gz: IO[bytes]) -> CertificateHeader:
    line = gz.readline(_MAX_HEADER + 1)
    if not line.endswith(b"\n"):
        raise _fail(path, "no certificate header (the file is empty, truncated or not a "
                          "certificate)")
    try:
        doc = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise _fail(path, "the header is not JSON: not a jotto certificate") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _fail(path, "not a jotto certificate (its header has no format "
                          f"{FORMAT!r})")
    if doc.get("version") != VERSION:
        raise _fail(path, f"certificate version {doc.get('version')!r}; this jotto reads "
                          f"version {VERSION}")
    from .words import WordListError

    try:
        words = WordList.from_record(doc.get("words"), "words")
    except WordListError as exc:
        raise _fail(path, f"header: {exc}") from None
    weights = doc.get("weights")
    if not isinstance(weights, list) or len(weights) != len(words) or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**63
            for x in weights):
        raise _fail(path, f"header.weights: not {len(words)} integers >= 0")
    total = sum(weights)
    if total == 0 or total * len(words) >= 2**63:
        raise _fail(path, "header.weights: their sum must be positive and below 2**63 / words")
    claim = doc.get("claim")
    if not isinstance(claim, dict):
        raise _fail(path, "header.claim: missing")
    bound = claim.get("bound")
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
        raise _fail(path, "header.claim.bound: not an integer >= 0")
    if claim.get("total") != total:
        raise _fail(path, f"header.claim.total is {claim.get('total')!r} but the weights sum "
                          f"to {total}")
    first = claim.get("first_guess")
    if first is not None and (not isinstance(first, str) or first not in words):
        raise _fail(path, f"header.claim.first_guess: {first!r} is not a word of the list")
    records = doc.get("records")
    if not isinstance(records, int) or isinstance(records, bool) or records < 0:
        raise _fail(path, "header.records: not an integer >= 0")
    about = doc.get("about")
    return CertificateHeader(words, np.array(weights, dtype=np.int64), bound, first,
                             about if isinstance(about, str) else "", records)


def _varints(buf: np.ndarray) -> tuple[np.ndarray, int]:
    """The varints (LEB128) complete in ``buf`` (uint8), and how many bytes they take."""
    ends = np.flatnonzero(buf < 0x80)
    if not len(ends):
        return np.zeros(0, dtype=np.uint64), 0
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    size = ends - starts + 1
    if size.max() > 10:
        raise ValueError("a number of more than 64 bits")
    out = np.zeros(len(ends), dtype=np.uint64)
    for j in range(int(size.max())):
        sel = size > j
        out[sel] |= (buf[starts[sel] + j] & np.uint8(0x7F)).astype(np.uint64) << np.uint64(7 * j)
    return out, int(ends[-1]) + 1


def _records(path: Path, gz: IO[bytes], header: CertificateHeader
             ) -> Iterator[tuple[np.ndarray, int]]:
    D = len(header.words)
    pending = b""
    vals = np.zeros(0, dtype=np.uint64)
    at = 0
    seen = 0
    eof = False
    while True:
        # a record is m, the bound, m indices: wait until all of it is decoded
        while not eof and (len(vals) - at < 2 or len(vals) - at < 2 + int(vals[at])):
            chunk = gz.read(_CHUNK)
            if not chunk:
                eof = True
                break
            buf = np.frombuffer(pending + chunk, dtype=np.uint8)
            try:
                more, used = _varints(buf)
            except ValueError as exc:
                raise _fail(path, f"record {seen + 1}: {exc}") from None
            pending = bytes(buf[used:])
            vals = np.concatenate([vals[at:], more])
            at = 0
        if len(vals) - at < 1:
            raise _fail(path, f"truncated: it ends after {seen} of {header.records} records, "
                              f"without the end marker")
        m = int(vals[at])
        if m == 0:
            if seen != header.records:
                raise _fail(path, f"the end marker comes after {seen} records; the header says "
                                  f"{header.records}")
            if len(vals) - at > 1 or pending or gz.read(1):
                raise _fail(path, "data after the end marker")
            return
        if seen == header.records:
            raise _fail(path, f"more records than the header's {header.records}")
        if m > D or len(vals) - at < 2 + m:
            raise _fail(path, f"record {seen + 1}: truncated or malformed ({m} targets of "
                              f"{D} words)")
        bound = int(vals[at + 1])
        idx = np.cumsum(vals[at + 2: at + 2 + m] + np.uint64(1)).astype(np.int64) - 1
        if idx[-1] >= D:
            raise _fail(path, f"record {seen + 1}: word index {int(idx[-1])} outside the "
                              f"list's {D} words")
        at += 2 + m
        seen += 1
        yield idx, bound


@contextlib.contextmanager
def read_certificate(path: str | os.PathLike[str]
                     ) -> Iterator[tuple[CertificateHeader, Iterator[tuple[np.ndarray, int]]]]:
    """Open a certificate: its header and an iterator over its records ``(targets, bound)``
    (targets: increasing word indices), read in chunks (bounded memory).
    :class:`CertificateError` (one line) if it cannot be read, also midway through the
    records (truncated, malformed, a bad checksum)."""
    p = Path(path)
    try:
        raw = open(p, "rb")
    except OSError as exc:
        raise _fail(p, f"cannot read it: {exc.strerror or exc}") from None
    with raw, gzip.GzipFile(fileobj=raw, mode="rb") as gz:
        try:
            header = _read_header(p, gz)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise _fail(p, f"not a gzip stream or corrupt ({exc})") from None

        def records() -> Iterator[tuple[np.ndarray, int]]:
            try:
                yield from _records(p, gz, header)
            except EOFError:
                raise _fail(p, "truncated: the compressed stream ends early") from None
            except (OSError, gzip.BadGzipFile, zlib.error) as exc:
                raise _fail(p, f"corrupt compressed data ({exc})") from None

        yield header, records()

