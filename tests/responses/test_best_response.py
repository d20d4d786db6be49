"""jotto.best_response against the exhaustive twins (tests/twins/reference.py, and under every rule set
tests/twins/reference_game.py): exact equality of the optimum on random tiny dictionaries and weights,
proven bounds around it when a budget stops the search, and the interface: hider forms, trees
over every word, errors."""

from __future__ import annotations

import _thread
import itertools
import threading
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto import _core
from jotto.game.rules import PRESETS
from jotto.game.words import WordList
from tests.examples import examples
from tests.twins import reference, reference_game
from tests.twins.strategies import (
    ANY_RULES,
    LETTERS,
    dictionaries,
    float_weights,
    int_weights,
    rule_cases,
    zero_one_weights,
)


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


@given(
    case=weighted().filter(lambda c: sum(c[1]) > 0),
    nodes=st.integers(1, 30),
    top_k=st.one_of(st.none(), st.integers(1, 3)),
)
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


@pytest.mark.parametrize("length", [2, 3, 4, 5])
def test_top_1_is_the_exact_greedy_tree_on_twl06(twl06, length):
    """The same on whole TWL06 lists, states of hundreds of targets whose class sizes the search
    counts bit-sliced (``count_sizes_sliced``, search_split.c, several 64-target words a
    letter): the search's greedy order is GuesserGBR's there too."""
    words = twl06[length]
    res = jotto.best_response(words, top_k=1)
    greedy = jotto.comp_num_guesses(words, rule="exact")
    assert res.upper == Fraction(int(greedy.sum()), len(words))


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


def same_result(a, b):
    """Two best responses are the same: bounds, stop reason, tree, and the work done."""
    assert (a.lower, a.upper, a.stopped, a.nodes, a.passes) == (
        b.lower,
        b.upper,
        b.stopped,
        b.nodes,
        b.passes,
    )
    assert (a.tree.guess == b.tree.guess).all()
    assert (a.tree.children == b.tree.children).all()


@given(case=weighted().filter(lambda c: sum(c[1]) > 0), nodes=st.integers(1, 300), data=st.data())
def test_node_budgets_give_the_same_results_on_one_and_two_threads(case, nodes, data):
    """With a node budget the tree search (top-K passes) and the lower-bound search share it
    the same way whether they run one after the other or side by side."""
    words, v = case
    bound = data.draw(st.one_of(st.none(), st.fractions(1, 10)))
    a, b = (
        jotto.best_response(
            words, np.array(v, dtype=np.int64), nodes=nodes, upper_bound=bound, threads=t
        )
        for t in (1, 2)
    )
    same_result(a, b)


def test_twl06_node_budgets_do_not_depend_on_threads_below_128_words(twl06):
    """2 letters (51 words): every pass runs on one thread, so a node budget gives the same
    results on two."""
    a, b = (jotto.best_response(twl06[2], nodes=3000, threads=t) for t in (1, 2))
    same_result(a, b)
    assert a.lower <= a.upper and jotto.expected_guesses(a.tree) == a.upper


def test_twl06_node_budgets_on_threads(twl06):
    """3 letters: a node budget gives the same results on one thread every time, and a proven
    interval on two (its proof's passes on both threads, their work depending on timing): at
    least the counting bound (2404 guesses in all), at most a tree's value (2886, README)."""
    a, b = (jotto.best_response(twl06[3], nodes=60_000, threads=1) for _ in range(2))
    same_result(a, b)
    c = jotto.best_response(twl06[3], nodes=60_000, threads=2)
    for r in (a, c):
        assert Fraction(2404, 421) <= r.lower <= Fraction(2886, 421)
        assert r.lower <= r.upper and jotto.expected_guesses(r.tree) == r.upper


@settings(deadline=None)
@given(
    case=weighted().filter(lambda c: sum(c[1]) > 0),
    budget=st.sampled_from([None, 5.0]),
    nodes=st.one_of(st.none(), st.integers(1, 100)),
)
def test_two_threads_give_proven_bounds(case, budget, nodes):
    """The two searches side by side, with time and node budgets: lower <= true <= upper, the
    tree is worth upper, and with enough budget the optimum is proven."""
    words, v = case
    true = Fraction(reference.best_response_total(words, v), sum(v))
    res = jotto.best_response(
        words, np.array(v, dtype=np.int64), budget=budget, nodes=nodes, threads=2
    )
    assert res.lower <= true <= res.upper
    assert res.exact == (res.stopped is None)
    if nodes is None:
        assert res.exact
    check_tree(words, res, v)


