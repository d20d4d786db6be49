"""Strategy files: round trips, size, and every way a file can be wrong."""

from __future__ import annotations

import base64
import gzip
import json
import zlib

import numpy as np
import pytest

import jotto
from jotto.util import strategy_file
from jotto.util.strategy_file import StrategyFileError


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    path = tmp_path_factory.mktemp("s") / "run.jotto"
    sol = jotto.solve(
        3, jotto.load_words("enable", length=3), iterations=50, progress=False, out=path
    )
    return sol, path


def test_round_trip(solved, tmp_path):
    sol, path = solved
    loaded = jotto.Solution.load(path)
    assert loaded.words.words == sol.words.words and loaded.words.sha256 == sol.words.sha256
    assert loaded.t_star == sol.t_star and loaded.iterations == 50
    for t in (0, 17, 50):
        assert (loaded.weights(t) == sol.weights(t)).all()
    assert loaded.table() == sol.table()
    loaded.save(tmp_path / "copy.jotto")
    assert jotto.Solution.load(tmp_path / "copy.jotto").table() == sol.table()
    assert (
        jotto.Solution.load(path, words=jotto.load_words("enable", length=3)).t_star == sol.t_star
    )


@pytest.mark.slow
def test_five_letter_file_is_well_under_a_megabyte(tmp_path):
    path = tmp_path / "five.jotto"
    jotto.solve(5, iterations=3906, progress=False, out=path)
    assert path.stat().st_size < 300_000


def _rewrite(path, out, edit):
    doc = json.loads(gzip.decompress(path.read_bytes()))
    edit(doc)
    out.write_bytes(gzip.compress(json.dumps(doc).encode()))


def test_errors_name_the_problem(solved, tmp_path):
    _, path = solved
    cases = {}
    (tmp_path / "text.jotto").write_text("hello")
    cases["text.jotto"] = "not a jotto strategy file"
    (tmp_path / "json.jotto").write_bytes(gzip.compress(b'{"format": "other"}'))
    cases["json.jotto"] = "not a jotto strategy file"
    (tmp_path / "binary.jotto").write_bytes(gzip.compress(b"\x00\xff"))
    cases["binary.jotto"] = r"not a jotto strategy file \(not JSON \(Expecting value"
    (tmp_path / "trunc.jotto").write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    cases["trunc.jotto"] = "truncated or corrupt"
    _rewrite(path, tmp_path / "version.jotto", lambda d: d.update(version=99))
    cases["version.jotto"] = r"unknown strategy file version 99 \(this jotto reads version 1\)"
    _rewrite(path, tmp_path / "edited.jotto", lambda d: d["payload"].update(t_star=3))
    cases["edited.jotto"] = "checksum mismatch"
    cases["absent.jotto"] = "no such strategy file"
    for name, message in cases.items():
        with pytest.raises(StrategyFileError, match=f"{name}: {message}"):
            jotto.Solution.load(tmp_path / name)


def test_word_list_must_be_the_files(solved):
    _, path = solved
    with pytest.raises(StrategyFileError, match="made for another word list"):
        jotto.Solution.load(path, words=jotto.load_words("enable", length=4))


def test_malformed_payload_with_a_valid_checksum(solved, tmp_path):
    _, path = solved
    payload = strategy_file.read(path)
    payload["best_responses"]["sizes"] = strategy_file.encode_array(np.zeros(3, np.int32))
    strategy_file.write(tmp_path / "odd.jotto", payload)
    with pytest.raises(StrategyFileError, match="odd.jotto"):
        jotto.solve(3, mode="exact", out=tmp_path / "odd.jotto", resume=True, progress=False)


def test_arrays_round_trip_exactly():
    for a in (
        np.array([1.0 / 3, np.pi, -0.0, 5e-324]),
        np.arange(7, dtype=np.int64) - 3,
        np.array([2**31 - 1, -(2**31)], dtype=np.int32),
        np.zeros((2, 3), np.float32),
    ):
        b = strategy_file.decode_array(strategy_file.encode_array(a))
        assert b.dtype == a.dtype and b.shape == a.shape and a.tobytes() == b.tobytes()
    with pytest.raises(StrategyFileError, match="malformed ING_0"):
        strategy_file.decode_array({"dtype": "int32", "shape": [3], "base64": "AAAA"}, "ING_0")


def test_deflated_arrays_round_trip_and_never_inflate_past_their_shape():
    """Deflated arrays (opener tables' trees) come back exactly; bytes that inflate to more or
    less than the shape says, or a shape past the input limit, are refused before memory is
    spent on them."""
    for a in (
        np.arange(1000, dtype=np.int16) - 500,
        np.array([[0, 255], [7, 9]], dtype=np.uint8),
        np.array([], dtype=np.int32),
    ):
        b = strategy_file.decode_array(strategy_file.encode_array(a, deflate=True))
        assert b.dtype == a.dtype and b.shape == a.shape and a.tobytes() == b.tobytes()

    def deflated(data: bytes, shape) -> dict:
        text = base64.b64encode(zlib.compress(data)).decode()
        return {"dtype": "uint8", "shape": shape, "zlib": text}

    for d, problem in [
        (deflated(bytes(10**6), [10]), "do not hold 10 bytes"),
        (deflated(bytes(5), [10]), "do not hold 10 bytes"),
        (deflated(bytes(2**20), [1 << 40]), "past the input limit"),
        ({**deflated(bytes(4), [4]), "shape": [-4]}, "negative shape"),
    ]:
        with pytest.raises(StrategyFileError, match=f"malformed trees .*{problem}"):
            strategy_file.decode_array(d, "trees")
    trailing = deflated(bytes(4), [4])
    trailing["zlib"] = base64.b64encode(zlib.compress(bytes(4)) + b"more").decode()
    with pytest.raises(StrategyFileError, match="do not hold 4 bytes"):
        strategy_file.decode_array(trailing)
