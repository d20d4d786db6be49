"""Time per CompNumGuesses on TWL06, 2..5 letters, both rules, uniform and fictitious-play
weights, 1 and all threads, on every kernel variant.

Targets (issue 10, 5 letters, 2 threads): exact rule v3 <= 1.5 ms (1 thread <= 2.5 ms), with the
weights after 2000 exact fictitious-play iterations <= 2 ms, paper rule <= 2x the exact rule,
v4 exact <= 1 ms, v2 <= 4 ms, base <= 15 ms.  Run: ``pytest bench --benchmark-only``.
"""

from __future__ import annotations

import pytest

import jotto
from jotto.fictitious_play import ExactPlay

ALL = jotto.resolve_threads()


@pytest.fixture(scope="session")
def fictitious_play_weights(twl06):
    """The exact-mode hider weights after 2000 iterations on 5 letters (1 + D times chosen)."""
    run = ExactPlay(twl06[5], ALL)
    for _ in range(2001):
        run.step()
    return run.weights()


@pytest.mark.parametrize("threads", sorted({1, ALL}), ids=lambda t: f"{t}threads")
@pytest.mark.parametrize("rule", jotto.RULES)
@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_comp_num_guesses(benchmark, twl06, kernel, length, rule, threads):
    words = twl06[length]
    benchmark.group = f"CompNumGuesses {length} letters, {rule} rule"
    counts = benchmark(jotto.comp_num_guesses, words, rule=rule, threads=threads)
    assert counts.shape == (len(words),)


@pytest.mark.parametrize("threads", sorted({1, ALL}), ids=lambda t: f"{t}threads")
def test_comp_num_guesses_fictitious_play_weights(benchmark, twl06, kernel, threads,
                                                  fictitious_play_weights):
    benchmark.group = "CompNumGuesses 5 letters, exact rule, weights after 2000 iterations"
    counts = benchmark(jotto.comp_num_guesses, twl06[5], fictitious_play_weights, rule="exact",
                       threads=threads)
    assert counts.shape == (len(twl06[5]),)
