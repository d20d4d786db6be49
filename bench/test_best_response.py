"""Time of the guesser's true best response (issue 9), TWL06 with the paper's rules.

Targets: 2 letters, uniform hider, exact: under 1 s.  Non-uniform integer weights at 2 letters
(what a double oracle asks hundreds of times): 0.1-0.2 s per call.  3 letters, uniform hider:
certified interval width <= 0.5 within 10 minutes on 2 cores (set JOTTO_BENCH_BR3_SECONDS to
shorten; the width reached is printed, with 1 and 2 threads).  Run: ``pytest bench/test_best_response.py
--benchmark-only -s``.
"""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pytest

import jotto
from test_threads_under_load import busy_cores  # noqa: F401  (a fixture)


def test_two_letters_uniform_exact(benchmark, twl06):
    benchmark.group = "best response 2 letters"
    res = benchmark(jotto.best_response, twl06[2])
    assert res.exact and res.upper == Fraction(295, 51)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_letters_random_weights_exact(benchmark, twl06, seed):
    """Integer weights 1..1000 at random, as a double oracle's hider mixes."""
    benchmark.group = "best response 2 letters"
    v = np.random.default_rng(seed).integers(1, 1001, size=len(twl06[2]))
    res = benchmark(jotto.best_response, twl06[2], v)
    assert res.exact


@pytest.mark.parametrize("k", [1, 2])
def test_five_letters_top_k(benchmark, twl06, k):
    benchmark.group = "best response 5 letters top-K"
    res = benchmark.pedantic(jotto.best_response, (twl06[5],), {"top_k": k}, rounds=1)
    print(
        f"\n5 letters top-{k}: upper {res.upper.numerator}/{res.upper.denominator} "
        f"= {float(res.upper):.4f}, lower {float(res.lower):.4f}, {res.seconds:.1f} s"
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_three_letters_uniform_interval(benchmark, twl06, threads):
    """The certified interval in the time budget: the issue's target (width <= 0.5 in 600 s on
    2 cores) is asserted for 2 threads and the full 600 s; 1 thread is printed to compare."""
    seconds = float(os.environ.get("JOTTO_BENCH_BR3_SECONDS", "600"))
    benchmark.group = "best response 3 letters"
    res = benchmark.pedantic(
        jotto.best_response, (twl06[3],), {"budget": seconds, "threads": threads}, rounds=1
    )
    benchmark.extra_info.update(
        {
            "lower": float(res.lower),
            "upper": float(res.upper),
            "width": float(res.gap),
            "nodes": res.nodes,
            "load": os.getloadavg()[0],
        }
    )
    print(
        f"\n3 letters uniform, {seconds:.0f} s budget, {threads} thread(s): "
        f"[{float(res.lower):.4f}, {float(res.upper):.4f}] width {float(res.gap):.4f}, "
        f"{res.nodes} nodes, load average {os.getloadavg()[0]:.1f}"
    )
    assert res.lower <= res.upper
    if threads == 2 and seconds >= 600:
        assert res.gap <= Fraction(1, 2)


def test_three_letters_default_threads_under_load(benchmark, twl06, busy_cores):  # noqa: F811
    """With one busy process per core the default thread count (the tree search beside the
    lower-bound search) still certifies an interval no wider than one thread's (the two
    searches one after the other) in the same time (JOTTO_BENCH_BR3_LOAD_SECONDS, 60 s)."""
    seconds = float(os.environ.get("JOTTO_BENCH_BR3_LOAD_SECONDS", "60"))
    default = jotto.resolve_threads()
    benchmark.group = "best response 3 letters, one busy process per core"
    res = {}

    def both():
        for threads in (1, default):
            res[threads] = jotto.best_response(twl06[3], budget=seconds, threads=threads)

    benchmark.pedantic(both, rounds=1, iterations=1)
    for threads, r in res.items():
        benchmark.extra_info[f"width_{threads}"] = float(r.gap)
        print(
            f"\n{threads} thread(s), {busy_cores} busy processes, {seconds:.0f} s: "
            f"[{float(r.lower):.4f}, {float(r.upper):.4f}] width {float(r.gap):.4f}"
        )
    assert res[default].gap <= res[1].gap


@pytest.mark.parametrize("rules", ["paper", "norvig", "perl", "eckler", "positional", "hard"])
def test_two_letters_uniform_exact_by_rules(benchmark, rules):
    """The exact best response to the uniform hider under every preset (TWL06, 2 letters):
    dictionary sizes differ (51 to 101 words), so times are not comparable across presets."""
    from pathlib import Path

    benchmark.group = "best response 2 letters by rules"
    path = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"
    wl = jotto.load_words(path, length=2, rules=rules)
    res = benchmark.pedantic(jotto.best_response, (wl,), rounds=1)
    assert res.exact
    print(
        f"\n{rules}: {len(wl)} words, {wl.classes} reply codes, optimum "
        f"{res.upper.numerator}/{res.upper.denominator} = {float(res.upper):.4f}, "
        f"{res.nodes} nodes, {res.seconds:.2f} s"
    )
