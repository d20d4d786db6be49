"""The Jotto sheet's letter deduction against its brute-force twin: every set of L letters,
kept when it agrees with all replies; a letter is present when all kept sets hold it, absent
when none does."""

from __future__ import annotations

import itertools
import string
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jotto.game.rules import PRESETS
from jotto.play.sheet import LetterSheet, Style, deduce_letters, sheet_lines


def brute_force(guesses, replies, length, alphabet=string.ascii_lowercase):
    kept = [
        set(c)
        for c in itertools.combinations(alphabet, length)
        if all(len(set(c) & set(g)) == r for g, r in zip(guesses, replies))
    ]
    if not kept:
        return None
    present = frozenset(set.intersection(*kept))
    absent = frozenset(set(alphabet) - set.union(*kept))
    return LetterSheet(present, absent)


def test_the_documented_example():
    assert (
        deduce_letters(["abc", "abd", "cde"], [1, 1, 1], 3)
        == LetterSheet(frozenset("e"), frozenset("cd"))
        == brute_force(["abc", "abd", "cde"], [1, 1, 1], 3)
    )


def test_no_guesses_and_contradictions():
    assert deduce_letters([], [], 5) == LetterSheet(frozenset(), frozenset())
    assert deduce_letters(["stare"], [6], 5) is None
    assert deduce_letters(["stare", "stare"], [1, 2], 5) is None
    assert deduce_letters(["stare", "clonk"], [5, 1], 5) is None
    assert deduce_letters(["stare"], [5], 5) == LetterSheet(
        frozenset("stare"), frozenset(set(string.ascii_lowercase) - set("stare"))
    )


def _game(length):
    word = st.lists(
        st.sampled_from(string.ascii_lowercase), min_size=length, max_size=length, unique=True
    ).map("".join)
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
    replies = data.draw(
        st.lists(st.integers(0, length), min_size=len(guesses), max_size=len(guesses))
    )
    assert deduce_letters(guesses, replies, length) == brute_force(guesses, replies, length)


@pytest.mark.parametrize(
    "guesses, replies",
    [
        (["stare", "clonk", "pudgy"], [2, 0, 1]),
        (["fjord", "gucks", "nymph", "vibex", "waltz"], [1, 1, 1, 1, 1]),
        (["stare", "tears", "rates"], [3, 3, 3]),
    ],
)
def test_matches_brute_force_with_five_letters(guesses, replies):
    assert deduce_letters(guesses, replies, 5) == brute_force(guesses, replies, 5)


def test_sheet_lines_plain_and_coloured():
    plain = sheet_lines(
        "Your sheet:", ["abc", "abd", "cde"], [1, 1, 1], PRESETS["paper"], 3, Style(False), 4
    )
    assert plain == [
        "Your sheet:",
        "   1  abc  1",
        "   2  abd  1",
        "   3  cde  1",
        "      in: E  out: c d",
        "      4 words fit",
    ]
    coloured = sheet_lines("Your sheet:", ["abc"], [0], PRESETS["paper"], 3, Style(True))
    assert "\x1b[2;9ma\x1b[0m" in coloured[-1] and "\x1b[" in coloured[1]
    # the whole alphabet at a colour terminal, absent letters struck through
    assert coloured[-1].strip().startswith("\x1b[2;9ma\x1b[0m \x1b[2;9mb\x1b[0m")
    assert coloured[-1].endswith(" z")
    assert (
        sheet_lines("S", [], [], PRESETS["paper"], 3, Style(False))[-1]
        == "      in: none  out: none"
    )


def test_marks_by_hand_are_shown_apart_from_what_is_proved():
    marks = {"x": False, "e": True, "q": False}
    for style in (Style(False), Style(True)):
        lines = sheet_lines("S", ["abc"], [0], PRESETS["paper"], 3, style, marks=marks)
        assert lines[-1] == "      your marks: in: E  out: q x"
    plain = sheet_lines("S", ["abc"], [0], PRESETS["paper"], 3, Style(False), 7, marks)
    assert plain[-3:] == [
        "      in: none  out: a b c",
        "      your marks: in: E  out: q x",
        "      7 words fit",
    ]
    assert (
        sheet_lines("S", ["abc", "abc"], [1, 2], PRESETS["paper"], 3, Style(False))[-1].strip()
        == "no set of letters fits all these replies"
    )


# ---- other rules: repeated letters (multiset counting), positional and anagram replies ---------


def brute_force_multiset(guesses, replies, length, alphabet=string.ascii_lowercase):
    """Every multiset of ``length`` letters, kept when each reply is the multiset count."""
    kept = []
    for c in itertools.combinations_with_replacement(alphabet, length):
        secret = Counter(c)
        if all(
            sum(min(n, secret[ch]) for ch, n in Counter(g).items()) == r
            for g, r in zip(guesses, replies)
        ):
            kept.append(set(c))
    if not kept:
        return None
    return LetterSheet(
        frozenset(set.intersection(*kept)), frozenset(set(alphabet) - set.union(*kept))
    )


def test_repeated_letters_the_perl_articles_examples():
    """aaxyz replies 2 to aaghj (two a's in both), so a is present and only g, h, j can
    complete it; abcde replies 1 to aaxyz."""
    got = deduce_letters(["aaxyz"], [2], 5, repeats=True)
    assert got == brute_force_multiset(["aaxyz"], [2], 5)
    assert "a" not in got.absent and not got.present  # two a's, or one a with x, y or z
    assert deduce_letters(["aaxyz", "xyzqq"], [2, 0], 5, repeats=True) == LetterSheet(
        frozenset("a"), frozenset("xyzq")
    )
    # distinct-letter reasoning would be wrong here: aaxyz 2 does not prove two letters of xyz
    assert deduce_letters(["aaxyz", "xyzqq"], [2, 0], 5, repeats=True) != deduce_letters(
        ["aaxyz", "xyzqq"], [2, 0], 5
    )


@pytest.mark.parametrize("length", [2, 3])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_repeated_letters_match_brute_force(length, data):
    word = st.lists(st.sampled_from("abcdef"), min_size=length, max_size=length).map("".join)
    secret = data.draw(word)
    guesses = data.draw(st.lists(word, max_size=4))
    truthful = data.draw(st.booleans())
    if truthful:
        replies = [
            sum(min(n, Counter(secret)[ch]) for ch, n in Counter(g).items()) for g in guesses
        ]
    else:
        replies = data.draw(
            st.lists(st.integers(0, length), min_size=len(guesses), max_size=len(guesses))
        )
    got = deduce_letters(guesses, replies, length, repeats=True)
    assert got == brute_force_multiset(guesses, replies, length)
    if truthful:
        assert got.present <= set(secret) and not (got.absent & set(secret))


def test_sheet_uses_letters_in_common_of_positional_and_anagram_replies():
    positional, eckler = PRESETS["positional"], PRESETS["eckler"]
    code = positional.reply("stare", "tears")  # 5 in common, a and r in place
    lines = sheet_lines("S", ["stare"], [code], positional, 5, Style(False))
    assert lines[1] == "   1  stare  5/2"
    assert lines[2] == "      in: A E R S T  out: " + " ".join(
        c for c in string.ascii_lowercase if c not in "stare"
    )
    anagram = eckler.reply("stare", "tears")
    assert anagram == 6  # L + 1: not the win
    lines = sheet_lines("S", ["stare"], [anagram], eckler, 5, Style(False))
    assert (
        lines[1] == "   1  stare  5"
        and lines[2] == sheet_lines("S", ["stare"], [5], PRESETS["paper"], 5, Style(False))[2]
    )
