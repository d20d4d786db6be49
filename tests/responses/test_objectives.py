"""Objectives beyond the mean (jotto.game.objectives, the cost search, jotto.best_response(objective=))
against the exhaustive twins of tests/twins/reference_objectives.py: exact equality of the optimum for
random non-decreasing cost vectors and weights on tiny dictionaries under every rule set, proven
bounds whatever stops a pass, and the mean's two searches agreeing exactly."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import jotto
from jotto import _core
from jotto.game.objectives import Objective, parse_objective, within
from jotto.game.rules import PRESETS
from jotto.responses.cost_search import StateSearch, objective_best_response
from tests.examples import examples
from tests.twins import reference_game
from tests.twins import reference_objectives as ro
from tests.twins.strategies import ANY_RULES, rule_cases


@st.composite
def cost_vectors(draw, integers=True):
    """(costs c(1..K), tail): non-decreasing, from 0/1 steps to wide ranges; Fractions unless
    ``integers``."""
    K = draw(st.integers(1, 6))
    top = draw(st.sampled_from([1, 3, 10, 2**20]))
    if integers:
        xs = draw(st.lists(st.integers(0, top), min_size=K, max_size=K))
        tail = draw(st.sampled_from([0, 0, 1, 2, top]))
    else:
        xs = draw(st.lists(st.fractions(0, top, max_denominator=12), min_size=K, max_size=K))
        tail = draw(st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 3)]))
    return sorted(xs), tail


def scaled(costs, tail):
    """Integer costs and tail, and their common denominator."""
    den = math.lcm(*(Fraction(x).denominator for x in [*costs, tail]))
    return [int(Fraction(x) * den) for x in costs], int(Fraction(tail) * den), den


def core_search(rules, words, v, costs, tail, memory=2**22):
    wl = jotto.WordList.from_words(words, rules=rules)
    return wl, _core.CostSearch(
        wl.core, np.array(v, dtype=np.int64), np.array(costs, dtype=np.uint64), tail, memory
    )


def check_tree(rules, words, v, objective, res):
    """The tree is a tree of the rules (hard mode: consistent guesses) worth ``res.upper``."""
    counts = reference_game.tree_counts(
        words, rules, res.tree.guess.tolist(), res.tree.children.tolist()
    )
    assert objective.value(counts, v) == res.upper


@pytest.mark.parametrize("name", [*PRESETS, "any"])
@settings(max_examples=examples(50), deadline=None)
@given(data=st.data())
def test_optimum_matches_exhaustive_twin_under_every_rule_set(name, data):
    rules = ANY_RULES if name == "any" else st.just(PRESETS[name])
    rules, words, v = data.draw(rule_cases(rules=rules))
    costs, tail = data.draw(cost_vectors(integers=data.draw(st.booleans())))
    objective = Objective(tuple(costs), tail)
    ci, ti, den = scaled(costs, tail)
    assume(sum(v) * ro.cost(ci, ti, len(words) + 1) < 2**63)
    true = Fraction(ro.best_total(words, v, ci, ti, rules), sum(v) * den)
    wl = jotto.WordList.from_words(words, rules=rules)
    res = jotto.best_response(wl, np.array(v, dtype=np.int64), objective=objective)
    assert res.exact and res.lower == res.upper == true and res.stopped is None
    assert res.objective == objective
    check_tree(rules, words, v, objective, res)


@settings(max_examples=examples(80), deadline=None)
@given(case=rule_cases(max_size=6), vec=cost_vectors())
def test_recursion_twin_agrees_with_the_enumeration_of_trees(case, vec):
    rules, words, v = case
    costs, tail = vec
    assert Fraction(ro.best_total(words, v, costs, tail, rules), sum(v)) == ro.best_by_trees(
        words, v, costs, tail, rules
    )


@settings(max_examples=examples(150), deadline=None)
@given(case=rule_cases(), vec=cost_vectors(), nodes=st.integers(1, 40), beta=st.integers(-30, 30))
@example(
    case=(PRESETS["eckler"], ["tao", "aot", "ato", "oat"], [1, 1, 1, 1]),
    vec=([0, 0, 0], 1),
    nodes=2,
    beta=1,
)  # a tree completed by a pass the budget stopped: its guess was lost
def test_core_passes_give_proven_bounds(case, vec, nodes, beta):
    """Budgeted and beta-limited passes: a finished pass below beta is exact (so is one whose
    root is settled without search, whatever beta), every other value a lower bound; trees
    completed at the root are worth at least the optimum; the root bound never exceeds it."""
    rules, words, v = case
    costs, tail = vec
    assume(sum(v) * ro.cost(costs, tail, len(words) + 1) < 2**63)
    true = ro.best_total(words, v, costs, tail, rules)
    _, search = core_search(rules, words, v, costs, tail)
    assert search.root_bound() <= true
    beta = max(1, true + beta)
    value, exact, stop, best, guess, _ = search.run(beta, 0.0, nodes)
    assert value == true if exact else value <= true
    assert exact or stop != "done" or true >= beta
    if best is not None:
        assert best >= true and guess >= 0
    value, exact, *_ = search.run(_core.CS_INF, 0.0, 0)  # the memo's bounds, then exact
    assert exact and value == true


@settings(max_examples=examples(100), deadline=None)
@given(case=rule_cases(), vec=cost_vectors(), data=st.data())
def test_solve_gives_every_state_its_exact_value(case, vec, data):
    """Any state after any number of guesses a game can have made before it (the memo keys
    states by depth only while the shifted costs differ): the exact value of the twin's recursion, and a first guess whose
    classes' values add up to it."""
    rules, words, v = case
    costs, tail = vec
    assume(sum(v) * ro.cost(costs, tail, len(words) + 1) < 2**63)
    pool = [i for i in range(len(words)) if rules.hard or v[i]]
    state = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=1)))
    made = data.draw(st.integers(0, len(words) - len(state)))
    _, search = core_search(rules, words, v, costs, tail)
    for _ in range(2):  # from scratch, then from the memo
        value, guess = search.solve(state, made)
        assert value == ro.best_total(words, v, costs, tail, rules, frozenset(state), made)
        assert not rules.hard or guess in state
        S = frozenset(state)
        own = v[guess] * ro.cost(costs, tail, made + 1) if guess in S else 0
        _, classes = reference_game._game(words, rules)
        assert value == own + sum(
            ro.best_total(words, v, costs, tail, rules, c, made + 1) for c in classes(guess, S)
        )


