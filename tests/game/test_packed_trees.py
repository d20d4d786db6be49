"""Packed trees (jotto.game.packed_trees), the form opener tables keep their trees in: every tree
comes back array for array, for every rule set, and columns that do not make a tree of the list
are refused with the problem named."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import jotto
from jotto.game.packed_trees import pack_tree, unpack_tree
from jotto.game.trees import tree_from_policy
from jotto.util.strategy_file import decode_array, encode_array
from tests.twins.strategies import rule_cases


def arrays(tree):
    return (tree.guess, tree.depth, tree.size, tree.children)


def assert_round_trip(tree):
    back = unpack_tree(pack_tree(*arrays(tree)), tree.words)
    for a, b in zip(arrays(tree), back):
        assert b.dtype == np.int32 and np.array_equal(a, b)


@settings(max_examples=60, deadline=None)
@given(case=rule_cases())
def test_trees_come_back_exactly(case):
    """The best response's tree (targets of weight 0 included) and a guesser's that guesses the
    first word still possible (every word a target)."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    assert_round_trip(jotto.best_response(wl, np.array(v, dtype=np.int64)).tree)
    assert_round_trip(tree_from_policy(wl, lambda state, made: int(state[0])))


def chain(wl, n):
    """A tree of n nodes, one below the other by reply 0, each guess a target."""
    children = np.full((n, wl.classes), -1, dtype=np.int32)
    children[np.arange(n - 1), 0] = np.arange(1, n)
    return jotto.DecisionTree(wl, np.arange(n) % len(wl), np.arange(n), n - np.arange(n), children)


def test_deep_trees_and_big_columns_are_kept_whole():
    """Depths past 255 are not cut to a byte; nor are word indices past 255."""
    wl = jotto.load_words(length=3)
    assert len(wl) > 300 and wl.win_code != 0
    tree = chain(wl, 300)
    packed = pack_tree(*arrays(tree))
    assert decode_array(packed["depth"]).dtype == np.int16
    assert decode_array(packed["guess"]).dtype == np.int16
    assert_round_trip(tree)


def test_a_table_of_a_thousand_secrets_fits_in_the_input_limit():
    """What made the change: a tree over Norvig's 2,845 words packs to a few bytes a node."""
    wl = jotto.load_words("sgb", rules="norvig")
    tree = tree_from_policy(wl, lambda state, made: int(state[len(state) // 2]))
    packed = pack_tree(*arrays(tree))
    text = sum(len(c["zlib"]) for c in packed.values())
    assert text < 5 * len(tree)  # against 48 characters a node as four int32 arrays in base64
    assert_round_trip(tree)


def damaged(tree, column, change):
    packed = pack_tree(*arrays(tree))
    a = decode_array(packed[column]).astype(np.int32).copy()
    change(a)
    packed[column] = encode_array(a, deflate=True)
    return packed


@pytest.mark.parametrize(
    "column, change, problem",
    [
        ("guess", lambda a: a.__setitem__(1, 10**6), "not a word of the list"),
        ("guess", lambda a: a.__setitem__(0, -1), "not a word of the list"),
        ("found", lambda a: a.__setitem__(2, 2), "found column"),
        ("depth", lambda a: a.__setitem__(0, 1), "depths"),
        ("depth", lambda a: a.__setitem__(3, a[3] + 2), "depths"),
        ("reply", lambda a: a.__setitem__(1, 99), "reply out of range"),
        ("reply", lambda a: a.__setitem__(1, -1), "reply out of range"),
    ],
)
def test_damaged_columns_are_named(column, change, problem):
    wl = jotto.load_words(length=3)
    tree = tree_from_policy(wl, lambda state, made: int(state[0]))
    with pytest.raises(ValueError, match=problem):
        unpack_tree(damaged(tree, column, change), wl)


def test_trees_that_are_not_trees_are_refused():
    wl = jotto.load_words(length=3)
    tree = tree_from_policy(wl, lambda state, made: int(state[0]))
    win = wl.win_code
    root = tree.children[0]
    first, second = (int(c) for c in np.flatnonzero(root >= 0)[:2])
    cases = {
        "win": lambda a: a.__setitem__(int(root[first]), win),
        "increasing reply order": lambda a: a.__setitem__(int(root[second]), first),
    }
    for problem, change in cases.items():
        with pytest.raises(ValueError, match=problem):
            unpack_tree(damaged(tree, "reply", change), wl)
    leaf = int(np.flatnonzero((tree.children < 0).all(axis=1))[0])
    with pytest.raises(ValueError, match="no target reaches"):
        unpack_tree(damaged(tree, "found", lambda a: a.__setitem__(leaf, 0)), wl)
    packed = pack_tree(*arrays(tree))
    packed["depth"] = encode_array(np.zeros(3, np.uint8), deflate=True)
    with pytest.raises(ValueError, match="not of one length"):
        unpack_tree(packed, wl)
    with pytest.raises(ValueError, match="columns guess, depth, reply, found"):
        unpack_tree({"guess": packed["guess"]}, wl)
    packed = pack_tree(*arrays(tree))
    packed["found"] = encode_array(np.ones(len(tree), np.float64), deflate=True)
    with pytest.raises(ValueError, match="not integers"):
        unpack_tree(packed, wl)
