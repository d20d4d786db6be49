"""The strategy file container: gzip-compressed JSON with a format name, a version and a SHA-256.

::

    {"format": "jotto-strategy", "version": 1, "sha256": "<hex>", "payload": {...}}

The checksum is over the payload serialised canonically (sorted keys, no spaces).  NumPy arrays
in the payload are stored exactly as ``{"dtype", "shape", "base64"}`` of their little-endian
bytes, or, for arrays a payload holds by the million (an opener table's trees), as
``{"dtype", "shape", "zlib"}``: the same bytes deflated, then in base64, so that the JSON, whose
decompressed size the input limit counts, stays small.  What the payload holds is the solver's
business (:mod:`jotto.solvers.solution`); this module only guarantees that what was written is
what is read, or says clearly why not.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..util.files import (
    JSONInputError,
    gunzip,
    input_limit,
    parse_json,
    quote,
    read_bytes,
    write_atomic,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "StrategyFileError",
    "decode_array",
    "encode_array",
    "naming",
    "read",
    "write",
]

FORMAT = "jotto-strategy"
VERSION = 1
_DTYPES = {
    "uint8": "<u1",
    "int16": "<i2",
    "int32": "<i4",
    "int64": "<i8",
    "float32": "<f4",
    "float64": "<f8",
}


class StrategyFileError(ValueError):
    """A strategy file cannot be used; the message names the file and the problem."""


def encode_array(a: np.ndarray, deflate: bool = False) -> dict[str, Any]:
    """An array as JSON: its dtype name, shape and little-endian bytes in base64 (``deflate``:
    zlib-compressed first, under the key ``zlib``)."""
    name = np.dtype(a.dtype).name
    if name not in _DTYPES:
        raise TypeError(f"cannot store arrays of {name}")
    data = np.ascontiguousarray(a, dtype=_DTYPES[name]).tobytes()
    if deflate:
        return {"dtype": name, "shape": list(a.shape), "zlib": _b64(zlib.compress(data, 6))}
    return {"dtype": name, "shape": list(a.shape), "base64": _b64(data)}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def decode_array(d: Any, what: str = "array") -> np.ndarray:
    """The array :func:`encode_array` stored; :class:`StrategyFileError` if it is malformed.  A
    deflated array is inflated to at most the bytes its shape calls for, and only after the
    shape was checked against the input limit."""
    try:
        dtype = np.dtype(_DTYPES[d["dtype"]])
        shape = tuple(int(n) for n in d["shape"])
        if any(n < 0 for n in shape):
            raise ValueError(f"negative shape {list(shape)}")
        size = dtype.itemsize * math.prod(shape)
        if "zlib" in d:
            if size > input_limit():
                raise ValueError(f"{size} bytes, past the input limit")
            raw = _inflate(base64.b64decode(d["zlib"], validate=True), size)
        else:
            raw = base64.b64decode(d["base64"], validate=True)
        arr = np.frombuffer(raw, dtype=dtype).reshape(shape)
    except (KeyError, TypeError, ValueError, zlib.error) as exc:
        raise StrategyFileError(f"malformed {what} ({exc})") from None
    return arr.astype(dtype.newbyteorder("="))


def _inflate(data: bytes, size: int) -> bytes:
    """``data`` inflated, which must give exactly ``size`` bytes (no more is ever produced)."""
    d = zlib.decompressobj()
    out = d.decompress(data, size + 1)
    if len(out) != size or not d.eof or d.unused_data:
        raise ValueError(f"the deflated bytes do not hold {size} bytes")
    return out


def _digest(payload: Any) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def write(path: str | os.PathLike[str], payload: dict[str, Any]) -> None:
    """Write a strategy file atomically."""
    doc = {"format": FORMAT, "version": VERSION, "sha256": _digest(payload), "payload": payload}
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False)
    write_atomic(path, gzip.compress(text.encode(), compresslevel=6, mtime=0))


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The payload of a strategy file, after checking its format, version and checksum."""
    name = os.fspath(path)
    raw = read_bytes(name, "strategy file", StrategyFileError)
    if raw[:2] != b"\x1f\x8b":
        raise StrategyFileError(f"{name}: not a jotto strategy file")
    try:
        text = gunzip(raw, name, StrategyFileError)
    except (EOFError, zlib.error):
        raise StrategyFileError(
            f"{name}: truncated or corrupt (the compressed data ends early or is damaged)"
        ) from None
    try:
        doc = parse_json(text)
    except JSONInputError as exc:
        raise StrategyFileError(f"{name}: not a jotto strategy file ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StrategyFileError(f"{name}: not a jotto strategy file")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise StrategyFileError(
            f"{name}: unknown strategy file version "
            f"{quote(doc.get('version'))} (this jotto reads version "
            f"{VERSION})"
        )
    payload = doc.get("payload")
    if not isinstance(payload, dict) or doc.get("sha256") != _digest(payload):
        raise StrategyFileError(f"{name}: checksum mismatch: the file is corrupt or was edited")
    return payload


@contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """Errors met while reading the payload of the strategy file ``path``, as one
    :class:`StrategyFileError` that names the file: its own errors with the file's name in
    front, and a payload's missing key, wrong type or bad value as "malformed strategy"."""
    try:
        yield
    except StrategyFileError as exc:
        raise StrategyFileError(f"{os.fspath(path)}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise StrategyFileError(f"{os.fspath(path)}: malformed strategy ({exc!r})") from None
