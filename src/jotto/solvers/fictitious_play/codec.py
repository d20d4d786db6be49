"""Fictitious play's strategy files: what a run's payload holds, written and read here
(:func:`encode_best_responses` and :func:`decode_best_responses`, the history, the ING sums, an
oracle run's trees), and checked before anything uses it (:func:`check_payload`).

:mod:`jotto.util.strategy_file` guarantees that a file is what was written (format, version,
checksum); this module checks that what was written makes sense, so that a file edited with a
valid checksum, or written by a faulty program, gives one line naming the file and the field
instead of a traceback, an array indexed from its end or wrong numbers.  The checks:

- types: every field present with its JSON type; arrays of the stored dtype and shape;
- ranges: counts, indices and guess counts within what a list of D words allows; floats finite;
- consistency: the history has ``iterations_done + 1`` entries and ``t_star`` indexes it as the
  first iteration of least epsilon; best responses are one tie set per iteration of distinct
  words of the list (one word each in exact mode); the ING sums agree with their histograms and
  cover ``t + 1`` iterations of D targets; exact mode's best epsilon is ``epsilon[t_star]``.

Nothing here allocates more than the decoded file already holds: sizes are compared with the
arrays actually stored, never trusted to allocate.  Hand-written rather than a JSON-schema
library: the substance is checks on NumPy arrays and between fields, which schemas do not express.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ...engine import core
from ...game.rules import Rules, RulesError
from ...game.trees import DecisionTree, TreeFileError
from ...game.words import WordList
from ...util.files import quote
from ...util.strategy_file import StrategyFileError, decode_array, encode_array

__all__ = [
    "MAX_ITERATIONS",
    "MODES",
    "check_payload",
    "decode_best_responses",
    "decode_history",
    "decode_oracle_trees",
    "decode_sums",
    "encode_best_responses",
    "encode_history",
    "encode_sums",
]

#: The modes of a run: exact (integers, the exact rule) and paper (IEEE double, the paper
#: rule); a run's decision rule is named as its mode.
MODES = ("exact", "paper")
#: The fields of the ING sums, in order.
SUMS = ("ing", "ing_sq", "hist")
#: The history's arrays, in order: one entry per iteration 0..t.
HISTORY = ("eps_hider", "eps_guesser", "value", "seconds")

#: Most iterations a run may have (its files count them in 32-bit integers).
MAX_ITERATIONS = 2**31 - 1

#: Longest word-list source name accepted (it is echoed in messages).
_MAX_SOURCE = 4096


class _Checker:
    """Checks of one file's fields; every failure is a :class:`StrategyFileError` reading
    ``<file>: <field>: <problem>``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def fail(self, field: str, problem: str) -> StrategyFileError:
        return StrategyFileError(f"{self.name}: {field}: {problem}")

    def obj(
        self, parent: dict[str, Any], key: str, field: str, keys: tuple[str, ...]
    ) -> dict[str, Any]:
        d = self.get(parent, key, field)
        if not isinstance(d, dict):
            raise self.fail(field, f"not an object but {quote(d)}")
        for k in keys:
            self.get(d, k, f"{field}.{k}")
        return d

    def get(self, d: dict[str, Any], key: str, field: str) -> Any:
        if key not in d:
            raise self.fail(field, "missing")
        return d[key]

    def integer(self, x: Any, field: str, lo: int, hi: int) -> int:
        if type(x) is not int:
            raise self.fail(field, f"not a whole number but {quote(x)}")
        if not lo <= x <= hi:
            raise self.fail(field, f"{quote(x)} is not from {lo} to {hi}")
        return x

    def text(self, x: Any, field: str, longest: int = _MAX_SOURCE) -> str:
        if not isinstance(x, str):
            raise self.fail(field, f"not a string but {quote(x)}")
        if len(x) > longest:
            raise self.fail(field, f"longer than {longest} characters")
        return x

    def positive_or_none(self, x: Any, field: str) -> None:
        if x is None:
            return
        if type(x) not in (int, float) or not math.isfinite(x) or not x > 0:
            raise self.fail(field, f"not a positive finite number (nor null) but {quote(x)}")

    def array(
        self,
        d: Any,
        field: str,
        kind: str,
        shape: tuple[int | None, ...],
        lo: float | None = None,
        hi: float | None = None,
    ) -> np.ndarray:
        """The array stored at ``field``: integers (``kind`` "i") or float64 ("f") of
        ``shape`` (None: any length), finite, within ``[lo, hi]``."""
        try:
            a = decode_array(d, field)
        except StrategyFileError:
            raise self.fail(field, "not an array (dtype, shape, base64)") from None
        if a.dtype.kind != kind or (kind == "f" and a.dtype != np.float64):
            raise self.fail(
                field, f"{a.dtype} where {'float64' if kind == 'f' else 'integers'} belong"
            )
        if a.ndim != len(shape) or any(n is not None and n != m for n, m in zip(shape, a.shape)):
            want = "×".join("any" if n is None else str(n) for n in shape)
            raise self.fail(field, f"shape {list(a.shape)}, not {want}")
        if kind == "f" and not np.isfinite(a).all():
            raise self.fail(
                field,
                f"{a[~np.isfinite(a)][0]} at index "
                f"{int(np.argmin(np.isfinite(a)))} is not a finite number",
            )
        if a.size and lo is not None and a.min() < lo:
            raise self.fail(field, f"{a.min()} at index {int(np.argmin(a))} is below {lo}")
        if a.size and hi is not None and a.max() > hi:
            raise self.fail(field, f"{a.max()} at index {int(np.argmax(a))} is above {hi}")
        return a


