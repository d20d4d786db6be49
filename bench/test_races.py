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
from jotto.objectives import parse_objective
from jotto.players import make_guesser
from jotto.players.cost_guesser import CostGuesser
from jotto.trees import tree_from_policy


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
    benchmark.extra_info.update({"slowest_later": later[-1], "decisions": len(times),
                                 "load": os.getloadavg()[0]})
    print(f"\n{objective}: {len(times)} decisions, slowest after the first {later[-1]:.3f} s, "
          f"99% under {later[int(0.99 * len(later))]:.4f} s; mean guesses "
          f"{counts.mean():.4f}, found within 6 {(counts <= 6).mean():.4f}; load "
          f"{os.getloadavg()[0]:.1f}")
    value = parse_objective(objective).value(counts, np.ones(len(enable), dtype=np.int64))
    assert value > 0


@pytest.mark.parametrize("first, second", [
    ("gbr:exact", "norvig:max:inconsistent"), ("gbr:exact", "norvig:entropy:inconsistent"),
    ("greedy-cost", "gbr:exact"), ("greedy-cost:within=6", "gbr:exact"),
    ("greedy-cost:within=6", "greedy-cost"), ("equilibrium", "gbr:exact"),
])
def test_exact_race(benchmark, enable, first, second):
    benchmark.group = "exact race"
    a, b = make_guesser(first, enable), make_guesser(second, enable)
    res = benchmark.pedantic(jotto.race, (enable, a, b), rounds=1)
    assert res.exact
    print(f"\n{first} vs {second}: win {float(res.win):.4f} draw {float(res.draw):.4f} loss "
          f"{float(res.loss):.4f} (advantage {float(res.advantage):+.4f}); expected guesses "
          f"{float(res.expected_guesses()[0]):.4f} vs {float(res.expected_guesses()[1]):.4f}")
