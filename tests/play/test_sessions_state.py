"""The sessions' structured state (jotto.play.sessions.GameState): what the terminal draws and the
web server sends is one state, it follows the game move by move, a refused move changes nothing,
and the computer's word is in it only once the game is over."""

from __future__ import annotations

import json

import numpy as np
import pytest

from jotto.game.words import load_words
from jotto.play.commonness import hiding_set
from jotto.play.sessions import ASKS, MODES, Race, YouGuess, YouHide, level_players, new_session
from jotto.play.sheet import Style, render_sheet, sheet_lines
from jotto.players.specs import make_guesser


@pytest.fixture(scope="module")
def words():
    return load_words("enable", length=3)


def _fits(words, rows):
    return [w for w in words if all(words.rules.reply(r["guess"], w) == r["reply"] for r in rows)]


def test_you_guess_state_follows_the_game_and_hides_the_word(words):
    s = YouGuess(words, np.ones(len(words)), seed=3, hints=True)
    secret = words[s.secret]
    assert s.asks() == "guess" and s.prompt == "Your guess: "
    for _ in range(30):
        state = s.view()
        d = state.as_dict()
        json.dumps(d)  # all of it is JSON
        assert d["my_word"] is None and not state.over
        guess = next(
            w
            for w in _fits(words, d["yours"]["rows"])
            if w not in {r["guess"] for r in d["yours"]["rows"]}
        )
        reply = s.guess(guess)
        assert not reply.refused
        if s.found:
            break
        row = s.view().yours.as_dict()["rows"][-1]
        assert row == {
            "guess": guess,
            "reply": words.rules.reply(guess, secret),
            "shown": str(words.rules.reply(guess, secret)),
        }
        assert s.view().yours.fitting == len(s.state)
    end = s.view()
    assert end.over and end.outcome == "won" and end.my_word == secret and end.asks == "none"
    assert end.yours.guesses[-1] == secret and end.yours.replies[-1] == words.win_code


def test_the_terminal_sheet_is_the_state_drawn(words):
    s = YouGuess(words, np.ones(len(words)), seed=5)
    for w in ("cat", "dog"):
        if not s.over:
            s.guess(w)
    s.set_mark("xq", "out")
    state = s.view().yours
    style = Style(False)
    assert s.sheet_lines() == render_sheet(state, style)
    assert s.sheet_lines() == sheet_lines(
        "Your sheet:",
        list(state.guesses),
        list(state.replies),
        words.rules,
        3,
        style,
        marks={"x": False, "q": False},
    )
    assert state.as_dict()["marks"] == {"q": "out", "x": "out"}


def test_refused_moves_change_nothing(words):
    s = YouGuess(words, np.ones(len(words)), seed=1)
    before = s.view()
    for bad in ("abcd", "qzx", "c4t"):
        reply = s.guess(bad)
        assert reply.refused and len(reply.lines) == 1
    assert s.view() == before
    assert s.set_mark("1", "in").refused and s.set_mark("a", "maybe").refused
    assert s.view() == before


def test_the_race_asks_in_turn_and_says_whose_turn_it_is(words):
    guesser, name, p = level_players(words, None, None, 2, "easy", race=True)
    s = Race(words, p, guesser, name, seed=2, sheet=False)
    hidden = "zap" if "zap" in words else words[-1]
    assert s.asks() == "guess"
    assert s.answer("1").refused  # not yet: it is your turn
    rows: list = []
    for _ in range(40):
        if s.asks() == "guess":
            guess = next(w for w in _fits(words, rows) if w not in {r["guess"] for r in rows})
            assert not s.guess(guess).refused
            rows = s.view().yours.as_dict()["rows"]
        if s.asks() == "answer":
            state = s.view()
            assert state.my_guess and state.my_word is None
            assert s.guess("cat").refused  # not now: answer my guess first
            mine = state.my_guess
            s.answer("yes" if mine == hidden else str(words.rules.reply(mine, hidden)))
        if s.asks() == "word":
            assert s.view().over and s.view().my_word == words[s.mine.secret]
            s.tell_word(hidden)
        if s.asks() == "none":
            break
    end = s.view()
    assert end.over and end.outcome in ("won", "lost", "draw") and end.asks == "none"
    assert s.result()["outcome"] == end.outcome


def test_you_hide_state_and_undo(words):
    s = YouHide(words, make_guesser("gbr:exact", words), "GBR")
    s.start()
    first = s.view()
    assert first.asks == "answer" and first.my_guess and first.mine.guesses == ()
    s.answer("1")
    assert s.view().mine.guesses == (first.my_guess,)
    s.undo()
    assert s.view().mine.guesses == () and s.view().my_guess == first.my_guess
    assert s.undo().refused
    s.give_up()
    assert s.asks() == "word" and s.prompt == "Your word: "
    s.tell_word("")
    assert s.view().over and s.view().outcome == "gave up"


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_has_a_state_of_its_question(words, mode):
    s = new_session(mode, words, "easy", hiding_set(words, "all"), seed=4, sheet=False)
    s.start()
    state = s.view()
    assert state.asks in ASKS and state.mode == mode
    assert {"race": "guess", "guess": "guess", "hide": "answer", "assist": "entry"}[
        mode
    ] == state.asks
    json.dumps(state.as_dict())