@settings(max_examples=examples(60), deadline=None)
@given(
    case=rule_cases(), vec=cost_vectors(integers=False), nodes=st.integers(1, 30), data=st.data()
)
def test_budgeted_best_responses_are_proven_intervals(case, vec, nodes, data):
    rules, words, v = case
    costs, tail = vec
    objective = Objective(tuple(costs), tail)
    ci, ti, den = scaled(costs, tail)
    assume(sum(v) * ro.cost(ci, ti, len(words) + 1) < 2**63)
    true = Fraction(ro.best_total(words, v, ci, ti, rules), sum(v) * den)
    bound = data.draw(
        st.one_of(st.none(), st.just(true + Fraction(data.draw(st.integers(-10, 10)), 7)))
    )
    wl = jotto.WordList.from_words(words, rules=rules)
    res = jotto.best_response(
        wl, np.array(v, dtype=np.int64), objective=objective, nodes=nodes, upper_bound=bound
    )
    assert res.lower <= true <= res.upper
    assert res.exact == (res.stopped is None)
    if res.stopped == "upper_bound":
        assert res.lower >= bound
    check_tree(rules, words, v, objective, res)


@settings(max_examples=examples(60), deadline=None)
@given(case=rule_cases())
def test_the_mean_searches_agree_exactly(case):
    """The cost search given the mean finds what the mean's own search finds."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    a = jotto.best_response(wl, np.array(v, dtype=np.int64))
    b = objective_best_response(wl, np.array(v, dtype=np.int64), Objective.mean())
    assert a.exact and b.exact and a.upper == b.upper
    assert jotto.expected_guesses(b.tree, np.array(v, dtype=np.int64)) == b.upper


def test_twl06_two_letters(twl06):
    """The mean's value (game-values.md: 295/51) by the cost search too, and within k: the
    chance rises with k, and within 2 is the counting bound's (1 + 2 words of 51 can be found
    in two guesses: the first, and one per non-winning reply of 0 or 1 letters)."""
    wl = twl06[2]
    assert objective_best_response(wl, None, "mean").upper == Fraction(295, 51)
    found = []
    for k in range(1, 7):
        res = jotto.best_response(wl, objective=within(k))
        assert res.exact and res.found_within[0] == res.found_within[1]
        found.append(res.found_within[0])
    assert found[0] == Fraction(1, 51) and found[1] == Fraction(3, 51)
    assert found == sorted(found)


def test_time_budget_gives_an_interval(twl06):
    res = jotto.best_response(twl06[3], objective="within:5", budget=0.5)
    assert res.stopped == "time" and res.lower < res.upper
    lo, hi = res.found_within
    assert lo == 1 - res.upper and hi == 1 - res.lower
    tree_found = Fraction(int((res.tree.guesses_needed() <= 5).sum()), len(twl06[3]))
    assert tree_found == lo


def test_zero_weights_and_fraction_hiders():
    words = ["ab", "cd", "ac", "bd", "ae", "ce"]
    v = [0, 3, 0, 1, 0, 2]
    res = jotto.best_response(words, np.array(v), objective="within:2")
    assert res.exact and (res.tree.guesses_needed() >= 1).all()
    assert res.upper == Fraction(ro.best_total(words, v, [0, 0, 1]), 6)
    fr = jotto.best_response(
        words,
        [Fraction(0), Fraction(1, 2), 0, Fraction(1, 6), 0, Fraction(1, 3)],
        objective=within(2),
    )
    assert fr.upper == res.upper


# ---- objectives --------------------------------------------------------------------------


def test_objective_forms():
    assert parse_objective(None).is_mean and parse_objective("mean").is_mean
    assert Objective((1, 2, 3), 1).is_mean and not Objective((1, 2, 4), 1).is_mean
    assert parse_objective("within:3") == within(3) == Objective((0, 0, 0, 1))
    assert within(3).within == 3 and Objective.mean().within is None
    c = parse_objective("costs:0,1/4,0.5:tail=2")
    assert c.costs == (0, Fraction(1, 4), Fraction(1, 2)) and c.tail == 2
    assert [c.cost(d) for d in (1, 3, 4, 6)] == [0, Fraction(1, 2), Fraction(5, 2), Fraction(13, 2)]
    assert c.shifted(2).costs == (Fraction(1, 2),) and c.shifted(5).cost(1) == c.cost(6)
    assert c.scaled(10) == ([0, 1, 2], 8, 4)
    assert c.scaled(2) == ([0, 1], 0, 4)  # depths beyond 2 never reached
    assert within(2).value([1, 2, 3, 5], [1, 1, 1, 0]) == Fraction(1, 3)
    r = Objective((Fraction(1, 3), Fraction(2, 3))).rounded(4)
    assert r.costs == (Fraction(1, 4), Fraction(3, 4))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("within:0", "K >= 1"),
        ("within:x", "K >= 1"),
        ("median", "unknown objective"),
        ("costs:", "unknown objective"),
        ("costs:1,x", "not a number"),
        ("costs:2,1", "decrease"),
        ("costs:1:slope=2", "only tail"),
        ("costs:-1", "negative"),
        (3, "not int"),
    ],
)
def test_bad_objectives_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_objective(spec)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Objective(()), "at least one"),
        (lambda: Objective((1, float("nan"))), "finite"),
        (lambda: Objective((1,), -1), "tail must not be negative"),
        (lambda: Objective(("1",)), "must be a number"),
        (lambda: within(0), "k >= 1"),
    ],
)
def test_bad_objective_values_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_overflowing_costs_are_refused_before_the_search():
    words = ["ab", "cd", "ac", "bd"]
    huge = Objective((Fraction(1, 3**40), Fraction(1, 2**61)))
    with pytest.raises(ValueError, match="rounded"):
        jotto.best_response(words, objective=huge)
    res = jotto.best_response(words, objective=huge.rounded(2**20))
    assert res.exact


def test_top_k_takes_only_the_mean():
    with pytest.raises(ValueError, match="top_k"):
        jotto.best_response(["ab", "cd", "ac"], top_k=2, objective="within:2")


@settings(max_examples=examples(80), deadline=None)
@given(case=rule_cases(), vec=cost_vectors(integers=False), data=st.data())
def test_state_search_values_states_games_reach(case, vec, data):
    """From any state after any number of guesses a game can have made: exact without a
    budget, a proven interval with one, per unit of the state's weight; the first guess of the
    exact answer starts a best tree."""
    rules, words, v = case
    costs, tail = vec
    objective = Objective(tuple(costs), tail)
    ci, ti, den = scaled(costs, tail)
    assume(sum(v) * ro.cost(ci, ti, len(words) + 1) < 2**63)
    wl = jotto.WordList.from_words(words, rules=rules)
    state = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    assume(any(v[i] for i in state))
    made = data.draw(st.integers(0, len(words) - len(state)))
    pool = frozenset(i for i in state if rules.hard or v[i])
    true = Fraction(
        ro.best_total(words, v, ci, ti, rules, pool, made), sum(v[i] for i in pool) * den
    )
    search = StateSearch(wl, np.array(v, dtype=np.int64), objective)
    nodes = data.draw(st.one_of(st.none(), st.integers(1, 20)))
    res = search.value(np.array(state), made, nodes=nodes)
    assert res.lower <= true <= res.upper
    assert res.exact == (res.stopped is None)
    if nodes is None:
        assert res.exact
        _, classes = reference_game._game(words, rules)
        own = v[res.guess] * ro.cost(ci, ti, made + 1) if res.guess in pool else 0
        assert true * sum(v[i] for i in pool) * den == own + sum(
            ro.best_total(words, v, ci, ti, rules, c, made + 1) for c in classes(res.guess, pool)
        )
