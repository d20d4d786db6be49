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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

import numpy as np

from ..util.files import check_writable, writing_atomic
from .words import WordList

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "CertificateError",
    "CertificateHeader",
    "CertificateWriter",
    "FORMAT",
    "MAX_BOUND",
    "VERSION",
    "check_certificate_args",
    "check_certificate_path",
    "check_integrity",
    "read_certificate",
    "remove_stale_streams",
]

#: The header's ``format`` and the version this package writes and reads.
FORMAT = "jotto-certificate"
VERSION = 1
#: The longest header line read (a 5-letter list with its weights is under 1 MB).
_MAX_HEADER = 64 << 20
#: Every bound, the claim's and the records', is below 2**63: no state's value reaches it (the
#: weights' sum times the words is below 2**63, and no tree needs more guesses than words).
MAX_BOUND = 2**63
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


def _header_record(
    words: WordList,
    weights: Sequence[int],
    bound: int,
    records: int,
    about: str,
    first_guess: str | None,
) -> dict[str, Any]:
    total = sum(int(x) for x in weights)
    return {
        "format": FORMAT,
        "version": VERSION,
        "about": about,
        "claim": {
            "bound": int(bound),
            "total": total,
            "expected_guesses": f"{Fraction(int(bound), total)}",
            "first_guess": first_guess,
        },
        "weights": [int(x) for x in weights],
        "words": words.to_record(),
        "records": int(records),
    }


def check_certificate_path(path: str | os.PathLike[str]) -> None:
    """:class:`OSError` naming ``path`` unless a new certificate can be written there: a
    certificate is never written over an existing file (:class:`FileExistsError`)."""
    if os.path.lexists(path):
        raise FileExistsError(
            errno.EEXIST,
            "exists; a certificate never replaces a file: remove it or name another",
            os.fspath(path),
        )
    check_writable(path)


