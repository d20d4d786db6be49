"""Races (jotto.game.race_rules, jotto.players.races, ``jotto race``): the rules as the game states them, exact
chances against the twin that plays every pair of secret words (tests/twins/reference_objectives.py),
mixtures of trees, the symmetric race, simulations, the race's objective, and bad input."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.objectives import Objective
from jotto.game.race_rules import DRAW, FIRST, SECOND, race_result, round_result
from jotto.game.turns import consistent
from jotto.players import GBRGuesser, NorvigGuesser, RandomGuesser, TreeGuesser
from jotto.players.cost_guesser import CostGuesser
from jotto.players.races import RaceView, guess_distribution, race, race_objective
from jotto.solvers.double_oracle.solution import MixedTreeGuesser
from tests.bad_input import cli, one_line_error
from tests.twins import reference_objectives as ro
from tests.twins.strategies import rule_cases

# ---- the rules -----------------------------------------------------------------------------


def test_round_and_race_results_follow_the_stated_rules():
    """The first to find the other's word wins; found in the same round, a draw; neither, the
    race goes on."""
    assert round_result(False, False) is None
    assert round_result(True, False) == FIRST
    assert round_result(False, True) == SECOND
    assert round_result(True, True) == DRAW
    assert race_result(3, 5) == FIRST and race_result(5, 3) == SECOND
    assert race_result(4, 4) == DRAW and race_result(1, 1) == DRAW
    with pytest.raises(ValueError, match="at least one guess"):
        race_result(0, 2)


# ---- exact races against the twin -----------------------------------------------------------


def _guessers(words, draw):
    """A deterministic guesser of a kind drawn from every kind the package has."""
    kind = draw(st.sampled_from(["cost", "gbr", "norvig", "best"]))
    if kind == "cost":
        costs = sorted(draw(st.lists(st.integers(0, 4), min_size=1, max_size=4)))
        return CostGuesser(words, Objective(tuple(costs), draw(st.integers(0, 2))))
    if kind == "gbr":
        return GBRGuesser(words, rule="exact")
    if kind == "norvig":
        return NorvigGuesser(words, draw(st.sampled_from(["max", "entropy"])), draw(st.booleans()))
    weights = np.array(draw(st.lists(st.integers(1, 5), min_size=len(words), max_size=len(words))))
    return TreeGuesser(jotto.best_response(words, weights).tree, "best response")


def _hider_weights(draw, D):
    v = draw(st.lists(st.integers(0, 4), min_size=D, max_size=D))
    if not any(v):
        v[0] = 1
    return v


@settings(max_examples=80, deadline=None)
@given(case=rule_cases(max_size=8), data=st.data())
def test_exact_race_equals_every_pair_of_secrets(case, data):
    rules, words, _ = case
    wl = jotto.WordList.from_words(words, rules=rules)
    a, b = _guessers(wl, data.draw), _guessers(wl, data.draw)
    ha, hb = _hider_weights(data.draw, len(words)), _hider_weights(data.draw, len(words))
    res = race(wl, a, b, first_hider=np.array(ha), second_hider=np.array(hb))
    expected = ro.race_by_pairs(
        a.tree().guesses_needed().tolist(), b.tree().guesses_needed().tolist(), ha, hb
    )
    assert res.exact and (res.win, res.draw, res.loss) == expected
    assert res.win + res.draw + res.loss == 1


@settings(max_examples=40, deadline=None)
@given(case=rule_cases(max_size=7), data=st.data())
def test_mixtures_of_trees_race_exactly(case, data):
    """A guesser mixing trees by integer weights: the race is the mixture of its trees' races."""
    rules, words, _ = case
    wl = jotto.WordList.from_words(words, rules=rules)
    trees = [_guessers(wl, data.draw).tree() for _ in range(data.draw(st.integers(1, 3)))]
    q = data.draw(st.lists(st.integers(0, 3), min_size=len(trees), max_size=len(trees)))
    if not any(q):
        q[0] = 1
    other = _guessers(wl, data.draw)
    ha, hb = _hider_weights(data.draw, len(words)), _hider_weights(data.draw, len(words))
    mixed = MixedTreeGuesser(trees, np.array(q), seed=0)
    res = race(wl, mixed, other, first_hider=np.array(ha), second_hider=np.array(hb))
    expected = [Fraction(0)] * 3
    for qk, tree in zip(q, trees):
        by_pairs = ro.race_by_pairs(
            tree.guesses_needed().tolist(), other.tree().guesses_needed().tolist(), ha, hb
        )
        expected = [e + Fraction(qk, sum(q)) * x for e, x in zip(expected, by_pairs)]
    assert res.exact and [res.win, res.draw, res.loss] == expected


