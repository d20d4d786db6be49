"""The package as a notebook user meets it: short reprs with decimals, Table 1 as a table, the
public names and their signatures, the words-first ``jotto.solve``, and the progress bar."""

from __future__ import annotations

import importlib
import inspect
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import jotto
from jotto.game.paper import TABLE1, Table1
from jotto.players import make_guesser, make_hider

DECIMAL = re.compile(r"\d+\.\d+")


@pytest.fixture(scope="module")
def words2():
    return jotto.load_words(length=2)


@pytest.fixture(scope="module")
def solved(words2):
    return jotto.solve(words2, iterations=100)


def _short(text: str, fields: list[str]) -> None:
    """One line, no array dump or Fraction, the fields named."""
    assert "\n" not in text and len(text) < 200 and "array(" not in text
    assert "Fraction" not in text
    for f in fields:
        assert f in text, (f, text)


def test_reprs_are_short_with_decimals(words2, solved):
    br = jotto.best_response(words2)
    text = repr(br)
    _short(text, ["BestResponse(", "lower=", "upper=", "gap=", "exact=True", "nodes="])
    assert f"lower={float(br.lower):.4f}" in text and f"upper={float(br.upper):.4f}" in text
    st = solved.strength()
    _short(
        repr(st),
        [
            "Strength(",
            f"hider_lower={float(st.hider_lower):.4f}",
            f"guesser_worst={float(st.guesser_worst):.4f}",
        ],
    )
    ev = jotto.evaluate(words2, "gbr:exact")
    _short(
        repr(ev),
        [
            "Evaluation(",
            "guesser='gbr:exact'",
            "50 words of 2 letters from enable",
            f"mean={ev.mean:.4f}",
            f"worst={ev.worst}",
        ],
    )
    tree = br.tree
    counts = tree.guesses_needed()
    _short(
        repr(tree),
        [
            "DecisionTree(",
            f"{len(tree)} nodes",
            f"mean {counts.mean():.4f}",
            f"worst {counts.max()}",
            f"first guess {words2[int(tree.guess[0])]!r}",
        ],
    )
    for player, name in (
        (make_guesser("gbr:exact", words2), "GBRGuesser('gbr:exact'"),
        (make_guesser("random:seed=3", words2), "RandomGuesser('random:seed=3'"),
        (solved.guesser(seed=1), "EquilibriumGuesser('equilibrium'"),
        (make_hider("uniform", words2), "UniformHider('uniform'"),
    ):
        _short(repr(player), [name, "50 words of 2 letters"])
    assert DECIMAL.search(repr(br)) and DECIMAL.search(repr(st))


def test_table_prints_as_the_command_and_as_html(solved):
    table = solved.table()
    assert isinstance(table, Table1) and isinstance(table, dict)
    assert table["number_of_iterations"] == 100  # still the dict of Table 1's rows
    lines = str(table).splitlines()
    assert repr(table) == str(table)
    assert lines[0].split() == ["ours"]
    assert lines[1].split() == ["Dictionary", "size", "50"]
    (time_row,) = [x for x in lines if x.startswith("Avg")]
    ms = float(time_row.split()[-1])
    assert time_row.startswith("Avg ms per iteration") and "e-" not in time_row
    assert ms == pytest.approx(table["avg_seconds_per_iteration"] * 1e3, rel=1e-3)
    assert lines[-1].startswith(f"t* = {solved.t_star} ")
    html = table._repr_html_()
    assert html.startswith("<table>") and html.count("<tr>") == len(lines) - 1
    assert "Our final epsilon" in html and f"{table['our_final_epsilon']:.3f}" in html


def test_the_paper_column_beside_ours(twl06):
    table = jotto.solve(twl06[2], iterations=20).table()
    assert str(table).splitlines()[0].split() == ["paper", "ours"]
    (time_row,) = [x for x in str(table).splitlines() if x.startswith("Avg")]
    paper_ms = float(time_row.split()[-2])
    assert paper_ms == pytest.approx(TABLE1["avg_minutes_per_iteration"][2] * 60e3, rel=1e-3)
    assert "<th>paper</th>" in table._repr_html_()


def test_dir_lists_the_public_names_only():
    assert dir(jotto) == sorted(jotto.__all__)
    for name in jotto.__all__:
        assert getattr(jotto, name) is not None
    assert {"evaluate", "head_to_head", "Evaluation"} <= set(jotto.__all__)


