"""Tree files with bad JSON, or values Python cannot hold: one line naming the field."""

from __future__ import annotations

import pytest

from tests.bad_input import cli, one_line_error


@pytest.mark.parametrize(
    "text, fragment",
    [
        (
            '{"format": "jotto-tree", "version": 1, "size": NaN}',
            "t.json: size: NaN is not a JSON number",
        ),
        ('{"format": "jotto-tree", "version": 1, "version": 1}', "key 'version' appears twice"),
        ("[" * 100_000, "nested too deeply"),
        (
            '{"format": "jotto-tree", "version": 1, "words": {}, "tree": {}, "'
            + "k" * 5000
            + '": 1}',
            "(5000 characters)",
        ),
    ],
    ids=["nan", "duplicate-key", "deep", "long-key"],
)
def test_tree_files_with_bad_json(tmp_path, text, fragment):
    path = tmp_path / "t.json"
    path.write_text(text)
    one_line_error(cli("evaluate", "-n", 3, "-g", f"tree:{path}"), "t.json: ", fragment)


@pytest.fixture(scope="module")
def tree_text(tmp_path_factory):
    """A valid tree file's text (norvig:max on the 3-letter list; its root holds 415 words)."""
    path = tmp_path_factory.mktemp("tree") / "t.json"
    assert cli("tree", "-n", 3, "-g", "norvig:max", "-o", path).exit_code == 0
    text = path.read_text()
    assert '"branches":{"0":' in text and text.count('"size":415,') == 1
    return text


@pytest.mark.parametrize(
    "old, new, fragment",
    [
        ('"size":415,', '"size":NaN,', "t.json: tree.size: NaN is not a JSON number"),
        ('"size":415,', '"size":-Infinity,', "t.json: tree.size: -Infinity is not a JSON number"),
        (
            '"size":415,',
            '"size":' + "7" * 5000 + ",",
            "t.json: tree.size: an integer of 5000 digits",
        ),
        (
            '"branches":{"0":',
            '"branches":{"' + "1" * 5000 + '":{},"0":',
            "t.json: reply '11111111111111111111'… (5000 characters) at depth 0 is out of range",
        ),
        (
            '"words":{"words":["ace",',
            '"words":{"words":["ace",NaN,',
            "t.json: words.words[1]: NaN is not a JSON number",
        ),
    ],
    ids=["nan-size", "infinite-size", "long-size", "long-branch-key", "nan-in-a-list"],
)
def test_tree_files_name_the_field_of_a_value_python_cannot_hold(
    tmp_path, tree_text, old, new, fragment
):
    """NaN, infinities and integers of more digits than Python converts are refused by the
    place they stand in (the field), not only by the file."""
    path = tmp_path / "t.json"
    path.write_text(tree_text.replace(old, new, 1))
    one_line_error(cli("evaluate", "-n", 3, "-g", f"tree:{path}"), fragment)
