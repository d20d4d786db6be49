"""Fuzzing every file loader: random bytes, random JSON, and valid files mutated at random.
Whatever the input, only the loader's documented error type may escape (StrategyFileError,
TreeFileError, WordListError, ValueError for weights), and a file that loads must be usable.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.trees import TreeFileError
from jotto.game.words import WordListError
from jotto.players.specs import hider_weights
from jotto.util import strategy_file
from jotto.util.strategy_file import StrategyFileError

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_N", 60)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


class _Valid(dict):
    """The valid files by name, with a short repr (hypothesis prints it on failure)."""

    def __repr__(self) -> str:
        return f"<valid files: {', '.join(self)}>"


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    """A small valid strategy file per mode, a tree file, and the words they use."""
    d = tmp_path_factory.mktemp("valid")
    out = _Valid()
    for mode in ("exact", "paper"):
        path = d / f"{mode}.jotto"
        jotto.solve(3, iterations=8, mode=mode, out=path, progress=False)
        out[mode] = strategy_file.read(path)
    words = jotto.load_words("enable", length=3)
    tree = jotto.gbr_tree(words)
    out["tree"] = json.loads(tree.to_json())
    out["words"] = words
    table = d / "openers.jotto"
    jotto.opener_values(jotto.WordList.from_words(list(words)[:20]), out=table)
    out["openers"] = strategy_file.read(table)
    return out


def _loaded(what: str, load, refusal: type[Exception]):
    """What ``load()`` returns, or None if it refused the file with ``refusal`` (the outcome
    counted as a hypothesis event)."""
    try:
        out = load()
    except refusal:
        event(f"{what} refused")
        return None
    event(f"{what} loaded")
    return out


def _load_strategy(path: Path) -> None:
    """Load a strategy file; if it loads, use it (Table 1, the hider, the guesser)."""
    s = _loaded("strategy", lambda: jotto.Solution.load(path), StrategyFileError)
    if s is None:
        return
    table = s.table()
    assert all(math.isfinite(v) for v in table.values())
    p = s.hider()
    assert p.shape == (len(s.words),) and np.isfinite(p).all() and (p >= 0).all()
    s.guesser(seed=0).expected_guesses()


def _load_tree(path: Path, words=None) -> None:
    tree = _loaded("tree", lambda: jotto.DecisionTree.load(path, words), TreeFileError)
    if tree is not None:
        assert (tree.guesses_needed() >= 1).all()


# ---- random bytes -------------------------------------------------------------------------


@FUZZ
@given(data=st.binary(max_size=400), gz=st.booleans())
def test_random_bytes(tmp_path, valid, data, gz):
    raw = gzip.compress(data) if gz else data
    path = tmp_path / "f"
    path.write_bytes(raw)
    _load_strategy(path)
    _load_tree(path)
    try:
        jotto.load_words(path, length=3)
    except WordListError:
        pass
    for suffix in (".txt", ".npy"):
        wpath = tmp_path / f"w{suffix}"
        wpath.write_bytes(raw)
        try:
            w = hider_weights(str(wpath), valid["words"])
        except ValueError:
            continue
        assert w.shape == (len(valid["words"]),) and np.isfinite(w).all()


# ---- random JSON --------------------------------------------------------------------------


@FUZZ
@given(doc=json_values)
def test_random_json(tmp_path, doc):
    text = json.dumps(doc).encode()
    path = tmp_path / "f"
    path.write_bytes(gzip.compress(text))
    _load_strategy(path)
    strategy_file.write(path, doc if isinstance(doc, dict) else {"x": doc})  # valid checksum
    _load_strategy(path)
    path.write_bytes(text)
    _load_tree(path)
    if isinstance(doc, dict):
        path.write_text(json.dumps({"format": "jotto-tree", "version": 1, **doc}))
        _load_tree(path)


# ---- valid files mutated ------------------------------------------------------------------


def _paths(obj, prefix=()):
    """Every path (keys and indices) into a JSON document, outermost first."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list) and len(obj) < 50:
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _mutate(doc, path, action, value):
    """``doc`` with the value at ``path`` replaced by ``value``, deleted, or (for an encoded
    array) one element set to ``value``."""
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    target = parent[key]
    if action == "delete" and isinstance(parent, dict):
        del parent[key]
    elif action == "element" and isinstance(target, dict) and {"base64", "zlib"} & set(target):
        a = strategy_file.decode_array(target).copy()
        if a.size:
            x = value if isinstance(value, (int, float)) and not isinstance(value, bool) else -1
            try:
                a.flat[hash(str(value)) % a.size] = x
            except (OverflowError, ValueError):  # out of the dtype's range
                a.flat[0] = np.iinfo(a.dtype).max if a.dtype.kind == "u" else -1
            parent[key] = strategy_file.encode_array(a, deflate="zlib" in target)
    else:
        parent[key] = value
    return doc