@settings(deadline=None, max_examples=40)
@given(
    case=st.one_of(weighted(zero_one_weights), weighted()).filter(lambda c: sum(c[1]) > 0),
    threads=st.sampled_from([1, 2]),
)
def test_the_tree_search_s_last_pass_proves_the_optimum(case, threads):
    """The tree search's last pass searches every guess, aimed at its best tree: what it proves
    is the optimum (the exhaustive twin's, also with secrets restricted by 0/1 weights), with
    no proof beside it; and a budgeted search, which stops its proof once that pass ends,
    returns it."""
    from jotto.responses import mean_search
    from jotto.responses.gbr import as_word_list
    from jotto.responses.result import Budget, core_search

    words, v = case
    total = reference.best_response_total(words, v)
    wl, w = as_word_list(words), np.array(v, dtype=np.int64)
    trees = mean_search._Driver(
        wl, w, sum(v), core_search(wl, w, 2**24), Budget(None, None), None, lambda: 1
    )
    trees.start()
    trees.better_trees()
    assert trees.proved_exact() and trees.lower == trees.upper == total
    res = jotto.best_response(words, w, budget=60.0, threads=threads)
    assert res.exact and res.lower == res.upper == Fraction(total, sum(v))
    check_tree(words, res, v)


@settings(max_examples=examples(40), deadline=None)
@given(case=rule_cases())
def test_the_tree_search_s_last_pass_proves_under_every_rule_set(case):
    """The same under every rule set, hard mode included (whose states keep the words of weight
    0, so the last pass covers every word): a budgeted search's interval holds the twin's
    optimum, and meets it."""
    rules, words, v = case
    true = Fraction(reference_game.best_response_total(words, v, rules), sum(v))
    wl = jotto.WordList.from_words(words, rules=rules)
    res = jotto.best_response(wl, np.array(v, dtype=np.int64), budget=60.0, threads=1)
    assert res.exact and res.lower == res.upper == true


def test_the_tree_search_stops_once_the_optimum_is_proven(twl06):
    """With a time budget the tree search on the second thread is told to stop when the lower
    bound meets a tree: the call returns long before the budget ends."""
    res = jotto.best_response(twl06[2], budget=120, threads=2)
    assert res.exact and res.upper == Fraction(295, 51)
    assert res.seconds < 60


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_the_search(twl06, threads):
    """A Ctrl-C (here simulated) during a search raises KeyboardInterrupt at once, with the
    tree search on its own thread told to stop too (it used to be dropped, and the search went
    on until its budget ended)."""
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        jotto.best_response(twl06[3], budget=120, threads=threads)
    timer.join()
    assert "jotto-best-response-trees" not in [t.name for t in threading.enumerate()]


@pytest.mark.parametrize(
    "hider, message",
    [
        ([0, 0, 0], "no word"),
        ([1, -1, 0], "negative"),
        ([Fraction(1, 3), 0.5, 1], "fractions only with integers"),
        ([Fraction(2**62, 3), Fraction(1, 2**40), 1], "too large"),
        (np.array([2**62, 2**62, 0], dtype=np.int64), "2\\*\\*63"),
        ([1, 1], "vector of 3"),
    ],
)
def test_bad_hiders_are_refused(hider, message):
    with pytest.raises(ValueError, match=message):
        jotto.best_response(["ab", "cd", "ac"], hider)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"budget": 0}, "budget"),
        ({"budget": float("nan")}, "budget"),
        ({"nodes": 0}, "nodes"),
        ({"nodes": 1.5}, "nodes"),
        ({"top_k": 0}, "top_k"),
        ({"upper_bound": "x"}, "upper_bound"),
        ({"threads": 0}, "threads"),
        ({"memory": 10}, "memory"),
    ],
)
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


# ---- every rule set, through the core search (tokens and spellings from Rules) ----------------


def core_search(rules, words, v, memory=2**22):
    return _core.BestResponseSearch(
        WordList.from_words(words, rules=rules).core, np.array(v, dtype=np.int64), memory
    )


def check_core_tree(rules, words, v, search, top_k, root, total):
    """The search's tree (of mode top_k, first guess root or the memo's) is a tree of the rules
    (hard mode: consistent guesses) and is worth ``total``."""
    value, guess, _, _, children = search.tree(top_k, root)
    assert children.shape[1] == rules.classes(len(words[0])) == search.classes
    counts = reference_game.tree_counts(words, rules, guess.tolist(), children.tolist())
    assert value == total == sum(a * b for a, b in zip(v, counts))