@settings(max_examples=40, deadline=None)
@given(case=rule_cases(max_size=8), data=st.data())
def test_the_same_guesser_on_both_sides_has_no_first_move_advantage(case, data):
    """With the same tree and hider on both sides the rounds each needs are independent and
    alike (chance p_n of n rounds), so a draw has chance sum_n p_n^2 and the rest splits evenly:
    moving first is no advantage under the game's rules."""
    rules, words, _ = case
    wl = jotto.WordList.from_words(words, rules=rules)
    g = _guessers(wl, data.draw)
    h = np.array(_hider_weights(data.draw, len(words)))
    res = race(wl, g, g, first_hider=h, second_hider=h)
    p = guess_distribution(g, h)
    assert res.draw == sum(x * x for x in p.values())
    assert res.win == res.loss == (1 - res.draw) / 2 and res.advantage == 0


def test_equilibrium_guesser_races_exactly_against_any_hider():
    """The fictitious-play equilibrium guesser (iterations 0..t* equally likely): its chances
    against the uniform hider come from the run's histogram, against others from its trees, and
    both agree with the trees' own counts."""
    words = jotto.load_words("sgb", anagrams="norvig")
    wl = jotto.WordList.from_words(list(words)[:60], rules="norvig")
    sol = jotto.solve(5, wl, iterations=8, progress=False)
    g = sol.guesser(seed=0)
    n = sol.t_star + 1
    counts = [g.tree(k).guesses_needed() for k in range(n)]
    for v in (np.ones(len(wl), dtype=np.int64), np.arange(len(wl)) % 3):
        expected: dict[int, Fraction] = {}
        for c in counts:
            for i, w in enumerate(v):
                if w:
                    expected[int(c[i])] = expected.get(int(c[i]), Fraction(0)) + Fraction(
                        int(w), n * int(v.sum())
                    )
        assert guess_distribution(g, v) == dict(sorted(expected.items()))


# ---- simulations ------------------------------------------------------------------------------


def test_simulated_races_agree_with_the_exact_chances():
    """With a fixed seed, the exact chances lie in the simulation's 99.9% intervals, and the
    same seed gives the same races."""
    wl = jotto.load_words("sgb", anagrams="norvig")
    a, b = GBRGuesser(wl, rule="exact"), NorvigGuesser(wl, "max", True)
    res = race(wl, a, b, games=3000, seed=7, confidence=0.999)
    assert res.exact and res.estimate.games == 3000
    for outcome, p in ((FIRST, res.win), (DRAW, res.draw), (SECOND, res.loss)):
        lo, hi = res.estimate.interval(outcome)
        assert lo <= p <= hi
    lo, hi = res.estimate.advantage_interval()
    assert lo <= res.advantage <= hi
    again = race(wl, a, b, games=3000, seed=7, confidence=0.999)
    assert again.estimate == res.estimate


def test_random_guessers_are_simulated_reproducibly():
    wl = jotto.load_words("sgb", anagrams="norvig")
    runs = [
        race(wl, RandomGuesser(wl, 1), RandomGuesser(wl, 2), games=400, seed=3) for _ in range(2)
    ]
    assert not runs[0].exact and runs[0].first_guesses is None
    assert runs[0].estimate == runs[1].estimate
    e = runs[0].estimate
    assert e.wins + e.draws + e.losses == 400 and runs[0].win == e.wins / 400


class _Watcher:
    """A guesser that plays a tree and records what it sees of the other player."""

    deterministic = True

    def __init__(self, tree):
        self.inner = TreeGuesser(tree)
        self.seen: list[RaceView] = []
        self.name = "watcher"

    def new_game(self):
        pass

    def observe(self, view):
        self.seen.append(view)

    def next_guess(self, state, history):
        return self.inner.next_guess(state, history)


def test_race_aware_guessers_see_the_other_players_progress():
    """Before each guess, observe() gets the other's state (the words consistent with the
    replies it heard), its history, who moves first, and whether the other has just found the
    word; such a guesser is simulated even if it plays a tree."""
    wl = jotto.load_words("sgb", anagrams="norvig")
    tree = GBRGuesser(wl, rule="exact").tree()
    a, b = _Watcher(tree), _Watcher(tree)
    res = race(wl, a, b, games=50, seed=1)
    assert not res.exact
    for w, first in ((a, True), (b, False)):
        assert w.seen and all(v.moves_first == first for v in w.seen)
        for v in w.seen:
            assert (v.opponent_state == consistent(wl, v.opponent_history)).all()
    assert not any(v.opponent_found for v in a.seen)
    assert any(v.opponent_found for v in b.seen)  # some races the first won or drew


