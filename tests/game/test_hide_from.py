"""Secrets from the common words (issue 45, part 2): ``hide_from`` read in one place
(:mod:`jotto.game.hiding`), and the searches, the opener table and the evaluation restricted by
it exactly as by the explicit 0/1 weights.

Expected values are derived here: the common words from the bundled Stanford GraphBase file read
directly, the best responses and the restricted game's equilibria from the exhaustive twin
(tests/twins/reference_game.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.hiding import hidden_words, hide_from_mask, hide_from_weights
from tests.bad_input import cli, one_line_error
from tests.solvers.test_double_oracle import _columns_and_mix
from tests.twins.reference_game import best_response_total, is_equilibrium
from tests.twins.strategies import dictionaries

#: the bundled file in its own order (most common first)
SGB_ORDER = resources.files("jotto").joinpath("data", "sgb-words.txt").read_text().split()


@pytest.fixture(scope="module")
def norvig():
    return jotto.load_words("sgb", rules="norvig")


@pytest.fixture(scope="module")
def small(norvig):
    """Twelve words of Norvig's list, spread over it (its first ones are among them)."""
    return jotto.WordList.from_words(
        [norvig[i] for i in (0, 1, 2, 3, 40, 300, 900, 1500, 2000, 2400, 2700, 2844)],
        rules="norvig",
    )


# ---- the spec --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 50, 500, 2845])
def test_sgb_n_is_the_first_n_words_of_the_file_in_the_list(norvig, n):
    expected = [w for w in SGB_ORDER if w in norvig][:n]
    idx = hidden_words(norvig, f"sgb:{n}")
    assert [norvig[int(i)] for i in idx] == expected
    mask = hide_from_mask(norvig, f"sgb:{n}")
    assert mask.sum() == n and mask[idx].all()
    w = hide_from_weights(norvig, f"sgb:{n}")
    assert w.dtype == np.int64 and set(w.tolist()) <= {0, 1} and w.sum() == n


def test_sgb_alone_is_every_word_of_the_file_in_the_list(norvig):
    # Norvig's list is made of the sgb words: every one of its words is common
    assert hide_from_mask(norvig, "sgb").all()
    enable = jotto.load_words()
    assert hide_from_mask(enable, "sgb").sum() == len([w for w in enable if w in SGB_ORDER])


def test_a_word_file_in_its_own_order(norvig, tmp_path):
    path = tmp_path / "mine.txt"
    # not words of the list (another length, unknown, a repeated letter) are passed over
    path.write_text("# my words\nwrite zzzzz about\nit there which\nsound\n")
    assert [norvig[int(i)] for i in hidden_words(norvig, str(path))] == [
        w for w in ["write", "about", "there", "which", "sound"] if w in norvig
    ]
    assert [norvig[int(i)] for i in hidden_words(norvig, f"{path}:2")] == [
        w for w in ["write", "about", "there", "which"] if w in norvig
    ][:2]
    assert hide_from_mask(norvig, path).sum() == hide_from_mask(norvig, str(path)).sum()


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("sgb:0", "must be a positive whole number, not '0'"),
        ("sgb:x", "must be a positive whole number, not 'x'"),
        ("sgb:-3", "must be a positive whole number"),
        ("sgb:2846", "only 2845 of its words are words of the list, not 2846"),
        ("enable:10", "the bundled enable list is not sorted by frequency"),
        ("nosuchfile.txt", "'nosuchfile.txt' is not sgb, sgb:N nor a word file"),
        ("", "expected sgb, sgb:N or a word file"),
        (42, "expected sgb, sgb:N or a word file, not 42"),
    ],
)
def test_bad_specs_are_one_line_value_errors(norvig, spec, fragment):
    with pytest.raises(ValueError, match="^hide_from") as err:
        hidden_words(norvig, spec)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_sgb_at_another_length_and_a_file_without_secrets(norvig, tmp_path):
    with pytest.raises(ValueError, match="only 5-letter words, not 3"):
        hidden_words(jotto.load_words(length=3), "sgb:10")
    path = tmp_path / "none.txt"
    path.write_text("zzzzz qqqqq\n")
    with pytest.raises(ValueError, match="none of the 2845 secrets"):
        hidden_words(norvig, str(path))


# ---- the searches ----------------------------------------------------------------------------


