"""The guesser's oracles: specs, and fictitious play run with a stronger oracle than the paper's
greedy one (each iteration's tree is a true best response; files keep the trees)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings

import jotto
from jotto.responses.oracles import parse_oracle
from jotto.solvers.fictitious_play.algorithm import OraclePlay
from tests.twins.reference_game import best_response_value
from tests.twins.strategies import dictionaries


def test_oracle_specs():
    assert parse_oracle("greedy").kind == "greedy"
    assert parse_oracle("lookahead:3").top_k == 3
    assert parse_oracle("best-response:2.5").seconds == 2.5
    assert parse_oracle("best-response").seconds is None
    assert parse_oracle(" Best-Response:4 ").spec == "best-response:4"
    for bad in (
        "lookahead",
        "lookahead:0",
        "best-response:inf",
        "best-response:-1",
        "best-response:nan",
        "magic",
        "greedy:2",
    ):
        with pytest.raises(ValueError, match="oracle"):
            parse_oracle(bad)


@settings(max_examples=15)
@given(words=dictionaries(min_size=2, max_size=6, lengths=(2, 3)))
def test_best_response_oracle_answers_each_iteration_optimally(words):
    wl = jotto.WordList.from_words(words)
    run = OraclePlay(wl, 1, parse_oracle("best-response"))
    for _ in range(6):
        run.step()
        w = [int(x) for x in run.w]
        got = Fraction(int(run.ing.astype(object) @ run.w.astype(object)), sum(w))
        assert got == best_response_value(words, w)


def test_oracle_runs_resume_identically_and_keep_their_trees(tmp_path):
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf", "bf"])
    whole = jotto.solve(
        2, wl, oracle="best-response", iterations=40, progress=False, out=tmp_path / "a.jotto"
    )
    jotto.solve(
        2, wl, oracle="best-response", iterations=15, progress=False, out=tmp_path / "b.jotto"
    )
    resumed = jotto.solve(
        2,
        wl,
        oracle="best-response",
        iterations=40,
        progress=False,
        out=tmp_path / "b.jotto",
        resume=True,
    )
    assert resumed.history.epsilon.tolist() == whole.history.epsilon.tolist()
    loaded = jotto.Solution.load(tmp_path / "a.jotto")
    assert loaded.oracle == "best-response" and loaded.oracle_trees
    g = loaded.guesser(seed=0)
    counts = [g.tree(k).guesses_needed() for k in range(loaded.t_star + 1)]
    assert sum(c.astype(int) for c in counts).tolist() == loaded.ing_sums_star["ing"].tolist()
    with pytest.raises(jotto.StrategyFileError, match="made with the best-response oracle"):
        jotto.solve(2, wl, iterations=50, progress=False, out=tmp_path / "a.jotto", resume=True)


def test_paper_mode_keeps_the_papers_oracle():
    wl = jotto.WordList.from_words(["ab", "cd", "ac"])
    with pytest.raises(ValueError, match="paper mode is the paper's algorithm"):
        jotto.solve(2, wl, mode="paper", oracle="lookahead:2", progress=False)
