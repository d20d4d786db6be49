"""The best-response search on several threads (search_parallel.c): exact values and trees are
the same on 1, 2 and 3 threads and equal the exhaustive twin's under every rule set; passes a
budget stops give proven bounds whatever the thread count; stops, interrupts and the memory
limit hold with threads.

Tiny dictionaries pass ``parallel_from=1``, so that their passes run on every thread asked for
and their states of 3 targets and more are shared (by default passes over fewer than 128
targets run on one thread, and states of fewer than 16 are not shared).  Three threads on a
2-core machine are as good a test as any: the threads interleave differently every run."""

from __future__ import annotations

import itertools
import platform
import shutil
import subprocess
import threading
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto import _core
from jotto.engine.core import PassOutcome
from jotto.game.rules import PRESETS
from jotto.game.words import WordList
from tests.examples import examples
from tests.twins import reference_game
from tests.twins.strategies import rule_cases

THREADS = (1, 2, 3)
ENGINE = Path(__file__).resolve().parents[2] / "src" / "jotto" / "_engine"
TSAN = Path(__file__).resolve().parents[1] / "c" / "tsan_search.c"


def core_search(rules, words, v, memory=2**22):
    return _core.BestResponseSearch(
        WordList.from_words(words, rules=rules).core, np.array(v, dtype=np.int64), memory
    )


def run(
    search,
    threads,
    top_k=0,
    beta=_core.BS_INF,
    nodes=0,
    by_size=False,
    full_below=0,
    seconds=0.0,
    cancel=None,
):
    return search.run(top_k, beta, seconds, nodes, by_size, cancel, full_below, threads, 1)


def tree_of(search, top_k=0, root=-1):
    """The tree a search's memo describes: (total, guess, depth, size, children)."""
    return search.tree(top_k, root)


def same_tree(a, b):
    assert a[0] == b[0]
    for x, y in zip(a[1:], b[1:]):
        assert np.array_equal(x, y)


@st.composite
def larger_cases(draw):
    """24 to 36 words of 2 or 3 distinct letters over 9 letters (classes of more than 12 targets:
    lookahead bounds, shared states of 16 and more), any preset, equal or small random
    weights."""
    L = draw(st.sampled_from([2, 3]))
    sets = draw(st.permutations(list(itertools.combinations("etaoinshr", L))))
    words = ["".join(s) for s in sets[: draw(st.integers(24, 36))]]
    rules = draw(st.sampled_from(list(PRESETS.values())))
    v = draw(
        st.one_of(
            st.just([1] * len(words)),
            st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)),
        )
    )
    return rules, words, v


@settings(max_examples=examples(150), deadline=None)
@given(case=rule_cases())
def test_exact_values_and_trees_do_not_depend_on_threads(case):
    """Every rule set: the exact optimum is the twin's on any number of threads, and the tree
    (every node: guesses, reply branches) is the same; so are the guesses each target needs."""
    rules, words, v = case
    true = reference_game.best_response_total(words, v, rules)
    trees = []
    for threads in THREADS:
        search = core_search(rules, words, v)
        value, exact, stop, best, guess, _ = run(search, threads)
        assert exact and stop == "done" and value == best == true
        trees.append(tree_of(search))
        assert trees[-1][1][0] == guess
    for t in trees[1:]:
        same_tree(trees[0], t)
    counts = reference_game.tree_counts(words, rules, trees[0][1].tolist(), trees[0][4].tolist())
    assert sum(a * b for a, b in zip(v, counts)) == true


@settings(max_examples=examples(25), deadline=None)
@given(
    case=larger_cases(),
    beta=st.integers(-30, 30),
    by_size=st.booleans(),
    top_k=st.sampled_from([0, 0, 2, 3]),
)
def test_larger_lists_exact_on_any_thread_count(case, beta, by_size, top_k):
    """Lists large enough for shared states: a pass to beta (around the optimum) is exact on any
    number of threads exactly when the optimum is below beta, with the same value and tree, and
    is otherwise a bound between beta and the optimum; top-K passes find the same restricted
    trees."""
    rules, words, v = case
    true = reference_game.best_response_total(words, v, rules)
    beta = max(1, true + beta) if not top_k else _core.BS_INF
    results, trees = [], []
    for threads in THREADS:
        search = core_search(rules, words, v)
        value, exact, stop, best, guess, _ = run(
            search, threads, top_k, beta, by_size=by_size, full_below=4 if top_k else 0
        )
        assert stop == "done"
        if top_k:
            assert exact and value >= true
        else:
            assert exact == (true < beta)
            assert value == true if exact else beta <= value <= true
        results.append((value, exact) if exact else exact)
        if exact:
            trees.append(tree_of(search, top_k))
    assert results.count(results[0]) == len(results)
    for t in trees[1:]:
        same_tree(trees[0], t)