def check_payload(payload: Any, name: str) -> None:
    """:class:`StrategyFileError` (``<name>: <field>: <problem>``) unless ``payload`` is a
    fictitious-play strategy payload whose every field makes sense (see the module docstring)."""
    c = _Checker(name)
    if not isinstance(payload, dict):
        raise c.fail("payload", "not an object")
    mode = c.get(payload, "mode", "mode")
    if not isinstance(mode, str) or mode not in MODES:
        raise c.fail("mode", f"{quote(mode)} is not one of {', '.join(MODES)}")
    if c.get(payload, "rule", "rule") != mode:
        raise c.fail("rule", f"{quote(payload['rule'])} is not {mode} mode's rule {mode!r}")
    D = _check_words(c, payload)
    t = c.integer(
        c.get(payload, "iterations_done", "iterations_done"), "iterations_done", 0, MAX_ITERATIONS
    )
    t_star = c.integer(c.get(payload, "t_star", "t_star"), "t_star", 0, t)
    eps = _check_history(c, payload, t, t_star, strict=mode == "paper")
    _check_best_responses(c, payload, t, D, exact=mode == "exact")
    c.array(c.get(payload, "ing0", "ing0"), "ing0", "i", (D,), 1, D)
    _check_sums(c, payload, "sums_last", t + 1, D)
    _check_sums(c, payload, "sums_star", t_star + 1, D)
    if mode == "exact":
        _check_best_epsilon(c, payload, float(eps[t_star]))
    else:
        for key in ("ang_last", "ang_star"):
            c.array(c.get(payload, key, key), key, "f", (D,), 0.0, float(D + 1))
    if "plan" in payload:
        plan = c.obj(payload, "plan", "plan", ("iterations",))
        c.integer(plan["iterations"], "plan.iterations", 1, MAX_ITERATIONS)
        for key in ("target_epsilon", "time_budget"):
            c.positive_or_none(plan.get(key), f"plan.{key}")
    if "jotto_version" in payload:
        c.text(payload["jotto_version"], "jotto_version", 100)


