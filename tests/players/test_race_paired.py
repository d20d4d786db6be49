"""Paired races (jotto.players.races.paired_race): two guessers racing one opponent in the same
races, against race() playing each of them on its own, the opponent's play shared, and the
interval of the difference derived by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

import jotto
from jotto.game.turns import consistent
from jotto.players import CostGuesser, GBRGuesser, NorvigGuesser, RaceGuesser, RandomGuesser
from jotto.players.races import PairedRaces, paired_race, race


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


@pytest.fixture(scope="module")
def three():
    return jotto.load_words(length=3)


def _as_seen_by_the_second(estimate) -> tuple[int, int, int]:
    return estimate.losses, estimate.draws, estimate.wins


@pytest.mark.parametrize("opponent_first", [True, False])
def test_each_side_plays_the_races_race_plays(three, opponent_first):
    """Against an opponent that plays a tree, each of a and b has exactly the results race()
    gives it with the same seed and hiders, moving second or first; the race guesser included,
    so what it observes is what race() shows it."""
    hider = np.arange(len(three)) % 3 + 1  # not uniform, so the draws' order matters
    opponent = GBRGuesser(three, rule="exact")
    paired = paired_race(
        three,
        opponent,
        RaceGuesser(three),
        CostGuesser(three),
        opponent_first=opponent_first,
        hider=hider,
        games=150,
        seed=4,
    )
    for side, guesser in (("a", RaceGuesser(three)), ("b", CostGuesser(three))):
        if opponent_first:
            est = race(
                three, opponent, guesser, first_hider=None, second_hider=hider, games=150, seed=4
            ).estimate
            assert paired.results(side) == _as_seen_by_the_second(est)
        else:
            est = race(three, guesser, opponent, first_hider=hider, games=150, seed=4).estimate
            assert paired.results(side) == (est.wins, est.draws, est.losses)
    assert paired.games == 150 and paired.seeds == (4,)


class _Watcher:
    """Plays a tree; records, game by game, what it sees of the opponent."""

    deterministic = True

    def __init__(self, guesser):
        self.inner, self.games, self.name = guesser, [], "watcher"

    def new_game(self):
        self.games.append([])

    def observe(self, view):
        self.games[-1].append(view)

    def next_guess(self, state, history):
        return self.inner.next_guess(state, history)


def test_a_random_opponent_plays_the_same_for_both(sgb):
    """Common random numbers: in each race both see the same play of the random opponent (the
    longer watcher sees all the other saw and more), consistent with what it heard; two equal
    guessers then never differ, and the interval of their difference is a point."""
    a = _Watcher(GBRGuesser(sgb, rule="exact"))
    b = _Watcher(NorvigGuesser(sgb, "max", True))
    paired_race(sgb, RandomGuesser(sgb, 5), a, b, games=60, seed=2)
    assert len(a.games) == len(b.games) == 60
    for x, y in zip(a.games, b.games):
        short, long = sorted((x, y), key=len)
        for u, v in zip(short, long):
            assert u.opponent_history == v.opponent_history
            assert (u.opponent_state == v.opponent_state).all()
            assert u.opponent_found == v.opponent_found and not u.moves_first
        for v in long:
            assert (v.opponent_state == consistent(sgb, v.opponent_history)).all()
        assert [v.opponent_found for v in long[:-1]] == [False] * (len(long) - 1)
    assert any(v.opponent_found for g in a.games for v in g)  # some races the opponent ended
    same = paired_race(
        sgb, RandomGuesser(sgb, 5), CostGuesser(sgb), CostGuesser(sgb), games=60, seed=2
    )
    assert sum(same.table[i][j] for i in range(3) for j in range(3) if i != j) == 0
    assert same.difference == 0 and same.difference_interval() == (0.0, 0.0)


def test_the_difference_and_its_interval_by_hand():
    """Four races: (a won, b won), (a won, b drew), (both drew), (both lost).  a's advantage is
    1/4, b's 0; the per-race differences are 0, 1, 0, 0, with mean 1/4 and variance 3/16."""
    p = PairedRaces(4, (0,), 0.95, True, ((1, 1, 0), (0, 1, 0), (0, 0, 1)))
    assert p.results("a") == (2, 1, 1) and p.results("b") == (1, 2, 1)
    assert p.advantage("a") == 0.25 and p.advantage("b") == 0 and p.difference == 0.25
    half = 1.959963984540054 * math.sqrt(3 / 16 / 4)
    lo, hi = p.difference_interval()
    assert lo == pytest.approx(0.25 - half) and hi == pytest.approx(0.25 + half)
    both = PairedRaces.combine(
        [p, PairedRaces(2, (9,), 0.95, True, ((0, 0, 2), (0, 0, 0), (0, 0, 0)))]
    )
    assert both.games == 6 and both.seeds == (0, 9)
    assert both.table == ((1, 1, 2), (0, 1, 0), (0, 0, 1))
    assert both.difference == pytest.approx((1 + 2 * 2) / 6)
    d = both.as_dict()
    assert d["a"] == {"wins": 4, "draws": 1, "losses": 1} and d["difference"] == both.difference
    with pytest.raises(ValueError, match="one confidence"):
        PairedRaces.combine([p, PairedRaces(1, (1,), 0.99, True, ((1, 0, 0),) + ((0,) * 3,) * 2)])
    with pytest.raises(ValueError, match="side"):
        p.results("c")