special = st.sampled_from(
    [-1, 0, -2, 2**31, 2**63, 1e308, -1e-300, float("nan"), float("inf"), "", [], {}, None, True]
)


@FUZZ
@given(data=st.data(), mode=st.sampled_from(["exact", "paper"]))
def test_valid_strategy_mutated(tmp_path, valid, data, mode):
    payload = valid[mode]
    path = data.draw(st.sampled_from(list(_paths(payload))), label="path")
    action = data.draw(st.sampled_from(["replace", "delete", "element"]), label="action")
    value = data.draw(special | json_values, label="value")
    mutated = _mutate(payload, path, action, value)
    out = tmp_path / "m.jotto"
    try:
        strategy_file.write(out, mutated)
    except ValueError:  # NaN or infinity as a JSON value: write it the way a hostile file would
        text = json.dumps(
            {"format": "jotto-strategy", "version": 1, "payload": mutated, "sha256": "0" * 64}
        )
        out.write_bytes(gzip.compress(text.encode()))
    _load_strategy(out)
    try:
        jotto.solve(
            3,
            mode=mode,
            out=out,
            resume=True,
            progress=False,
            iterations=len(base64.b64decode(payload["history"]["value"]["base64"])) // 8,
        )
    except (StrategyFileError, ValueError):
        pass


@FUZZ
@given(data=st.data())
def test_valid_opener_table_mutated(tmp_path, valid, data):
    """An opener table (its trees packed) mutated anywhere loads or is refused in one line."""
    payload = valid["openers"]
    path = data.draw(st.sampled_from(list(_paths(payload))), label="path")
    action = data.draw(st.sampled_from(["replace", "delete", "element"]), label="action")
    value = data.draw(special | json_values, label="value")
    out = tmp_path / "o.jotto"
    try:
        strategy_file.write(out, _mutate(payload, path, action, value))
    except ValueError:  # NaN or infinity: not a file this writer makes
        return
    table = _loaded("table", lambda: jotto.OpenerTable.load(out), StrategyFileError)
    if table is not None:
        assert len(table.rows) == len(table.words)


@FUZZ
@given(data=st.data())
def test_valid_tree_mutated(tmp_path, valid, data):
    doc = valid["tree"]
    path = data.draw(st.sampled_from(list(_paths(doc))[:400]), label="path")
    action = data.draw(st.sampled_from(["replace", "delete"]), label="action")
    value = data.draw(special | json_values, label="value")
    out = tmp_path / "t.json"
    out.write_text(json.dumps(_mutate(doc, path, action, value)))
    _load_tree(out)
    _load_tree(out, valid["words"])


@FUZZ
@given(data=st.data())
def test_valid_strategy_bytes_flipped(tmp_path, valid, data):
    path = tmp_path / "v.jotto"
    strategy_file.write(path, valid["exact"])
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    path.write_bytes(bytes(raw))
    _load_strategy(path)


@FUZZ
@given(
    lines=st.lists(
        st.tuples(
            st.sampled_from(["ace", "bid", "cog", "xyz", "ACE", "a b", ""]),
            st.sampled_from(["1", "0", "-1", "nan", "inf", "1e308", "x", "2.5", ""]),
        ),
        max_size=6,
    )
)
def test_weights_text_mutated(tmp_path, valid, lines):
    path = tmp_path / "w.txt"
    path.write_text("\n".join(f"{w} {x}" for w, x in lines))
    try:
        w = hider_weights(str(path), valid["words"])
    except ValueError:
        return
    assert np.isfinite(w).all() and (w >= 0).all() and (w > 0).any()


@FUZZ
@given(
    descr=st.sampled_from(["<f8", ">f8", "<i4", "|u1", "|b1", "<c16", "|O", "<U3", "<f2"]),
    shape=st.lists(st.integers(0, 3000), max_size=3).map(tuple) | st.just((415,)),
    extra=st.integers(-20, 20),
    fortran=st.booleans(),
)
def test_npy_headers_mutated(tmp_path, valid, descr, shape, extra, fortran):
    """.npy files whose header claims any dtype and shape, with more or less data than it
    says: a ValueError or one finite, non-negative weight per word."""
    import io

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": descr, "fortran_order": fortran, "shape": shape}
    )
    size = int(np.prod(shape)) * np.dtype(descr).itemsize
    path = tmp_path / "w.npy"
    path.write_bytes(buf.getvalue() + b"\x3f" * max(0, min(size + extra, 1 << 16)))
    try:
        w = hider_weights(str(path), valid["words"])
    except ValueError:
        event("npy refused")
        return
    event("npy loaded")
    assert w.shape == (len(valid["words"]),) and np.isfinite(w).all() and (w >= 0).all()