@settings(max_examples=examples(60), deadline=None)
@given(
    case=larger_cases(),
    nodes=st.integers(1, 400),
    beta=st.integers(-30, 30),
    threads=st.sampled_from([2, 3]),
    data=st.data(),
)
def test_budgets_on_threads_give_proven_bounds(case, nodes, beta, threads, data):
    """A node budget stops a pass on several threads with a proven bound (the value is at most
    the optimum, exact only if it is the optimum); a tree the pass completed at the root is
    worth what it says; the memo's bounds then lead the next pass to the exact optimum."""
    rules, words, v = case
    true = reference_game.best_response_total(words, v, rules)
    search = core_search(rules, words, v)
    beta = max(1, true + beta)
    value, exact, stop, best, guess, used = run(
        search, threads, beta=beta, nodes=nodes, by_size=data.draw(st.booleans())
    )
    assert value == true if exact else value <= true
    assert stop in ("done", "nodes")
    assert exact == (stop == "done" and true < beta)
    if best is not None:
        assert best >= true
        total, g, _, _, children = tree_of(search, 0, guess if not exact else -1)
        assert total == best
        counts = reference_game.tree_counts(words, rules, g.tolist(), children.tolist())
        assert sum(a * b for a, b in zip(v, counts)) == best
    value, exact, *_ = run(search, threads)
    assert exact and value == true


def test_stops_on_threads(twl06):
    """3 letters, 2 threads: a deadline and another thread's cancel stop a pass within a
    fraction of a second, with a bound at least the counting bound's (2404 guesses in all)."""
    search = _core.BestResponseSearch(twl06[3].core, np.ones(421, dtype=np.int64), 2**28)
    start = time.perf_counter()
    value, exact, stop, *_ = search.run(0, 2800, 0.5, 0, True, None, 0, 2)
    assert stop == "time" and not exact and 2404 <= value < 2800
    assert time.perf_counter() - start < 1.5
    cancel: list = []
    timer = threading.Timer(0.5, cancel.append, (True,))
    timer.start()
    start = time.perf_counter()
    value, exact, stop, *_ = search.run(0, 2800, 60.0, 0, True, cancel, 0, 2)
    timer.join()
    assert stop == "interrupted" and not exact and 2404 <= value < 2800
    assert time.perf_counter() - start < 2.0


def test_node_budget_and_memory_limit_on_threads(twl06):
    """3 letters, 2 threads, a 4-MiB memo (full almost at once): the node budget stops the pass
    within a few states of it, the memo stays within its limit, and the bound is proven (at
    most a tree's value: 2886 guesses in all, README)."""
    search = _core.BestResponseSearch(twl06[3].core, np.ones(421, dtype=np.int64), 2**22)
    value, exact, stop, _, _, used = search.run(0, 2800, 0.0, 20_000, True, None, 0, 2)
    assert stop == "nodes" and not exact and 2404 <= value <= 2886
    assert 20_000 <= used < 20_100
    states, memory = search.memo_stats()
    assert 0 < states and memory <= 2**22


@pytest.mark.parametrize("threads", [2, 3])
def test_a_full_memo_changes_nothing_on_threads(twl06, threads):
    """2 letters, weights 1..51, every state shared, a 1-MiB memo: the exact optimum and tree
    of one thread with a large memo."""
    words, v = twl06[2], np.arange(1, 52, dtype=np.int64)
    a = _core.BestResponseSearch(words.core, v, 2**26)
    b = _core.BestResponseSearch(words.core, v, 2**20)
    ra, rb = a.run(0, _core.BS_INF, 0.0, 0), run(b, threads)
    assert ra[:2] == rb[:2] and ra[1]
    same_tree(tree_of(a), tree_of(b))
    assert b.memo_stats()[1] <= 2**20


def test_public_results_under_threads(twl06):
    """jotto.best_response: 2 letters exact (one thread below 128 targets: the same work);
    3 letters with a node budget on two threads, a proven interval around the README's."""
    a, b = (jotto.best_response(twl06[2], threads=t) for t in (1, 2))
    assert a.exact and b.exact and a.upper == b.upper == Fraction(295, 51)
    assert a.nodes == b.nodes and (a.tree.guess == b.tree.guess).all()
    res = jotto.best_response(twl06[3], nodes=40_000, threads=2)
    assert Fraction(2404, 421) <= res.lower <= res.upper
    assert jotto.expected_guesses(res.tree) == res.upper


