"""The cost guesser (jotto.players.CostGuesser, greedy_cost.c): its model against the twin in
tests/twins/reference_objectives.py, its trees, and play."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.objectives import Objective, within
from jotto.play.sessions import YouHide
from jotto.players import make_guesser
from jotto.players.cost_guesser import CostGuesser
from jotto.players.specs import check_guesser_spec
from tests.examples import examples
from tests.responses.test_objectives import cost_vectors
from tests.twins import reference_game
from tests.twins import reference_objectives as ro
from tests.twins.strategies import rule_cases


@settings(max_examples=examples(120), deadline=None)
@given(case=rule_cases(), vec=cost_vectors(), data=st.data())
def test_cost_guesser_scores_as_its_model_says(case, vec, data):
    """Level 1 chooses the guess the twin of the model scores best (within rounding), among
    those the rules allow; deeper levels choose a guess the rules allow."""
    rules, words, v = case
    costs, tail = vec
    wl = jotto.WordList.from_words(words, rules=rules)
    state = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    made = data.draw(st.integers(0, 5))
    scores = ro.greedy_scores(words, v, costs, tail, rules, state, made)
    guesser = CostGuesser(wl, Objective(tuple(costs), tail), np.array(v, dtype=np.int64), levels=1)
    g = guesser.decide(np.array(state), made)
    S = [i for i in state if rules.hard or v[i]] or state
    if len(S) <= 2:
        assert g == max(S, key=lambda i: (v[i], -i))
        return
    best = min(scores.values())
    assert g in scores and scores[g][0] <= best[0] + 1e-9 * max(1.0, abs(best[0]))
    deep = CostGuesser(
        wl, Objective(tuple(costs), tail), np.array(v, dtype=np.int64), levels=3, width=2
    ).decide(np.array(state), made)
    assert deep in scores


@settings(max_examples=examples(40), deadline=None)
@given(case=rule_cases(), vec=cost_vectors())
def test_cost_guesser_tree_is_a_tree_of_the_rules(case, vec):
    rules, words, v = case
    costs, tail = vec
    wl = jotto.WordList.from_words(words, rules=rules)
    objective = Objective(tuple(costs), tail)
    tree = CostGuesser(wl, objective, np.array(v, dtype=np.int64)).tree()
    counts = reference_game.tree_counts(words, rules, tree.guess.tolist(), tree.children.tolist())
    assert counts == tree.guesses_needed().tolist()
    assert objective.value(counts, v) >= Fraction(
        ro.best_total(words, v, costs, tail, rules), sum(v)
    )


def test_cost_guesser_plays_and_is_deterministic():
    wl = jotto.load_words("sgb", anagrams="norvig")
    g = CostGuesser(wl, within(6))
    tree = g.tree()
    target = 17
    history = jotto.game.turns.play(wl, g, target)
    assert history[-1][0] == target and len(history) == tree.guesses_needed()[target]
    assert CostGuesser(wl, within(6)).tree().guess.tolist() == tree.guess.tolist()


def test_greedy_cost_spec_names_the_guesser_and_refuses_bad_options():
    wl = jotto.WordList.from_words(["ab", "cd", "ac", "bd", "ae"])
    g = make_guesser("greedy-cost:within=3", wl)
    assert isinstance(g, CostGuesser) and g.objective == within(3) and g.deterministic
    g = make_guesser("greedy-cost:costs=0,1/2,1:tail=1:seconds=0.5", wl)
    assert g.objective == Objective((0, Fraction(1, 2), 1), 1) and g.seconds == 0.5
    assert not g.deterministic
    assert make_guesser("greedy-cost", wl).objective.is_mean
    for spec, message in [
        ("greedy-cost:within=0", "within"),
        ("greedy-cost:x", "only options"),
        ("greedy-cost:within=2:costs=1", "not both"),
        ("greedy-cost:tail=1", "needs them"),
        ("greedy-cost:seconds=0", "seconds"),
        ("greedy-cost:costs=2,1", "decrease"),
        ("greedy-cost:depth=3", "unknown option"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_guesser_spec(spec)


def test_greedy_cost_plays_a_hiding_game():
    """``jotto play --guesser greedy-cost:within=6``: the computer finds a person's word."""
    wl = jotto.load_words("sgb", anagrams="norvig")
    secret = wl.index("cloud")
    session = YouHide(wl, make_guesser("greedy-cost:within=6", wl), "greedy-cost")
    lines = session.start().lines
    for _ in range(len(wl)):
        guess = wl.index(lines[-1].split()[-1])
        answer = "yes" if guess == secret else str(jotto.reply(wl[guess], "cloud"))
        out = session.handle(answer)
        if out.done:
            break
        lines = out.lines
    assert session.found and session.result()["outcome"] == "found"
