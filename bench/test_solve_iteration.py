"""Time of one SolveJotto iteration (HiderBR, the tree update, ANG and the epsilons), TWL06,
2..5 letters, both modes, after a 50-iteration warm-up, on every kernel variant.

Targets (issue 10, 2 threads, v3): 5 letters 3906 iterations, exact <= 3 s (0.77 ms/iteration),
paper <= 8 s (2 ms/iteration).
"""

from __future__ import annotations

import pytest

from jotto.solvers.fictitious_play.algorithm import ExactPlay, PaperPlay


@pytest.mark.parametrize("mode", ["exact", "paper"])
@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_iteration(benchmark, twl06, kernel, length, mode):
    words = twl06[length]
    run = ExactPlay(words, 2) if mode == "exact" else PaperPlay(words, 2, 100_000)
    for _ in range(51):
        run.step()
    benchmark.group = f"SolveJotto iteration {length} letters, {mode} mode"
    benchmark.pedantic(run.step, rounds=200 if length < 5 else 60, iterations=1)
