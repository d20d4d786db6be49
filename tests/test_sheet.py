"""The Jotto sheet's letter deduction against its brute-force twin: every set of L letters,
kept when it agrees with all replies; a letter is present when all kept sets hold it, absent
when none does."""

from __future__ import annotations

import itertools
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jotto.sheet import LetterSheet, Style, deduce_letters, sheet_lines


def brute_force(guesses, replies, length, alphabet=string.ascii_lowercase):
    kept = [set(c) for c in itertools.combinations(alphabet, length)
            if all(len(set(c) & set(g)) == r for g, r in zip(guesses, replies))]
    if not kept:
        return None
    present = frozenset(set.intersection(*kept))
    absent = frozenset(set(alphabet) - set.union(*kept))
    return LetterSheet(present, absent)


def test_the_documented_example():
    assert deduce_letters(["abc", "abd", "cde"], [1, 1, 1], 3) == \
        LetterSheet(frozenset("e"), frozenset("cd")) == \
        brute_force(["abc", "abd", "cde"], [1, 1, 1], 3)


def test_no_guesses_and_contradictions():
    assert deduce_letters([], [], 5) == LetterSheet(frozenset(), frozenset())
    assert deduce_letters(["stare"], [6], 5) is None
    assert deduce_letters(["stare", "stare"], [1, 2], 5) is None
    assert deduce_letters(["stare", "clonk"], [5, 1], 5) is None
    assert deduce_letters(["stare"], [5], 5) == LetterSheet(frozenset("stare"),
                                                            frozenset(set(string.ascii_lowercase)
                                                                      - set("stare")))


def _game(length):
    word = st.lists(st.sampled_from(string.ascii_lowercase), min_size=length, max_size=length,
                    unique=True).map("".join)
    return st.tuples(word, st.lists(word, min_size=0, max_size=7))


@pytest.mark.parametrize("length", [2, 3, 4])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_matches_brute_force_for_truthful_replies(length, data):
    secret, guesses = data.draw(_game(length))
    replies = [len(set(g) & set(secret)) for g in guesses]
    got = deduce_letters(guesses, replies, length)
    assert got == brute_force(guesses, replies, length)
    assert got.present <= set(secret) and not (got.absent & set(secret))


@pytest.mark.parametrize("length", [2, 3])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_matches_brute_force_for_any_replies(length, data):
    _, guesses = data.draw(_game(length))
    replies = data.draw(st.lists(st.integers(0, length), min_size=len(guesses),
                                 max_size=len(guesses)))
    assert deduce_letters(guesses, replies, length) == brute_force(guesses, replies, length)


@pytest.mark.parametrize("guesses, replies", [
    (["stare", "clonk", "pudgy"], [2, 0, 1]),
    (["fjord", "gucks", "nymph", "vibex", "waltz"], [1, 1, 1, 1, 1]),
    (["stare", "tears", "rates"], [3, 3, 3]),
])
def test_matches_brute_force_with_five_letters(guesses, replies):
    assert deduce_letters(guesses, replies, 5) == brute_force(guesses, replies, 5)


def test_sheet_lines_plain_and_coloured():
    plain = sheet_lines("Your sheet:", ["abc", "abd", "cde"], [1, 1, 1], 3, Style(False), 4)
    assert plain == ["Your sheet:", "   1  abc  1", "   2  abd  1", "   3  cde  1",
                     "      a b - - E f g h i j k l m n o p q r s t u v w x y z",
                     "      4 words fit"]
    coloured = sheet_lines("Your sheet:", ["abc"], [0], 3, Style(True))
    assert "\x1b[2;9ma\x1b[0m" in coloured[-1] and "\x1b[" in coloured[1]
    assert sheet_lines("S", ["abc"], [4], 3, Style(False))[-1].strip() == \
        "no set of letters fits all these replies"