@settings(max_examples=examples(200), deadline=None)
@given(
    case=rule_cases(),
    nodes=st.integers(1, 30),
    top_k=st.integers(0, 3),
    beta=st.integers(0, 40),
    by_size=st.booleans(),
    full_below=st.integers(0, 10),
)
def test_core_bounds_are_proven_under_every_rule_set(case, nodes, top_k, beta, by_size, full_below):
    """Budgeted, beta-limited and top-K passes (every guess tried in the states of at most
    full_below targets): a finished full pass below beta is exact, every other value a lower
    bound; top-K values and every tree found are upper bounds, and top-K values are exact when
    every state tries every guess."""
    rules, words, v = case
    true = reference_game.best_response_total(words, v, rules)
    search = core_search(rules, words, v)
    assert search.root_bound() <= true
    beta = true - 20 + beta  # around the optimum
    value, exact, stop, best, guess, _ = search.run(
        top_k, max(beta, 1), 0.0, nodes, by_size, None, full_below
    )
    if top_k:
        assert not exact or value >= true  # the best restricted tree
        assert not exact or full_below < len(words) or value == true
    else:
        assert value == true if exact else value <= true
        assert exact == (stop == "done" and true < beta)
    if best is not None:
        assert best >= true
        check_core_tree(rules, words, v, search, top_k, guess if not exact else -1, best)


@settings(max_examples=examples(150), deadline=None)
@given(
    case=rule_cases(),
    passes=st.lists(
        st.tuples(st.integers(1, 3), st.integers(0, 10), st.integers(0, 40)), min_size=2, max_size=4
    ),
)
def test_top_k_memo_kept_across_modes_changes_nothing(case, passes):
    """Top-K passes of varying K and full_below (the memo keeps the states every mode searches
    in full) find what a fresh search of the last mode finds, and every tree found is worth its
    value."""
    rules, words, v = case
    true = reference_game.best_response_total(words, v, rules)
    search = core_search(rules, words, v)
    for top_k, full_below, nodes in passes:
        value, exact, _, best, guess, _ = search.run(
            top_k, _core.BS_INF, 0.0, nodes, False, None, full_below
        )
        if best is not None:
            assert best >= true
            check_core_tree(rules, words, v, search, top_k, guess if not exact else -1, best)
    fresh = core_search(rules, words, v).run(top_k, _core.BS_INF, 0.0, 0, False, None, full_below)
    again = search.run(top_k, _core.BS_INF, 0.0, 0, False, None, full_below)
    assert again[:2] == fresh[:2] and fresh[1]


@st.composite
def large_dictionaries(draw):
    """24 to 36 words of 2 or 3 distinct letters over the first 9 letters."""
    L = draw(st.sampled_from([2, 3]))
    sets = draw(st.permutations(list(itertools.combinations(LETTERS[:9], L))))
    return ["".join(s) for s in sets[: draw(st.integers(24, 36))]]


@settings(max_examples=examples(12), deadline=None)
@given(
    words=large_dictionaries(),
    rules=st.sampled_from(list(PRESETS.values())),
    nodes=st.integers(1, 400),
    beta=st.integers(0, 60),
    by_size=st.booleans(),
    data=st.data(),
)
def test_lookahead_bounds_of_large_classes_are_proven(words, rules, nodes, beta, by_size, data):
    """Dictionaries large enough for classes of more than 12 targets, whose lookahead bounds
    (one split each) refute words before their classes are searched: every pass's value is a
    lower bound (exact when the pass finished below beta) under every preset."""
    v = data.draw(
        st.one_of(
            st.just([1] * len(words)),
            st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)),
        )
    )
    true = reference_game.best_response_total(words, v, rules)
    search = core_search(rules, words, v)
    beta = true - 30 + beta
    value, exact, stop, best, guess, _ = search.run(0, max(beta, 1), 0.0, nodes, by_size)
    assert value == true if exact else value <= true
    assert exact == (stop == "done" and true < beta)
    value, exact, *_ = search.run(0, 2**62, 0.0, 0, False)  # the memo's bounds, then exact
    assert exact and value == true


def check_rules_tree(rules, words, v, res):
    """The tree of a best response under ``rules`` is a tree of the rules, worth ``res.upper``."""
    counts = reference_game.tree_counts(
        words, rules, res.tree.guess.tolist(), res.tree.children.tolist()
    )
    assert res.upper == Fraction(sum(a * b for a, b in zip(v, counts)), sum(v))


@pytest.mark.parametrize("name", [*PRESETS, "any"])
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_optimum_matches_exhaustive_twin_under_every_rule_set(name, data):
    """The word list's rules are the search's: the exact optimum equals the rules-aware twin's,
    and the tree is a tree of the rules (in hard mode, consistent guesses only)."""
    rules = ANY_RULES if name == "any" else st.just(PRESETS[name])
    rules, words, v = data.draw(rule_cases(rules=rules))
    wl = jotto.WordList.from_words(words, rules=rules)
    true = Fraction(reference_game.best_response_total(words, v, rules), sum(v))
    res = jotto.best_response(wl, np.array(v, dtype=np.int64))
    assert res.exact and res.lower == res.upper == true
    assert res.tree.children.shape[1] == wl.classes
    check_rules_tree(rules, words, v, res)