def _check_words(c: _Checker, payload: dict[str, Any]) -> int:
    """The stored word list's fields (the words themselves are checked when it is rebuilt);
    its size D."""
    d = c.obj(payload, "words", "words", ("words", "length", "source", "sha256"))
    words = d["words"]
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise c.fail("words.words", "not a non-empty list of words")
    if len(words) > core.MAX_WORDS:
        raise c.fail("words.words", f"{len(words)} words; the core takes at most {core.MAX_WORDS}")
    c.integer(d["length"], "words.length", 1, 26)
    for key in ("source", "sha256"):
        c.text(d[key], f"words.{key}")
    if "rules" in d:
        try:
            Rules.from_dict(d["rules"], "words.rules")
        except RulesError as exc:
            raise StrategyFileError(f"{c.name}: {exc}") from None
    elif d.get("anagrams") not in ("paper", "given", "norvig"):
        raise c.fail("words.rules", "missing")
    return len(words)


def _check_history(
    c: _Checker, payload: dict[str, Any], t: int, t_star: int, strict: bool
) -> np.ndarray:
    """The per-iteration history: ``t + 1`` finite entries each, t* the first least epsilon
    (``strict``: earlier epsilons are larger, as paper mode compares; else not smaller, as
    exact mode's fractions rounded to double may tie).  Returns epsilon."""
    h = c.obj(payload, "history", "history", ("eps_hider", "eps_guesser", "value", "seconds"))
    eh = c.array(h["eps_hider"], "history.eps_hider", "f", (t + 1,))
    eg = c.array(h["eps_guesser"], "history.eps_guesser", "f", (t + 1,))
    c.array(h["value"], "history.value", "f", (t + 1,), 0.0)
    c.array(h["seconds"], "history.seconds", "f", (t + 1,), 0.0)
    eps = np.maximum(eh, eg)
    earlier = eps[:t_star]
    if (
        eps[t_star] != eps.min()
        or ((earlier <= eps[t_star]) if strict else (earlier < eps[t_star])).any()
    ):
        raise c.fail(
            "t_star", f"{t_star} is not the first iteration of least epsilon in the history"
        )
    return eps


def _check_best_responses(
    c: _Checker, payload: dict[str, Any], t: int, D: int, exact: bool
) -> None:
    """One tie set per iteration, of distinct words of the list in increasing order."""
    br = c.obj(payload, "best_responses", "best_responses", ("sizes", "words"))
    sizes = c.array(br["sizes"], "best_responses.sizes", "i", (t,), 1, 1 if exact else D)
    flat = c.array(br["words"], "best_responses.words", "i", (None,), 0, D - 1)
    if int(sizes.sum(dtype=np.int64)) != flat.size:
        raise c.fail(
            "best_responses",
            f"the tie sets' sizes total {int(sizes.sum())}, but {flat.size} words are stored",
        )
    starts = np.zeros(flat.size, dtype=bool)
    starts[np.cumsum(sizes)[:-1]] = True
    if flat.size and (np.diff(flat.astype(np.int64)) <= 0)[~starts[1:]].any():
        raise c.fail(
            "best_responses.words", "a tie set is not of distinct words in increasing order"
        )


def _check_sums(c: _Checker, payload: dict[str, Any], key: str, n: int, D: int) -> None:
    """Sums of ING, ING squared and its histogram over ``n`` iterations of ``D`` targets, each
    needing 1 to D guesses: every entry in range and the three consistent."""
    s = c.obj(payload, key, key, ("ing", "ing_sq", "hist"))
    ing = c.array(s["ing"], f"{key}.ing", "i", (D,), n, n * D)
    ing_sq = c.array(s["ing_sq"], f"{key}.ing_sq", "i", (D,), n, n * D * D)
    hist = c.array(s["hist"], f"{key}.hist", "i", (None,), 0, n * D)
    if hist.size > D + 1 or (hist.size and hist[0] != 0):
        raise c.fail(f"{key}.hist", "counts guesses no game can need")
    k = np.arange(hist.size, dtype=object)
    h = hist.astype(object)
    if (
        int(h.sum()) != n * D
        or int((k * h).sum()) != int(ing.astype(object).sum())
        or int((k * k * h).sum()) != int(ing_sq.astype(object).sum())
    ):
        raise c.fail(
            key, f"the histogram does not agree with the sums of {n} iterations of {D} targets"
        )


