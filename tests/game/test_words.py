"""Word lists: the sizes measured in ../shared/wordlists/SOURCES.md, both anagram rules, every
source kind, and every error path with its message."""

from __future__ import annotations

import gzip
import hashlib
import io

import numpy as np
import pytest

import jotto
from jotto.game.rules import PRESETS
from jotto.game.words import WordListError, letter_mask


@pytest.mark.parametrize("length, size", [(2, 51), (3, 421), (4, 1373), (5, 2833)])
def test_twl06_sizes_are_the_papers(twl06_path, length, size):
    assert len(jotto.load_words(twl06_path, length=length)) == size


@pytest.mark.parametrize("length, size", [(2, 50), (3, 415), (4, 1351), (5, 2780)])
def test_bundled_enable_sizes(length, size):
    assert len(jotto.load_words("enable", length=length)) == size


def test_default_source_is_enable():
    assert jotto.load_words().words == jotto.load_words("enable").words
    assert jotto.load_words().source == "enable"


def test_sgb_words_both_rules():
    assert len(jotto.load_words("sgb", anagrams="paper")) == 2177
    norvig = jotto.load_words("sgb", anagrams="norvig")
    assert len(norvig) == 2845
    assert norvig.words[:4] == ("their", "about", "would", "throe")


def test_norvig_rule_is_the_notebooks_dict_comprehension():
    words = ["other", "their", "throe", "abcde", "tower", "wrote", "zebra"]
    expected = list({frozenset(w): w for w in words if len(w) == 5 == len(frozenset(w))}.values())
    got = jotto.load_words(words, anagrams="norvig")
    assert list(got.words) == expected == ["throe", "their", "abcde", "wrote", "zebra"]
    assert got.dropped["anagram"] == 2
    assert got.dropped_words("anagram") == ("other", "tower")


def test_paper_rule_drops_every_word_of_a_shared_letter_set():
    got = jotto.load_words(["other", "their", "throe", "abcde"])
    assert got.words == ("their", "abcde")
    assert got.dropped_words("anagram") == ("other", "throe")


def test_rules_order_case_blank_lines_comments_and_duplicates(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("# a comment line\nAbout\n\n  noise  ABOUT\nletter\nsweet\nnoise\n")
    got = jotto.load_words(path)
    assert got.words == ("about", "noise")
    assert got.dropped == {
        "invalid": 0,
        "other_length": 1,
        "duplicate": 2,
        "repeated_letter": 1,
        "anagram": 0,
    }
    assert got.dropped_words("duplicate") == ("about", "noise")
    assert got.dropped_words("repeated_letter") == ("sweet",)
    with pytest.raises(ValueError, match="counted, not kept"):
        got.dropped_words("other_length")
    with pytest.raises(ValueError, match="unknown drop reason"):
        got.dropped_words("nope")


def test_masks_length_rules_and_immutability():
    got = jotto.load_words(["cab", "dog"], length=3)
    assert got.masks.dtype == np.uint32
    assert got.masks.tolist() == [0b111, (1 << 3) | (1 << 6) | (1 << 14)]
    assert letter_mask("cab") == 0b111
    assert got.length == 3 and got.rules == PRESETS["paper"] and got.rules.name == "paper"
    with pytest.raises(ValueError):
        got.masks[0] = 1
    with pytest.raises(AttributeError):
        got.words = ()  # type: ignore[misc]
    assert got.index("DOG") == 1 and "Cab" in got and "cat" not in got
    with pytest.raises(KeyError, match="'cat' is not in this word list"):
        got.index("cat")


def test_sha256_is_of_the_words_in_order_one_per_line():
    got = jotto.load_words(["cab", "dog"], length=3)
    assert got.sha256 == hashlib.sha256(b"cab\ndog\n").hexdigest()
    assert jotto.load_words(["dog", "cab"], length=3).sha256 != got.sha256


def test_sources_file_objects_gzip_and_iterables(tmp_path):
    text = "about\nnoise\n"
    (tmp_path / "w.txt.gz").write_bytes(gzip.compress(text.encode()))
    expected = ("about", "noise")
    assert jotto.load_words(tmp_path / "w.txt.gz").words == expected
    assert jotto.load_words(io.StringIO(text)).words == expected
    assert jotto.load_words(io.BytesIO(text.encode())).words == expected
    assert jotto.load_words(iter(["ABOUT", "noise"])).words == expected
    assert jotto.load_words(str(tmp_path / "w.txt.gz")).source.endswith("w.txt.gz")


def test_invalid_token_names_file_line_and_token(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("about\nnoise\ncafé\n")
    with pytest.raises(WordListError, match=r"bad\.txt, line 3: 'café' is not a word of ASCII"):
        jotto.load_words(path)
    skipped = jotto.load_words(path, invalid="skip")
    assert skipped.words == ("about", "noise")
    assert skipped.dropped["invalid"] == 1 and skipped.dropped_words("invalid") == ("café",)


def test_invalid_items_of_an_iterable_name_their_position():
    with pytest.raises(WordListError, match=r"<words>, line 2: 'x-ray'"):
        jotto.load_words(["about", "x-ray"])
    with pytest.raises(WordListError, match=r"item 2: 5 is not a string"):
        jotto.load_words(["about", 5])  # type: ignore[list-item]


def test_undecodable_file(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"about\nna\xefve\n")
    with pytest.raises(WordListError, match=r"latin1\.txt, line 2: bytes that are not UTF-8"):
        jotto.load_words(path)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"length": 0}, "length must be from 1 to 26 letters, not 0"),
        ({"length": 27}, "length must be from 1 to 26 letters, not 27"),
        ({"length": "5"}, "length must be an integer"),
        ({"anagrams": "keep"}, "unknown anagram rule 'keep'"),
        ({"rules": "scrabble"}, "unknown rules 'scrabble'; presets: paper, norvig"),
        ({"rules": "paper,loud"}, "unknown option 'loud'"),
        ({"invalid": "ignore"}, "invalid must be 'error' or 'skip'"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        jotto.load_words(["about"], **kwargs)


def test_missing_file_and_unknown_bundled_name(tmp_path):
    with pytest.raises(WordListError, match=r"twl: no such file \(bundled lists: enable, sgb\)"):
        jotto.load_words("twl")
    with pytest.raises(WordListError, match="no such file"):
        jotto.load_words(tmp_path / "absent.txt")
    with pytest.raises(WordListError, match=r"cannot read words from 5 \(a int\)"):
        jotto.load_words(5)  # type: ignore[arg-type]


def test_empty_results_are_errors(tmp_path):
    with pytest.raises(WordListError, match="no playable 5-letter words"):
        jotto.load_words(["sweet", "other", "throe"])
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(WordListError, match=r"empty\.txt: no playable 5-letter words"):
        jotto.load_words(empty)
    with pytest.raises(WordListError, match="no playable 12-letter words"):
        jotto.load_words("sgb", length=12)


def test_from_words_takes_a_list_as_given_or_says_why_not():
    wl = jotto.WordList.from_words(["Dog", "cab"])
    assert wl.words == ("dog", "cab") and wl.rules.name == "paper"
    for words, message in [
        (["dog", "cabs"], "'cabs' is not a word of 3"),
        (["dog", "odd"], "'odd' repeats a letter"),
        (["dog", "god"], "'god' and 'dog' share their letters"),
        ([], "no words"),
    ]:
        with pytest.raises(WordListError, match=message):
            jotto.WordList.from_words(words)
