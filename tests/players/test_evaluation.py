"""Evaluation, head-to-head payoffs and exploitability, checked against the solver's own
epsilons and against brute force; Eckler's analyses against Norvig's printed partitions."""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pytest

import jotto
from jotto.play import analysis
from jotto.players import GBRGuesser, NorvigGuesser
from jotto.players.evaluation import evaluate, exploitability, head_to_head


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


@pytest.fixture(scope="module")
def solved():
    words = jotto.load_words("enable", length=3)
    return jotto.solve(3, words, iterations=60, progress=False)


def test_deterministic_evaluation_is_the_tree(sgb):
    g = GBRGuesser(sgb, rule="exact")
    ev = evaluate(sgb, g)
    counts = jotto.comp_num_guesses(sgb, rule="exact")
    assert (ev.expected == counts).all() and ev.worst == counts.max()
    assert ev.std == pytest.approx(statistics.stdev(counts.tolist()), rel=1e-12)
    assert ev.histogram.tolist() == np.bincount(counts).tolist()
    assert ev.worst_targets(2) == [
        (sgb[int(i)], float(counts[i])) for i in np.argsort(-counts, kind="stable")[:2]
    ]


def test_equilibrium_guesser_evaluation_is_its_mixture(solved):
    words = solved.words
    g = solved.guesser(seed=0)
    ev = evaluate(words, g)
    trees = np.array([g.tree(k).guesses_needed() for k in range(solved.t_star + 1)])
    assert ev.exact
    assert np.allclose(ev.expected, trees.mean(0), rtol=0, atol=1e-12)
    assert np.allclose(
        ev.histogram,
        np.mean([np.bincount(t, minlength=len(ev.histogram)) for t in trees], 0),
        rtol=0,
        atol=1e-12,
    )
    assert ev.mean == pytest.approx(-solved.table()["our_guesser_payoff_vs_benchmark"])
    # std: the expected sample standard deviation of one game per target, each game drawing
    # its own k; check against sampling those game sets
    rng = np.random.default_rng(0)
    ks = rng.integers(0, solved.t_star + 1, size=(4000, len(words)))
    games = trees[ks, np.arange(len(words))]
    assert ev.std == pytest.approx(np.sqrt(games.var(axis=1, ddof=1).mean()), rel=2e-3)


def test_exploitability_is_the_solvers_epsilons(solved):
    """At t*, the profile (s_t*, the guesser mixture 0..t*) is the one whose epsilons the solver
    measured: hider gain = epsilon_hider, guesser gain = epsilon_guesser."""
    words = solved.words
    ev = evaluate(words, solved.guesser(seed=0))
    p = solved.hider()
    ex = exploitability(p, ev, rule="exact")
    t = solved.t_star
    assert ex.value == pytest.approx(solved.history.value[t], rel=1e-12)
    assert ex.hider_gain == pytest.approx(solved.history.eps_hider[t], abs=1e-12)
    assert ex.guesser_gain == pytest.approx(solved.history.eps_guesser[t], abs=1e-12)
    assert ex.nash_conv == pytest.approx(ex.hider_gain + ex.guesser_gain)
    assert ex.exploitability == pytest.approx(ex.nash_conv / 2)
    assert head_to_head(words, solved.guesser(seed=0), p) == pytest.approx(ex.value, rel=1e-12)


def test_head_to_head_with_the_benchmark(solved):
    words = solved.words
    bench = GBRGuesser(words, rule="exact")
    assert head_to_head(words, bench, solved.hider()) == pytest.approx(
        solved.table()["our_hider_payoff_vs_benchmark"], rel=1e-12
    )


def test_evaluate_and_head_to_head_take_specs_as_the_command_does(solved):
    """At the top level, as ``jotto evaluate`` takes them: a guesser spec (default the bundled
    equilibrium, else gbr:exact) and a hider spec; the numbers are the players' own."""
    words = solved.words
    ev = jotto.evaluate(words, "norvig:max")
    by_player = evaluate(words, NorvigGuesser(words, "max"))
    assert ev.guesser == "norvig:max:consistent" and np.array_equal(ev.expected, by_player.expected)
    assert jotto.evaluate(words).guesser == "gbr:exact"  # no bundled solve at this length
    assert jotto.head_to_head(words, "norvig:max") == pytest.approx(by_player.mean, rel=1e-12)
    worst = jotto.head_to_head(words, "norvig:max", "best-response")
    assert worst == by_player.expected.max()
    w = words[int(np.argmin(by_player.expected))]
    assert jotto.head_to_head(words, "norvig:max", f"word:{w}") == by_player.expected.min()
    one_hot = (np.arange(len(words)) == words.index(w)).astype(float)
    assert jotto.head_to_head(words, "norvig:max", one_hot) == by_player.expected.min()
    assert jotto.head_to_head(list(words), "norvig:max") == pytest.approx(by_player.mean)


def test_partition_vectors_are_norvigs(sgb):
    """Norvig prints partition_counts('ouija') and ('coder'), and girth on the first 22."""
    got = analysis.partition_vectors(sgb, [sgb.index("ouija"), sgb.index("coder")])
    assert got.tolist() == [[175, 1848, 755, 65, 1, 1], [433, 1030, 1014, 327, 40, 1]]
    girth = analysis.partition_vectors(sgb, [sgb.index("girth")], targets=range(22))
    assert girth.tolist() == [[5, 5, 4, 5, 2, 1]]


def test_best_first_guesses_are_norvigs(sgb):
    """Norvig's top-10 lists.  His printed lists have 'padre' where his own rule on this
    sgb-words.txt keeps its anagram 'raped' (the last of spade, drape, pared, padre, raped)."""
    printed = {
        "max": "wader cadre armed diner coder padre rayed raved delta drone",
        "expectation": "raved debar roved orbed wader armed fader dater alder cadre",
        "entropy": "debar alder raved dater cadre armed garde wader lased padre",
    }
    for metric, words in printed.items():
        got = [w for w, _ in analysis.best_first_guesses(sgb, metric)]
        assert got == words.replace("padre", "raped").split()


def test_neighbourhoods_against_brute_force():
    words = jotto.load_words("enable", length=4)
    sizes = analysis.neighbourhood_sizes(words)
    sets = [set(w) for w in words]
    for i in (0, 100, 700):
        near = [w for j, w in enumerate(words) if j != i and len(sets[i] & sets[j]) >= 3]
        assert sizes[i] == len(near)
        assert analysis.neighbourhood(words, words[i]) == near
    brute = [sum(1 for b in sets if len(a & b) >= 2) - 1 for a in itertools.islice(sets, 50)]
    assert analysis.neighbourhood_sizes(words, shared=2)[:50].tolist() == brute
    with pytest.raises(ValueError, match="shared must be from 0 to 4"):
        analysis.neighbourhood_sizes(words, shared=5)


def test_histogram_text_and_plot(sgb, tmp_path):
    ev = evaluate(sgb, NorvigGuesser(sgb, "entropy", inconsistent=True))
    text = ev.histogram_text(width=20)
    lines = text.splitlines()
    assert lines[0].split()[0] == "1" and lines[-1].split()[0] == "10"
    assert max(len(ln.split()[-1]) for ln in lines if "#" in ln) == 20
    ev.plot_histogram(tmp_path / "h.svg")
    assert (tmp_path / "h.svg").read_text().startswith("<?xml")
