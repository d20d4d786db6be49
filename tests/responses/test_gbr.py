"""CompNumGuesses and GuesserGBR on the paper's dictionary (Table 1's benchmark rows), thread
independence, the weight conventions, and the API's errors."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import numpy as np
import pytest

import jotto
from jotto.engine import runtime
from tests.twins import reference

# Ganzfried (2011) Table 1 and ../shared/wordlists/SOURCES.md: totals over all targets, maxima,
# first guesses of GuesserGBRUniform; benchmark self-play hider payoff and epsilon.
PAPER = {
    2: (338, 12, "ai", 6.627, 5.373),
    3: (3200, 11, "ego", 7.601, 3.399),
    4: (10112, 9, "ions", 7.365, 1.635),
    5: (20055, 9, "doyen", 7.079, 1.921),
}
EXACT_TOTALS = {2: 318, 3: 2995, 4: 9487, 5: 18952}


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_paper_rule_reproduces_table1_benchmark_rows(twl06, length):
    words = twl06[length]
    total, worst, first, self_play, epsilon = PAPER[length]
    counts, tree = jotto.comp_num_guesses(words, rule="paper", return_tree=True)
    assert counts.sum() == total and counts.max() == worst
    assert words[tree.guess[0]] == first
    # Benchmark self-play = mean(ING_0); benchmark epsilon = max(ING_0) - mean(ING_0), since
    # epsilon_guesser is 0 when the guesser answers the strategy it was computed for.
    assert round(counts.mean(), 3) == self_play
    assert round(counts.max() - counts.mean(), 3) == epsilon
    assert (tree.guesses_needed() == counts).all()


def test_amped_needs_nine_guesses_against_the_uniform_guesser(twl06):
    words = twl06[5]
    counts = jotto.comp_num_guesses(words)
    assert counts[words.index("amped")] == 9
    assert words[jotto.guesser_gbr(words, None, np.ones(len(words), bool))] == "doyen"


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_exact_rule_totals(twl06, length):
    assert jotto.comp_num_guesses(twl06[length], rule="exact").sum() == EXACT_TOTALS[length]


@pytest.mark.parametrize("rule", jotto.DECISION_RULES)
def test_results_do_not_depend_on_threads(twl06, rule):
    words = twl06[5]
    rng = np.random.default_rng(7)
    weights = [
        None,
        rng.random(len(words)),
        np.where(rng.random(len(words)) < 0.1, rng.integers(1, 50, len(words)), 1.0),
    ]
    for h in weights:
        one = jotto.comp_num_guesses(words, h, rule=rule, threads=1)
        two = jotto.comp_num_guesses(words, h, rule=rule, threads=2)
        assert (one == two).all()


def test_tree_arrays_describe_the_games(twl06):
    words = twl06[3]
    counts, tree = jotto.comp_num_guesses(words, rule="exact", return_tree=True)
    L = words.length
    assert tree.children.shape == (len(tree), L + 1)
    assert (tree.children[:, L] == -1).all()
    assert tree.depth[0] == 0 and tree.size[0] == len(words)
    for target in (0, 17, len(words) - 1):
        path = tree.path(target)
        assert path[-1] == target and len(path) == counts[target]
    # every child holds exactly the targets giving its reply
    for node in range(len(tree)):
        kids = tree.children[node][tree.children[node] >= 0]
        assert (
            tree.size[kids].sum() + (1 if tree.size[node] > tree.size[kids].sum() else 0)
            == tree.size[node]
        )


def test_zero_weights_mean_equally_likely():
    words = jotto.load_words("sgb", anagrams="norvig")
    D = len(words)
    assert (
        jotto.comp_num_guesses(words, np.zeros(D), rule="exact")
        == jotto.comp_num_guesses(words, rule="exact")
    ).all()
    assert (
        jotto.comp_num_guesses(words, np.zeros(D), rule="paper")
        == jotto.comp_num_guesses(words, np.ones(D), rule="paper")
    ).all()


def test_paper_rule_uses_float_weights_as_given():
    """Scaling h changes the literal arithmetic: 1/D each is not the same as 1.0 each."""
    words = jotto.load_words("enable", length=2)
    D = len(words)
    uniform = jotto.comp_num_guesses(words)
    assert (jotto.comp_num_guesses(words, np.full(D, 1 / D)) == uniform).all()


def test_exact_rule_ignores_a_common_factor():
    words = jotto.load_words("enable", length=3)
    rng = np.random.default_rng(3)
    v = rng.integers(0, 100, len(words))
    assert (
        jotto.comp_num_guesses(words, v, rule="exact")
        == jotto.comp_num_guesses(words, v * 1024, rule="exact")
    ).all()
    assert (
        jotto.comp_num_guesses(words, v, rule="exact")
        == jotto.comp_num_guesses(words, v / 8.0, rule="exact")
    ).all()


def test_words_as_a_plain_sequence():
    # cab, dog and fit each split the three into {itself} and the other two: cab (first word of S)
    # goes first, then dog (first of the two left), then fit.
    assert jotto.comp_num_guesses(["cab", "dog", "fit"], rule="exact").tolist() == [1, 2, 3]
    with pytest.raises(jotto.WordListError, match="share their letters"):
        jotto.comp_num_guesses(["cab", "abc"])
    with pytest.raises(TypeError, match="not one string"):
        jotto.comp_num_guesses("cab")


@pytest.mark.parametrize(
    "weights, message",
    [
        (np.ones(3), r"vector of 4 numbers \(one per word\), not shape \(3,\)"),
        (np.ones((4, 1)), "vector of 4 numbers"),
        ([1, -1, 0, 0], "must not be negative"),
        ([1, np.nan, 0, 0], "NaN"),
        ([1, np.inf, 0, 0], "infinity"),
        (["a", "b", "c", "d"], "weights must be numbers"),
        ([1e301] * 4, "their sum must stay below 2\\*\\*1000"),
    ],
)
def test_bad_weights(weights, message):
    words = ["cab", "dog", "fit", "hum"]
    with pytest.raises(ValueError, match=message):
        jotto.comp_num_guesses(words, weights)


def test_bad_rule_threads_and_states():
    words = ["cab", "dog", "fit", "hum"]
    with pytest.raises(ValueError, match="unknown rule 'fast'"):
        jotto.comp_num_guesses(words, rule="fast")
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        jotto.comp_num_guesses(words, threads=0)
    with pytest.raises(ValueError, match="the state holds no word"):
        jotto.guesser_gbr(words, None, np.zeros(4, bool))
    with pytest.raises(ValueError, match="one entry per word"):
        jotto.guesser_gbr(words, None, np.ones(3, bool))
    with pytest.raises(ValueError, match=r"state indices must be in 0\.\.3"):
        jotto.guesser_gbr(words, None, [0, 4])
    with pytest.raises(ValueError, match="exact in double"):
        jotto.comp_num_guesses(words, np.array([2**60 + 1, 1, 1, 1]), rule="paper")
    with pytest.raises(ValueError, match="must total less than"):
        jotto.comp_num_guesses(words, np.array([2**62, 2**62, 1, 1]), rule="exact")


def test_thread_count_resolution(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert runtime.resolve_threads() == 1
    assert runtime.resolve_threads(1) == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="OMP_NUM_THREADS='many'"):
        runtime.resolve_threads()
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert runtime.resolve_threads() >= 1
    assert isinstance(jotto.openmp_enabled(), bool)
    assert runtime.kernel_variant() in runtime.available_kernel_variants()
    with pytest.raises(ValueError, match="not available"):
        runtime.select_kernel_variant("v9")


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_thread_counts_are_capped_to_the_cpus(monkeypatch, how):
    """A huge count is lowered, with a warning, before any per-thread memory is allocated."""
    cap = runtime.usable_cpus()
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    if how == "environment":
        monkeypatch.setenv("OMP_NUM_THREADS", "1000000")
    threads = 1_000_000 if how == "argument" else None
    expected = cap if runtime.openmp_enabled() else 1
    with (
        pytest.warns(RuntimeWarning, match=f"1000000 threads asked for.*using {cap}")
        if runtime.openmp_enabled()
        else contextlib.nullcontext()
    ):
        assert runtime.resolve_threads(threads) == expected
    words = jotto.load_words("enable", length=3)
    with pytest.warns(RuntimeWarning) if runtime.openmp_enabled() else contextlib.nullcontext():
        counts = jotto.comp_num_guesses(words, rule="exact", threads=threads)
    assert (counts == jotto.comp_num_guesses(words, rule="exact", threads=1)).all()


def test_core_checks_vector_lengths():
    """Every _core entry checks the lengths of what it reads (a short weight vector once made
    build_tree read past its end)."""
    words = jotto.load_words("enable", length=3)
    core, D = words.core, len(words)
    for v, h in (
        (np.ones(D - 1, np.int64), None),
        (np.ones(D - 2, np.int64), None),
        (None, np.ones(D - 1)),
        (np.ones(D + 1, np.int64), None),
        (np.ones((D, 1), np.int64), None),
        (np.ones(D, np.int64), np.ones(D - 1)),
    ):
        with pytest.raises(ValueError, match=f"vector of {D} entries"):
            jotto._core.build_tree(
                core, jotto._core.RULE_EXACT, jotto._core.CAND_ALL, v, h, 0.0, 0.0, 1
            )
    tree = jotto._core.build_tree(
        core, jotto._core.RULE_EXACT, jotto._core.CAND_ALL, None, None, 0.0, 0.0, 1
    )
    with pytest.raises(ValueError, match=f"vector of {D} entries"):
        tree.update(np.ones(D - 1, np.int64), None, 1)
    with pytest.raises(ValueError, match="not built by build_tree"):
        jotto._core.Tree().guess_counts()
    with pytest.raises(ValueError, match="1 to 65535 float weights"):
        jotto._core.integer_weights(np.ones(0))
    with pytest.raises(ValueError, match="invalid arguments"):
        jotto._core.class_sizes(core, np.array([0, D], np.int32))
    with pytest.raises(ValueError, match="invalid arguments"):
        jotto._core.class_sizes(core, np.array([0], np.int32), np.array([-1], np.int32))
    with pytest.raises(ValueError, match="invalid arguments"):
        jotto._core.decide(
            core,
            jotto._core.RULE_EXACT,
            jotto._core.CAND_ALL,
            None,
            None,
            0.0,
            0.0,
            np.array([3, 1], np.int32),
        )


def test_openmp_waits_passively_unless_the_user_chose():
    """Spinning OpenMP threads stall a busy machine (bench/test_threads_under_load.py)."""
    code = "import os, jotto; print(os.environ['OMP_WAIT_POLICY'])"
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "PASSIVE"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(env, OMP_WAIT_POLICY="active"),
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "active"


def test_paper_pick_over_many_tied_words_with_unequal_weights(twl06):
    """Three to five targets among TWL06's first 400 five-letter words: dozens of candidates tie
    at the largest ExpNumElims (81-93 for three targets, measured with the reference), so the
    paper rule's window spans more than one block of the batched kernel (64 words, four side by
    side), with unequal h.  Every kernel variant picks the reference twin's word, in 60 random
    cases."""
    words = list(twl06[5])[:400]
    game = reference.Game(words)
    rng = np.random.default_rng(1)
    cases = []
    for _ in range(60):
        h = rng.random(len(words))
        S = np.zeros(len(words), dtype=bool)
        S[rng.choice(len(words), size=int(rng.integers(3, 6)), replace=False)] = True
        cases.append((h, S, game.gbr_paper(h.tolist(), S.tolist())))
    default = runtime.kernel_variant()
    try:
        for name in runtime.available_kernel_variants():
            runtime.select_kernel_variant(name)
            got = [jotto.guesser_gbr(words, h, S, rule="paper") for h, S, _ in cases]
            assert got == [expected for _, _, expected in cases], name
    finally:
        runtime.select_kernel_variant(default)
