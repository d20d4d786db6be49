"""Decision trees saved and loaded: JSON round trips, the exact JSON, DOT and outline of a tiny
tree, format by suffix, and every way a tree file is refused."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jotto
from jotto.game.trees import DecisionTree, TreeFileError

TINY = ["cab", "dog", "fit"]
TINY_SHA256 = "2d0374e90404130cf174fa1952ccb3743fc3656ba02eb662603bc617636f3bae"
ARRAYS = ("guess", "depth", "size", "children")


@pytest.fixture(scope="module")
def tiny() -> DecisionTree:
    """cab, dog, fit share no letter: cab (3 targets) → 0 → dog (2) → 0 → fit (1)."""
    return jotto.gbr_tree(TINY, rule="exact")


@pytest.fixture(scope="module")
def sgb_tree() -> DecisionTree:
    return jotto.gbr_tree(jotto.load_words("sgb", anagrams="norvig"), rule="exact")


def assert_same_tree(a: DecisionTree, b: DecisionTree) -> None:
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.words.words == b.words.words and a.words.sha256 == b.words.sha256
    assert np.array_equal(a.guesses_needed(), b.guesses_needed())


def test_tiny_tree_is_the_one_derived_by_hand(tiny):
    assert tiny.guess.tolist() == [0, 1, 2] and tiny.size.tolist() == [3, 2, 1]
    assert tiny.guesses_needed().tolist() == [1, 2, 3]
    assert tiny.words.sha256 == TINY_SHA256


def test_a_tree_walked_for_some_targets_gives_theirs_alone(tiny, sgb_tree):
    """guesses_needed(targets): the same guesses for those targets as the whole walk, 0 for the
    other words, and nothing for no target (tiny: derived by hand, above)."""
    assert tiny.guesses_needed(np.array([2])).tolist() == [0, 0, 3]
    assert tiny.guesses_needed(np.array([], dtype=np.intp)).tolist() == [0, 0, 0]
    whole = sgb_tree.guesses_needed()
    some = np.arange(0, len(sgb_tree.words), 7)
    expected = np.zeros_like(whole)
    expected[some] = whole[some]
    assert np.array_equal(sgb_tree.guesses_needed(some), expected)


def test_tiny_json_is_exactly_the_nested_document(tiny):
    assert json.loads(tiny.to_json("gbr-exact")) == {
        "format": "jotto-tree",
        "version": 1,
        "guesser": "gbr-exact",
        "words": {
            "words": ["cab", "dog", "fit"],
            "length": 3,
            "rules": {"repeats": False, "anagrams": "drop", "positional": False, "hard": False},
            "source": "<words>",
            "sha256": TINY_SHA256,
        },
        "tree": {
            "guess": "cab",
            "size": 3,
            "branches": {
                "0": {"guess": "dog", "size": 2, "branches": {"0": {"guess": "fit", "size": 1}}}
            },
        },
    }
    assert json.loads(tiny.to_json())["guesser"] is None


def test_branch_keys_are_increasing_replies():
    # jot (5) → 0 → cab {cab, hum}, 1 → dog {dog, fit}: guesses 2, 2, 3, 3, 1.
    tree = jotto.gbr_tree(["cab", "dog", "fit", "hum", "jot"], rule="exact")
    doc = json.loads(tree.to_json())["tree"]
    assert (doc["guess"], doc["size"], list(doc["branches"])) == ("jot", 5, ["0", "1"])
    assert doc["branches"]["0"] == {
        "guess": "cab",
        "size": 2,
        "branches": {"0": {"guess": "hum", "size": 1}},
    }
    assert doc["branches"]["1"] == {
        "guess": "dog",
        "size": 2,
        "branches": {"0": {"guess": "fit", "size": 1}},
    }
    back = DecisionTree.from_json(tree.to_json())
    assert_same_tree(tree, back)
    assert back.guesses_needed().tolist() == [2, 2, 3, 3, 1]


def test_tiny_json_round_trip(tiny):
    back = DecisionTree.from_json(tiny.to_json())
    assert_same_tree(tiny, back)
    assert back.guesses_needed().tolist() == [1, 2, 3]
    assert [back.path(t) for t in range(3)] == [[0], [0, 1], [0, 1, 2]]
    assert (back.words.source, back.words.rules.name, back.words.length) == ("<words>", "paper", 3)


def test_sgb_norvig_tree_round_trip(sgb_tree, tmp_path):
    words = sgb_tree.words
    assert (len(words), words[sgb_tree.guess[0]], len(sgb_tree)) == (2845, "raved", 3174)
    back = DecisionTree.from_json(sgb_tree.to_json())
    assert_same_tree(sgb_tree, back)
    assert (back.words.source, back.words.rules.name) == ("sgb", "norvig")
    for t in (0, 1000, 2844):
        assert back.path(t) == sgb_tree.path(t)
    path = tmp_path / "sgb.json"
    sgb_tree.save(path, guesser="gbr")
    bound = DecisionTree.load(path, words=words)
    assert bound.words is words
    assert_same_tree(sgb_tree, bound)
    assert DecisionTree.from_json(str(path)).guess.tolist() == sgb_tree.guess.tolist()


def test_tiny_outline(tiny):
    assert tiny.to_outline() == "cab (3)\n  0 → dog (2)\n    0 → fit (1)\n"


def test_sgb_outline_starts_at_the_root(sgb_tree):
    lines = sgb_tree.to_outline().splitlines()
    assert len(lines) == len(sgb_tree) and lines[0] == "raved (2845)"
    assert lines[1].startswith("  0 → ") and all(line.startswith("  ") for line in lines[1:])


def test_tiny_dot(tiny):
    dot = tiny.to_dot()
    assert dot.startswith("digraph jotto {\n") and dot.endswith("}\n")
    assert '  n0 [label="cab\\n3"];' in dot.splitlines()
    assert '  n1 [label="dog\\n2"];' in dot.splitlines()
    assert '  n2 [label="fit\\n1", shape=box];' in dot.splitlines()
    assert '  n0 -> n1 [label="0"];' in dot.splitlines()
    assert '  n1 -> n2 [label="0"];' in dot.splitlines()
    assert dot.count("->") == 2 and dot.count("shape=box") == 1


def test_dot_parses_with_graphviz(sgb_tree):
    dot = shutil.which("dot")
    if dot is None:
        pytest.skip("GraphViz `dot` is not installed, so the DOT text is only checked as text")
    subprocess.run(
        [dot, "-Tcanon"], input=sgb_tree.to_dot().encode(), check=True, capture_output=True
    )


@pytest.mark.parametrize(
    "suffix,render",
    [(".json", None), (".dot", "to_dot"), (".gv", "to_dot"), (".txt", "to_outline")],
)
def test_save_picks_the_format_by_suffix(tiny, tmp_path, suffix, render):
    path = tmp_path / f"tree{suffix}"
    tiny.save(path, guesser="gbr")
    text = path.read_text(encoding="utf-8")
    if render is None:
        assert text == tiny.to_json("gbr")
        assert_same_tree(tiny, DecisionTree.load(path))
    else:
        assert text == getattr(tiny, render)()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_save_refuses_an_unknown_suffix(tiny, tmp_path):
    with pytest.raises(ValueError, match=r"suffix '\.xml'; use \.json .*\.dot or \.gv .*\.txt"):
        tiny.save(tmp_path / "tree.xml")
    assert list(tmp_path.iterdir()) == []


def tiny_doc() -> dict[str, Any]:
    return json.loads(jotto.gbr_tree(TINY, rule="exact").to_json())


def edited(edit: Callable[[dict[str, Any]], None]) -> str:
    doc = copy.deepcopy(tiny_doc())
    edit(doc)
    return json.dumps(doc)


def dog_node(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["tree"]["branches"]["0"]


def put(obj: dict[str, Any], key: str, value: Any) -> None:
    obj[key] = value


EDITS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "format",
        lambda d: put(d, "format", "jotto-strategy"),
        'not a jotto tree (no "format": "jotto-tree")',
    ),
    (
        "version",
        lambda d: put(d, "version", 2),
        "unknown jotto tree version 2 (this jotto reads version 1)",
    ),
    (
        "version-bool",
        lambda d: put(d, "version", True),
        "unknown jotto tree version True (this jotto reads version 1)",
    ),
    ("unknown-key", lambda d: put(d, "comment", "x"), "the document has unknown keys 'comment'"),
    ("guesser", lambda d: put(d, "guesser", 3), "guesser 3 is neither a name nor null"),
    (
        "words-edited",
        lambda d: d["words"]["words"].reverse(),
        "words: the word list does not match its sha256 (the file is corrupt or was edited)",
    ),
    (
        "words-unplayable",
        lambda d: put(d["words"], "words", ["cab", "bac"]),
        "words.words: <words>: 'bac' and 'cab' share their letters (rules paper)",
    ),
    (
        "words-rules",
        lambda d: put(d["words"], "rules", {"anagrams": "some"}),
        "words.rules: anagrams must be one of drop, keep-one, keep-all, not 'some'",
    ),
    (
        "words-length",
        lambda d: put(d["words"], "length", 5),
        "words.length is 5 but the words have 3 letters",
    ),
    (
        "guess-not-a-word",
        lambda d: put(dog_node(d), "guess", "hum"),
        "guess 'hum' at depth 1 is not a word of the list (after cab→0)",
    ),
    (
        "size",
        lambda d: put(d["tree"], "size", 4),
        "size 4 at depth 0 does not match the 3 targets consistent with the path to it",
    ),
    (
        "size-of-child",
        lambda d: put(dog_node(d), "size", 3),
        "size 3 at depth 1 does not match the 2 targets consistent with the path to it "
        "(after cab→0)",
    ),
    (
        "size-not-int",
        lambda d: put(d["tree"], "size", "3"),
        "size '3' at depth 0 is not a whole number",
    ),
    (
        "reply-out-of-range",
        lambda d: put(d["tree"]["branches"], "3", {"guess": "fit", "size": 1}),
        "reply 3 at depth 0 is out of range 0..2",
    ),
    (
        "reply-not-a-number",
        lambda d: put(d["tree"]["branches"], "01", {"guess": "fit", "size": 1}),
        "branch '01' at depth 0 is not a reply number",
    ),
    (
        "missing-branch",
        lambda d: dog_node(d).pop("branches"),
        "no branch for reply 0 at depth 1, so the targets that give it ('fit') are never guessed "
        "(after cab→0)",
    ),
    (
        "missing-root-branch",
        lambda d: d["tree"].pop("branches"),
        "no branch for reply 0 at depth 0, so the targets that give it ('dog', 'fit') are never "
        "guessed",
    ),
    (
        "extra-branch",
        lambda d: put(d["tree"]["branches"], "1", {"guess": "fit", "size": 1}),
        "branch for reply 1 at depth 0, but no target consistent with the path to it gives that "
        "reply",
    ),
    (
        "no-progress",
        lambda d: put(dog_node(d), "guess", "cab"),
        "guess 'cab' at depth 1 does not narrow down the 2 targets (after cab→0)",
    ),
    (
        "node-missing-size",
        lambda d: dog_node(d).pop("size"),
        "the node at depth 1 has no 'size' (after cab→0)",
    ),
]


@pytest.mark.parametrize("edit,message", [e[1:] for e in EDITS], ids=[e[0] for e in EDITS])
def test_edited_documents_are_refused(edit, message):
    with pytest.raises(TreeFileError) as info:
        DecisionTree.from_json(edited(edit))
    assert str(info.value) == f"<string>: {message}"


def test_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(edited(lambda d: put(d, "version", 2)))
    with pytest.raises(TreeFileError) as info:
        DecisionTree.load(path)
    assert str(info.value) == f"{path}: unknown jotto tree version 2 (this jotto reads version 1)"


def test_not_json(tmp_path):
    path = tmp_path / "tree.json"
    path.write_text("cab (3)\n  0 → dog (2)\n")
    with pytest.raises(TreeFileError) as info:
        DecisionTree.load(path)
    assert str(info.value) == f"{path}: not JSON (Expecting value: line 1 column 1 (char 0))"
    with pytest.raises(TreeFileError, match=r"^<string>: not JSON \(Expecting"):
        DecisionTree.from_json('{"format": ')


def test_not_a_tree_document():
    for text in ("[1, 2]", '{"guess": "cab", "size": 3}'):
        with pytest.raises(TreeFileError) as info:
            DecisionTree.from_json(text)
        assert str(info.value) == '<string>: not a jotto tree (no "format": "jotto-tree")'


def test_duplicate_keys_are_refused():
    text = tiny_doc()
    dup = json.dumps(text).replace('"size": 3', '"size": 3, "size": 3')
    with pytest.raises(TreeFileError) as info:
        DecisionTree.from_json(dup)
    assert str(info.value) == "<string>: key 'size' appears twice in one object"


def test_nesting_too_deep_for_json_is_refused():
    with pytest.raises(TreeFileError) as info:
        DecisionTree.from_json("[" * 200_000)
    assert str(info.value) == "<string>: nested too deeply to read"


def test_missing_file(tmp_path):
    path = tmp_path / "none.json"
    with pytest.raises(TreeFileError) as info:
        DecisionTree.load(path)
    assert str(info.value) == f"{path}: no such tree file"


def test_word_list_mismatch(tiny):
    other = jotto.WordList.from_words(["cab", "dog", "hum"], source="mine")
    with pytest.raises(TreeFileError) as info:
        DecisionTree.from_json(tiny.to_json(), words=other)
    assert str(info.value) == (
        f"<string>: made for another word list (<words>, 3 words, sha256 "
        f"{TINY_SHA256[:12]}…; given mine, 3 words, sha256 "
        f"{other.sha256[:12]}…)"
    )
    same = jotto.WordList.from_words(TINY, source="same words")
    assert DecisionTree.from_json(tiny.to_json(), words=same).words is same


def test_tree_file_error_is_a_value_error():
    assert issubclass(TreeFileError, ValueError)
    assert "TreeFileError" in jotto.game.trees.__all__
