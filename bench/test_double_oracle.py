"""The double oracle on TWL06's 2-letter words, solved and certified exactly (issue 9's goal:
under 60 s on 2 cores; an earlier prototype took 400 s), and a 3-letter run with a fixed time
budget whose value interval is recorded in the benchmark's extra info (goal: width <= 0.5)."""

from __future__ import annotations

from fractions import Fraction

import jotto

VALUE_2 = Fraction(60882015, 10367053)


def test_double_oracle_two_letters(benchmark, twl06):
    benchmark.group = "double oracle"
    sol = benchmark.pedantic(jotto.solve, args=(2, twl06[2]),
                             kwargs={"method": "double-oracle", "progress": False},
                             rounds=1, iterations=1)
    assert sol.value_bounds == (VALUE_2, VALUE_2)
    benchmark.extra_info.update(rounds=sol.rounds, trees=len(sol.trees))


def test_double_oracle_three_letters_budget(benchmark, twl06):
    benchmark.group = "double oracle"
    sol = benchmark.pedantic(jotto.solve, args=(3, twl06[3]),
                             kwargs={"method": "double-oracle", "oracle": "lookahead:2",
                                     "time_budget": 120.0, "progress": False},
                             rounds=1, iterations=1)
    lo, hi = sol.value_bounds
    benchmark.extra_info.update(lower=float(lo), upper=float(hi), width=float(hi - lo),
                                rounds=sol.rounds, trees=len(sol.trees))
    assert lo <= hi
