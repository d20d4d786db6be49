"""Is the uniform hider optimal in the game of the N most common secrets (issue 45, part 2)?

At the 200 most common words of Norvig's list the best tree against a uniformly random secret
needs exactly 221/50 = 4.42 guesses, and that is a lower bound on the game's value; the double
oracle's guesser guarantees 4.476 (docs/common-words.md).  This script decides whether the value
is the uniform hider's, and if not, proves a greater lower bound.

The test is finite.  A guesser mixture whose worst case is at most the uniform hider's value ``u*``
averages at most ``u*`` against that hider, so every tree it mixes is *uniform-optimal* (needs
exactly ``u*`` on average).  So the value is ``u*`` if and only if the restricted game whose
columns are the uniform-optimal trees has value ``u*``.  Column generation solves that game:
the LP over the columns found gives a hider ``q``, and the pricing step finds, among all
uniform-optimal trees, the one needing fewest guesses against ``q`` (an exact best response to
the *lexicographic* weights ``M * uniform + q``, with ``M`` so large that one guess more against
the uniform hider outweighs any difference against ``q``).  Each pricing's value is a lower bound
on the restricted game's value (it is ``q``'s best reply among all its columns), each LP value an
upper bound.  If a pricing's value exceeds ``u*``, the game's value exceeds ``u*``.

By how much: along the ray ``h(l) = (1 - l) uniform + l q`` the best response's value ``f(l)``
is concave, ``f(0) = u*``, and for small ``l`` its slope is the pricing's value minus ``u*``
(the uniform-optimal trees stay the best replies until another tree's line crosses theirs).
The exact best response against ``h(l)`` for a few ``l`` (with ``JOTTO_ASCENT_CERTS=DIR``, each
with a certificate that ``jotto check-proof`` verifies) proves the greatest lower bound found.

Run: ``python bench/uniform_ascent.py [OUT.json]``; ``JOTTO_ASCENT_N=200`` (secrets),
``JOTTO_ASCENT_COLUMNS=22`` (pricing steps), ``JOTTO_ASCENT_LAMBDAS=0.005,0.01``,
``JOTTO_ASCENT_BUDGET=300`` (seconds per line-search search), ``JOTTO_ASCENT_THREADS=2``.
``OUT.json`` holds the measurements and, under ``best``, the hider that proved the greatest bound
(its integer weights) and that bound, which ``bench/common_strategy.py`` can put into the bundled
strategy file (``JOTTO_COMMON_STRATEGY_HIDER=OUT.json``).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

import jotto
from jotto.engine import runtime
from jotto.game.hiding import hidden_words, hide_from_mask

N = int(os.environ.get("JOTTO_ASCENT_N", "200"))
COLUMNS = int(os.environ.get("JOTTO_ASCENT_COLUMNS", "22"))
LAMBDAS = [Fraction(x) for x in os.environ.get("JOTTO_ASCENT_LAMBDAS", "0.005,0.01").split(",")]
BUDGET = float(os.environ.get("JOTTO_ASCENT_BUDGET", "300"))
THREADS = int(os.environ.get("JOTTO_ASCENT_THREADS", "2"))
CERTS = os.environ.get("JOTTO_ASCENT_CERTS")
#: The LP's hider is made integer weights with this scale before pricing.
SCALE = 10**6


def restricted_lp(columns: np.ndarray) -> tuple[float, np.ndarray]:
    """The restricted game over the columns (guesses needed, secrets x trees): its value and
    the hider's optimal mixture (the LP's duals), by HiGHS through SciPy.  (Not
    :func:`jotto.solvers.matrix_game.solve_matrix_game`: its primal simplex ends at another
    of the degenerate optimal hiders, 4.0 where this gives 3.0 at the first pricing, and the
    figures in docs/common-words.md and the bundled hider follow this one's.)"""
    n, t = columns.shape
    res = linprog(
        np.r_[np.zeros(t), 1.0],
        A_ub=np.c_[columns, -np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(t), 0.0][None],
        b_eq=[1.0],
        bounds=[(0, None)] * t + [(None, None)],
        method="highs",
    )
    q = np.maximum(-res.ineqlin.marginals, 0.0)
    return float(res.fun), q / q.sum()


def main() -> None:
    if len(sys.argv) > 1 and os.path.exists(sys.argv[1]):
        sys.exit(f"{sys.argv[1]} exists: not overwritten")
    words = jotto.load_words("sgb", rules="norvig")
    idx = hidden_words(words, f"sgb:{N}")
    D = len(words)
    out = {
        "secrets": N,
        "words": D,
        "kernel": runtime.kernel_variant(),
        "threads": THREADS,
        "cpu": platform.processor(),
        "date": time.strftime("%Y-%m-%d"),
        "load_before": os.getloadavg()[0],
        "pricing": [],
        "line": [],
    }
    cpu0, wall0 = time.process_time(), time.perf_counter()
    first = jotto.best_response(words, hide_from=f"sgb:{N}", threads=THREADS)
    if not first.exact:
        raise SystemExit("the uniform hider's best response was not proved")
    g = first.tree.guesses_needed(idx)[idx]
    best_total = int(g.sum())
    u_star = Fraction(best_total, N)
    out["uniform"] = {"value": str(u_star), "seconds": first.seconds, "nodes": first.nodes}
    print(json.dumps(out["uniform"]), flush=True)
    columns = [g]
    proved = None  # the greatest pricing value: a lower bound on the restricted game's value
    q_int = None
    for _ in range(COLUMNS):
        value, q = restricted_lp(np.array(columns).T)
        q_int = np.round(q * SCALE).astype(np.int64)
        # one guess more against the uniform hider must outweigh any difference against q:
        # every tree needs fewer than D guesses for a secret
        big = int(q_int.sum()) * D + 1
        weights = np.zeros(D, dtype=np.int64)
        weights[idx] = big + q_int
        br = jotto.best_response(words, weights, threads=THREADS)
        g = br.tree.guesses_needed(idx)[idx]
        if not br.exact or int(g.sum()) != best_total:
            raise SystemExit("the pricing did not end at a uniform-optimal tree")
        price = Fraction(int(q_int @ g), int(q_int.sum()))
        proved = price if proved is None else max(proved, price)
        step = {
            "columns": len(columns),
            "lp_value": value,
            "hider_support": int((q_int > 0).sum()),
            "pricing_value": float(price),
            "seconds": br.seconds,
        }
        out["pricing"].append(step)
        print(json.dumps(step), flush=True)
        if price >= Fraction(value) - Fraction(1, 10**9):
            break  # no column improves: the restricted game's value is reached
        columns.append(g)
    out["restricted_value_at_least"] = float(proved)
    support = np.flatnonzero(q_int)
    out["hider"] = {words[int(idx[i])]: int(q_int[i]) for i in support}
    q_frac = [Fraction(0)] * D
    for i in support:
        q_frac[int(idx[i])] = Fraction(int(q_int[i]), int(q_int.sum()))
    secret = hide_from_mask(words, f"sgb:{N}")
    for lam in LAMBDAS:
        hider = [(1 - lam) * Fraction(int(s), N) + lam * x for s, x in zip(secret, q_frac)]
        cert = None if CERTS is None else os.path.join(CERTS, f"ascent-{N}-{float(lam):g}.cert")
        br = jotto.best_response(
            words,
            hider,
            budget=BUDGET,
            threads=THREADS,
            certificate=cert,
            about=f"the {N} most common sgb secrets' game: a hider on the uniform one's ray",
        )
        g = br.tree.guesses_needed(idx)[idx]
        row = {
            "lambda": str(lam),
            "lower": float(br.lower),
            "upper": float(br.upper),
            "lower_exact": str(br.lower),
            "exact": br.exact,
            "seconds": br.seconds,
            "nodes": br.nodes,
            "tree_uniform": float(Fraction(int(g.sum()), N)),
            "certificate": cert,
        }
        out["line"].append(row)
        print(json.dumps(row), flush=True)
        if "best" not in out or br.lower > Fraction(out["best"]["lower"]):
            # bench/common_strategy.py's JOTTO_COMMON_STRATEGY_HIDER reads it
            out["best"] = {
                "lambda": str(lam),
                "lower": str(br.lower),
                "weights": [int(x) for x in br.weights],
            }
    out["cpu_seconds"] = time.process_time() - cpu0
    out["wall_seconds"] = time.perf_counter() - wall0
    out["load_after"] = os.getloadavg()[0]
    if len(sys.argv) > 1:  # the whole record, the best hider's 2,845 weights with it
        with open(sys.argv[1], "x") as f:
            json.dump(out, f, indent=1)
    shown = {k: v for k, v in out.items() if k not in ("pricing", "line", "best")}
    print(json.dumps(shown, indent=1))


if __name__ == "__main__":
    main()