# ---- the race's objective ---------------------------------------------------------------------


def test_race_objective_costs_the_chance_of_losing():
    """Against an opponent finding the word in round 1 or 3, equally likely: finding it with
    guess d costs P(e < d) + draw P(e = d)."""
    obj = race_objective({1: 1, 3: 1})
    assert obj.costs == (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))
    assert obj.tail == 0 and obj.cost(9) == 1
    assert race_objective({2: Fraction(1, 3)}, draw=Fraction(0)).costs == (0, 0, 1)


@settings(max_examples=30, deadline=None)
@given(
    case=rule_cases(max_size=8),
    data=st.data(),
    draw=st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)]),
)
def test_race_objective_is_the_race_seen_from_one_side(case, data, draw):
    """A tree's value under the race objective of the other's rounds is its chance of losing
    plus ``draw`` times its chance of drawing, as race() gives them (either side)."""
    rules, words, _ = case
    wl = jotto.WordList.from_words(words, rules=rules)
    a, b = _guessers(wl, data.draw), _guessers(wl, data.draw)
    ha, hb = _hider_weights(data.draw, len(words)), _hider_weights(data.draw, len(words))
    res = race(wl, a, b, first_hider=np.array(ha), second_hider=np.array(hb))
    theirs = guess_distribution(b, np.array(ha))
    value = race_objective(theirs, draw).value(a.tree().guesses_needed(), hb)
    assert value == res.loss + draw * res.draw


# ---- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "games"),
        ({"seed": -1}, "seed"),
        ({"confidence": 1.0}, "confidence"),
        ({"first_hider": [0, 0, 0, 0]}, "no word"),
        ({"second_hider": [1, 1]}, "vector of 4"),
    ],
)
def test_bad_race_arguments_are_refused(kwargs, message):
    words = ["ab", "cd", "ac", "bd"]
    g = GBRGuesser(jotto.WordList.from_words(words))
    with pytest.raises(ValueError, match=message):
        race(words, g, g, **kwargs)


def test_a_shared_stateful_guesser_cannot_be_simulated():
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd"])
    g = RandomGuesser(wl, 0)
    with pytest.raises(ValueError, match="two guesser objects"):
        race(wl, g, g, games=5)
    with pytest.raises(ValueError, match="not a guesser"):
        race(wl, g, 5)
    # a string is a guesser's spec (issue 42), so a bad one is named as such
    with pytest.raises(ValueError, match="nonsense"):
        race(wl, g, "nonsense")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"draw": 2}, "draw"),
        ({"draw": 0.5}, "draw"),
        ({"rounds": {0: 1}}, "from 1"),
        ({"rounds": {1: -1}}, "non-negative"),
        ({"rounds": {1: 0}}, "no weight"),
    ],
)
def test_bad_race_objectives_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        race_objective(**{"rounds": {1: 1}, **kwargs})


@pytest.mark.parametrize(
    "args, message",
    [
        (["-1", "bogus"], "unknown guesser"),
        (["-2", "greedy-cost:within=0"], "within"),
        (["--games", "0"], "'--games'"),
        (["--seed", "-1"], "'--seed'"),
        (["--first-hider", "weights:/nonexistent/w.txt"], "/nonexistent/w.txt"),
        (["--second-hider", "word:zzzzz"], "zzzzz"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args, message):
    one_line_error(
        cli("race", "-w", "sgb", "--anagrams", "norvig", "-1", "gbr:exact", *args), message
    )


def test_cli_race_prints_the_exact_chances_and_json():
    wl = jotto.load_words("sgb", anagrams="norvig")
    args = [
        "race",
        "-w",
        "sgb",
        "--anagrams",
        "norvig",
        "-1",
        "gbr:exact",
        "-2",
        "norvig:max:inconsistent",
        "--second-hider",
        "word:cloud",
    ]
    expected = race(
        wl,
        GBRGuesser(wl, rule="exact"),
        NorvigGuesser(wl, "max", True),
        second_hider=jotto.players.FixedHider(wl, "cloud"),
    )
    run = cli(*args, "--json")
    assert run.exit_code == 0, run.output
    out = json.loads(run.stdout)
    assert out["exact"] and out["exact_chances"] == {
        "win": str(expected.win),
        "draw": str(expected.draw),
        "loss": str(expected.loss),
    }
    assert out["second"]["hider"] == "word:cloud" and out["simulated"] is None
    text = cli(*args)
    assert text.exit_code == 0 and f"({expected.win})" in text.stdout
    simulated = json.loads(cli(*args, "--games", "200", "--json").stdout)["simulated"]
    assert simulated["games"] == 200 and simulated["seed"] == 0
