"""The family bound of the best-response search (search_families.c) against its twin
(tests/twins/reference_families.py): the core's lookahead bound equals the twin's on states of
dictionaries made of families, and the twin's bounds never exceed the exhaustive optimum
(tests/twins/reference_game.py); searches on such dictionaries keep proving bounds and exact values."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jotto import _core
from jotto.game.rules import PRESETS
from jotto.game.words import WordList
from tests.examples import examples
from tests.responses.test_best_response import assert_exact_pass, assert_pass_proves
from tests.twins import reference_families as fam
from tests.twins import reference_game

PAPER = PRESETS["paper"]
HARD = PRESETS["hard"]


def search_of(words, v, rules=PAPER):
    return _core.BestResponseSearch(
        WordList.from_words(words, rules=rules).core, np.array(v, dtype=np.int64), 2**22
    )


@st.composite
def family_dictionaries(draw, max_extra=6):
    """Words of L = 2 or 3 distinct letters over 10 letters: one to three families (words sharing
    L - 1 letters, 3 to 7 members each) and a few other words."""
    L = draw(st.sampled_from([2, 3]))
    letters = "abcdefghij"
    words: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        core = draw(st.lists(st.sampled_from(letters), min_size=L - 1, max_size=L - 1, unique=True))
        own = draw(
            st.lists(
                st.sampled_from([c for c in letters if c not in core]),
                min_size=3,
                max_size=7,
                unique=True,
            )
        )
        words += ["".join(sorted(core + [x])) for x in own]
    others = list(itertools.combinations(letters, L))
    words += ["".join(w) for w in draw(st.lists(st.sampled_from(others), max_size=max_extra))]
    return list(dict.fromkeys(words))


@st.composite
def states(draw, max_state=20):
    words = draw(family_dictionaries())
    S = sorted(
        draw(
            st.sets(st.integers(0, len(words) - 1), min_size=3, max_size=min(max_state, len(words)))
        )
    )
    return words, S


def optimum(words, S):
    """F(S) exhaustively, with unit weights on S (words outside S weigh nothing)."""
    return reference_game.best_response_total(words, [int(i in S) for i in range(len(words))])


def test_found_by_hand():
    """L = 3: a guess finds one member or moves at most 3 away from the rest, so of 10 members
    at most 1, 2, 4, 7, 10 are found within 1..5 guesses (4 = two groups of 2 after a move;
    7 = a move of 3 leaving 3 findable there, 4 among the other 7).  Alone in a class of 10, the
    family costs at least 10 + 9 + 8 + 6 + 3 = 36 guesses by these counts where the counting
    bound (1, 4, 13 found within 1, 2, 3) gives 10 + 9 + 6 = 25; and at least 39 on its own:
    alone(s) = 1, 3, 6, 10, 14, 18, 23, 28, 33, 39 (s + the least of alone(s - 1) and
    alone(j) + alone(s - j), j <= 3)."""
    assert [fam.found(k, 10, 3) for k in range(1, 6)] == [1, 2, 4, 7, 10]
    assert fam.counted(10, [10], 3) == 36
    assert fam.counted(10, [], 3) == fam.family_bound(10, [], 3) == 25
    assert [fam.alone(s, 3) for s in range(1, 11)] == [1, 3, 6, 10, 14, 18, 23, 28, 33, 39]
    assert fam.family_bound(10, [10], 3) == 39
    assert [fam.found_after_a_miss(k, 10, 3) for k in range(1, 5)] == [0, 2, 4, 7]


def test_packing_by_hand():
    """ab? words and one more: the family {abc, abd, abe} is packed, xyz-like words are not."""
    words = ["abc", "abd", "abe", "cde", "fgh"]
    assert fam.packed_families(words, [0, 1, 2, 3, 4]) == [[0, 1, 2]]
    assert fam.packed_families(words, [0, 1, 3]) == []


@settings(max_examples=examples(300), deadline=None)
@given(case=states())
def test_core_lookahead_bound_is_the_twins(case):
    words, S = case
    assert search_of(words, [1] * len(words)).lookahead_bound(S) == fam.lookahead_family_bound(
        words, S
    )


@settings(max_examples=examples(150), deadline=None)
@given(case=states(max_state=12))
def test_family_bounds_are_below_the_optimum(case):
    words, S = case
    true = optimum(words, S)
    assert fam.lookahead_family_bound(words, S) <= true
    assert fam.member_family_bound(words, S) <= true


@settings(max_examples=examples(100), deadline=None)
@given(
    words=family_dictionaries(max_extra=10),
    nodes=st.integers(1, 400),
    beta=st.integers(0, 40),
    by_size=st.booleans(),
)
def test_searches_on_families_prove_their_bounds(words, nodes, beta, by_size):
    """Equal weights, so the family bounds (lookahead, per word, member) are all in use: every
    pass's value is a lower bound, exact when the pass finished below beta."""
    v = [1] * len(words)
    true = reference_game.best_response_total(words, v)
    search = search_of(words, v)
    beta = max(true - 20 + beta, 1)
    assert_pass_proves(search, true, beta, nodes, by_size)
    assert_exact_pass(search, true)


@pytest.mark.parametrize("bad", [[0, 1], [0, 2, 1], [0, 1, 3], [-1, 0, 1]])
def test_the_lookahead_bound_refuses_bad_states(bad):
    search = search_of(["abc", "abd", "abe"], [1, 1, 1])
    with pytest.raises(ValueError, match="increasing word indices"):
        search.lookahead_bound(bad)


