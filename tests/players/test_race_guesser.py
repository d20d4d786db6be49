"""The race guesser (jotto.players.RaceGuesser, spec ``race``): its model of the other player
against a twin walking each target's path, the objective it plays for, races and play."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.turns import replies
from jotto.play.sessions import Race
from jotto.players import CostGuesser, RaceGuesser, RoundsModel, make_guesser
from jotto.players.race_guesser import _bucket
from jotto.players.races import RaceView, race_objective
from jotto.players.specs import check_guesser_spec
from tests.twins.strategies import rule_cases


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


def _twin_rounds(tree) -> dict[int, dict[int, int]]:
    """For every target, the states along its path (filtered reply by reply) and the guesses
    still needed from each: counts per size bucket."""
    words = tree.words
    out: dict[int, dict[int, int]] = {}
    for t in range(len(words)):
        path = tree.path(t)
        state = np.arange(len(words))
        for j, g in enumerate(path):
            hist = out.setdefault(_bucket(len(state)), {})
            hist[len(path) - j] = hist.get(len(path) - j, 0) + 1
            state = state[replies(words, g, state) == replies(words, g, [t])[0]]
    return out


@settings(max_examples=60, deadline=None)
@given(case=rule_cases(max_size=9), data=st.data())
def test_tree_visits_are_every_targets_path(case, data):
    """The (node, target) pairs the model counts, walked a level at a time for all targets, are
    those of each target's own path (DecisionTree.path, one reply at a time), and the guesses
    each needs its path's length, under every rule set."""
    rules, words, _ = case
    wl = jotto.WordList.from_words(words, rules=rules)
    kind = data.draw(
        st.sampled_from(["gbr:exact", "norvig:max:inconsistent", "greedy-cost", "norvig:entropy"])
    )
    tree = make_guesser(kind, wl).tree()
    nodes, targets = tree.visits()
    twin = set()
    for t in range(len(wl)):
        node = 0
        for g in tree.path(t):
            twin.add((node, t))
            assert tree.guess[node] == g
            if g != t:
                node = int(tree.children[node, replies(wl, g, [t])[0]])
    assert sorted(zip(nodes.tolist(), targets.tolist())) == sorted(twin)
    assert tree.guesses_needed().tolist() == [len(tree.path(t)) for t in range(len(wl))]
    assert (tree.size[nodes] == np.bincount(nodes, minlength=len(tree))[nodes]).all()


def test_rounds_model_counts_the_paths_of_its_tree(sgb):
    tree = make_guesser("gbr:exact", sgb).tree()
    model = RoundsModel(tree, "gbr")
    twin = _twin_rounds(tree)
    sizes = sorted(set(tree.size.tolist()))
    assert {_bucket(n) for n in sizes} == set(twin)
    for n in sizes:
        hist = twin[_bucket(n)]
        total = sum(hist.values())
        assert model.rounds(n) == {k: Fraction(c, total) for k, c in sorted(hist.items())}
    assert model.rounds(1) == {1: 1}  # one candidate: found with the next guess
    whole = tree.guesses_needed()
    assert model.mean(len(sgb)) == pytest.approx(whole.mean())  # the root: the tree's mean
    gap = next(b for b in range(1, max(twin)) if b not in twin)  # a size no node has
    n = next(n for n in range(1, len(sgb)) if _bucket(n) == gap)
    near = min(twin, key=lambda b: (abs(b - gap), b))
    assert model.rounds(n) == model.rounds(next(m for m in sizes if _bucket(m) == near))
    with pytest.raises(ValueError, match="at least one candidate"):
        model.rounds(0)


def test_objective_follows_the_other_players_progress(sgb):
    g = RaceGuesser(sgb)
    assert g.objective_now() is None  # no race seen: it plays the mean
    state = np.arange(30)
    g.observe(RaceView(state, (), True, False))
    assert g.objective_now() == race_objective(g.model.rounds(30))
    g.observe(RaceView(state, (), False, False))  # second: the other's guess of this round
    assert g.objective_now() == race_objective({k + 1: p for k, p in g.model.rounds(30).items()})
    g.observe(RaceView(state, (), False, True))
    assert g.objective_now().costs == (Fraction(1, 2), Fraction(1))  # a draw or a loss


