"""Strategy files with a valid checksum and nonsense inside: every field checked, one line
naming it."""

from __future__ import annotations

import copy
import gzip
import math
from pathlib import Path

import numpy as np
import pytest

import jotto
from jotto.solvers.fictitious_play.algorithm import PaperPlay
from jotto.util import strategy_file
from jotto.util.strategy_file import StrategyFileError, encode_array
from tests.bad_input import cli, one_line_error
from tests.twins import reference

# ---- 4. strategy files with a valid checksum and nonsense inside ------------------------------


def _set(field: str, value):
    """A mutation setting ``payload[a][b]...`` (``field`` "a.b") to ``value`` (a function of
    the payload if callable)."""

    def mutate(p):
        *parents, last = field.split(".")
        d = p
        for k in parents:
            d = d[k]
        d[last] = value(p) if callable(value) else value

    return mutate


def _array(field: str, change, dtype=None):
    """A mutation applying ``change`` to the array stored at ``field``."""

    def mutate(p):
        *parents, last = field.split(".")
        d = p
        for k in parents:
            d = d[k]
        a = strategy_file.decode_array(d[last]).copy()
        a = change(a)
        d[last] = encode_array(a if dtype is None else a.astype(dtype))

    return mutate


def _delete(field: str):
    def mutate(p):
        *parents, last = field.split(".")
        d = p
        for k in parents:
            d = d[k]
        del d[last]

    return mutate


def _nan_at(i):
    def change(a):
        a[i] = np.nan
        return a

    return change


def _add_at(i, x):
    def change(a):
        a[i] += x
        return a

    return change


def _not_least(p):
    eps = np.maximum(
        strategy_file.decode_array(p["history"]["eps_hider"]),
        strategy_file.decode_array(p["history"]["eps_guesser"]),
    )
    return int(np.argmax(eps))


def _huge_tie(p):
    D = len(p["words"]["words"])
    p["best_responses"]["sizes"] = encode_array(np.array([D + 5] + [1] * 11, np.int32))
    p["best_responses"]["words"] = encode_array(np.arange(D + 16, dtype=np.int32) % D)


def _dup_tie(p):
    sizes = strategy_file.decode_array(p["best_responses"]["sizes"]).copy()
    flat = list(strategy_file.decode_array(p["best_responses"]["words"]))
    sizes[0] += 1
    flat.insert(0, flat[0])
    p["best_responses"]["sizes"] = encode_array(sizes)
    p["best_responses"]["words"] = encode_array(np.array(flat, np.int32))