@settings(max_examples=examples(150), deadline=None)
@given(
    case=rule_cases(),
    nodes=st.integers(1, 30),
    top_k=st.one_of(st.none(), st.integers(1, 3)),
    data=st.data(),
)
def test_best_response_bounds_under_every_rule_set(case, nodes, top_k, data):
    """Node budgets, top-K and upper_bound under every rule set: lower <= true <= upper."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    true = Fraction(reference_game.best_response_total(words, v, rules), sum(v))
    bound = true + Fraction(data.draw(st.integers(-20, 20)), 10)
    res = jotto.best_response(
        wl, np.array(v, dtype=np.int64), nodes=nodes, top_k=top_k, upper_bound=bound
    )
    assert res.lower <= true <= res.upper
    if res.stopped == "upper_bound":
        assert res.lower >= bound
    check_rules_tree(rules, words, v, res)


@settings(max_examples=examples(100), deadline=None)
@given(case=rule_cases(max_size=6))
def test_recursion_twin_agrees_with_the_enumeration_of_trees(case):
    """The two twins: the recursion over states and the minimum over every tree."""
    rules, words, v = case
    assert Fraction(
        reference_game.best_response_total(words, v, rules), sum(v)
    ) == reference_game.best_response_value(words, v, rules)


def test_hard_mode_may_guess_a_word_of_weight_zero():
    """Under the hard rules a word the hider never picks may still be the best consistent guess:
    the search keeps weight-0 words in its states (leaving them out would be no best response)."""
    words = ["ab", "ac", "ad", "bc", "bd", "cd"]
    rules = PRESETS["hard"]
    for k in range(len(words)):
        v = [0 if i == k else 1 for i in range(len(words))]
        true = reference_game.best_response_total(words, v, rules)
        value, exact, *_ = core_search(rules, words, v).run(0, _core.BS_INF, 0.0, 0)
        assert exact and value == true


def test_eckler_stare_family():
    """Eckler's STARE family: all five anagrams are secrets, each reply L+1 to the others; one
    guess in S splits off the rest by the anagram's reply, so F = 1 + 2 + 3 + 4 + 5 with the
    family alone, and the search's tree uses the anagram code's branch."""
    words = ["stare", "aster", "tares", "tears", "rates"]
    rules = PRESETS["eckler"]
    search = core_search(rules, words, [1] * 5)
    value, exact, *_ = search.run(0, _core.BS_INF, 0.0, 0)
    assert exact and value == reference_game.best_response_total(words, [1] * 5, rules) == 15
    _, guess, _, _, children = search.tree(0, -1)
    assert (children[:, 6] >= 0).sum() == 4 and (children[:, :5] < 0).all()
    assert sorted(reference_game.tree_counts(words, rules, guess, children)) == [1, 2, 3, 4, 5]
    positional = PRESETS["positional"]
    true = reference_game.best_response_total(words, [1] * 5, positional)
    value, exact, *_ = core_search(positional, words, [1] * 5).run(0, _core.BS_INF, 0.0, 0)
    assert exact and value == true < 15


def test_an_error_on_a_search_thread_is_raised_to_the_caller(monkeypatch):
    """The searches that run on threads of their own (the tree search beside a budgeted
    best response's proof, the double oracle's proof beside its rounds) raise what went wrong
    there on the caller's thread, not silently end."""
    from jotto.responses import mean_search

    words = ["ab", "cd", "ac", "bd", "ef", "ae", "cf"]

    def boom(self, *args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(mean_search._Driver, "better_trees", boom)
    with pytest.raises(RuntimeError, match="boom"):
        jotto.best_response(words, budget=30.0, threads=2)
    monkeypatch.setattr(mean_search._Driver, "full", boom)
    search = mean_search.BoundSearch(words, None, 30.0)
    with pytest.raises(RuntimeError, match="boom"):
        search.wait(30.0)
    with pytest.raises(RuntimeError, match="boom"):
        search.stop()


def assert_pass_proves(search, true, beta, nodes, by_size):
    """One budgeted pass to ``beta``: its value is a lower bound on the optimum ``true``, exact
    (and equal to it) exactly when the pass finished below beta."""
    value, exact, stop, *_ = search.run(0, beta, 0.0, nodes, by_size)
    assert value == true if exact else value <= true
    assert exact == (stop == "done" and true < beta)


def assert_exact_pass(search, true):
    """A pass without budget or beta finds the optimum ``true``."""
    value, exact, *_ = search.run(0, 2**62, 0.0, 0, False)
    assert exact and value == true
