"""Rule sets: the reply function against the sources' own examples and a direct count, the
words each rule set keeps, the core's token masks and spellings, names and files."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.rules import ANAGRAMS, PRESETS, Rules, RulesError, parse_rules
from jotto.game.turns import consistent, replies
from jotto.game.words import WordListError


def perl_score(word1: str, word2: str) -> int:
    """The Perl article's score routine, transcribed: count word1's letters in a hash, then
    score each letter of word2 whose counter is still positive, decrementing it."""
    counts: dict[str, int] = {}
    for ch in word1:
        counts[ch] = counts.get(ch, 0) + 1
    score = 0
    for ch in word2:
        if counts.get(ch, 0) > 0:
            score += 1
            counts[ch] -= 1
    return score


def direct_reply(rules: Rules, guess: str, target: str) -> int:
    """A reply counted directly: letters in common (with multiplicity when repeats are played)
    and letters in place, combined into the documented code."""
    L = len(guess)
    common = (
        perl_score(guess, target) if rules.repeats else sum(1 for ch in set(guess) if ch in target)
    )
    if rules.positional:
        in_place = sum(1 for p in range(L) if guess[p] == target[p])
        return common + (L + 1) * in_place
    if rules.anagrams == "keep-all" and common == L and guess != target:
        return L + 1
    return common


def test_the_perl_articles_scores():
    perl = PRESETS["perl"]
    assert perl.reply("abcde", "aaxyz") == 1
    assert perl.reply("aaxyz", "aaghj") == 2
    # the article's transcript: the secret is "woman", the scores the author entered
    for guess, score in [
        ("feats", 1),
        ("rumps", 1),
        ("bribe", 0),
        ("coons", 2),
        ("donut", 2),
        ("mango", 4),
    ]:
        assert perl.reply(guess, "woman") == score == perl_score(guess, "woman")
    assert perl.reply("woman", "woman") == perl.win_code(5) == 5
    # "stamp" guessed with "woman": m and a
    assert perl.reply("woman", "stamp") == 2


def test_perl_plays_any_word_and_counts_repeats():
    words = jotto.load_words(["aaxyz", "aaghj", "abcde", "woman", "coons"], rules="perl")
    assert len(words) == 5 and words.rules.repeats
    r = replies(words, words.index("aaxyz"))
    assert r.tolist() == [5, 2, 1, 1, 0]


def test_eckler_keeps_the_stare_family_and_only_the_word_wins():
    eckler = jotto.load_words("enable", rules="eckler")
    family = ["aster", "rates", "stare", "tares", "tears"]
    assert all(w in eckler for w in family)
    stare = eckler.index("stare")
    codes = replies(eckler, stare, [eckler.index(w) for w in family])
    # an anagram that is not the secret shares all 5 letters but is an ordinary reply, L + 1
    assert codes.tolist() == [6, 6, 5, 6, 6]
    assert eckler.win_code == 5 and eckler.classes == 7
    assert eckler.rules.format_reply(6, 5) == "5"
    # Eckler's table of 4-matches for STARE
    for w in ["brats", "carts", "baste", "crest", "bares", "heart", "water"]:
        assert eckler.rules.reply(w, "stare") == 4
    # after hearing "5, not the word" to stare, the secret is one of the other four
    left = consistent(eckler, [(stare, 6)])
    assert sorted(eckler[i] for i in left) == ["aster", "rates", "tares", "tears"]
    # the paper's rules drop the family, Norvig's keep one of it
    assert "stare" not in jotto.load_words("enable")
    norvig = jotto.load_words("enable", rules="norvig")
    assert sum(w in norvig for w in family) == 1


@pytest.mark.parametrize(
    "guess, target, common, in_place",
    [
        ("stare", "tears", 5, 2),
        ("stare", "stare", 5, 5),
        ("stare", "store", 4, 4),
        ("heart", "earth", 5, 0),
        ("crane", "nacre", 5, 1),
        ("abcde", "fghij", 0, 0),
    ],
)
def test_positional_replies_are_a_direct_count(guess, target, common, in_place):
    positional = PRESETS["positional"]
    code = positional.reply(guess, target)
    assert positional.split(code, 5) == (common, in_place)
    assert code == direct_reply(positional, guess, target)
    assert positional.format_reply(code, 5) == f"{common}/{in_place}"
    assert positional.parse_reply(f"{common}/{in_place}", 5) == code
    assert (code == positional.win_code(5)) == (guess == target)


def test_reply_text_is_checked():
    positional, paper = PRESETS["positional"], PRESETS["paper"]
    assert paper.parse_reply(" 3 ", 5) == 3 and positional.parse_reply("3 1", 5) == 9
    for rules, text, message in [
        (paper, "6", "letters in common go from 0 to 5"),
        (paper, "x", "type a number from 0 to 5"),
        (paper, "3/1", "type a number"),
        (positional, "3", "also say how many letters are in place"),
        (positional, "2/3", "no more are in place than in common"),
    ]:
        with pytest.raises(ValueError, match=message):
            rules.parse_reply(text, 5)


def test_names_round_trip_and_bad_rules_are_named():
    for name, rules in PRESETS.items():
        assert rules.name == name and parse_rules(name) == rules
        assert Rules.from_dict(rules.to_dict()) == rules
        assert rules.describe().startswith(f"{name}: ")
    for fields in itertools.product([False, True], ANAGRAMS, [False, True], [False, True]):
        rules = Rules(*fields)
        assert parse_rules(rules.name) == rules
    assert parse_rules("eckler,hard") == Rules(anagrams="keep-all", hard=True)
    assert parse_rules("perl,no-repeats,anagrams=norvig") == Rules(anagrams="keep-one")
    for text, message in [
        ("scrabble", "unknown rules 'scrabble'"),
        ("paper,loud", "unknown option 'loud'"),
        ("paper,anagrams=some", "anagrams must be one of drop, keep-one, keep-all, not 'some'"),
    ]:
        with pytest.raises(RulesError, match=message):
            parse_rules(text)
    with pytest.raises(RulesError, match="rules: unknown field 'colour'"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(RulesError, match="hard must be true or false"):
        Rules(hard="yes")  # type: ignore[arg-type]


def test_words_each_rule_set_keeps():
    source = ["stare", "tears", "sweet", "crane", "nacre", "bumpy", "sweet"]
    kept = {name: jotto.load_words(source, rules=name).words for name in PRESETS}
    assert kept["paper"] == kept["hard"] == ("bumpy",)
    assert kept["norvig"] == ("tears", "nacre", "bumpy")
    assert kept["eckler"] == kept["positional"] == ("stare", "tears", "crane", "nacre", "bumpy")
    assert kept["perl"] == ("stare", "tears", "sweet", "crane", "nacre", "bumpy")
    paper = jotto.load_words(source + ["fjord"])
    with pytest.raises(
        KeyError, match="another word has the same letters, and these rules keep no such word"
    ):
        paper.index("stare")
    with pytest.raises(KeyError, match="it repeats a letter"):
        paper.index("sweet")


def test_the_core_token_limit_and_positional_length_are_named():
    with pytest.raises(WordListError, match="exceed the core's 64-bit masks"):
        jotto.load_words("enable", length=6, rules="perl")
    with pytest.raises(
        WordListError, match="positional replies are counted for words of up to 8 letters, not 9"
    ):
        jotto.load_words(["abcdefghi"], length=9, rules="positional")


def test_files_record_the_rules():
    words = jotto.load_words(["stare", "tears", "crane"], rules="eckler,hard")
    back = jotto.WordList.from_record(words.to_record(), "words")
    assert back.rules == words.rules and back.words == words.words
    old = {**words.to_record(), "anagrams": "norvig"}
    del old["rules"]
    with pytest.raises(WordListError, match="share their letters"):
        jotto.WordList.from_record(old, "words")


# ---- the codes the package computes from token masks and spellings ----------------------------

LETTERS = "abcdeo"


@st.composite
def word_lists(draw):
    """Small lists over few letters, so that repeats, anagrams and shared tokens abound."""
    length = draw(st.integers(2, 5))
    words = draw(
        st.lists(
            st.text(LETTERS, min_size=length, max_size=length), min_size=1, max_size=24, unique=True
        )
    )
    return length, words


@settings(max_examples=60, deadline=None)
@given(word_lists(), st.sampled_from(sorted(PRESETS)))
def test_replies_from_tokens_equal_the_reply_function(drawn, preset):
    length, source = drawn
    try:
        words = jotto.load_words(source, length=length, rules=preset)
    except WordListError:
        return  # nothing playable under these rules
    rules = words.rules
    for g in range(len(words)):
        got = replies(words, g)
        want = [direct_reply(rules, words[g], words[t]) for t in range(len(words))]
        assert got.tolist() == want == [rules.reply(words[g], t) for t in words]
        assert all(0 <= c < words.classes for c in want)
        assert [c == words.win_code for c in want] == [t == g for t in range(len(words))]


def test_singleton_tokens_are_left_out_of_the_masks():
    # "eerie" has the only third e: no other word can share it
    words = jotto.load_words(["eerie", "beset", "abcde"], rules="perl")
    tokens = words.tokens
    assert all(bin(int(m)).count("1") <= 5 for m in tokens)
    assert bin(int(tokens[0])).count("1") == 4  # e, r, i and the shared second e
    assert np.array_equal(replies(words, 0), [5, 2, 1])
