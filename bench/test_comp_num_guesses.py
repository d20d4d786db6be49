"""Time per CompNumGuesses, uniform hider, TWL06, 2..5 letters, both rules, 1 and all threads.

Targets (issue 2, 5 letters, 2 cores): exact <= 2 ms, paper <= 10 ms.  The paper took 12.576
minutes per call on 16 cores.  Run: ``pytest bench --benchmark-only``.
"""

from __future__ import annotations

import pytest

import jotto

ALL = jotto.resolve_threads()


@pytest.mark.parametrize("threads", sorted({1, ALL}), ids=lambda t: f"{t}threads")
@pytest.mark.parametrize("rule", jotto.RULES)
@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_comp_num_guesses(benchmark, twl06, length, rule, threads):
    words = twl06[length]
    benchmark.group = f"CompNumGuesses {length} letters"
    counts = benchmark(jotto.comp_num_guesses, words, rule=rule, threads=threads)
    assert counts.shape == (len(words),)
