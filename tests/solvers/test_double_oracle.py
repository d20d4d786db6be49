"""The double oracle and the matrix games under it: exact values proved on tiny dictionaries
against every tree a guesser could play, files, resumption, and the paper's 2-letter game."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.bounds import counting_bound
from jotto.game.rules import PRESETS
from jotto.players.evaluation import evaluate
from jotto.solvers.matrix_game import GrowingGame, exact_equilibrium, solve_matrix_game
from jotto.util import strategy_file
from tests.twins.reference_game import all_trees, is_equilibrium, tree_counts
from tests.twins.strategies import dictionaries, rule_cases

#: The value of the whole game on TWL06's 2-letter words (../shared/notes/game-values.md).
TWL06_2_VALUE = Fraction(60882015, 10367053)


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.integers(1, 6).flatmap(
            lambda m: st.lists(
                st.lists(st.integers(0, 9), min_size=m, max_size=m), min_size=n, max_size=n
            )
        )
    )
)
def test_exact_equilibrium_of_matrix_games_meets_its_definition(rows):
    A = np.array(rows)
    approx = solve_matrix_game(A)
    eq = exact_equilibrium(A, approx)
    assert eq is not None
    assert abs(float(eq.value) - approx.value) < 1e-7
    cols = [tuple(int(x) for x in A[:, k]) for k in range(A.shape[1])]
    assert is_equilibrium(cols, eq.p, eq.q, eq.value)


@given(
    st.integers(1, 6).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 9), min_size=n, max_size=n), min_size=1, max_size=8
        )
    )
)
def test_a_growing_game_is_solved_as_from_scratch_after_every_column(columns):
    """The warm-started LP (one HiGHS instance, a column added per round) gives after every
    column the value solving the game from scratch gives, and supports the exact equilibrium
    recovers the true equilibrium from."""
    game = GrowingGame(len(columns[0]))
    for k, col in enumerate(columns):
        game.add_column(np.array(col))
        A = np.array(columns[: k + 1]).T
        sol = game.solve()
        assert abs(sol.value - solve_matrix_game(A).value) < 1e-7
        eq = exact_equilibrium(A, sol)
        assert eq is not None
        assert is_equilibrium([tuple(c) for c in columns[: k + 1]], eq.p, eq.q, eq.value)


def test_the_lp_solver_prints_nothing():
    """HiGHS's banner (printed by highspy's constructor, once per process: hence a fresh one)
    never reaches standard output."""
    code = (
        "import numpy as np; from jotto.solvers.matrix_game import GrowingGame; g = GrowingGame(2); "
        "g.add_column(np.array([1, 0])); g.add_column(np.array([0, 1])); "
        "print(round(g.solve().value, 6))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (0, "0.5\n", "")


def test_matching_pennies_has_value_one_half():
    A = np.array([[1, 0], [0, 1]])
    eq = exact_equilibrium(A, solve_matrix_game(A))
    assert eq.value == Fraction(1, 2) and eq.p == eq.q == [Fraction(1, 2)] * 2


def _columns_and_mix(sol):
    """Every tree of the game (under the word list's rules) as a column, with the solution's
    guesser weights on its own trees, each walked by the reference (a tree that is not one of
    the rules fails the walk or finds no column)."""
    words, rules = list(sol.words.words), sol.words.rules
    columns = sorted(all_trees(words, rules))
    index = {c: k for k, c in enumerate(columns)}
    q = [Fraction(0)] * len(columns)
    for tree, w in zip(sol.trees, sol.guesser_weights):
        counts = tree_counts(words, rules, tree.guess.tolist(), tree.children.tolist())
        q[index[tuple(counts)]] += Fraction(int(w), sol.guesser_denominator)
    return columns, q


def _assert_solved_exactly(wl: jotto.WordList) -> None:
    """The double oracle's value is exact, and its mixtures are an equilibrium of the whole game
    (every tree of reference_game under the list's rules)."""
    sol = jotto.solve(wl.length, wl, method="double-oracle", progress=False)
    lo, hi = sol.value_bounds
    assert sol.exact and lo == hi
    columns, q = _columns_and_mix(sol)
    total = int(sol.hider_int.sum())
    p = [Fraction(int(x), total) for x in sol.hider_int]
    assert is_equilibrium(columns, p, q, lo)


@settings(max_examples=25)
@given(words=dictionaries(min_size=2, max_size=6, lengths=(2, 3)))
def test_double_oracle_solves_tiny_games_exactly(words):
    wl = jotto.WordList.from_words(words)
    _assert_solved_exactly(wl)


@pytest.mark.parametrize("strong_every, prove_every", [(1, 1), (1000, 1000)])
@settings(max_examples=10, deadline=None)
@given(words=dictionaries(min_size=3, max_size=6, lengths=(2, 3)))
def test_every_schedule_of_scouts_and_proofs_solves_tiny_games_exactly(
    strong_every, prove_every, words
):
    """Whether the strong scout and the exact oracle run every round (several columns a round)
    or only when the searches before them find nothing, the run ends at the exact equilibrium."""
    from jotto.solvers.double_oracle import algorithm as double_oracle

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(double_oracle, "STRONG_EVERY", strong_every)
        mp.setattr(double_oracle, "PROVE_EVERY_SCOUTED", prove_every)
        _assert_solved_exactly(jotto.WordList.from_words(words))


@pytest.mark.parametrize("smoothing", [0.0, 1.0])
@settings(max_examples=8, deadline=None)
@given(words=dictionaries(min_size=3, max_size=6, lengths=(2, 3)))
def test_any_weight_of_the_stability_centre_solves_tiny_games_exactly(smoothing, words):
    """Whether the searches answer the LP's own hider (weight 0) or the centre alone (weight 1:
    the LP's hider is asked only when no tree answering the centre improves), the run ends at
    the exact equilibrium of the whole game: the weight (SMOOTHING) changes which columns come,
    never what the bounds prove."""
    from jotto.solvers.double_oracle import algorithm as double_oracle

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(double_oracle, "SMOOTHING", smoothing)
        _assert_solved_exactly(jotto.WordList.from_words(words))


@settings(max_examples=10, deadline=None)
@given(words=dictionaries(min_size=4, max_size=6, lengths=(2, 3)))
def test_scouts_stopped_by_their_node_budget_still_solve_tiny_games_exactly(words):
    """A scout that runs out of states answers with its best tree so far, a valid tree with
    proven bounds, and the exact oracle still brings the run to the exact equilibrium."""
    from jotto.responses.oracles import Oracle
    from jotto.solvers.double_oracle import algorithm as double_oracle

    wl = jotto.WordList.from_words(words)
    stopped = (Oracle("lookahead", top_k=5, nodes=1), Oracle("lookahead", top_k=20, nodes=1))
    found = stopped[1].respond(wl, None)
    assert found.lower <= found.upper == jotto.expected_guesses(found.tree)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(double_oracle._SCOUTS, "best-response", stopped)
        _assert_solved_exactly(wl)


@pytest.mark.parametrize("name", ["eckler", "perl", "positional", "hard"])
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_double_oracle_solves_tiny_games_exactly_under_rules(name, data):
    """Under keep-all anagrams, repeated letters, positional replies and hard mode, the double
    oracle's value and mixtures are an exact equilibrium of the whole game of those rules (every
    tree of reference_game, hard mode: consistent guesses only)."""
    rules = PRESETS[name]
    _, words, _ = data.draw(rule_cases(max_size=5, rules=st.just(rules)))
    wl = jotto.WordList.from_words(words, rules=rules)
    _assert_solved_exactly(wl)


def _restricted_value(words: list[str], hidden: list[bool]) -> Fraction:
    """The exact value of the game whose hider may hide only the ``hidden`` words, over every
    tree of reference_game (the paper's rules), checked by the equilibrium's definition."""
    columns = sorted(
        {tuple(c[i] for i in range(len(words)) if hidden[i]) for c in all_trees(words)}
    )
    A = np.array(columns, dtype=np.int64).T
    eq = exact_equilibrium(A, solve_matrix_game(A))
    assert eq is not None and is_equilibrium(columns, eq.p, eq.q, eq.value)
    return eq.value


@settings(max_examples=20, deadline=None)
@given(
    words=dictionaries(min_size=3, max_size=7, lengths=(2, 3)),
    data=st.data(),
    oracle=st.sampled_from(["best-response", "best-response:5", "greedy"]),
    deadline=st.booleans(),
)
def test_the_lower_bound_is_never_below_the_uniform_hider_s_and_still_holds_the_value(
    words, data, oracle, deadline
):
    """After its first round a run with a deadline or a budgeted oracle has a certified lower
    bound at least what its oracle proves against the uniform hider over the words it may
    hide (a best-response oracle: that hider's exact best response, from the reference's
    recursion), so the hider it keeps is never weaker than uniform; and to the end [lower,
    upper] holds the restricted game's exact value (reference_game: every tree), the kept
    hider's exact best response is at least the lower bound, and a best-response oracle's run
    ends at the value (at least the uniform hider's)."""
    from jotto.responses.oracles import parse_oracle
    from jotto.solvers.double_oracle.algorithm import DoubleOracle
    from tests.twins.reference_game import best_response_total

    wl = jotto.WordList.from_words(words)
    secrets = set(data.draw(st.lists(st.sampled_from(words), min_size=1, unique=True)))
    hidden = [w in secrets for w in words]
    run = DoubleOracle(wl, parse_oracle(oracle), hidden=np.array(hidden))
    if deadline:
        run.deadline = time.monotonic() + 60
    run.step()
    uniform = [int(h) for h in hidden]
    uniform_value = Fraction(best_response_total(words, uniform), sum(uniform))
    # the greedy oracle proves nothing (its runs keep the counting bound); the exact one
    # answers the uniform hider only with a deadline
    if oracle == "best-response:5" or (oracle == "best-response" and deadline):
        assert run.lower >= uniform_value
    value = _restricted_value(words, hidden)
    assert uniform_value <= value
    while not run.done:
        assert run.lower <= value <= run.upper
        run.step()
    assert run.lower <= value <= run.upper
    kept = [int(x) for x in run.hider_int]
    assert Fraction(best_response_total(words, kept), sum(kept)) >= run.lower
    if oracle != "greedy":
        assert run.lower == run.upper == value


def test_strength_of_a_fictitious_play_solution_brackets_the_value():
    words = ["ab", "cd", "ac", "bd", "ef", "ae", "cf"]
    wl = jotto.WordList.from_words(words)
    fp = jotto.solve(2, wl, iterations=60, progress=False)
    do = jotto.solve(2, wl, method="double-oracle", progress=False)
    st_ = fp.strength()
    assert st_.best_response_exact and st_.hider_lower == st_.hider_upper
    value = do.value_bounds[0]
    assert st_.hider_lower <= value <= st_.guesser_worst
    assert st_.guesser_worst == max(
        Fraction(int(x), fp.t_star + 1) for x in fp.ing_sums_star["ing"]
    )
    lo, hi = st_.nash_conv
    assert lo == hi == st_.guesser_worst - st_.hider_lower > 0


def test_files_round_trip_and_resume(tmp_path):
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf", "bf"])
    whole = jotto.solve(2, wl, method="double-oracle", progress=False, out=tmp_path / "a.jotto")
    loaded = jotto.Solution.load(tmp_path / "a.jotto")
    assert isinstance(loaded, jotto.DoubleOracleSolution)
    assert loaded.value_bounds == whole.value_bounds and loaded.rounds == whole.rounds
    assert loaded.guesser_expected() == whole.guesser_expected()
    part = jotto.solve(
        2, wl, method="double-oracle", iterations=2, progress=False, out=tmp_path / "b.jotto"
    )
    assert part.rounds == 2 and not part.exact
    resumed = jotto.solve(
        2, wl, method="double-oracle", progress=False, out=tmp_path / "b.jotto", resume=True
    )
    assert resumed.value_bounds == whole.value_bounds
    assert resumed.rounds == whole.rounds


@settings(max_examples=30, deadline=None)
@given(words=dictionaries(min_size=4, max_size=8, lengths=(2, 3)), rounds=st.integers(1, 3))
def test_a_resumed_run_s_guesser_is_the_one_its_bounds_describe(tmp_path_factory, words, rounds):
    """A run stopped after some rounds and resumed ends at the exact value, its file read
    back checked (its stored upper bound is its guesser's exact worst case).  Resumed runs used
    to match the flow game's trees to the wrong restored columns (every restored tree was
    recorded at the last index), and their guesser's worst case was not the bound they
    stored: a 600-s resume at 100 common secrets of Norvig's list stopped with that error."""
    wl = jotto.WordList.from_words(words)
    path = tmp_path_factory.mktemp("resume") / "run.jotto"
    jotto.solve(wl.length, wl, method="double-oracle", iterations=rounds, progress=False, out=path)
    resumed = jotto.solve(
        wl.length, wl, method="double-oracle", progress=False, out=path, resume=True
    )
    whole = jotto.solve(wl.length, wl, method="double-oracle", progress=False)
    assert resumed.exact and resumed.value_bounds == whole.value_bounds
    back = jotto.Solution.load(path, wl)
    assert back.value_bounds == resumed.value_bounds
    assert back.guesser_worst_case() == back.value_bounds[1]


def test_a_hider_proved_elsewhere_replaces_the_run_s(tmp_path):
    """with_hider keeps the guesser and takes another hider with the bound a best response
    proved against it (here the finished run's equilibrium hider, put into a run stopped
    after one round): the file reads back with it; a bound above the guesser's worst case,
    weight on a word the hider may not hide, or weights that are not integers are refused."""
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf", "bf"])
    secrets = tmp_path / "secrets.txt"
    secrets.write_text("ab\ncd\nac\nbd\nef\n")
    whole = jotto.solve(2, wl, method="double-oracle", progress=False, hide_from=str(secrets))
    part = jotto.solve(
        2, wl, method="double-oracle", iterations=1, progress=False, hide_from=str(secrets)
    )
    hider = whole.hider_int.astype(np.int64)
    proved = jotto.best_response(wl, hider).lower
    assert proved == whole.value_bounds[0]  # the exact run's hider holds the value
    stronger = part.with_hider(hider, proved)
    assert stronger.value_bounds == (proved, part.value_bounds[1])
    assert (stronger.hider_int == hider).all()
    assert stronger.guesser_expected() == part.guesser_expected()
    stronger.save(tmp_path / "s.jotto")
    back = jotto.Solution.load(tmp_path / "s.jotto", wl)
    assert back.value_bounds == stronger.value_bounds and (back.hider_int == hider).all()
    over = part.value_bounds[1] + Fraction(1, 7)
    with pytest.raises(ValueError, match="no hider holds every guesser to"):
        part.with_hider(hider, over)
    outside = hider.copy()
    outside[wl.index("bf")] = 1
    with pytest.raises(ValueError, match="words it may not hide"):
        part.with_hider(outside, proved)
    with pytest.raises(ValueError, match="non-negative integer weights"):
        part.with_hider(hider / 2.0, proved)


@settings(max_examples=15, deadline=None)
@given(words=dictionaries(min_size=4, max_size=8, lengths=(2, 3)), data=st.data())
def test_a_compacted_solution_keeps_the_hider_and_the_guesser_s_exact_worst_case(
    tmp_path_factory, words, data
):
    """compacted() keeps the hider, its lower bound and the mixture (only the trees it plays);
    compacted(k) keeps k trees, mixed anew, and its upper bound is their mixture's exact worst
    case over the secrets (so never below the value); both read back checked."""
    wl = jotto.WordList.from_words(words)
    secrets = data.draw(st.lists(st.sampled_from(words), min_size=2, unique=True))
    path = tmp_path_factory.mktemp("hidden") / "secrets.txt"
    path.write_text("\n".join(secrets))
    sol = jotto.solve(wl.length, wl, method="double-oracle", progress=False, hide_from=str(path))
    same = sol.compacted()
    assert same.value_bounds == sol.value_bounds
    assert (same.hider_int == sol.hider_int).all() and (same.hidden == sol.hidden).all()
    plays = [k for k, x in enumerate(sol.guesser_weights) if x > 0]
    assert len(same.trees) == len(plays)
    assert same.guesser_expected() == sol.guesser_expected()
    one = sol.compacted(1)
    lower, upper = one.value_bounds
    assert len(one.trees) == 1 and lower == sol.value_bounds[0]
    rows = [wl.index(w) for w in secrets]
    counts = one.trees[0].guesses_needed()
    assert upper == max(int(counts[i]) for i in rows) >= sol.value_bounds[1]
    out = tmp_path_factory.mktemp("file") / "one.jotto"
    one.save(out)
    assert jotto.Solution.load(out, wl).value_bounds == one.value_bounds


def test_a_file_cannot_claim_a_better_guesser_than_its_trees(tmp_path):
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf"])
    jotto.solve(2, wl, method="double-oracle", progress=False, out=tmp_path / "a.jotto")
    payload = strategy_file.read(tmp_path / "a.jotto")
    num, den = payload["upper"]
    payload["upper"] = [num - 1, den]
    strategy_file.write(tmp_path / "b.jotto", payload)
    with pytest.raises(jotto.StrategyFileError, match="do not match the guesser's exact worst"):
        jotto.Solution.load(tmp_path / "b.jotto")


def test_a_file_read_for_its_hider_checks_its_trees_when_they_are_used(tmp_path):
    """Read for its hider (the hard level's, Solution.for_hider), a file's trees are not
    parsed until used: a file whose stored upper bound is not its guesser's exact worst case
    still gives its hider, and is refused once its trees are used (and by Solution.load)."""
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf", "bf"])
    sol = jotto.solve(2, wl, method="double-oracle", progress=False)
    lower, upper = sol.value_bounds
    payload = {**sol._payload, "upper": [upper.numerator + 1, upper.denominator]}
    strategy_file.write(tmp_path / "claims.jotto", payload)
    read = jotto.Solution.from_payload(
        strategy_file.read(tmp_path / "claims.jotto"), tmp_path / "claims.jotto", hider_only=True
    )
    assert (read.hider() == sol.hider()).all()
    assert read.guesser_worst_case() == upper + Fraction(1, upper.denominator)  # as stored
    with pytest.raises(jotto.StrategyFileError, match="exact worst case"):
        read.guesser_expected()  # parses the trees
    with pytest.raises(jotto.StrategyFileError, match="exact worst case"):
        jotto.Solution.load(tmp_path / "claims.jotto")
    honest = jotto.Solution.from_payload(sol._payload, "honest", hider_only=True)
    assert honest.guesser_expected() == sol.guesser_expected()
    assert honest.guesser_worst_case() == upper


def test_mixed_guesser_plays_its_trees_and_evaluates_exactly():
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf"])
    sol = jotto.solve(2, wl, method="double-oracle", progress=False)
    ev = evaluate(wl, sol.guesser(seed=3))
    assert ev.exact
    # evaluate sums the mixture in floats: equal to the exact values up to rounding
    assert ev.expected.tolist() == pytest.approx([float(x) for x in sol.guesser_expected()])
    assert ev.expected.max() == pytest.approx(float(sol.value_bounds[1]))


def test_greedy_oracle_gives_a_valid_upper_bound_only():
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ef", "ae", "cf"])
    exact = jotto.solve(2, wl, method="double-oracle", progress=False)
    greedy = jotto.solve(2, wl, method="double-oracle", oracle="greedy", progress=False)
    # no search proves anything: the lower bound is the uniform hider's counting bound,
    # (7 + 6 + 4) / 7 with at most 1, 2, 4 targets found by the first, second, third guess
    assert greedy.value_bounds[0] == Fraction(17, 7) <= exact.value_bounds[0]
    assert greedy.value_bounds[1] >= exact.value_bounds[0]


def test_the_last_step_proves_the_bound_of_the_most_promising_hider():
    """prove() ranks its candidate hiders (uniform, the LP's, the smoothed one, the one that
    proved the bound) by short proofs, which finish on tiny lists, and proves the best
    response against the best of them: the greatest of their exact best-response values."""
    from jotto.engine.weights import integer_weights
    from jotto.responses.oracles import parse_oracle
    from jotto.solvers.double_oracle.algorithm import DoubleOracle

    wl = jotto.WordList.from_words(
        ["abc", "abd", "abe", "abf", "acd", "ace", "bcd", "bce", "cde", "def"]
    )
    run = DoubleOracle(wl, parse_oracle("greedy"))
    for _ in range(3):
        run.step()
    assert run.lower == counting_bound(wl)  # the greedy oracle proves nothing
    candidates = [
        np.ones(len(wl), dtype=np.int64),
        integer_weights(run._game.solve().p),
        integer_weights(run._smoothed),
    ]
    best = max(jotto.best_response(wl, w).lower for w in candidates)
    run.prove(60.0)
    assert run.lower == best == jotto.best_response(wl, run.hider_int.astype(np.int64)).lower
    value = jotto.solve(3, wl, method="double-oracle", progress=False).value_bounds[0]
    assert counting_bound(wl) < run.lower <= value <= run.upper


def test_a_time_budget_ends_with_the_proof(tmp_path):
    """A run stopped by its time budget (here the greedy oracle's rounds end first) proves its
    lower bound in the time left, and the file keeps it."""
    wl = jotto.WordList.from_words(["ab", "ac", "ad", "ae", "af", "ag", "bc"])
    sol = jotto.solve(
        2,
        wl,
        method="double-oracle",
        oracle="greedy",
        time_budget=30.0,
        progress=False,
        out=tmp_path / "g.jotto",
    )
    lo = sol.value_bounds[0]
    # the counting bound, all the greedy rounds prove: (7 + 6 + 4) / 7
    assert lo > counting_bound(wl) == Fraction(17, 7)
    assert lo == jotto.best_response(wl, sol.hider_weights()).lower
    assert jotto.Solution.load(tmp_path / "g.jotto").value_bounds == sol.value_bounds
    exact = jotto.solve(2, wl, method="double-oracle", progress=False).value_bounds[0]
    assert lo <= exact


@pytest.mark.slow
def test_twl06_two_letters_value_is_certified(twl06):
    sol = jotto.solve(2, twl06[2], method="double-oracle", progress=False)
    assert sol.value_bounds == (TWL06_2_VALUE, TWL06_2_VALUE)
    assert np.count_nonzero(sol.hider_int) == 51
    assert sol.guesser_worst_case() == TWL06_2_VALUE


def test_double_oracle_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from jotto.cli import main

    path = tmp_path / "w.txt"
    path.write_text("ab\ncd\nac\nbd\nef\nae\ncf\n")
    out = tmp_path / "do.jotto"
    res = CliRunner().invoke(
        main,
        [
            "solve",
            "-w",
            str(path),
            "-n",
            "2",
            "--method",
            "double-oracle",
            "-o",
            str(out),
            "--certify",
            "--no-progress",
        ],
    )
    assert res.exit_code == 0, res.output
    value = jotto.Solution.load(out).value_bounds[0]
    assert f"value {value} = {float(value):.4f} (exact)" in res.output
    assert "true NashConv 0.0000" in res.output
    res = CliRunner().invoke(
        main,
        [
            "solve",
            "-w",
            str(path),
            "-n",
            "2",
            "--method",
            "double-oracle",
            "--oracle",
            "lookahead:x",
            "-o",
            str(tmp_path / "x.jotto"),
        ],
    )
    assert res.exit_code == 2 and "--oracle" in res.output


HEDGE_WORDS = ["abc", "abd", "abe", "abf", "acd", "ace", "bcd", "bce", "cde", "def", "efa", "bdf"]


def test_hedge_rounds_answer_the_multiplicative_weights_hider():
    """With a lookahead oracle each round draws HEDGE_STEPS trees, each the oracle's answer to
    the hider that weighs target i by exp(HEDGE_RATE * guesses its earlier trees needed for
    i), replayed here step by step; the guesser's mixture keeps its exact worst case as the
    upper bound, which no lower than the game's exact value."""
    from jotto.engine.weights import integer_weights
    from jotto.responses.oracles import parse_oracle
    from jotto.solvers.double_oracle.algorithm import HEDGE_RATE, HEDGE_STEPS, DoubleOracle

    wl = jotto.WordList.from_words(HEDGE_WORDS)
    run = DoubleOracle(wl, parse_oracle("lookahead:2"))
    for _ in range(2):
        run.step()
    total = np.zeros(len(wl), dtype=np.int64)
    mixes, columns = [], {run.trees[0].guesses_needed().tobytes()}  # GuesserGBR's first tree
    for _ in range(2 * HEDGE_STEPS):
        mix = np.exp(HEDGE_RATE * (total - total.max()).astype(np.float64))
        mix /= mix.sum()
        g = jotto.best_response(wl, integer_weights(mix), top_k=2).tree.guesses_needed()
        total += g
        mixes.append(mix)
        columns.add(g.tobytes())
    assert run.rounds == 2 and run.hedge_steps == 2 * HEDGE_STEPS
    assert run.hedge_sum.tolist() == total.tolist()
    assert {t.guesses_needed().tobytes() for t in run.trees} == columns
    assert np.allclose(run.hedge_mean, np.mean(mixes, axis=0), rtol=1e-12, atol=0)
    sol = run.solution({})
    value = jotto.solve(3, wl, method="double-oracle", progress=False).value_bounds[0]
    assert sol.guesser_worst_case() == run.upper >= value


def test_a_hedge_run_ends_when_its_trees_repeat_and_resumes_where_it_stopped(tmp_path):
    """Unbudgeted, a hedge run stops at the first round that finds no new tree; a run stopped
    after one round and resumed for one more ends as a two-round run does, hedge included."""
    wl = jotto.WordList.from_words(HEDGE_WORDS)
    value = jotto.solve(3, wl, method="double-oracle", progress=False).value_bounds[0]
    ended = jotto.solve(3, wl, method="double-oracle", oracle="lookahead:2", progress=False)
    assert ended.history["columns"][-1] == ended.history["columns"][-2]
    assert ended.value_bounds[0] <= value <= ended.value_bounds[1]
    two = jotto.solve(
        3,
        wl,
        method="double-oracle",
        oracle="lookahead:2",
        iterations=2,
        progress=False,
        out=tmp_path / "two.jotto",
    )
    jotto.solve(
        3,
        wl,
        method="double-oracle",
        oracle="lookahead:2",
        iterations=1,
        progress=False,
        out=tmp_path / "one.jotto",
    )
    resumed = jotto.solve(
        3,
        wl,
        method="double-oracle",
        oracle="lookahead:2",
        iterations=1,
        progress=False,
        out=tmp_path / "one.jotto",
        resume=True,
    )
    a, b = (strategy_file.read(tmp_path / f"{n}.jotto") for n in ("two", "one"))
    assert a["hedge"] == b["hedge"] and a["trees"] == b["trees"]
    assert resumed.value_bounds == two.value_bounds and resumed.rounds == two.rounds == 2


@pytest.mark.parametrize(
    "field, bad, problem",
    [
        ("sum", [-1], "hedge sum is not a list of 12 non-negative integers"),
        ("mean", "x", "hedge mean is not a distribution over the words"),
        ("sum", [2**70] * 12, "hedge sum holds a count too large"),
        ("steps", -3, "hedge steps is not a non-negative integer"),
        (None, [1, 2], "hedge is not an object"),
    ],
)
def test_a_malformed_hedge_in_a_file_is_named(tmp_path, field, bad, problem):
    wl = jotto.WordList.from_words(HEDGE_WORDS)
    jotto.solve(
        3,
        wl,
        method="double-oracle",
        oracle="lookahead:2",
        iterations=1,
        progress=False,
        out=tmp_path / "a.jotto",
    )
    payload = strategy_file.read(tmp_path / "a.jotto")
    if field is None:
        payload["hedge"] = bad
    else:
        payload["hedge"][field] = bad
    strategy_file.write(tmp_path / "b.jotto", payload)
    with pytest.raises(jotto.StrategyFileError, match=problem):
        jotto.solve(
            3,
            wl,
            method="double-oracle",
            oracle="lookahead:2",
            iterations=1,
            progress=False,
            out=tmp_path / "b.jotto",
            resume=True,
        )


def test_a_proof_beside_the_rounds_keeps_what_it_proved():
    """prove_beside() proves a lower bound against the uniform hider on a thread of its own
    while the rounds go on; on a tiny list it finishes, and the run keeps the exact value of
    the uniform hider's best response, with that hider."""
    from jotto.responses.oracles import parse_oracle
    from jotto.solvers.double_oracle.algorithm import DoubleOracle

    wl = jotto.WordList.from_words(HEDGE_WORDS)
    run = DoubleOracle(wl, parse_oracle("lookahead:2"))
    start = run.lower
    run.prove_beside(60.0)
    while not run.side_proof_wait(0.1):
        pass
    run.take_side_bound(stop=True)
    exact = jotto.best_response(wl)
    assert exact.exact and run.lower == exact.lower > start == counting_bound(wl)
    assert run.hider_int.tolist() == [1] * len(wl)
    run.step()  # the rounds go on without it
    assert run.rounds == 1 and run.lower >= exact.lower


def test_a_budgeted_hedge_run_on_two_threads_proves_beside_its_rounds(tmp_path, monkeypatch):
    """With a time budget and two threads, a hedge run's rounds may take all of the budget and
    the lower bound is proved beside them, not after them (prove() never runs); here the rounds
    end when their trees repeat and the proof when it has the uniform hider's exact value, which
    the file keeps."""
    from jotto.solvers.double_oracle.algorithm import DoubleOracle

    def no_prove(self, seconds):
        raise AssertionError("prove() ran")

    monkeypatch.setattr(DoubleOracle, "prove", no_prove)
    wl = jotto.WordList.from_words(HEDGE_WORDS)
    sol = jotto.solve(
        3,
        wl,
        method="double-oracle",
        oracle="lookahead:2",
        time_budget=60.0,
        threads=2,
        progress=False,
        out=tmp_path / "h.jotto",
    )
    value = jotto.solve(3, wl, method="double-oracle", progress=False).value_bounds[0]
    assert jotto.best_response(wl).lower <= sol.value_bounds[0] <= value <= sol.value_bounds[1]
    assert jotto.Solution.load(tmp_path / "h.jotto").value_bounds == sol.value_bounds
    with pytest.raises(AssertionError, match="prove"):  # one thread: the proof comes last
        jotto.solve(
            3,
            wl,
            method="double-oracle",
            oracle="lookahead:2",
            time_budget=60.0,
            threads=1,
            progress=False,
        )


def test_ctrl_c_keeps_the_bound_proved_beside_the_rounds(tmp_path, twl06, twl06_path):
    """Ctrl-C during a budgeted hedge run on two threads stops the proof beside the rounds too;
    the file keeps what it proved against the uniform hider (above the counting bound the run
    starts from, which the rounds' own searches do not beat at 3 letters)."""
    wl = twl06[3]
    path = tmp_path / "do.jotto"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jotto",
            "solve",
            "-w",
            str(twl06_path),
            "-n",
            "3",
            "--method",
            "double-oracle",
            "--oracle",
            "lookahead:2",
            "--time-budget",
            "300",
            "-j",
            "2",
            "-o",
            str(path),
            "--checkpoint-every",
            "0.5",
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and not path.exists():
            time.sleep(0.05)
        time.sleep(3.0)  # a few rounds, and seconds of proof
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Resume with" in err
    saved = jotto.Solution.load(path)
    assert saved.rounds >= 1
    assert saved.hider_weights().tolist() == [1] * len(wl)
    assert saved.value_bounds[0] > counting_bound(wl)


def test_a_hedge_round_past_its_deadline_draws_one_tree_and_solves_its_lp():
    """A time budget is not overrun by a whole round (20 s at 5 letters): once the run's
    deadline has passed, a hedge round stops drawing trees after its first."""
    from jotto.responses.oracles import parse_oracle
    from jotto.solvers.double_oracle.algorithm import DoubleOracle

    wl = jotto.WordList.from_words(HEDGE_WORDS)
    run = DoubleOracle(wl, parse_oracle("lookahead:2"), deadline=time.monotonic())
    run.step()
    assert run.rounds == 1 and run.hedge_steps == 1
    assert run.upper == run.solution({}).guesser_worst_case()