def check_certificate_args(path: object, about: object) -> None:
    """:class:`ValueError` naming the argument unless ``path`` is a file name (str or
    path-like) and ``about`` (what the bound is of, written into the header) a line of text:
    checked before any search, so that a run is not lost to a header that cannot be written."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"certificate must be a file name (str or path), not {path!r}")
    if not isinstance(about, str) or not about.strip() or "\n" in about:
        raise ValueError(
            f"about must be a line of text (e.g. 'best response', 'game value'), not {about!r}"
        )


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
        fd, raw = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".records", dir=directory)
        self._fd: int | None = fd
        _lock(fd)
        self.stream = Path(raw)

    def __enter__(self) -> CertificateWriter:
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

    def finish(
        self,
        words: WordList,
        weights: Sequence[int],
        bound: int,
        records: int,
        about: str,
        first_guess: str | None = None,
    ) -> None:
        """Write the certificate: the header, the stream's ``records`` records compressed (each
        state once, at its highest bound, smaller states first: :class:`_Compaction`), the end
        marker; then remove the stream."""
        compact = _Compaction(self.stream, len(words), records)
        header = (
            json.dumps(
                _header_record(words, weights, bound, compact.kept, about, first_guess),
                separators=(",", ":"),
            ).encode()
            + b"\n"
        )
        with writing_atomic(self.path) as fh:
            with gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=6, mtime=0) as gz:
                gz.write(header)
                compact.write(gz)
                gz.write(b"\x00")  # the end marker: a record of no targets
        del compact
        self.discard()


#: Records per batch when the compacted stream is gathered and written.
_BATCH = 1 << 20


class _Compaction:
    """The raw record stream of a search, each state once at its highest bound, ordered by
    size (smaller states first, in the stream's order within a size).

    The stream holds every bound the search stored, and a budgeted search's passes prove many
    states again, each time to a higher bound: at 3 letters, most of a long run's records are
    such repeats, which the checker would verify one by one.  Keeping each state's highest
    bound only is sound for the checker: a record's proof used bounds of strictly smaller
    states (every class of a guess that narrows a state down is a proper subset of it) that
    the stream held before it, and the bounds kept for them are at least those.  So smaller
    states first, then each state's highest bound, is an order in which every record's proof
    finds what it needs before it.  States are told apart by a 128-bit sum of random per-word
    keys (as the checker does); a collision would drop a record, so that the certificate fails
    to verify (it can never make a false one verify, the checker recomputing every step); its
    chance is below 2^-60 for a billion records.

    Memory: 36 bytes a record of the stream (its key, size, bound and place); the stream is
    read from a memory map.
    """

    def __init__(self, stream: Path, D: int, records: int) -> None:
        self.raw = (
            np.memmap(stream, dtype=np.uint8, mode="r")
            if stream.stat().st_size
            else np.zeros(0, dtype=np.uint8)
        )
        z = np.random.default_rng().integers(0, 2**64, size=(2, D), dtype=np.uint64, endpoint=False)
        keys, keys1, sizes, bounds, starts = [], [], [], [], []
        at, n = 0, len(self.raw)
        while at < n:
            buf = np.asarray(self.raw[at : at + _CHUNK * 16])
            vals, ends, _ = _varints(buf)
            # the records complete in this chunk: m, the bound, m index gaps
            first, i, vl = [], 0, vals.tolist()
            while i < len(vl) and i + 2 + vl[i] <= len(vl):
                first.append(i)
                i += 2 + vl[i]
            if not first:
                raise ValueError(f"{stream}: a malformed record at byte {at}")
            first = np.array(first, dtype=np.int64)
            m = vals[first].astype(np.int64)
            is_idx = np.ones(i, dtype=bool)
            is_idx[first] = False
            is_idx[first + 1] = False
            gaps = np.where(is_idx, vals[:i] + np.uint64(1), np.uint64(0))
            pos = np.cumsum(gaps.astype(np.int64))
            base = np.repeat(pos[first + 1], m)
            idx = pos[is_idx] - base - 1
            at_record = np.concatenate(([0], np.cumsum(m)[:-1]))
            keys.append(np.add.reduceat(z[0, idx], at_record))
            keys1.append(np.add.reduceat(z[1, idx], at_record))
            sizes.append(m.astype(np.int32))
            bounds.append(vals[first + 1])
            byte_start = np.concatenate(([0], ends[: i - 1] + 1))[first]
            starts.append(byte_start + at)
            at += int(ends[i - 1]) + 1
        self.starts = np.concatenate(starts + [np.zeros(0, dtype=np.int64)]).astype(np.int64)
        if len(self.starts) != records:
            raise ValueError(f"{stream}: {len(self.starts)} records, the search said {records}")
        key = np.concatenate(keys + [np.zeros(0, dtype=np.uint64)])
        key1 = np.concatenate(keys1 + [np.zeros(0, dtype=np.uint64)])
        size = np.concatenate(sizes + [np.zeros(0, dtype=np.int32)])
        bound = np.concatenate(bounds + [np.zeros(0, dtype=np.uint64)])
        del keys, keys1, sizes, bounds, starts
        # each state's highest bound (its last record of that bound)
        order = np.lexsort((np.arange(len(key)), bound, key1, key))
        key, key1 = key[order], key1[order]
        last = np.ones(len(order), dtype=bool)
        last[:-1] = (key[1:] != key[:-1]) | (key1[1:] != key1[:-1])
        best = order[last]
        self.order = best[np.lexsort((best, size[best]))]
        self.ends = np.append(self.starts[1:], n)
        self.kept = len(self.order)

    def write(self, out: IO[bytes]) -> None:
        """Write the records kept, in their order, to ``out``."""
        for b in range(0, self.kept, _BATCH):
            sel = self.order[b : b + _BATCH]
            s, e = self.starts[sel], self.ends[sel]
            lengths = e - s
            offsets = np.cumsum(lengths) - lengths
            gather = np.repeat(s - offsets, lengths) + np.arange(int(lengths.sum()))
            out.write(self.raw[gather].tobytes())


# ---- reading ---------------------------------------------------------------------------------


def _fail(path: Path, problem: str) -> CertificateError:
    return CertificateError(f"{path}: {problem}")


def _read_header(path: Path, gz: IO[bytes]) -> CertificateHeader:
    line = gz.readline(_MAX_HEADER + 1)
    if not line.endswith(b"\n"):
        raise _fail(
            path, "no certificate header (the file is empty, truncated or not a certificate)"
        )
    try:
        doc = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise _fail(path, "the header is not JSON: not a jotto certificate") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _fail(path, f"not a jotto certificate (its header has no format {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise _fail(
            path, f"certificate version {doc.get('version')!r}; this jotto reads version {VERSION}"
        )
    from .words import WordListError

    try:
        words = WordList.from_record(doc.get("words"), "words")
    except WordListError as exc:
        raise _fail(path, f"header: {exc}") from None
    weights = doc.get("weights")
    if (
        not isinstance(weights, list)
        or len(weights) != len(words)
        or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**63 for x in weights
        )
    ):
        raise _fail(path, f"header.weights: not {len(words)} integers >= 0")
    total = sum(weights)
    if total == 0 or total * len(words) >= 2**63:
        raise _fail(path, "header.weights: their sum must be positive and below 2**63 / words")
    claim = doc.get("claim")
    if not isinstance(claim, dict):
        raise _fail(path, "header.claim: missing")
    bound = claim.get("bound")
    if not isinstance(bound, int) or isinstance(bound, bool) or not 0 <= bound < MAX_BOUND:
        raise _fail(path, "header.claim.bound: not an integer from 0 to 2**63 - 1")
    if claim.get("total") != total:
        raise _fail(
            path, f"header.claim.total is {claim.get('total')!r} but the weights sum to {total}"
        )
    first = claim.get("first_guess")
    if first is not None and (not isinstance(first, str) or first not in words):
        raise _fail(path, f"header.claim.first_guess: {first!r} is not a word of the list")
    records = doc.get("records")
    if not isinstance(records, int) or isinstance(records, bool) or records < 0:
        raise _fail(path, "header.records: not an integer >= 0")
    about = doc.get("about")
    return CertificateHeader(
        words,
        np.array(weights, dtype=np.int64),
        bound,
        first,
        about if isinstance(about, str) else "",
        records,
    )


def _varints(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """The varints (LEB128) complete in ``buf`` (uint8) up to the first of more than 64 bits,
    the index of each one's last byte, and whether such a number follows them."""
    ends = np.flatnonzero(buf < 0x80)
    starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
    size = ends - starts + 1
    bad = np.flatnonzero(size > 10)
    if len(bad):
        ends, starts, size = ends[: bad[0]], starts[: bad[0]], size[: bad[0]]
    used = int(ends[-1]) + 1 if len(ends) else 0
    overlong = bool(len(bad)) or len(buf) - used > 10
    if not used:
        return np.zeros(0, dtype=np.uint64), ends, overlong
    # each byte's 7 bits at its place in its number (the places never overlap: a sum is an or)
    place = np.arange(used, dtype=np.int64) - np.repeat(starts, size)
    bits = (buf[:used] & np.uint8(0x7F)).astype(np.uint64) << (place.astype(np.uint64) * 7)
    return np.add.reduceat(bits, starts), ends, overlong


def _records(
    path: Path, gz: IO[bytes], header: CertificateHeader
) -> Iterator[tuple[np.ndarray, int]]:
    D = len(header.words)
    pending = b""
    vals = np.zeros(0, dtype=np.uint64)
    at = 0
    seen = 0
    eof = overlong = False
    while True:
        # a record is m, the bound, m indices: wait until all of it is decoded
        while not eof and (len(vals) - at < 2 or len(vals) - at < 2 + int(vals[at])):
            if overlong:  # the record reaches the number of more than 64 bits
                raise _fail(path, f"record {seen + 1}: a number of more than 64 bits")
            chunk = gz.read(_CHUNK)
            if not chunk:
                eof = True
                break
            buf = np.frombuffer(pending + chunk, dtype=np.uint8)
            more, ends, overlong = _varints(buf)
            pending = bytes(buf[int(ends[-1]) + 1 if len(ends) else 0 :])
            vals = np.concatenate([vals[at:], more])
            at = 0
        if len(vals) - at < 1:
            raise _fail(
                path,
                f"truncated: it ends after {seen} of {header.records} records, "
                f"without the end marker",
            )
        m = int(vals[at])
        if m == 0:
            if seen != header.records:
                raise _fail(
                    path,
                    f"the end marker comes after {seen} records; the header says {header.records}",
                )
            if len(vals) - at > 1 or pending or gz.read(1):
                raise _fail(path, "data after the end marker")
            return
        if seen == header.records:
            raise _fail(path, f"more records than the header's {header.records}")
        if m > D or len(vals) - at < 2 + m:
            raise _fail(
                path, f"record {seen + 1}: truncated or malformed ({m} targets of {D} words)"
            )
        bound = int(vals[at + 1])
        if bound >= MAX_BOUND:
            raise _fail(
                path,
                f"record {seen + 1}: the bound {bound} is 2**63 or more (no "
                f"state's value reaches it)",
            )
        idx = np.cumsum(vals[at + 2 : at + 2 + m] + np.uint64(1)).astype(np.int64) - 1
        if idx[-1] >= D:
            raise _fail(
                path, f"record {seen + 1}: word index {int(idx[-1])} outside the list's {D} words"
            )
        at += 2 + m
        seen += 1
        yield idx, bound


@contextlib.contextmanager
def read_certificate(
    path: str | os.PathLike[str],
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
        except (OSError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
            raise _fail(p, _damage(exc)) from None

        def records() -> Iterator[tuple[np.ndarray, int]]:
            try:
                yield from _records(p, gz, header)
            except (OSError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
                raise _fail(p, _damage(exc)) from None

        yield header, records()


def _damage(exc: BaseException) -> str:
    """The problem a gzip stream's error means, in words."""
    if isinstance(exc, EOFError):
        return "truncated: the compressed stream ends early"
    if isinstance(exc, gzip.BadGzipFile) and "CRC" in str(exc):
        return (
            "damaged: its checksum (CRC-32) does not match its contents, which were "
            "changed after it was written"
        )
    if isinstance(exc, zlib.error):
        return f"damaged: its compressed data is corrupt ({exc})"
    if isinstance(exc, gzip.BadGzipFile):
        return f"not a gzip stream, or its start is damaged ({exc})"
    return f"cannot be read ({exc})"


def check_integrity(path: str | os.PathLike[str]) -> None:
    """:class:`CertificateError` (one line naming the file and the damage) unless the file is
    a gzip stream whose CRC-32 and length match its contents: a certificate damaged after it
    was written (a byte flipped, a part cut off) is told apart from a false proof step before
    any step is checked.  One reading of the whole file, decompressed and thrown away: at most
    a second or two for a certificate of 200 MiB, a small part of its check."""
    p = Path(path)
    try:
        with open(p, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as gz:
            while gz.read(_CHUNK * 8):
                pass
    except OSError as exc:
        if isinstance(exc, gzip.BadGzipFile) or exc.errno is None:
            raise _fail(p, _damage(exc)) from None
        raise _fail(p, f"cannot read it: {exc.strerror or exc}") from None
    except (EOFError, zlib.error) as exc:
        raise _fail(p, _damage(exc)) from None
