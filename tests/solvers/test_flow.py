"""The double oracle's flow game (behaviour strategies over the trees' states): never worse than
the mixtures of its trees, never better than the game, and its guesser split into trees that are
trees of the whole list; against every tree made of its pairs, enumerated."""

from __future__ import annotations

import itertools
import random

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.trees import tree_from_policy
from jotto.game.turns import replies
from jotto.responses.oracles import parse_oracle
from jotto.solvers.double_oracle.algorithm import DoubleOracle
from jotto.solvers.double_oracle.flow import FlowGame
from jotto.solvers.double_oracle.solution import DoubleOracleSolution, decode_fraction
from jotto.solvers.matrix_game import GrowingGame, solve_matrix_game
from tests.solvers.test_double_oracle import _restricted_value
from tests.twins.reference_game import tree_counts
from tests.twins.strategies import dictionaries


def _random_tree(wl: jotto.WordList, seed: int):
    """A tree guessing, at each state, a word drawn (by the seed and the state) among those
    that narrow it down."""

    def decide(S, made):
        rng = random.Random(hash((seed, tuple(S.tolist()))))
        useful = [g for g in range(len(wl)) if g in S or len(np.unique(replies(wl, g, S))) > 1]
        return rng.choice(useful)

    return tree_from_policy(wl, decide)


def _games(words, hidden, seeds):
    wl = jotto.WordList.from_words(words)
    rows = np.flatnonzero(hidden)
    flow, game = FlowGame(wl, rows), GrowingGame(len(rows))
    for seed in seeds:
        tree = _random_tree(wl, seed)
        flow.add_tree(tree)
        game.add_column(tree.guesses_needed()[rows])
    return wl, rows, flow, game


@settings(max_examples=30, deadline=None)
@given(
    words=dictionaries(min_size=3, max_size=7, lengths=(2, 3)),
    data=st.data(),
    seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=5),
)
def test_the_flow_game_lies_between_the_game_and_its_trees(words, data, seeds):
    """Its value is at most the tree game's over the same trees and at least the restricted
    game's exact value (every tree, reference_game); its guesser splits into trees that are
    trees of the whole list (walked by the reference), needing for each hidden word the
    guesses the split says, mixed to a worst case equal to the value."""
    secrets = set(data.draw(st.lists(st.sampled_from(words), min_size=1, unique=True)))
    hidden = np.array([w in secrets for w in words])
    wl, rows, flow, game = _games(words, hidden, seeds)
    sol = flow.solve()
    assert sol.value <= game.solve().value + 1e-9
    assert sol.value >= float(_restricted_value(words, hidden.tolist())) - 1e-9
    assert abs(sol.p.sum() - 1) < 1e-9 and (sol.p >= 0).all()
    assert abs(sol.weights.sum() - 1) < 1e-9 and len(sol.policies) == sol.counts.shape[1]
    for k, policy in enumerate(sol.policies):
        tree = flow.tree(policy)
        counts = tree.guesses_needed()
        assert (counts[rows] == sol.counts[:, k]).all()
        walked = tree_counts(words, wl.rules, tree.guess.tolist(), tree.children.tolist())
        assert walked == counts.tolist()
    worst = (sol.counts @ sol.weights).max()
    assert abs(worst - sol.value) < 1e-7


def _all_policies(flow: FlowGame):
    """Every tree made of the flow game's pairs: a choice of pair at each state reached, as
    the guesses it needs for each hidden word (by walking the states, not the LP)."""

    def trees(sid):
        out = []
        for pid in flow._state_pairs[sid]:
            _, _, classes = flow.pairs[pid]
            for below in itertools.product(*(trees(c) for c in classes)):
                counts = np.zeros(len(flow.rows), dtype=np.int64)
                counts[flow.states[sid]] += 1
                for c in below:
                    counts += c
                out.append(counts)
        return out

    return trees(flow.root)


@settings(max_examples=30, deadline=None)
@given(
    words=dictionaries(min_size=3, max_size=6, lengths=(2,)),
    seeds=st.lists(st.integers(0, 10**6), min_size=2, max_size=4),
)
def test_the_flow_game_is_the_game_of_every_tree_its_pairs_make(words, seeds):
    """Behaviour strategies over the pairs are exactly the mixtures of the trees the pairs make
    (Kuhn): the flow game's value is that matrix game's, every such tree enumerated."""
    hidden = np.ones(len(words), dtype=bool)
    _, _, flow, _ = _games(words, hidden, seeds)
    columns = _all_policies(flow)
    assume(len(columns) <= 2000)  # keep the enumeration small
    A = np.array(columns, dtype=np.float64).T
    assert abs(flow.solve().value - solve_matrix_game(A).value) < 1e-7


@settings(max_examples=15, deadline=None)
@given(words=dictionaries(min_size=4, max_size=8, lengths=(2, 3)), data=st.data())
def test_a_file_holds_the_flow_s_guesser_fresh_or_a_minute_old(words, data):
    """After each round the run's payload reads back checked (its upper bound is its trees'
    exact worst case over the hidden words) and resumes with the same bounds: with ``fresh``
    the run's best guesser; without, within FILE_SECONDS of the last one that made the flow's
    trees, that one's guesser and upper bound (never below the run's)."""
    wl = jotto.WordList.from_words(words)
    secrets = set(data.draw(st.lists(st.sampled_from(words), min_size=2, unique=True)))
    oracle = parse_oracle("greedy")
    run = DoubleOracle(wl, oracle, hidden=np.array([w in secrets for w in words]))
    filed = None
    while not run.done and run.rounds < 6:
        run.step()
        for fresh in (False, True):
            payload = run.payload(fresh)
            upper = decode_fraction(payload["upper"], "upper")
            if fresh:
                assert upper == run.upper and not run.filed_stale
            else:
                assert upper >= run.upper
                assert filed is None or upper in (filed, run.upper)
            sol = DoubleOracleSolution(wl, payload)  # checks the upper bound against its trees
            assert sol.value_bounds == (run.lower, upper)
            back = DoubleOracle.restore(wl, payload, oracle, None)
            assert (back.lower, back.upper) == (run.lower, upper)
        filed = run.upper
