"""The core under every rule set (issue 11) against the literal twin (tests/reference.py, which
partitions by :meth:`Rules.reply` codes and wins on identity): exact equality of guess counts,
GuesserGBR at random states, class sizes and incremental updates, on random small dictionaries
with repeated letters, anagram families and positional replies, on every evaluation path, kernel
variant and thread count."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import jotto
from jotto import _core, runtime
from jotto.rules import PRESETS, Rules
from jotto.words import WordList

from . import reference
from .strategies import float_weights, int_weights, rules_dictionaries


def with_weights(kind):
    make = float_weights if kind == "float" else int_weights
    return rules_dictionaries().flatmap(
        lambda rw: st.tuples(st.just(rw[0]), st.just(rw[1]), make(len(rw[1]))))


@pytest.fixture(params=["default", "small"])
def paths(request):
    """Production thresholds, and ones that send small lists through the shared-node (and
    parallel) paths."""
    if request.param == "small":
        _core.set_thresholds(4, 8, 0)
    yield request.param
    _core.set_thresholds()


def word_list(rules, words):
    return WordList.from_words(words, rules=rules)


@given(case=with_weights("float"))
def test_paper_rule_matches_reference_under_every_rule_set(case, paths):
    rules, words, h = case
    expected = reference.Game(words, rules).comp_num_guesses(h, "paper")
    got = jotto.comp_num_guesses(word_list(rules, words), np.array(h), rule="paper")
    assert got.tolist() == expected


@given(case=with_weights("int"))
def test_exact_rule_matches_reference_under_every_rule_set(case, paths):
    rules, words, v = case
    expected = reference.Game(words, rules).comp_num_guesses(v, "exact")
    got = jotto.comp_num_guesses(word_list(rules, words), np.array(v, dtype=np.int64),
                                 rule="exact")
    assert got.tolist() == expected


@given(case=with_weights("float"), data=st.data())
def test_guesser_gbr_matches_reference_under_every_rule_set(case, data, paths):
    rules, words, h = case
    game = reference.Game(words, rules)
    wl = word_list(rules, words)
    D = len(words)
    S = data.draw(st.lists(st.booleans(), min_size=D, max_size=D).filter(any))
    assert jotto.guesser_gbr(wl, np.array(h), np.array(S), rule="paper") == game.gbr_paper(h, S)
    v = reference.integer_weights(h)
    assert jotto.guesser_gbr(wl, np.array(h), np.array(S), rule="exact") == game.gbr_exact(v, S)


@given(rw=rules_dictionaries(), data=st.data())
def test_class_sizes_count_reply_codes(rw, data):
    rules, words = rw
    wl = word_list(rules, words)
    D, L = len(words), len(words[0])
    S = np.array(sorted(data.draw(st.sets(st.integers(0, D - 1), min_size=1))), dtype=np.int32)
    got = _core.class_sizes(wl.core, S)
    assert got.shape == (rules.classes(L), D)
    for c in range(D):
        expected = np.bincount([rules.reply(words[c], words[i]) for i in S],
                               minlength=rules.classes(L))
        assert got[:, c].tolist() == expected.tolist()


@given(case=with_weights("int"), data=st.data())
def test_updated_trees_equal_fresh_builds(case, data, paths):
    """Fictitious play re-weights trees in place: the result is the fresh build's tree."""
    rules, words, v = case
    wl = word_list(rules, words)
    v = np.array(v, dtype=np.int64)
    tree = _core.build_tree(wl.core, _core.RULE_EXACT, _cand(rules), v, None, 0.0, 0.0, 2)
    v2 = v.copy()
    for i in data.draw(st.lists(st.integers(0, len(words) - 1), max_size=3)):
        v2[i] += data.draw(st.integers(1, 5))
    tree.update(v2, None, 2)
    fresh = _core.build_tree(wl.core, _core.RULE_EXACT, _cand(rules), v2, None, 0.0, 0.0, 1)
    assert [a.tolist() for a in tree.export()] == [a.tolist() for a in fresh.export()]
    assert tree.guess_counts().tolist() == \
        reference.Game(words, rules).comp_num_guesses(v2.tolist(), "exact")


