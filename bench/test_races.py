"""Races and the guesser for any objective (issue 33) at 5 letters, on the bundled ENABLE list
(the default list, paper rules).

Targets: the cost guesser (``greedy-cost``) answers well under a second: its first guess (the
slowest: the whole list) under 0.5 s on one core, every later guess under 0.2 s.  Exact races
between trees take seconds.  The cost guesser reads replies pair by pair (jt_code), not through
the kernel variants, so its times do not depend on JOTTO_KERNEL.  Run:
``pytest bench/test_races.py --benchmark-only -s`` (the numbers in docs/race.md).
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

import jotto
from jotto.game.objectives import parse_objective
from jotto.game.trees import tree_from_policy
from jotto.players import make_guesser
from jotto.players.cost_guesser import CostGuesser


@pytest.fixture(scope="module")
def enable():
    return jotto.load_words()


@pytest.mark.parametrize("objective", ["mean", "within:6"])
def test_cost_guesser_first_guess(benchmark, enable, objective):
    benchmark.group = "cost guesser, first guess"
    g = CostGuesser(enable, objective)
    everything = np.arange(len(enable))
    guess = benchmark(g.choose, everything, 0, g.objective)
    assert benchmark.stats["max"] < 0.5 or os.getloadavg()[0] > 2  # one core, unloaded
    print(f"\n{objective}: first guess {enable[guess]}, load {os.getloadavg()[0]:.1f}")


@pytest.mark.parametrize("objective", ["mean", "within:6"])
def test_cost_guesser_every_decision_of_a_tree(benchmark, enable, objective):
    """Every state the guesser reaches against every target: the slowest decision after the
    first, and the tree's own numbers."""
    benchmark.group = "cost guesser, whole tree"
    g = CostGuesser(enable, objective)
    times: list[tuple[float, int]] = []

    def decide(S, made):
        t = time.perf_counter()
        x = g.choose(S, made, g.objective)
        times.append((time.perf_counter() - t, made))
        return x

    tree = benchmark.pedantic(tree_from_policy, (enable, decide), rounds=1)
    later = sorted(t for t, made in times if made > 0)
    counts = tree.guesses_needed()
    benchmark.extra_info.update(
        {"slowest_later": later[-1], "decisions": len(times), "load": os.getloadavg()[0]}
    )
    print(
        f"\n{objective}: {len(times)} decisions, slowest after the first {later[-1]:.3f} s, "
        f"99% under {later[int(0.99 * len(later))]:.4f} s; mean guesses "
        f"{counts.mean():.4f}, found within 6 {(counts <= 6).mean():.4f}; load "
        f"{os.getloadavg()[0]:.1f}"
    )
    value = parse_objective(objective).value(counts, np.ones(len(enable), dtype=np.int64))
    assert value > 0


@pytest.mark.parametrize(
    "first, second",
    [
        ("gbr:exact", "norvig:max:inconsistent"),
        ("gbr:exact", "norvig:entropy:inconsistent"),
        ("greedy-cost", "gbr:exact"),
        ("greedy-cost:within=6", "gbr:exact"),
        ("greedy-cost:within=6", "greedy-cost"),
        ("equilibrium", "gbr:exact"),
    ],
)
def test_exact_race(benchmark, enable, first, second):
    benchmark.group = "exact race"
    a, b = make_guesser(first, enable), make_guesser(second, enable)
    res = benchmark.pedantic(jotto.race, (enable, a, b), rounds=1)
    assert res.exact
    print(
        f"\n{first} vs {second}: win {float(res.win):.4f} draw {float(res.draw):.4f} loss "
        f"{float(res.loss):.4f} (advantage {float(res.advantage):+.4f}); expected guesses "
        f"{float(res.expected_guesses()[0]):.4f} vs {float(res.expected_guesses()[1]):.4f}"
    )


def test_race_guesser_answers(benchmark, enable):
    """The race guesser (``race``) as jotto play's hard race uses it: every decision of 40
    races against GuesserGBR, the slowest (a first guess for an objective not met before: the
    whole list, no cache) and the 99th percentile.  Target: well under a second."""
    from jotto.players import RaceGuesser

    benchmark.group = "race guesser"
    racer = RaceGuesser(enable)
    times: list[float] = []
    cpu: list[float] = []  # CPU seconds: what the answer costs on a machine others share
    decide = racer.next_guess

    def timed(state, history):
        t, c = time.perf_counter(), time.process_time()
        g = decide(state, history)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        return g

    racer.next_guess = timed  # type: ignore[method-assign]
    gbr = make_guesser("gbr:exact", enable)
    benchmark.pedantic(jotto.race, (enable, gbr, racer), {"games": 40, "seed": 5}, rounds=1)
    times.sort()
    cpu.sort()
    benchmark.extra_info.update(
        {
            "slowest": times[-1],
            "slowest_cpu": cpu[-1],
            "decisions": len(times),
            "load": os.getloadavg()[0],
        }
    )
    print(
        f"\nrace guesser: {len(times)} decisions, slowest {times[-1]:.3f} s "
        f"({cpu[-1]:.3f} s CPU), 99% under {times[int(0.99 * len(times))]:.4f} s "
        f"({cpu[int(0.99 * len(cpu))]:.4f} s CPU), median {times[len(times) // 2]:.4f} s; "
        f"load {os.getloadavg()[0]:.1f}"
    )
    assert times[-1] < 1.0 or os.getloadavg()[0] > 2


def test_review_of_a_five_letter_race(benchmark, enable):
    """The review of a 5-letter race (both sides' guesses), as jotto play shows it at the end.
    Target: at most 2 s on 2 cores."""
    from jotto.play.review import review_game

    benchmark.group = "review"

    def moves(secret, guesses):
        return [
            (g, enable.win_code if g == secret else enable.rules.reply(g, secret)) for g in guesses
        ]

    yours = moves("clout", ["raise", "pound", "cloth", "clout"])
    mine = moves("plumb", ["stale", "crimp", "bumph", "plumb"])
    review = benchmark.pedantic(review_game, (enable, "race", "won", yours, mine), rounds=3)
    print(f"\nreview: {review.seconds:.2f} s, load {os.getloadavg()[0]:.1f}; {review.share()}")
    assert benchmark.stats["max"] <= 2.0 or os.getloadavg()[0] > 2
