"""Guessers and hiders: Norvig's numbers exactly as his notebook prints them, the random
guesser, GuesserGBR against any hider, trees played from files, and the spec strings."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import jotto
from jotto.game.turns import play
from jotto.players import (
    BestResponseHider,
    DistributionHider,
    FixedHider,
    GBRGuesser,
    NorvigGuesser,
    RandomGuesser,
    TreeGuesser,
    UniformHider,
    make_guesser,
    make_hider,
)
from jotto.players.evaluation import evaluate


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


# Norvig (2020), "Comparing Metrics": mean ± stdev, worst, over one game per target.
NORVIG = {
    ("max", False): "mean = 7.15 ± 1.81 guesses; worst = 18",
    ("expectation", False): "mean = 7.14 ± 1.82 guesses; worst = 17",
    ("entropy", False): "mean = 7.09 ± 1.79 guesses; worst = 19",
    ("max", True): "mean = 7.05 ± 0.98 guesses; worst = 10",
    ("expectation", True): "mean = 6.84 ± 0.95 guesses; worst = 10",
    ("entropy", True): "mean = 6.81 ± 1.00 guesses; worst = 10",
}


@pytest.mark.parametrize("metric, inconsistent", list(NORVIG))
def test_norvig_guessers_reproduce_the_notebook(sgb, metric, inconsistent):
    guesser = NorvigGuesser(sgb, metric, inconsistent)
    ev = evaluate(sgb, guesser)
    assert ev.exact and ev.summary() == NORVIG[metric, inconsistent]
    # his first guesses: top(max), top(expectation), top(negative_entropy) each start with them
    assert (
        sgb[int(guesser.tree().guess[0])]
        == {"max": "wader", "expectation": "raved", "entropy": "debar"}[metric]
    )


def test_norvig_tree5():
    """Norvig's five-word example: make_tree(max, words5) = ('bites', {1: ('purge', {1:
    ('sulky', {1: 'hayed', 5: 'sulky'}), 5: 'purge'}), 2: 'patsy', 5: 'bites'})."""
    words = jotto.WordList.from_words(["purge", "bites", "sulky", "patsy", "hayed"])
    tree = NorvigGuesser(words, "max").tree()
    assert tree.guesses_needed().tolist() == [2, 1, 3, 2, 4]
    assert [words[g] for g in tree.path(4)] == ["bites", "purge", "sulky", "hayed"]


def test_random_guesser_is_seeded_and_near_norvigs(sgb):
    a = evaluate(sgb, RandomGuesser(sgb, 0))
    b = evaluate(sgb, RandomGuesser(sgb, 0))
    assert not a.exact and (a.expected == b.expected).all()
    assert 7.3 <= a.mean <= 7.4  # Norvig: 7.32 in his sample game set, 7.38 in his table
    state = np.arange(10, 20)
    assert RandomGuesser(sgb, 1).next_guess(state, []) in state


def test_gbr_guesser_against_a_hider(sgb):
    rng = np.random.default_rng(2)
    p = rng.random(len(sgb))
    for rule in ("paper", "exact"):
        g = GBRGuesser(sgb, p, rule)
        assert (evaluate(sgb, g).expected == jotto.comp_num_guesses(sgb, p, rule=rule)).all()
        S = np.arange(0, len(sgb), 7)
        assert g.decide(S) == jotto.guesser_gbr(sgb, p, S, rule=rule)


def test_tree_guesser_follows_the_tree_and_knows_when_it_left_it(sgb, tmp_path):
    tree = NorvigGuesser(sgb, "max").tree()
    tree.save(tmp_path / "t.json")
    g = make_guesser(f"tree:{tmp_path / 't.json'}", sgb)
    assert isinstance(g, TreeGuesser)
    assert [x for x, _ in play(sgb, g, 100)] == tree.path(100)
    with pytest.raises(ValueError, match="left the decision tree"):
        g.next_guess(np.arange(3), [(5, 0)])
    # a Norvig guesser answers off its tree by deciding at the state
    n = NorvigGuesser(sgb, "max")
    S = np.array([3, 8, 9, 40])
    targets = [sgb[i] for i in S]

    def largest_branch(guess):  # Norvig: max(partition_counts(guess, targets))
        return max(Counter(jotto.reply(guess, t) for t in targets).values())

    expected = sgb.index(min(targets, key=largest_branch))
    assert n.next_guess(S, [(5, 0)]) == n.decide(S) == expected


def test_hiders(sgb):
    assert np.allclose(UniformHider(sgb).distribution(), 1 / len(sgb))
    fixed = FixedHider(sgb, "WADER")
    assert fixed.secret(np.random.default_rng(0)) == sgb.index("wader")
    assert DistributionHider(sgb, np.arange(len(sgb))).distribution().sum() == pytest.approx(1)
    expected = np.ones(len(sgb))
    expected[[4, 9]] = 3.0
    br = BestResponseHider(sgb, expected)
    assert np.flatnonzero(br.distribution()).tolist() == [4, 9]
    with pytest.raises(ValueError, match="one probability per word"):
        DistributionHider(sgb, [1.0, 2.0])
    with pytest.raises(ValueError, match="not all zero"):
        DistributionHider(sgb, np.zeros(len(sgb)))


def test_specs(sgb, tmp_path):
    assert make_guesser("norvig:entropy:inconsistent", sgb).name == "norvig:entropy:inconsistent"
    assert make_guesser("random:seed=7", sgb).name == "random:seed=7"
    assert make_guesser("gbr", sgb).rule == "paper"
    assert make_guesser("gbr:exact", sgb).rule == "exact"
    np.save(tmp_path / "w.npy", np.arange(len(sgb), dtype=float))
    g = make_guesser(f"gbr:exact:weights={tmp_path / 'w.npy'}", sgb)
    assert (g.weights == np.arange(len(sgb))).all()
    (tmp_path / "w.txt").write_text("wader 3\nraved 1\n")
    h = make_hider(f"weights:{tmp_path / 'w.txt'}", sgb)
    p = h.distribution()
    assert p[sgb.index("wader")] == 0.75 and p[sgb.index("raved")] == 0.25
    assert make_hider("word:wader", sgb).distribution()[sgb.index("wader")] == 1
    sol = jotto.solve(5, sgb, iterations=3, progress=False, out=tmp_path / "s.jotto")
    eq = make_guesser(f"equilibrium:{tmp_path / 's.jotto'}:seed=4", sgb)
    assert eq.t_star == sol.t_star
    assert (
        make_hider(f"equilibrium:{tmp_path / 's.jotto'}", sgb).distribution() == sol.hider()
    ).all()


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nope", "unknown guesser 'nope'"),
        ("norvig", "use norvig:METRIC"),
        ("norvig:max:sometimes", "use norvig:METRIC"),
        ("random:seed=x", "'random:seed=x': seed must be a non-negative integer, not 'x'"),
        ("random:seed=-1", "'random:seed=-1': seed must be a non-negative integer, not '-1'"),
        ("equilibrium:seed=١", "seed must be a non-negative integer, not '١'"),  # not ASCII
        ("equilibrium:t=-3", "t must be a non-negative integer, not '-3'"),
        ("random:seed=" + "9" * 5000, "seed has 5000 digits; at most 1000"),
        ("random:colour=red", "unknown option 'colour'"),
        ("gbr:fast", "use gbr"),
        ("tree", "tree needs a file"),
        ("equilibrium:/no/such.jotto", "no such strategy file"),
        ("gbr:exact:weights=/no/such.txt", "no such file"),
    ],
)
def test_bad_guesser_specs(sgb, spec, message):
    with pytest.raises(ValueError, match=message):
        make_guesser(spec, sgb)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("somebody", "unknown hider 'somebody'"),
        ("equilibrium:t=-1", "'equilibrium:t=-1': t must be a non-negative integer, not '-1'"),
        ("weights", "weights needs a file"),
        ("uniform:seed=1", "unknown option 'seed'"),
        ("word:zzzzz", "'zzzzz' is not in this word list"),
        ("best-response", "needs a guesser"),
    ],
)
def test_bad_hider_specs(sgb, spec, message):
    with pytest.raises((ValueError, KeyError), match=message):
        make_hider(spec, sgb)


def test_weights_files_errors(sgb, tmp_path):
    (tmp_path / "short.txt").write_text("1\n2\n")
    with pytest.raises(ValueError, match="2 weights for 2845 words"):
        make_hider(f"weights:{tmp_path / 'short.txt'}", sgb)
    (tmp_path / "bad.txt").write_text("wader x\n")
    with pytest.raises(ValueError, match=r"bad\.txt, line 1: 'x' is not a number"):
        make_hider(f"weights:{tmp_path / 'bad.txt'}", sgb)
    (tmp_path / "who.txt").write_text("zzzzz 1\n")
    with pytest.raises(ValueError, match="'zzzzz' is not in the word list"):
        make_hider(f"weights:{tmp_path / 'who.txt'}", sgb)
