"""The core under every rule set (issue 11) against the literal twin (tests/twins/reference.py, which
partitions by :meth:`Rules.reply` codes and wins on identity): exact equality of guess counts,
GuesserGBR at random states, class sizes and incremental updates, on random small dictionaries
with repeated letters, anagram families and positional replies, on every evaluation path, kernel
variant and thread count.  The core counts such lists bit-sliced over token tables (repeated
letters), over letters out of and in place (positional), or pair by pair (all 64 tokens in use,
positional with repeated letters): each is checked against the twin on every kernel variant."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jotto
from jotto import _core
from jotto.engine import runtime
from jotto.game.rules import PRESETS, Rules
from jotto.game.words import WordList
from tests.twins import reference
from tests.twins.strategies import ANY_RULES, float_weights, int_weights, rules_dictionaries


def with_weights(kind):
    make = float_weights if kind == "float" else int_weights
    return rules_dictionaries().flatmap(
        lambda rw: st.tuples(st.just(rw[0]), st.just(rw[1]), make(len(rw[1])))
    )


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
    got = jotto.comp_num_guesses(word_list(rules, words), np.array(v, dtype=np.int64), rule="exact")
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
        expected = np.bincount(
            [rules.reply(words[c], words[i]) for i in S], minlength=rules.classes(L)
        )
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
    assert tree.guess_counts().tolist() == reference.Game(words, rules).comp_num_guesses(
        v2.tolist(), "exact"
    )


def _cand(rules):
    return _core.CAND_CONSISTENT if rules.hard else _core.CAND_ALL


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
@given(case=with_weights("float"))
def test_every_kernel_variant_and_thread_count_gives_the_same_trees(variant, case, paths):
    rules, words, h = case
    wl = word_list(rules, words)
    default = runtime.kernel_variant()
    expected = {
        rule: jotto.comp_num_guesses(wl, np.array(h), rule=rule, threads=1)
        for rule in jotto.DECISION_RULES
    }
    runtime.select_kernel_variant(variant)
    try:
        for rule in jotto.DECISION_RULES:
            assert (
                jotto.comp_num_guesses(wl, np.array(h), rule=rule, threads=2) == expected[rule]
            ).all()
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


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_core_list_carries_its_rules(name):
    """The one road from rules to the engine: the core's list has the reply codes, win code,
    branching (Rules.branches, the counting bound's) and hard mode of its rules, and travels to
    worker processes (pickled) as the same list."""
    import pickle

    rules = PRESETS[name]
    words = ["stare", "plumb", "tears", "chink", "dwarf"]
    if rules.anagrams != "keep-all":
        words.remove("tears")
    wl = word_list(rules, words)
    for listed in (wl.core, pickle.loads(pickle.dumps(wl.core))):
        assert (listed.classes, listed.win, listed.branches, listed.hard) == (
            rules.classes(5),
            rules.win_code(5),
            rules.branches(5),
            rules.hard,
        )
        counts = jotto.comp_num_guesses(wl, rule="exact")
        assert (
            _core.build_tree(listed, _core.RULE_EXACT, _core.CAND_ALL, None, None, 0.0, 0.0, 1)
            .guess_counts()
            .tolist()
            == counts.tolist()
        )


def test_paper_lists_through_tokens_equal_masks():
    """The paper's lists give the same core whether built from masks or from tokens."""
    wl = jotto.load_words(["abcde", "fghij", "abfgk", "cdhij", "klmno", "acegi"])
    by_masks = _core.Words(np.ascontiguousarray(wl.masks), wl.length)
    by_tokens = _core.Words(Rules().tokens(wl.words), wl.length)
    for rule in (_core.RULE_PAPER, _core.RULE_EXACT):
        a = _core.build_tree(by_masks, rule, 0, None, None, 0.0, 0.0, 1).export()
        b = _core.build_tree(by_tokens, rule, 0, None, None, 0.0, 0.0, 1).export()
        assert [x.tolist() for x in a] == [x.tolist() for x in b]


@pytest.mark.parametrize(
    "tokens, spell, keep_all",
    [
        ([0b11, 0b11], None, False),  # equal full token sets without keep-all
        ([0b111, 0b11], None, False),  # more tokens than letters
        ([0b11, 0b101], [0x0201, 0x0201], True),  # equal spellings
        ([0b11, 0b101], [0x0201, 0x1B01], True),  # a spelling letter out of range
    ],
)
def test_bad_core_word_lists_are_refused(tokens, spell, keep_all):
    with pytest.raises(ValueError):
        _core.Words(
            np.array(tokens, dtype=np.uint64),
            2,
            None if spell is None else np.array(spell, dtype=np.uint64),
            keep_all=keep_all,
        )


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


@contextlib.contextmanager
def kernel_variant(variant):
    default = runtime.kernel_variant()
    runtime.select_kernel_variant(variant)
    try:
        yield
    finally:
        runtime.select_kernel_variant(default)


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
@given(
    case=rules_dictionaries(rules=ANY_RULES).flatmap(
        lambda rw: st.tuples(st.just(rw[0]), st.just(rw[1]), int_weights(len(rw[1])))
    ),
    threads=st.sampled_from([1, 2]),
    data=st.data(),
)
def test_every_kernel_variant_matches_the_reference(variant, case, threads, data, paths):
    """Guess counts (exact rule, any weights) and class sizes by reply code, under any rules,
    on each kernel variant, against the twin."""
    rules, words, v = case
    wl = word_list(rules, words)
    game = reference.Game(words, rules)
    D = len(words)
    S = np.array(sorted(data.draw(st.sets(st.integers(0, D - 1), min_size=1))), dtype=np.int32)
    cand = np.array(data.draw(st.lists(st.integers(0, D - 1), min_size=1)), dtype=np.int32)
    with kernel_variant(variant):
        got = jotto.comp_num_guesses(wl, np.array(v, dtype=np.int64), rule="exact", threads=threads)
        sizes = _core.class_sizes(wl.core, S)
        sizes_of = _core.class_sizes(wl.core, S, cand)
    assert got.tolist() == game.comp_num_guesses(v, "exact")
    expected = np.zeros((game.R, D), dtype=np.int64)
    for c in range(D):
        for i in S:
            expected[game.table[c][i], c] += 1
    assert sizes.tolist() == expected.tolist()
    assert sizes_of.tolist() == expected[:, cand].tolist()


class _Token:
    """A word of the core given by its token mask alone (for the twin: compared by identity)."""

    def __init__(self, tokens, length):
        self.tokens, self.length = tokens, length

    def __len__(self):
        return self.length


class _TokenRules:
    """The core's reply codes for raw token masks (jotto_engine.h, jt_words_new_rules): the win
    is identity; else letters in common, L+1 for L in common under keep-all."""

    hard = False

    def __init__(self, keep_all):
        self.keep_all = keep_all

    def classes(self, length):
        return length + 2 if self.keep_all else length + 1

    def reply(self, guess, target):
        if guess is target:
            return guess.length
        a = bin(guess.tokens & target.tokens).count("1")
        return guess.length + 1 if self.keep_all and a == guess.length else a


@st.composite
def token_lists(draw):
    """(masks, L, keep_all): up to L of the 64 token bits a word; with ``full`` every bit is in
    use, which leaves the core no spare token and sends the list pair by pair."""
    L = draw(st.integers(2, 4))
    keep_all = draw(st.booleans())
    bits = draw(st.lists(st.integers(0, 63), min_size=L + 1, max_size=12, unique=True))
    masks = []
    if draw(st.booleans()):  # full
        masks = [sum(1 << b for b in range(k, min(k + L, 64))) for k in range(0, 64, L)]
    for _ in range(draw(st.integers(2, 16))):
        chosen = draw(st.lists(st.sampled_from(bits), min_size=1, max_size=L, unique=True))
        masks.append(sum(1 << b for b in chosen))
    seen, kept = set(), []
    for m in masks:  # equal full token sets only under keep-all
        if bin(m).count("1") == L and not keep_all and m in seen:
            continue
        seen.add(m)
        kept.append(m)
    return kept, L, keep_all


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
@given(case=token_lists(), data=st.data())
def test_raw_token_lists_match_the_reference(variant, case, data, paths):
    """Any token masks (occurrence tokens anywhere in the 64 bits, words with fewer tokens than
    letters), with and without a spare token, on each kernel variant: guess counts under any
    integer weights, and GuesserGBR's class sizes."""
    masks, L, keep_all = case
    words = [_Token(m, L) for m in masks]
    game = reference.Game(words, _TokenRules(keep_all))
    core = _core.Words(np.array(masks, dtype=np.uint64), L, keep_all=keep_all)
    D = len(masks)
    v = np.array(data.draw(int_weights(D)), dtype=np.int64)
    threads = data.draw(st.sampled_from([1, 2]))
    with kernel_variant(variant):
        tree = _core.build_tree(core, _core.RULE_EXACT, _core.CAND_ALL, v, None, 0.0, 0.0, threads)
        sizes = _core.class_sizes(core, np.arange(D, dtype=np.int32))
    assert tree.guess_counts().tolist() == game.comp_num_guesses(v.tolist(), "exact")
    assert sizes.tolist() == [
        [sum(game.table[c][i] == j for i in range(D)) for c in range(D)] for j in range(game.R)
    ]


@st.composite
def positional_lists(draw):
    """Up to 450 distinct spellings of 2..8 distinct letters over a few letters (many letters in
    common and in place, so the rare classes occur): big enough for the positional kernels'
    several chunks, rounds of byte counters and segments of chunk tables."""
    L = draw(st.integers(2, 8))
    alphabet = np.array(list("etaoinshrdlucmfwyp"[: draw(st.integers(L + 1, 18))]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    room = int(np.prod(np.arange(len(alphabet) - L + 1, len(alphabet) + 1)))
    D = draw(st.integers(2, min(room, 450)))
    found: dict[str, None] = {}
    while len(found) < D:
        found["".join(rng.choice(alphabet, L, replace=False))] = None
    return list(found), rng


@pytest.mark.parametrize("variant", runtime.available_kernel_variants())
@given(case=positional_lists(), data=st.data())
def test_positional_kernels_on_large_lists(variant, case, data):
    """The positional kernels (letters out of and in place, bit-sliced) on lists of up to 450
    words, each kernel variant: class sizes over targets S of every size (one chunk, many, more
    than one segment), and GuesserGBR under both rules with uniform weights, whose sums of squared
    class sizes take their own paths (in bytes up to 15 targets, in registers up to 255 or one
    segment), against the twin."""
    words, rng = case
    rules = PRESETS["positional"]
    game = reference.Game(words, rules)
    wl = word_list(rules, words)
    D = len(words)
    m = data.draw(st.one_of(st.integers(1, 15), st.integers(16, 64), st.integers(65, 450)))
    S = np.sort(rng.choice(D, min(m, D), replace=False)).astype(np.int32)
    state = np.zeros(D, dtype=bool)
    state[S] = True
    with kernel_variant(variant):
        sizes = _core.class_sizes(wl.core, S)
        paper = jotto.guesser_gbr(wl, np.ones(D), state, rule="paper")
        exact = jotto.guesser_gbr(wl, np.ones(D), state, rule="exact")
    expected = np.zeros((game.R, D), dtype=np.int64)
    for c in range(D):
        for i in S:
            expected[game.table[c][i], c] += 1
    assert sizes.tolist() == expected.tolist()
    assert paper == game.gbr_paper([1.0] * D, state.tolist())
    assert exact == game.gbr_exact([1] * D, state.tolist())