def test_best_response_hide_from_is_the_0_1_weights_and_the_twin(small):
    for n in (1, 3, 5, 12):
        w = hide_from_weights(small, f"sgb:{n}")
        by_spec = jotto.best_response(small, hide_from=f"sgb:{n}")
        by_weights = jotto.best_response(small, w)
        assert by_spec.exact and by_weights.exact
        assert (by_spec.lower, by_spec.upper) == (by_weights.lower, by_weights.upper)
        assert np.array_equal(by_spec.weights, w)
        assert np.array_equal(by_spec.tree.guess, by_weights.tree.guess)
        total = best_response_total(list(small), [int(x) for x in w], small.rules)
        assert by_spec.lower == Fraction(total, n)


def test_best_response_on_norvig_list_matches_weights(norvig):
    """The 2,845-word list with 50 common secrets, as docs/common-words.md measures it: a short
    top-K search, the same by spec and by weights."""
    w = hide_from_weights(norvig, "sgb:50")
    a = jotto.best_response(norvig, hide_from="sgb:50", top_k=2, threads=1)
    b = jotto.best_response(norvig, w, top_k=2, threads=1)
    assert (a.lower, a.upper) == (b.lower, b.upper)
    assert np.array_equal(a.tree.guess, b.tree.guess)


def test_hider_and_hide_from_together_are_refused(small):
    with pytest.raises(ValueError, match="hider and hide_from: give one"):
        jotto.best_response(small, np.ones(len(small)), hide_from="sgb:3")
    with pytest.raises(ValueError, match="^hide_from sgb:0"):
        jotto.best_response(small, hide_from="sgb:0")


def test_opener_values_hide_from_is_the_0_1_weights(small):
    w = hide_from_weights(small, "sgb:4")
    a = jotto.opener_values(small, hide_from="sgb:4")
    b = jotto.opener_values(small, w)
    assert [(r.word, r.lower, r.upper) for r in a.rows] == [
        (r.word, r.lower, r.upper) for r in b.rows
    ]
    best = jotto.best_response(small, w)
    assert a.lower == a.upper == best.lower


# ---- the evaluation --------------------------------------------------------------------------


def test_evaluate_hide_from_averages_over_the_hidden_words(small):
    tree = jotto.gbr_tree(small, rule="exact")
    counts = tree.guesses_needed()
    mask = hide_from_mask(small, "sgb:5")
    ev = jotto.evaluate(small, "gbr:exact", hide_from="sgb:5")
    assert ev.mean == pytest.approx(counts[mask].mean())
    assert ev.worst == counts[mask].max()
    assert ev.histogram.sum() == 5
    assert {w for w, _ in ev.worst_targets()} <= {small[int(i)] for i in np.flatnonzero(mask)}
    assert len(ev.expected) == len(small)  # every word's, as before


