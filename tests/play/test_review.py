"""The review of a game (jotto.play.review): every number against the exhaustive twin of a state's
value (tests/twins/reference_game.py) on tiny lists, and against best_response."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.play.review import GuessReview, SideReview, StateValues, review_game, review_guesses
from tests.twins import reference_game
from tests.twins.strategies import rules_dictionaries


@settings(max_examples=60, deadline=None)
@given(case=rules_dictionaries(max_size=9), data=st.data())
def test_state_values_are_the_twins(case, data):
    rules, words = case
    wl = jotto.WordList.from_words(words, rules=rules)
    S = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    v = StateValues(wl).value(np.array(S))
    assert v.exact and v.lower == reference_game.state_value(words, S, rules)


@settings(max_examples=40, deadline=None)
@given(case=rules_dictionaries(max_size=9), data=st.data())
def test_each_guess_reviewed_as_the_twin_says(case, data):
    """A game of random guesses at a random secret: candidates, expected guesses after each
    guess and after the best, guesses lost and luck, from the twin's values of the classes."""
    rules, words = case
    wl = jotto.WordList.from_words(words, rules=rules)
    secret = data.draw(st.sampled_from(range(len(words))))
    twin = {}

    def V(S):
        key = tuple(S)
        if key not in twin:
            twin[key] = reference_game.state_value(words, list(S), rules)
        return twin[key]

    moves, S = [], list(range(len(words)))
    while True:
        g = data.draw(st.sampled_from(S if rules.hard else range(len(words))))
        code = rules.reply(words[g], words[secret])
        moves.append((words[g], code))
        if g == secret:
            break
        S = [t for t in S if rules.reply(words[g], words[t]) == code]
    side = review_guesses(wl, moves)
    assert side.found and len(side.guesses) == len(moves)
    S = list(range(len(words)))
    for (word, code), r in zip(moves, side.guesses):
        g = words.index(word)
        classes: dict[int, list[int]] = {}
        for t in S:
            if t != g:
                classes.setdefault(rules.reply(word, words[t]), []).append(t)
        expected = sum((Fraction(len(C), len(S)) * V(C) for C in classes.values()), Fraction(0))
        best = V(S) - 1
        after = Fraction(0) if g == secret else V(classes[code])
        assert r.candidates == len(S) and r.found == (g == secret)
        assert r.left == (0 if g == secret else len(classes[code]))
        assert r.expected == (expected, expected) and r.best == (best, best)
        assert r.lost == (expected - best, expected - best) and r.lost[0] >= 0
        assert r.luck == (expected - after, expected - after)
        assert r.lost_estimate == expected - best and r.luck_estimate == expected - after
        S = classes.get(code, [])


def test_the_first_guess_is_measured_against_best_response():
    """On a list small enough to solve, V of the whole list is best_response's value."""
    wl = jotto.load_words("enable", length=2)
    best = jotto.best_response(wl)
    assert best.exact
    side = review_guesses(
        wl, [(wl[0], wl.rules.reply(wl[0], wl[1])), (wl[1], wl.win_code)], nodes=10**8
    )
    first = side.guesses[0]
    assert first.best == (best.upper - 1, best.upper - 1)
    # the best guess's own review loses nothing
    top = review_guesses(
        wl, [(first.best_guess, wl.rules.reply(first.best_guess, wl[1]))], nodes=10**8
    )
    assert top.guesses[0].lost == (0, 0)


def _guess(lost, luck):
    """A reviewed guess losing ``lost`` guesses, with luck ``luck`` (exact values)."""
    e = Fraction(2)
    return GuessReview("x", 0, False, 2, 1, (e, e), (e - lost, e - lost), "y", (e - luck, e - luck))


def test_skill_luck_and_squares_follow_their_formulas():
    side = SideReview(
        "you",
        [
            _guess(Fraction(0), Fraction(1, 2)),
            _guess(Fraction(3, 10), Fraction(-1)),
            _guess(Fraction(7, 10), Fraction(0)),
        ],
        True,
    )
    assert side.lost == 1 and side.luck == Fraction(-1, 2)
    assert side.skill == math.floor(99 * math.exp(-0.5))  # 60
    assert side.luck_score == round(99 / (1 + math.exp(0.5)))
    assert side.squares() == "🟩🟨🟥"
    assert SideReview("you", [_guess(Fraction(0), Fraction(0))], True).skill == 99


def test_share_line_names_no_word_and_no_reply():
    wl = jotto.load_words("enable", length=3)
    secret, mine = "cub", "fox"
    yours = [(g, wl.win_code if g == secret else wl.rules.reply(g, secret)) for g in ("tea", "cub")]
    theirs = [(g, wl.win_code if g == mine else wl.rules.reply(g, mine)) for g in ("rat", "fox")]
    review = review_game(wl, "race", "won", yours, theirs)
    share = review.share()
    assert not any(w in share for w in ("tea", "cub", "rat", "fox"))
    assert share.startswith("Jotto race, enable 3 letters: won")
    assert [s.who for s in review.sides] == ["you", "me"]


@settings(max_examples=40, deadline=None)
@given(case=rules_dictionaries(max_size=9), data=st.data())
def test_bounds_of_states_left_unsearched_hold_the_twins_value(case, data, monkeypatch):
    """States too large to search (here every state of more than 2 words) keep their first
    bounds, under every rule set: they must hold the exact value."""
    import jotto.play.review as review

    monkeypatch.setattr(review, "BIG", 2)
    monkeypatch.setattr(review, "QUICK", 1e-9)
    rules, words = case
    wl = jotto.WordList.from_words(words, rules=rules)
    S = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    v = StateValues(wl).value(np.array(S))
    exact = reference_game.state_value(words, S, rules)
    assert 1 <= v.lower <= exact <= v.upper
