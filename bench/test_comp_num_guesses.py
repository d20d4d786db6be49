"""Time per CompNumGuesses on TWL06, 2..5 letters, both rules, uniform and fictitious-play
weights, 1 and all threads, on every kernel variant.

Targets (issue 10, 5 letters, 2 threads): exact rule v3 <= 1.5 ms (1 thread <= 2.5 ms), with the
weights after 2000 exact fictitious-play iterations <= 2 ms, paper rule <= 2x the exact rule,
v4 exact <= 1 ms, v2 <= 4 ms, base <= 15 ms; and the paper rule with paper mode's own exact weights
after 2000 iterations (what each ``jotto solve --mode paper`` iteration builds from).  Run:
``pytest bench --benchmark-only``.
"""

from __future__ import annotations

import pytest

import jotto
from jotto import _core
from jotto.solvers.fictitious_play.algorithm import ExactPlay, PaperPlay

ALL = jotto.resolve_threads()


@pytest.fixture(scope="session")
def fictitious_play_weights(twl06):
    """The exact-mode hider weights after 2000 iterations on 5 letters (1 + D times chosen)."""
    run = ExactPlay(twl06[5], ALL)
    for _ in range(2001):
        run.step()
    return run.weights()


@pytest.mark.parametrize("threads", sorted({1, ALL}), ids=lambda t: f"{t}threads")
@pytest.mark.parametrize("rule", jotto.DECISION_RULES)
@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_comp_num_guesses(benchmark, twl06, kernel, length, rule, threads):
    words = twl06[length]
    benchmark.group = f"CompNumGuesses {length} letters, {rule} rule"
    counts = benchmark(jotto.comp_num_guesses, words, rule=rule, threads=threads)
    assert counts.shape == (len(words),)


@pytest.mark.parametrize("threads", sorted({1, ALL}), ids=lambda t: f"{t}threads")
def test_comp_num_guesses_fictitious_play_weights(
    benchmark, twl06, kernel, threads, fictitious_play_weights
):
    benchmark.group = "CompNumGuesses 5 letters, exact rule, weights after 2000 iterations"
    counts = benchmark(
        jotto.comp_num_guesses, twl06[5], fictitious_play_weights, rule="exact", threads=threads
    )
    assert counts.shape == (len(twl06[5]),)


@pytest.fixture(scope="session")
def paper_play(twl06):
    """Paper mode after 2000 iterations on 5 letters: its exact integer weights (excesses of
    units up to three base-32 digits wide), float strategy and error bound."""
    run = PaperPlay(twl06[5], ALL, 4000)
    for _ in range(2001):
        run.step()
    return run


@pytest.mark.parametrize("threads", sorted({1, ALL}), ids=lambda t: f"{t}threads")
def test_comp_num_guesses_paper_play_weights(benchmark, twl06, kernel, threads, paper_play):
    benchmark.group = (
        "CompNumGuesses 5 letters, paper rule, paper-mode weights after 2000 iterations"
    )
    words = twl06[5]
    tree = benchmark(
        _core.build_tree,
        words.core,
        _core.RULE_PAPER,
        _core.CAND_ALL,
        paper_play.v,
        paper_play.s,
        0.0,
        paper_play.err_rel,
        threads,
    )
    assert tree.guess_counts().shape == (len(words),)