@pytest.mark.slow
@pytest.mark.compiles(seconds=10)
def test_threads_share_the_search_without_data_races(tmp_path):
    """ThreadSanitizer on the search's threads (tests/c/tsan_search.c: its OpenMP team replaced
    by POSIX threads, which TSan sees): no data race in the memo, the busy and upper tables or
    the workers, over exact, beta- and node-limited and top-K passes on 2 and 3 threads, with memos
    that grow and memos that fill; exact values and trees equal one thread's."""
    cc = shutil.which("gcc")
    if cc is None:
        pytest.skip("no gcc")
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    if (
        subprocess.run(
            [cc, "-fsanitize=thread", str(probe), "-o", str(tmp_path / "probe")],
            capture_output=True,
        ).returncode
        or subprocess.run([str(tmp_path / "probe")], capture_output=True).returncode
    ):
        pytest.skip("gcc's ThreadSanitizer does not build or run here")
    exe = tmp_path / "tsan_search"
    sources = [str(TSAN)] + [
        str(ENGINE / "search" / f"search{p}.c")
        for p in ("", "_setup", "_memo", "_split", "_bounds", "_families", "_tree", "_certificate")
    ]
    # -DPOPCNT_CLONES=: no ifuncs (their resolvers run before TSan's runtime is up)
    popcnt = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []
    subprocess.run(
        [
            cc,
            "-std=gnu11",
            "-O1",
            "-g",
            "-fsanitize=thread",
            "-fopenmp",
            "-DPOPCNT_CLONES=",
            *popcnt,
            f"-I{ENGINE}",
            *sources,
            "-o",
            str(exe),
            "-lpthread",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    run = subprocess.run(
        [str(exe)],
        capture_output=True,
        text=True,
        timeout=1200,
        env={"TSAN_OPTIONS": "halt_on_error=1 exitcode=66"},
    )
    assert run.returncode == 0, (run.stdout[-3000:], run.stderr[-6000:])
    assert "0 failures" in run.stdout


def test_bound_search_on_threads(twl06):
    """The proof beside other work (BoundSearch) on two threads: its bound rises above the
    counting bound and stays below a tree's value, and stop() ends it at once."""
    from jotto.responses.mean_search import BoundSearch

    search = BoundSearch(twl06[3], None, 60.0, threads=2)
    time.sleep(2.0)
    start = time.perf_counter()
    lower = search.stop()
    assert time.perf_counter() - start < 2.0
    assert Fraction(2404, 421) < lower <= Fraction(2886, 421)


def test_the_rounds_leave_the_proof_beside_them_its_threads(twl06, monkeypatch):
    """A double oracle proving beside its rounds on two threads gives the proof one and its
    rounds' searches the other; BESIDE_THREADS = 2 gives the proof both and the rounds still
    one; with the proof stopped the rounds have the run's threads again."""
    from jotto.responses import mean_search
    from jotto.responses.oracles import parse_oracle
    from jotto.solvers.double_oracle import algorithm as double_oracle
    from jotto.solvers.double_oracle.algorithm import DoubleOracle

    run = DoubleOracle(twl06[3], parse_oracle("lookahead:2"), threads=2)
    assert run.round_threads == 2
    asked = []

    class Spy(mean_search.BoundSearch):
        def __init__(self, *args, threads=1, **kwargs):
            asked.append(threads)
            super().__init__(*args, threads=threads, **kwargs)

    monkeypatch.setattr(mean_search, "BoundSearch", Spy)
    for share, proof, rounds in ((-1, 1, 1), (2, 2, 1)):
        monkeypatch.setattr(double_oracle, "BESIDE_THREADS", share)
        run.prove_beside(30.0)
        assert asked[-1] == proof and run.round_threads == rounds
        run.take_side_bound(stop=True)
        assert run.round_threads == 2


class _Timed:
    """A stand-in for the core search whose passes take the given seconds each."""

    def __init__(self, seconds):
        self.seconds = list(seconds)
        self.passes = 0

    def run(self, **pass_):
        time.sleep(self.seconds[self.passes])
        self.passes += 1
        return PassOutcome(0, True, "done", None, -1, 1)

    def forget_top_k(self):
        pass


def test_the_tree_search_does_not_start_a_pass_that_would_not_fit():
    """With a time budget the tree search predicts its next pass from the last two (their cost
    grows about geometrically) and ends rather than start one predicted to take more than half
    the time left, so that its thread goes to the proof: passes of 0.02, 0.04 and 0.6 s in a
    3-s budget predict 9 s for the fourth."""
    from jotto.responses.mean_search import _Driver
    from jotto.responses.result import Budget

    search = _Timed([0.02, 0.04, 0.6] + [0.01] * 20)
    words = jotto.WordList.from_words(["ab", "cd", "ac", "bd"])
    driver = _Driver(
        words,
        np.ones(4, dtype=np.int64),
        4,
        search,
        Budget(time.perf_counter() + 3.0, None),
        None,
        lambda: 1,
    )
    driver.better_trees()
    assert search.passes == 3
    search = _Timed([0.02, 0.04, 0.06] + [0.01] * 20)
    driver = _Driver(
        words,
        np.ones(4, dtype=np.int64),
        4,
        search,
        Budget(time.perf_counter() + 3.0, None),
        None,
        lambda: 1,
    )
    driver.better_trees()
    assert search.passes > 3  # passes that fit all run (until the size covers the list)
