"""The counting bound: below every tree's expected guesses, under every rule set."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.bounds import counting_bound
from jotto.game.rules import PRESETS
from jotto.game.words import WordListError
from tests.twins.reference_game import best_response_value


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text("abcdeo", min_size=3, max_size=3), min_size=1, max_size=7, unique=True),
    st.sampled_from(sorted(PRESETS)),
    st.data(),
)
def test_the_counting_bound_is_below_the_best_response(source, preset, data):
    try:
        words = jotto.load_words(source, length=3, rules=preset)
    except WordListError:
        return
    weights = data.draw(
        st.lists(st.integers(0, 9), min_size=len(words), max_size=len(words)).filter(any)
    )
    bound = counting_bound(words, weights)
    assert 1 <= bound <= best_response_value(list(words), weights, words.rules)


def test_the_counting_bound_by_hand():
    # B = L = 2 under the paper's rules: 1 target found by the first guess, 2 more by the second,
    # 4 more by the third; uniform over 7 targets: (7 + 6 + 4) / 7
    words = jotto.load_words(["ab", "cd", "ef", "gh", "ij", "kl", "mn"], length=2)
    assert counting_bound(words) == Fraction(17, 7)
    # the heaviest targets are put first: weights 4, 1, 1 -> (6 + 2) / 6
    assert counting_bound(jotto.load_words(["ab", "cd", "ef"], length=2), [1, 4, 1]) == Fraction(
        8, 6
    )
    with pytest.raises(ValueError, match="not all zero"):
        counting_bound(words, [0] * 7)