def test_bad_paired_races_are_refused(sgb):
    g, h = CostGuesser(sgb), GBRGuesser(sgb)
    with pytest.raises(ValueError, match="does not watch"):
        paired_race(sgb, RaceGuesser(sgb), g, h, games=2)
    with pytest.raises(ValueError, match="object per player"):
        paired_race(sgb, g, g, h, games=2)
    with pytest.raises(ValueError, match="object per player"):
        racer = RaceGuesser(sgb)
        paired_race(sgb, h, racer, racer, games=2)  # it keeps what it observed per game
    with pytest.raises(ValueError, match="games"):
        paired_race(sgb, h, g, CostGuesser(sgb), games=None)
    with pytest.raises(ValueError, match="not a guesser"):
        paired_race(sgb, h, g, "greedy-cost", games=2)


def test_the_controlled_difference_is_a_regression_on_the_exact_value():
    """With b's exact advantage known, the difference corrects a's mean by beta times b's
    simulated error, beta the least-squares slope of a's results on b's; its interval is from
    the residuals.  The twin lists the races one by one."""
    table = ((30, 5, 2), (4, 20, 6), (3, 7, 23))
    p = PairedRaces(100, (0,), 0.95, True, table)
    score = (1, 0, -1)
    x = np.array([score[i] for i in range(3) for j in range(3) for _ in range(table[i][j])])
    y = np.array([score[j] for i in range(3) for j in range(3) for _ in range(table[i][j])])
    exact = 0.05
    beta = np.cov(x, y, bias=True)[0, 1] / y.var()
    residual = x - beta * y
    estimate, lo, hi = p.controlled_difference(exact)
    assert estimate == pytest.approx(x.mean() - beta * (y.mean() - exact) - exact)
    half = 1.959963984540054 * residual.std() / math.sqrt(100)
    assert (lo, hi) == (pytest.approx(estimate - half), pytest.approx(estimate + half))
    for width in (2 * 1.959963984540054 * x.std() / 10, np.diff(p.difference_interval())[0]):
        assert hi - lo <= width  # never wider than a alone or the plain paired difference
    same = PairedRaces(4, (0,), 0.95, True, ((2, 0, 0), (0, 0, 0), (0, 0, 2)))
    assert same.controlled_difference(0.0) == (0.0, 0.0, 0.0)  # a plays as b does