def test_cli_evaluate_and_openers_take_hide_from(small, tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("\n".join(small) + "\n")
    mask = hide_from_mask(small, "sgb:5")
    counts = jotto.gbr_tree(small, rule="exact").guesses_needed()
    r = cli(
        "evaluate",
        "-w",
        path,
        "--rules",
        "norvig",
        "-g",
        "gbr:exact",
        "--hide-from",
        "sgb:5",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["evaluation"]["mean"] == pytest.approx(counts[mask].mean())
    assert doc["head_to_head"] == pytest.approx(counts[mask].mean())
    assert doc["evaluation"]["targets"] == 5
    r = cli(
        "openers",
        "-w",
        path,
        "--rules",
        "norvig",
        "--hide-from",
        "sgb:5",
        "-o",
        tmp_path / "t.jotto",
        "--json",
    )
    assert r.exit_code == 0, r.output
    best = jotto.best_response(small, hide_from="sgb:5")
    first = json.loads(r.stdout)["openers"][0]  # sorted by upper end: the best opener
    assert first["exact"] and Fraction(first["upper_exact"]) == best.lower


@pytest.mark.parametrize("command", [("evaluate", "-g", "gbr:exact"), ("openers",)])
def test_cli_bad_hide_from_is_one_line(tmp_path, command):
    one_line_error(
        cli(
            *command,
            "-w",
            "sgb",
            "--rules",
            "norvig",
            "--hide-from",
            "sgb:0",
            "-o" if command == ("openers",) else "--worst",
            tmp_path / "t.jotto" if command == ("openers",) else 3,
        ),
        "--hide-from sgb:0",
        "positive whole number",
    )
    one_line_error(
        cli(*command, "-n", "3", "--hide-from", "sgb:10"),
        "--hide-from sgb:10",
        "only 5-letter words",
    )


# ---- the game whose hider hides only some words (the double oracle) --------------------------


@settings(max_examples=15, deadline=None)
@given(words=dictionaries(min_size=3, max_size=6, lengths=(2, 3)), data=st.data())
def test_double_oracle_solves_the_restricted_game_exactly(tmp_path_factory, words, data):
    """The value and mixtures of ``solve(..., hide_from=FILE)`` are an exact equilibrium of the
    game whose rows are the file's words and whose columns are every tree of the whole list
    (reference_game): guesses may be any word, secrets only those."""
    wl = jotto.WordList.from_words(words)
    k = data.draw(st.integers(1, len(wl) - 1))
    chosen = data.draw(st.permutations(range(len(wl))))[:k]
    path = tmp_path_factory.mktemp("hide") / "secrets.txt"
    path.write_text(" ".join(wl[i] for i in chosen) + "\n")
    sol = jotto.solve(wl.length, wl, method="double-oracle", progress=False, hide_from=str(path))
    rows = sorted(chosen)
    assert np.flatnonzero(sol.hidden).tolist() == rows
    lo, hi = sol.value_bounds
    assert sol.exact and lo == hi
    assert not sol.hider_int[~sol.hidden].any()
    columns, q = _columns_and_mix(sol)
    restricted = [tuple(c[i] for i in rows) for c in columns]
    total = int(sol.hider_int.sum())
    p = [Fraction(int(sol.hider_int[i]), total) for i in rows]
    assert is_equilibrium(restricted, p, q, lo)
    assert sol.guesser_worst_case() == lo


def test_double_oracle_hide_from_files_and_refusals(small, tmp_path):
    out = tmp_path / "do.jotto"
    sol = jotto.solve(small, method="double-oracle", hide_from="sgb:4", out=out, progress=False)
    assert sol.exact and int(sol.hidden.sum()) == 4
    back = jotto.Solution.load(out)
    assert back.value_bounds == sol.value_bounds
    assert np.array_equal(back.hidden, sol.hidden)
    # the value of the restricted game is at most that of the whole one, where the hider
    # may hide more
    assert (
        sol.value_bounds[0]
        <= jotto.solve(small, method="double-oracle", progress=False).value_bounds[0]
    )
    with pytest.raises(ValueError, match="hides other words than hide_from sgb:5"):
        jotto.solve(
            small, method="double-oracle", hide_from="sgb:5", out=out, resume=True, progress=False
        )
    with pytest.raises(ValueError, match="hide_from: only the double oracle"):
        jotto.solve(small, hide_from="sgb:4", iterations=3, progress=False)


def test_cli_solve_hide_from(small, tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("\n".join(small) + "\n")
    r = cli(
        "solve",
        "-w",
        path,
        "--rules",
        "norvig",
        "--method",
        "double-oracle",
        "--hide-from",
        "sgb:4",
        "-o",
        tmp_path / "do.jotto",
        "--json",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["hidden"] == 4
    expected = jotto.solve(small, method="double-oracle", hide_from="sgb:4", progress=False)
    assert Fraction(doc["value_bounds_exact"][0]) == expected.value_bounds[0]
    one_line_error(
        cli(
            "solve",
            "-w",
            path,
            "--rules",
            "norvig",
            "--hide-from",
            "sgb:4",
            "-o",
            tmp_path / "fp.jotto",
        ),
        "--hide-from",
        "double-oracle",
    )
    one_line_error(
        cli(
            "solve",
            "-w",
            path,
            "--rules",
            "norvig",
            "--method",
            "double-oracle",
            "--hide-from",
            "sgb:99",
            "-o",
            tmp_path / "x.jotto",
        ),
        "--hide-from sgb:99",
        "only 12 of its words",
    )


def test_evaluate_hide_from_a_mixed_guesser(small):
    """A mixture of trees (the restricted game's equilibrium guesser): its exact histogram over
    the hidden words, from its own count distribution, agrees with its expected guesses."""
    sol = jotto.solve(small, method="double-oracle", hide_from="sgb:4", progress=False)
    mask = hide_from_mask(small, "sgb:4")
    ev = jotto.evaluate(small, sol.guesser(seed=0), hide_from="sgb:4")
    expected = [float(x) for x, m in zip(sol.guesser_expected(), mask) if m]
    assert ev.mixed and ev.mean == pytest.approx(sum(expected) / 4)
    assert ev.histogram.sum() == pytest.approx(4)
    assert float(np.arange(len(ev.histogram)) @ ev.histogram) / 4 == pytest.approx(ev.mean)
    assert (
        ev.worst_expected
        == pytest.approx(max(expected))
        == pytest.approx(float(sol.guesser_worst_case()))
    )