def test_signatures_show_types_not_strings():
    """help() shows annotations as types; only the union aliases stay their names."""
    aliases = {"Words", "Hider", "HideFrom", "Source", "ArrayLike", "ObjectiveSpec"}
    for name in jotto.__all__:
        obj = getattr(jotto, name)
        if not callable(obj) or isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        functions = (
            [obj]
            if not isinstance(obj, type)
            else [m for m in vars(obj).values() if inspect.isfunction(m)]
        )
        for f in functions:
            for key, value in f.__annotations__.items():
                assert not isinstance(value, str) or aliases & set(re.findall(r"\w+", value)), (
                    name,
                    f,
                    key,
                    value,
                )
    assert (
        inspect.signature(jotto.Solution.guesser).return_annotation
        is importlib.import_module("jotto.game.turns").Guesser
    )
    shown = str(inspect.signature(jotto.solve))
    assert "rules: jotto.game.rules.Rules | str | None" in shown and "'Rules" not in shown


def test_py_typed_ships_with_the_package():
    assert (Path(jotto.__file__).parent / "py.typed").is_file()


def test_reply_refuses_words_of_different_lengths():
    with pytest.raises(ValueError, match=r"'star' has 4 letters and the secret 'crane' 5"):
        jotto.reply("star", "crane")
    assert jotto.reply("stare", "crane") == 3


def test_solve_takes_a_word_list_alone(words2):
    by_list = jotto.solve(words2, iterations=10)
    assert by_list.words is words2
    assert jotto.solve(words=words2, iterations=10).words is words2
    plain = jotto.solve(list(words2), iterations=10)
    assert plain.words.words == words2.words
    assert by_list.table() == {
        **plain.table(),
        "avg_seconds_per_iteration": by_list.table()["avg_seconds_per_iteration"],
    }
    with pytest.raises(ValueError, match="2 and 3 letters"):
        jotto.solve(["ab", "cde"], iterations=1)
    with pytest.raises(ValueError, match="the word list has 2-letter words, not 3"):
        jotto.solve(3, words2)


def test_the_double_oracle_has_no_mode(words2):
    with pytest.raises(ValueError, match="mode='paper' is fictitious play's"):
        jotto.solve(words2, method="double-oracle", mode="paper")


def test_progress_only_on_a_terminal(monkeypatch, capsys, words2):
    jotto.solve(words2, iterations=30)  # stderr is captured: not a terminal
    assert capsys.readouterr().err == ""


class _Bar:
    """Stands in for tqdm: records every postfix and note."""

    def __init__(self):
        self.postfixes: list[dict] = []
        self.notes: list[str] = []
        self.closed = False

    def update(self, n):
        pass

    def set_postfix(self, refresh=True, **kw):
        assert not self.closed
        self.postfixes.append(kw)

    def write(self, text, file=None):
        self.notes.append(text)

    def close(self):
        self.closed = True


def test_double_oracle_bar_ends_on_the_result(monkeypatch, words2):
    """A time budget's last part proves a lower bound after the rounds: the bar stays open
    until then, and its last postfix is the result's interval."""
    module = importlib.import_module("jotto.solvers.driver")
    bar = _Bar()
    monkeypatch.setattr(module, "progress_bar", lambda *a, **k: bar)
    sol = jotto.solve(words2, method="double-oracle", time_budget=1.0, threads=1, progress=True)
    lo, hi = sol.value_bounds
    assert bar.closed and bar.postfixes[-1]["value"] == f"[{float(lo):.4f}, {float(hi):.4f}]"
    assert all("proving a lower bound" in n for n in bar.notes)


def test_fractions_stay_exact_behind_the_reprs(words2):
    br = jotto.best_response(words2)
    assert isinstance(br.lower, Fraction) and br.lower == br.upper
    assert np.isclose(float(br.lower), 5.72)  # ENABLE's 2-letter game, uniform hider


def test_missing_matplotlib_says_what_to_install(monkeypatch, tmp_path):
    from jotto.util.plots import check_plot_path

    monkeypatch.setitem(__import__("sys").modules, "matplotlib.figure", None)
    with pytest.raises(ImportError) as info:
        check_plot_path(tmp_path / "p.png")
    message = str(info.value)
    assert "pip install 'jotto[plot]'" in message and "pip install '.[plot]'" in message
