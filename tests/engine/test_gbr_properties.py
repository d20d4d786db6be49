"""The fast core against the literal twin (tests/twins/reference.py): exact equality of every guess
count and of GuesserGBR at random states, for both rules, on random small dictionaries and
weights, on every evaluation path, kernel variant and thread count."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jotto
from jotto.engine import runtime
from tests.twins import reference
from tests.twins.strategies import LETTERS, dictionaries, float_weights, int_weights


def paper_case():
    return dictionaries().flatmap(
        lambda words: st.tuples(st.just(words), float_weights(len(words)))
    )


def exact_case():
    return dictionaries().flatmap(lambda words: st.tuples(st.just(words), int_weights(len(words))))


@pytest.fixture(params=["default", "small"])
def paths(request):
    """Run with the production thresholds and with ones that send small lists through the
    shared-node and subset-table paths, on every thread asked for (no serial path for small
    work)."""
    if request.param == "small":
        jotto._core.set_thresholds(4, 8, 0)
    yield request.param
    jotto._core.set_thresholds()


@given(case=paper_case())
def test_paper_rule_matches_reference(case, paths):
    words, h = case
    expected = reference.Game(words).comp_num_guesses(h, "paper")
    got = jotto.comp_num_guesses(words, np.array(h), rule="paper")
    assert got.tolist() == expected


@given(words=dictionaries())
def test_paper_rule_uniform_matches_reference(words, paths):
    D = len(words)
    expected = reference.Game(words).comp_num_guesses([1 / D] * D, "paper")
    assert jotto.comp_num_guesses(words, rule="paper").tolist() == expected


@given(case=exact_case())
def test_exact_rule_matches_reference(case, paths):
    words, v = case
    expected = reference.Game(words).comp_num_guesses(v, "exact")
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact")
    assert got.tolist() == expected


@given(words=dictionaries(), data=st.data())
def test_exact_rule_fictitious_play_weights_match_reference(words, data, paths):
    """Weights 1 + D c as exact fictitious play makes them (c: times chosen, mostly 0): the
    heavier targets are counted as units of one step (units up to 31), or by their excesses
    (larger units)."""
    D = len(words)
    c = data.draw(
        st.lists(
            st.one_of(st.just(0), st.integers(0, 5), st.integers(0, 40)), min_size=D, max_size=D
        )
    )
    v = [1 + D * x for x in c]
    expected = reference.Game(words).comp_num_guesses(v, "exact")
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact")
    assert got.tolist() == expected


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
def test_fictitious_play_weights_on_a_real_list(variant, twl06):
    """Weights 1 + D c on 315 five-letter words of TWL06: dozens of weighted nodes of 5-15
    targets, whose q the vector levels give as 16-bit keys (jt_q16_keys needs D c well above
    the node's size squared, which the hypothesis dictionaries above reach only at 5-8
    targets).  Exact rule against the twin; paper rule, whose windows read keys back as q,
    against base, whose q stays 64-bit."""
    words = list(twl06[5])[::9]
    D = len(words)
    c = np.random.default_rng(7).choice([0, 0, 0, 1, 1, 2, 3], size=D)
    v = 1 + D * c
    default = runtime.kernel_variant()
    runtime.select_kernel_variant("base")
    try:
        paper = jotto.comp_num_guesses(words, v.astype(float), rule="paper")
        runtime.select_kernel_variant(variant)
        assert jotto.comp_num_guesses(words, v, rule="exact").tolist() == reference.Game(
            words
        ).comp_num_guesses(v.tolist(), "exact")
        assert (
            jotto.comp_num_guesses(words, v.astype(float), rule="paper").tolist() == paper.tolist()
        )
    finally:
        runtime.select_kernel_variant(default)


@st.composite
def many_distinct_weights(draw):
    """66-100 words (4 of 10 letters) with distinct weights: more than 64 distinct excesses
    over the lightest weight at the root and other big nodes."""
    sets = draw(st.permutations(list(itertools.combinations(LETTERS[:10], 4))))
    words = ["".join(s) for s in sets[: draw(st.integers(66, 100))]]
    v = draw(
        st.lists(
            st.one_of(st.integers(1, 200), st.integers(1, 10**12)),
            min_size=len(words),
            max_size=len(words),
            unique=True,
        )
    )
    return words, v


@given(case=many_distinct_weights())
def test_many_distinct_excesses_match_reference(case, paths):
    """Nodes with more than 64 distinct excesses, which describe() sorts whole (fewer are
    grouped by counting), under both rules."""
    words, v = case
    game = reference.Game(words)
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact")
    assert got.tolist() == game.comp_num_guesses(v, "exact")
    h = [float(x) for x in v]
    assert jotto.comp_num_guesses(
        words, np.array(h), rule="paper"
    ).tolist() == game.comp_num_guesses(h, "paper")


@given(case=paper_case())
def test_exact_rule_float_weights_use_documented_conversion(case, paths):
    words, h = case
    v = reference.integer_weights(h)
    assert jotto.integer_weights(np.array(h)).tolist() == v
    expected = reference.Game(words).comp_num_guesses(v, "exact")
    assert jotto.comp_num_guesses(words, np.array(h), rule="exact").tolist() == expected


@given(case=paper_case(), data=st.data())
def test_guesser_gbr_matches_reference_at_random_states(case, data, paths):
    words, h = case
    game = reference.Game(words)
    D = len(words)
    S = data.draw(st.lists(st.booleans(), min_size=D, max_size=D).filter(any))
    assert jotto.guesser_gbr(words, np.array(h), np.array(S), rule="paper") == game.gbr_paper(h, S)
    v = reference.integer_weights(h)
    assert jotto.guesser_gbr(words, np.array(h), np.array(S), rule="exact") == game.gbr_exact(v, S)
    indices = np.flatnonzero(S)
    assert jotto.guesser_gbr(words, np.array(h), indices, rule="exact") == game.gbr_exact(v, S)


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
@given(case=paper_case())
def test_every_kernel_variant_gives_the_same_trees(variant, case, paths):
    words, h = case
    default = runtime.kernel_variant()
    expected = {
        rule: jotto.comp_num_guesses(words, np.array(h), rule=rule) for rule in jotto.DECISION_RULES
    }
    runtime.select_kernel_variant(variant)
    try:
        for rule in jotto.DECISION_RULES:
            assert (jotto.comp_num_guesses(words, np.array(h), rule=rule) == expected[rule]).all()
    finally:
        runtime.select_kernel_variant(default)
