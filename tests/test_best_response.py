"""jotto.best_response against the exhaustive twin (tests/reference.py): exact equality of the
optimum on random tiny dictionaries and weights, proven bounds around it when a budget stops the
search, and the interface: hider forms, trees over every word, errors."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

import jotto

from . import reference
from .strategies import dictionaries, float_weights, int_weights


def tiny():
    return dictionaries(max_size=9)


def weighted(weights=int_weights):
    return tiny().flatmap(lambda words: st.tuples(st.just(words), weights(len(words))))


def check_tree(words, res, v):
    """The tree is a valid tree over every word, and its value is res.upper."""
    tree = jotto.DecisionTree.from_json(res.tree.to_json(), res.tree.words)
    assert (tree.guesses_needed() >= 1).all()
    total = reference.tree_total(words, v, res.tree.guess.tolist(), res.tree.children.tolist())
    assert res.upper == Fraction(total, sum(v))
    assert jotto.expected_guesses(res.tree, np.array(v, dtype=np.int64)) == res.upper


@given(case=weighted().filter(lambda c: sum(c[1]) > 0))
def test_optimum_matches_exhaustive_twin(case):
    words, v = case
    expected = Fraction(reference.best_response_total(words, v), sum(v))
    res = jotto.best_response(words, np.array(v, dtype=np.int64))
    assert res.exact and res.stopped is None
    assert res.lower == res.upper == expected
    check_tree(words, res, v)


@given(words=tiny())
def test_uniform_hider_matches_exhaustive_twin(words):
    D = len(words)
    expected = Fraction(reference.best_response_total(words, [1] * D), D)
    res = jotto.best_response(words)
    assert res.exact and res.upper == expected
    check_tree(words, res, [1] * D)


@given(case=weighted(float_weights).filter(lambda c: sum(c[1]) > 0))
def test_float_hider_uses_documented_conversion(case):
    words, h = case
    v = reference.integer_weights(h)
    if sum(v) == 0:
        return
    res = jotto.best_response(words, np.array(h))
    assert res.weights.tolist() == v
    assert res.upper == Fraction(reference.best_response_total(words, v), sum(v))


@given(case=weighted().filter(lambda c: sum(c[1]) > 0), nodes=st.integers(1, 30),
       top_k=st.one_of(st.none(), st.integers(1, 3)))
def test_budgets_give_proven_bounds(case, nodes, top_k):
    words, v = case
    true = Fraction(reference.best_response_total(words, v), sum(v))
    res = jotto.best_response(words, np.array(v, dtype=np.int64), nodes=nodes, top_k=top_k)
    assert res.lower <= true <= res.upper
    assert res.exact == (res.lower == true == res.upper)
    if res.stopped is not None:
        assert res.stopped == "nodes" and not res.exact
    check_tree(words, res, v)


@given(case=weighted().filter(lambda c: sum(c[1]) > 0), data=st.data())
def test_upper_bound_stops_once_out_of_reach(case, data):
    words, v = case
    true = Fraction(reference.best_response_total(words, v), sum(v))
    bound = true + Fraction(data.draw(st.integers(-20, 20)), 10)
    res = jotto.best_response(words, np.array(v, dtype=np.int64), upper_bound=bound)
    assert res.lower <= true <= res.upper
    if bound <= true:
        assert res.lower >= bound
    else:
        assert res.exact
    if res.stopped == "upper_bound":
        assert res.lower >= bound and not res.exact


@given(words=tiny().filter(lambda w: len(w) >= 3))
def test_top_1_is_the_exact_greedy_tree(words):
    """With equal weights the first guess of the greedy order at every state is GuesserGBR's
    exact rule (least q, words of S, list order)."""
    res = jotto.best_response(words, top_k=1)
    greedy = jotto.comp_num_guesses(words, rule="exact")
    assert res.upper == Fraction(int(greedy.sum()), len(words))
    assert res.lower <= res.upper


def test_fraction_hider_is_scaled_exactly():
    words = ["ab", "cd", "ac", "bd", "ae"]
    fr = [Fraction(1, 3), Fraction(1, 6), Fraction(0), Fraction(1, 4), 1]
    res = jotto.best_response(words, fr)
    assert res.weights.tolist() == [4, 2, 0, 3, 12]
    assert res.upper == Fraction(reference.best_response_total(words, [4, 2, 0, 3, 12]), 21)


def test_zero_weight_targets_are_still_in_the_tree():
    words = ["ab", "cd", "ac", "bd", "ae", "ce"]
    v = np.array([0, 3, 0, 1, 0, 2])
    res = jotto.best_response(words, v)
    assert res.exact
    assert sorted(res.tree.guesses_needed() >= 1) == [True] * 6
    check_tree(words, res, v.tolist())


def test_results_do_not_depend_on_threads():
    words = ["ab", "cd", "ac", "bd", "ae", "ce", "bf", "df", "ef"]
    a = jotto.best_response(words, threads=1)
    b = jotto.best_response(words, threads=2)
    assert (a.lower, a.upper, a.nodes) == (b.lower, b.upper, b.nodes)
    assert (a.tree.guess == b.tree.guess).all()


@pytest.mark.parametrize("hider, message", [
    ([0, 0, 0], "no word"),
    ([1, -1, 0], "negative"),
    ([Fraction(1, 3), 0.5, 1], "fractions only with integers"),
    ([Fraction(2**62, 3), Fraction(1, 2**40), 1], "too large"),
    (np.array([2**62, 2**62, 0], dtype=np.int64), "2\\*\\*63"),
    ([1, 1], "vector of 3"),
])
def test_bad_hiders_are_refused(hider, message):
    with pytest.raises(ValueError, match=message):
        jotto.best_response(["ab", "cd", "ac"], hider)


@pytest.mark.parametrize("kwargs, message", [
    ({"budget": 0}, "budget"), ({"budget": float("nan")}, "budget"),
    ({"nodes": 0}, "nodes"), ({"nodes": 1.5}, "nodes"), ({"top_k": 0}, "top_k"),
    ({"upper_bound": "x"}, "upper_bound"), ({"threads": 0}, "threads"),
    ({"memory": 10}, "memory"),
])
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        jotto.best_response(["ab", "cd", "ac"], **kwargs)


def test_twl06_two_letters_uniform(twl06):
    """The exact optimum against the uniform hider (game-values.md: the uniform hider
    guarantees 5.784 guesses, i.e. 295/51)."""
    res = jotto.best_response(twl06[2])
    assert res.exact and res.upper == Fraction(295, 51)
    assert jotto.expected_guesses(res.tree) == res.upper


def test_a_full_memo_changes_nothing(twl06):
    """With the memo capped at 1 MiB (full almost at once) the search re-derives what it cannot
    store: the same optimum and tree."""
    a = jotto.best_response(twl06[2], np.arange(1, 52))
    b = jotto.best_response(twl06[2], np.arange(1, 52), memory=2**20)
    assert a.exact and b.exact and a.upper == b.upper
    assert (a.tree.guess == b.tree.guess).all()


def test_time_budget_returns_proven_bounds(twl06):
    res = jotto.best_response(twl06[3], budget=0.5)
    assert res.stopped == "time" and not res.exact
    greedy = jotto.comp_num_guesses(twl06[3], rule="exact")
    assert res.upper <= Fraction(int(greedy.sum()), len(twl06[3]))
    assert Fraction(2404, 421) <= res.lower <= res.upper  # at least the counting bound
    assert jotto.expected_guesses(res.tree) == res.upper
