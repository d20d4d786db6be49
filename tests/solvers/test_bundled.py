"""The bundled strategy for the default word list is what `jotto solve` computes for it."""

from __future__ import annotations

import pytest

import jotto
from jotto.play.sessions import bundled_solution


@pytest.mark.slow
def test_bundled_solve_is_reproducible():
    words = jotto.load_words()
    bundled = bundled_solution(words)
    assert bundled is not None and bundled.mode == "exact"
    fresh = jotto.solve(5, words, progress=False)
    assert bundled.iterations == fresh.iterations == 3906
    assert bundled.t_star == fresh.t_star
    assert [b.tolist() for b in bundled.best_responses] == [
        b.tolist() for b in fresh.best_responses
    ]
    assert (bundled.history.epsilon == fresh.history.epsilon).all()


def test_only_the_default_list_has_a_bundled_solve():
    assert bundled_solution(jotto.load_words("sgb")) is None
    assert bundled_solution(jotto.load_words(length=4)) is None