def test_when_the_other_has_found_the_word_it_guesses_a_candidate(sgb):
    """Only a guess that is the word can still draw: it guesses one of its candidates."""
    g = RaceGuesser(sgb)
    mine = np.arange(len(sgb))[replies(sgb, 0, None) == 2]
    g.observe(RaceView(np.array([5]), (), False, True))
    assert g.next_guess(mine, [(0, 2)]) in set(mine.tolist())


def test_outside_a_race_it_is_the_mean_cost_guesser(sgb):
    state = np.arange(len(sgb))[replies(sgb, 3, None) == 1]
    assert RaceGuesser(sgb).next_guess(state, [(3, 1)]) == CostGuesser(sgb).decide(state, 1)


def test_simulated_races_are_reproducible(sgb):
    gbr = make_guesser("gbr:exact", sgb)
    a = jotto.race(sgb, gbr, RaceGuesser(sgb), games=30, seed=4)
    b = jotto.race(sgb, gbr, RaceGuesser(sgb), games=30, seed=4)
    assert not a.exact and a.estimate == b.estimate
    assert a.estimate.wins + a.estimate.draws + a.estimate.losses == 30


def test_race_spec_and_bad_options(sgb):
    g = make_guesser("race:seconds=0.5", sgb)
    assert isinstance(g, RaceGuesser) and g.seconds == 0.5 and g.name == "race:seconds=0.5"
    for spec, message in [
        ("race:x", "only options"),
        ("race:seconds=0", "seconds"),
        ("race:within=3", "unknown option"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_guesser_spec(spec)


class _Watcher:
    """A guesser that records what it is shown of the person before each guess."""

    deterministic = False

    def __init__(self):
        self.views = []

    def new_game(self):
        pass

    def observe(self, view):
        self.views.append(view)

    def next_guess(self, state, history):
        return int(state[0])


def test_play_shows_the_race_guesser_your_progress(sgb):
    watcher = _Watcher()
    session = Race(sgb, np.ones(len(sgb)), watcher, "watcher", seed=1, sheet=False)
    session.start()
    session.handle("cloud")
    view = watcher.views[-1]
    assert not view.moves_first and not view.opponent_found
    assert np.array_equal(view.opponent_state, session.mine.state)
    assert view.opponent_history == ((sgb.index("cloud"), session.mine.replies[0]),)


def test_hard_race_plays_the_race_guesser(sgb):
    from jotto.play.sessions import default_guesser

    g, name = default_guesser(sgb, None, None, 0, "hard", race=True)
    assert isinstance(g, RaceGuesser) and "race" in name
    g, _ = default_guesser(sgb, None, None, 0, "hard", race=False)
    assert not isinstance(g, RaceGuesser)


def test_a_broken_tree_is_refused_not_walked_forever():
    """cab, dog, fit share no letter: cab -> 0 -> dog -> 0 -> fit.  Without the last branch,
    fit is never found; with it leading back to the root, the walk would never end."""
    tree = jotto.gbr_tree(["cab", "dog", "fit"], rule="exact")
    assert tree.guesses_needed().tolist() == [1, 2, 3]
    for target, message in ((-1, "no branch for target 'fit'"), (0, "cycle")):
        children = tree.children.copy()
        children[1, 0] = target
        broken = jotto.DecisionTree(tree.words, tree.guess, tree.depth, tree.size, children)
        with pytest.raises(ValueError, match=message):
            broken.guesses_needed()


def test_decisions_are_shared_by_the_guessers_of_a_process(sgb):
    """A new guesser (jotto play makes one per game) reuses the decisions an equal one made;
    one expecting another hider does not."""
    view = RaceView(np.arange(40), (), False, False)
    first = RaceGuesser(sgb)
    first.observe(view)
    g = first.next_guess(np.arange(len(sgb)), [])

    def refuse(*args, **kwargs):
        raise AssertionError("decided again")

    again = RaceGuesser(sgb)
    again.choose = refuse  # type: ignore[method-assign]
    again.observe(view)
    assert again.next_guess(np.arange(len(sgb)), []) == g
    other = RaceGuesser(sgb, weights=np.arange(len(sgb)) % 2 + 1)
    other.choose = refuse  # type: ignore[method-assign]
    other.observe(view)
    with pytest.raises(AssertionError, match="decided again"):
        other.next_guess(np.arange(len(sgb)), [])