@st.composite
def weighted_states(draw, max_state=20):
    """A state of a family dictionary and weights 1-5 (on every word: the state's count)."""
    words, S = draw(states(max_state))
    v = draw(st.lists(st.integers(1, 5), min_size=len(words), max_size=len(words)))
    return words, S, v


def weighted_search(words, v, bounds=_core.BS_DEFAULT_BOUNDS, rules=PAPER):
    search = search_of(words, v, rules)
    search.set_bounds(bounds)
    return search


@settings(max_examples=examples(300), deadline=None)
@given(case=weighted_states())
def test_core_weighted_lookahead_bound_is_the_twins(case):
    """Unequal weights (JT_BS_WEIGHTED_FAMILIES): the core's lookahead bound equals the twin's,
    and is never below the bound without families for unequal weights."""
    words, S, v = case
    b = weighted_search(words, v).lookahead_bound(S)
    assert b == fam.weighted_lookahead_family_bound(words, S, v)
    off = weighted_search(words, v, _core.BS_DEFAULT_BOUNDS & ~_core.BS_WEIGHTED_FAMILIES)
    assert b >= off.lookahead_bound(S)


@settings(max_examples=examples(150), deadline=None)
@given(case=weighted_states(max_state=12))
def test_weighted_family_bounds_are_below_the_optimum(case):
    """The twin's weighted bounds (lookahead, and member with the member bound's unit count)
    never exceed the exhaustive optimum with the state's weights."""
    words, S, v = case
    L = len(words[0])
    true = reference_game.best_response_total(
        words, [v[i] if i in S else 0 for i in range(len(words))]
    )
    assert fam.weighted_lookahead_family_bound(words, S, v) <= true
    parts = [len(f) for f in fam.packed_families(words, S)]
    assert (
        fam.weighted_family_bound([v[t] for t in S], parts, L, fam.member_family_bound(words, S))
        <= true
    )


@settings(max_examples=examples(100), deadline=None)
@given(
    words=family_dictionaries(max_extra=10),
    nodes=st.integers(1, 400),
    beta=st.integers(0, 60),
    by_size=st.booleans(),
    data=st.data(),
)
def test_weighted_searches_on_families_prove_their_bounds(words, nodes, beta, by_size, data):
    """Unequal weights, so the weighted family bounds (lookahead, per word, member) are in use:
    every pass's value is a lower bound, exact when the pass finished below beta, and the exact
    value is the same with the optional bounds off."""
    v = data.draw(st.lists(st.integers(1, 5), min_size=len(words), max_size=len(words)))
    true = reference_game.best_response_total(words, v)
    search = weighted_search(words, v)
    beta = max(true - 30 + beta, 1)
    assert_pass_proves(search, true, beta, nodes, by_size)
    assert_exact_pass(search, true)
    assert weighted_search(words, v, 0).run(0, 2**62, 0.0, 0, False)[:2] == (true, True)


@settings(max_examples=examples(200), deadline=None)
@given(case=weighted_states(), uniform=st.booleans())
def test_core_hard_mode_lookahead_bound_is_the_twins(case, uniform):
    """Hard mode (JT_BS_HARD_FAMILIES): the core's lookahead bound, over the state's members as
    guesses, equals the twin's, equal weights or not."""
    words, S, v = case
    v = [1] * len(words) if uniform else v
    b = weighted_search(words, v, rules=HARD).lookahead_bound(S)
    assert b == fam.weighted_lookahead_family_bound(words, S, v, hard=True)


@settings(max_examples=examples(100), deadline=None)
@given(case=weighted_states(max_state=12), uniform=st.booleans())
def test_hard_mode_family_bounds_are_below_the_optimum(case, uniform):
    """The twin's hard-mode lookahead bound never exceeds the exhaustive hard-mode optimum of
    the state (its words alone, so that every guess is one of them)."""
    words, S, v = case
    sub = [words[i] for i in S]
    w = [1] * len(S) if uniform else [v[i] for i in S]
    true = reference_game.best_response_total(sub, w, HARD)
    assert fam.weighted_lookahead_family_bound(sub, list(range(len(S))), w, hard=True) <= true


@settings(max_examples=examples(100), deadline=None)
@given(
    words=family_dictionaries(max_extra=10),
    nodes=st.integers(1, 400),
    beta=st.integers(0, 60),
    by_size=st.booleans(),
    uniform=st.booleans(),
    data=st.data(),
)
def test_hard_mode_searches_on_families_prove_their_bounds(
    words, nodes, beta, by_size, uniform, data
):
    """Hard mode with the family bounds: every pass's value is a lower bound of the exhaustive
    hard-mode optimum, exact when the pass finished below beta, and the exact value is the same
    with the optional bounds off."""
    v = (
        [1] * len(words)
        if uniform
        else data.draw(st.lists(st.integers(0, 5), min_size=len(words), max_size=len(words)))
    )
    if not any(v):
        v[0] = 1
    true = reference_game.best_response_total(words, v, HARD)
    search = weighted_search(words, v, rules=HARD)
    beta = max(true - 30 + beta, 1)
    assert_pass_proves(search, true, beta, nodes, by_size)
    assert_exact_pass(search, true)
    assert weighted_search(words, v, 0, HARD).run(0, 2**62, 0.0, 0, False)[:2] == (true, True)
