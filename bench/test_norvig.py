"""Building and evaluating Norvig's guessers over all 2845 words of sgb-words (his list rule).

Target (issue 4, 2 cores): any one of these trees built and evaluated in <= 1 s (the notebook
took 13-42 s).
"""

from __future__ import annotations

import pytest

import jotto
from jotto.players import NorvigGuesser
from jotto.players.evaluation import evaluate


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


@pytest.mark.parametrize("inconsistent", [False, True], ids=["consistent", "inconsistent"])
@pytest.mark.parametrize("metric", ["max", "expectation", "entropy"])
def test_build_and_evaluate(benchmark, sgb, metric, inconsistent):
    benchmark.group = "Norvig guessers, sgb-words"
    ev = benchmark(lambda: evaluate(sgb, NorvigGuesser(sgb, metric, inconsistent)))
    assert ev.exact