PAYLOAD_CASES = [
    (
        "exact",
        _array("history.eps_hider", _nan_at(1)),
        "history.eps_hider: nan at index 1 is not a finite number",
    ),
    ("exact", _array("history.eps_guesser", _nan_at(0)), "history.eps_guesser: nan"),
    ("exact", _array("sums_star.ing", _add_at(0, -(10**6))), "sums_star.ing: "),
    ("exact", _array("sums_last.ing_sq", lambda a: -a), "sums_last.ing_sq: "),
    ("exact", _set("t_star", -2), "t_star: -2 is not from 0 to 12"),
    ("exact", _set("t_star", 13), "t_star: 13 is not from 0 to 12"),
    ("exact", _set("t_star", 2.0), "t_star: not a whole number but 2.0"),
    ("exact", _set("t_star", True), "t_star: not a whole number but True"),
    ("exact", _set("t_star", _not_least), "is not the first iteration of least epsilon"),
    ("paper", _set("t_star", _not_least), "is not the first iteration of least epsilon"),
    ("exact", _set("plan.iterations", "many"), "plan.iterations: not a whole number"),
    ("exact", _set("plan.target_epsilon", -1), "plan.target_epsilon: not a positive finite"),
    ("exact", _set("plan.time_budget", "soon"), "plan.time_budget: not a positive finite"),
    ("exact", _set("plan", [1, 2]), "plan: not an object"),
    ("paper", _huge_tie, "best_responses.sizes: "),
    ("paper", _dup_tie, "best_responses.words: a tie set is not of distinct words"),
    ("exact", _array("best_responses.words", lambda a: a + 10**6), "best_responses.words: "),
    (
        "exact",
        _array("best_responses.sizes", lambda a: a + 1),
        "best_responses.sizes: 2 at index 0 is above 1",
    ),
    ("exact", _set("iterations_done", 13), "history.eps_hider: shape [13], not 14"),
    ("exact", _set("iterations_done", -1), "iterations_done: -1 is not from 0"),
    ("exact", _set("mode", "fast"), "mode: 'fast' is not one of exact, paper"),
    ("exact", _set("rule", "paper"), "rule: 'paper' is not exact mode's rule"),
    ("exact", _set("words.words", "ace bad"), "words.words: not a non-empty list of words"),
    ("exact", _set("words.words", []), "words.words: not a non-empty list of words"),
    ("exact", _set("words.length", "3"), "words.length: not a whole number"),
    ("exact", _set("words.words", ["ab"] * (jotto._core.MAX_WORDS + 1)), "words.words: "),
    ("exact", _set("words.source", "x" * 10_000), "words.source: longer than 4096"),
    ("exact", _set("words.sha256", "0" * 64), "does not match its sha256"),
    ("exact", _set("best_epsilon", [1, 3]), "best_epsilon: does not match the history's"),
    ("exact", _set("best_epsilon", [1, 0]), "best_epsilon: not a fraction"),
    ("exact", _set("best_epsilon", "1/3"), "best_epsilon: not a fraction"),
    (
        "exact",
        _array("best_responses.sizes", lambda a: a, np.float64),
        "best_responses.sizes: float64 where integers belong",
    ),
    (
        "exact",
        _set("ing0", lambda p: encode_array(np.ones(3, np.int32))),
        "ing0: shape [3], not 415",
    ),
    ("exact", _array("ing0", lambda a: a * 0), "ing0: 0 at index 0 is below 1"),
    ("exact", _array("sums_last.hist", _add_at(1, 1)), "sums_last: the histogram does not agree"),
    ("paper", _array("ang_star", _nan_at(7)), "ang_star: nan at index 7"),
    ("paper", _array("ang_last", lambda a: a * 1e6), "ang_last: "),
    ("exact", _delete("sums_star"), "sums_star: missing"),
    ("exact", _delete("history.value"), "history.value: missing"),
    ("exact", _set("history", "all good"), "history: not an object"),
    (
        "exact",
        _set("history.value", {"dtype": "float64", "shape": [13], "base64": "!!"}),
        "history.value: not an array",
    ),
    ("exact", _array("history.seconds", lambda a: -a - 1), "history.seconds: "),
    ("exact", _set("jotto_version", 7), "jotto_version: not a string"),
]


@pytest.mark.parametrize(
    "mode, mutate, fragment",
    PAYLOAD_CASES,
    ids=[f"{i}-{c[2][:30]}" for i, c in enumerate(PAYLOAD_CASES)],
)
def test_nonsense_with_a_valid_checksum(tmp_path, runs, mode, mutate, fragment):
    payload = copy.deepcopy(runs[mode][1])
    mutate(payload)
    path = tmp_path / "bad.jotto"
    strategy_file.write(path, payload)
    written = path.read_bytes()
    with pytest.raises(StrategyFileError) as info:
        jotto.Solution.load(path)
    assert str(info.value).startswith(f"{path}: ") and fragment in str(info.value)
    one_line_error(cli("evaluate", "-g", f"equilibrium:{path}"), "bad.jotto: ", fragment)
    one_line_error(cli("solve", "-o", path, "--resume", "--no-progress"), "bad.jotto: ", fragment)
    assert path.read_bytes() == written  # refused, never replaced


def _container(path: Path, text: bytes) -> Path:
    path.write_bytes(gzip.compress(text))
    return path