def _check_best_epsilon(c: _Checker, payload: dict[str, Any], eps_star: float) -> None:
    """Exact mode's least epsilon as a fraction: it must be the history's epsilon at t*."""
    pair = c.get(payload, "best_epsilon", "best_epsilon")
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or any(type(x) is not int for x in pair)
        or pair[1] <= 0
    ):
        raise c.fail(
            "best_epsilon", f"not a fraction [numerator, denominator > 0] but {quote(pair)}"
        )
    if float(Fraction(pair[0], pair[1])) != eps_star:
        raise c.fail("best_epsilon", "does not match the history's epsilon at t_star")


# ---- writing and reading ------------------------------------------------------------------------


def encode_best_responses(best_responses: list[np.ndarray]) -> dict[str, Any]:
    """The best responses T*_1..T*_t as stored: their sizes and their words, concatenated."""
    sizes = np.array([len(b) for b in best_responses], dtype=np.int32)
    flat = (
        np.concatenate(best_responses).astype(np.int32)
        if best_responses
        else np.zeros(0, dtype=np.int32)
    )
    return {"sizes": encode_array(sizes), "words": encode_array(flat)}


def decode_best_responses(p: dict[str, Any], D: int) -> list[np.ndarray]:
    """The best responses T*_1..T*_t a payload stores (sizes and the words, concatenated),
    checked against its iteration count and the list size."""
    sizes = decode_array(p["best_responses"]["sizes"], "best responses")
    flat = decode_array(p["best_responses"]["words"], "best responses")
    t = int(p["iterations_done"])
    if len(sizes) != t or int(sizes.sum()) != len(flat) or (sizes < 1).any():
        raise StrategyFileError("best responses do not match the iteration count")
    if flat.size and (flat.min() < 0 or flat.max() >= D):
        raise StrategyFileError("a best response is not a word of the list")
    return np.split(flat.astype(np.intp), np.cumsum(sizes)[:-1]) if t else []


def encode_history(*arrays: Any) -> dict[str, Any]:
    """The history (:data:`HISTORY`, in order) as stored."""
    return {k: encode_array(np.array(a)) for k, a in zip(HISTORY, arrays)}


def decode_history(p: dict[str, Any], t: int) -> tuple[np.ndarray, ...]:
    """The history's arrays (:data:`HISTORY`) a payload of ``t`` iterations stores, checked."""
    arrays = tuple(decode_array(p["history"][k], "history") for k in HISTORY)
    if any(len(a) != t + 1 for a in arrays):
        raise StrategyFileError("history does not match the iteration count")
    return arrays


def encode_sums(sums: dict[str, np.ndarray]) -> dict[str, Any]:
    """ING sums (:data:`SUMS`) as stored."""
    return {k: encode_array(sums[k]) for k in SUMS}


def decode_sums(d: dict[str, Any], D: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ING sums (:data:`SUMS`, as int64) stored for ``D`` targets, checked."""
    ing, ing_sq, hist = (decode_array(d[k], "ING sums").astype(np.int64) for k in SUMS)
    if ing.shape != (D,) or ing_sq.shape != (D,) or hist.ndim != 1:
        raise StrategyFileError("ING sums do not match the word list")
    return ing, ing_sq, hist


def decode_oracle_trees(
    p: dict[str, Any], words: WordList, iterations: int
) -> tuple[list[DecisionTree], list[int]]:
    """The trees of an oracle run and the index of each iteration's, checked."""
    raw = p["trees"]
    if not isinstance(raw, list) or not raw:
        raise StrategyFileError("trees is not a non-empty list")
    try:
        trees = [DecisionTree.from_nodes(t, words, f"tree {k}") for k, t in enumerate(raw)]
    except TreeFileError as exc:
        raise StrategyFileError(str(exc)) from None
    index = decode_array(p["tree_index"], "tree index").astype(np.int64)
    if index.shape != (iterations + 1,) or index.min() < 0 or index.max() >= len(trees):
        raise StrategyFileError("the tree index does not match the trees and iterations")
    return trees, index.tolist()