def _cand(rules):
    return _core.CAND_CONSISTENT if rules.hard else _core.CAND_ALL


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
@given(case=with_weights("float"))
def test_every_kernel_variant_and_thread_count_gives_the_same_trees(variant, case, paths):
    rules, words, h = case
    wl = word_list(rules, words)
    default = runtime.kernel_variant()
    expected = {rule: jotto.comp_num_guesses(wl, np.array(h), rule=rule, threads=1)
                for rule in jotto.RULES}
    runtime.select_kernel_variant(variant)
    try:
        for rule in jotto.RULES:
            assert (jotto.comp_num_guesses(wl, np.array(h), rule=rule, threads=2) ==
                    expected[rule]).all()
    finally:
        runtime.select_kernel_variant(default)


def test_trees_have_a_child_per_reply_code():
    """Eckler's STARE family: after STARE, the other four anagrams reply L+1 (not a win) and
    share one branch; positional replies give (L+1)^2 codes."""
    words = ["stare", "aster", "tares", "tears", "rates", "plumb"]
    for name, R in (("eckler", 7), ("positional", 36)):
        wl = word_list(PRESETS[name], words)
        assert wl.core.classes == R == wl.classes
        assert wl.core.win == wl.win_code
        counts, tree = jotto.comp_num_guesses(wl, rule="exact", return_tree=True)
        assert tree.children.shape[1] == R
        assert sorted(counts.tolist())[0] == 1


def test_paper_lists_through_tokens_equal_masks():
    """The paper's lists give the same core whether built from masks or from tokens."""
    wl = jotto.load_words(["abcde", "fghij", "abfgk", "cdhij", "klmno", "acegi"])
    by_masks = _core.Words(np.ascontiguousarray(wl.masks), wl.length)
    by_tokens = _core.Words(Rules().tokens(wl.words), wl.length)
    for rule in (_core.RULE_PAPER, _core.RULE_EXACT):
        a = _core.build_tree(by_masks, rule, 0, None, None, 0.0, 0.0, 1).export()
        b = _core.build_tree(by_tokens, rule, 0, None, None, 0.0, 0.0, 1).export()
        assert [x.tolist() for x in a] == [x.tolist() for x in b]


@pytest.mark.parametrize("tokens, spell, keep_all", [
    ([0b11, 0b11], None, False),             # equal full token sets without keep-all
    ([0b111, 0b11], None, False),            # more tokens than letters
    ([0b11, 0b101], [0x0201, 0x0201], True),  # equal spellings
    ([0b11, 0b101], [0x0201, 0x1b01], True),  # a spelling letter out of range
])
def test_bad_core_word_lists_are_refused(tokens, spell, keep_all):
    with pytest.raises(ValueError):
        _core.Words(np.array(tokens, dtype=np.uint64), 2,
                    None if spell is None else np.array(spell, dtype=np.uint64),
                    keep_all=keep_all)


@given(rw=rules_dictionaries())
def test_tree_files_keep_the_rules(rw):
    """A tree's JSON records the list's rules and reads back to the same tree, whose walk gives
    the core's guess counts."""
    rules, words = rw
    wl = word_list(rules, words)
    counts, tree = jotto.comp_num_guesses(wl, rule="exact", return_tree=True)
    assert tree.guesses_needed().tolist() == counts.tolist()
    back = jotto.DecisionTree.from_json(tree.to_json())
    assert back.words.rules == rules
    assert back.children.tolist() == tree.children.tolist()
    assert back.guess.tolist() == tree.guess.tolist()
    for target in range(len(words)):
        assert len(tree.path(target)) == counts[target]