@pytest.mark.parametrize(
    "text, fragment",
    [
        (
            b'{"format": "jotto-strategy", "version": 1, "payload": {"t": NaN}, "sha256": "x"}',
            "payload.t: NaN is not a JSON number",
        ),
        (b'{"format": "jotto-strategy", "format": "jotto-strategy"}', "key 'format' appears twice"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"format": "jotto-strategy", "version": true}', "unknown strategy file version True"),
        (
            b'{"format": "jotto-strategy", "version": "' + b"9" * 10_000 + b'"}',
            "(10000 characters)",
        ),
    ],
    ids=["nan", "duplicate-key", "deep", "bool-version", "long-version"],
)
def test_strategy_containers_with_bad_json(tmp_path, text, fragment):
    path = _container(tmp_path / "c.jotto", text)
    one_line_error(cli("evaluate", "-g", f"equilibrium:{path}"), "c.jotto: ", fragment)


def test_strategy_gzip_with_garbage_after_it(tmp_path, runs):
    path = tmp_path / "g.jotto"
    path.write_bytes(runs["exact"][0].read_bytes() + b"garbage")
    one_line_error(cli("evaluate", "-g", f"equilibrium:{path}"), "g.jotto: truncated or corrupt")


#: The 30 primes from 2 to 113: tie sets of these sizes make the least common multiple of the
#: sizes, which paper mode's exact weights carry, about 3.2e46, far beyond 64 bits.
PRIMES = [p for p in range(2, 114) if all(p % q for q in range(2, p))]


def test_paper_resume_with_ties_of_30_prime_sizes(tmp_path, monkeypatch):
    """Tie sets of 30 distinct prime sizes (valid per the format; HiderBR is made to choose
    them, so every other field is what the solver wrote) used to end the resumed solve with an
    OverflowError.  It goes on with the weights that outgrew 64 bits dropped, and finishes
    exactly as the literal Algorithm 13 given the same tie sets, and as an uninterrupted run."""
    assert len(PRIMES) == 30 and PRIMES[-1] == 113
    words = jotto.WordList.from_words(list(jotto.load_words("enable", length=3))[:120])
    D = len(words)
    assert math.lcm(*PRIMES) * D >= 2**64
    rng = np.random.default_rng(35)
    forced = [np.sort(rng.choice(D, p, replace=False)) for p in PRIMES]
    natural = PaperPlay._hider_best_response
    monkeypatch.setattr(
        PaperPlay,
        "_hider_best_response",
        lambda run: forced[run.t - 1] if run.t <= len(forced) else natural(run),
    )
    part, whole = tmp_path / "part.jotto", tmp_path / "whole.jotto"
    jotto.solve(3, words, mode="paper", iterations=30, out=part, progress=False)
    uninterrupted = jotto.solve(3, words, mode="paper", iterations=34, out=whole, progress=False)
    monkeypatch.undo()
    assert [len(b) for b in jotto.Solution.load(part).best_responses] == PRIMES

    result = cli("solve", "-o", part, "--resume", "-i", 34, "--no-progress")
    assert result.exit_code == 0, (result.output, result.exception)
    resumed = jotto.Solution.load(part)
    literal = reference.solve_jotto(reference.Game(list(words)), 34, "paper", forced=forced)
    for run in (resumed, uninterrupted):
        assert [b.tolist() for b in run.best_responses] == literal["best_responses"]
        for key in ("eps_hider", "eps_guesser", "value"):
            assert getattr(run.history, key).tolist() == literal[key], key
        assert run.t_star == literal["t_star"]
    assert (resumed.ang_star == uninterrupted.ang_star).all()
    assert PaperPlay.restore(words, 1, 34, strategy_file.read(part)).v is None  # no 64 bits


def test_valid_files_still_load(runs):
    for mode, (path, _) in runs.items():
        s = jotto.Solution.load(path)
        assert s.mode == mode and s.iterations == 12
