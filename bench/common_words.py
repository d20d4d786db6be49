"""The Jotto people play (issue 45, part 2): secrets from the N most common words of the bundled
sgb list (``hide_from="sgb:N"``), guesses from every word of ``jotto.load_words("sgb",
rules="norvig")`` (2,845 words).  For each N: the certified interval (or exact value) of the best
tree against a uniformly random common secret, its first guess, states, CPU and wall time, and
the load average around the run (the machine is shared).  Results: docs/common-words.md.

Run: ``python bench/common_words.py [OUT.json]``; ``JOTTO_COMMON_N=50,100,200``,
``JOTTO_COMMON_BUDGET=600`` (seconds per N; 0: no budget, the exact search), ``JOTTO_COMMON_THREADS=2`` and
``JOTTO_COMMON_OPENERS=SECONDS`` (also each N's opener table, :func:`jotto.opener_values`) and
``JOTTO_COMMON_GAME=SECONDS`` (also the game's value by the double oracle, the hider hiding
only those N words) change the plan.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time

import jotto
from jotto.engine import runtime

SIZES = [int(x) for x in os.environ.get("JOTTO_COMMON_N", "50,100,200").split(",")]
BUDGET = float(os.environ.get("JOTTO_COMMON_BUDGET", "600"))
THREADS = int(os.environ.get("JOTTO_COMMON_THREADS", "2"))
#: seconds for the opener table of each N (0: none)
OPENERS = float(os.environ.get("JOTTO_COMMON_OPENERS", "0"))
#: seconds for the double oracle's game value of each N (0: none)
GAME = float(os.environ.get("JOTTO_COMMON_GAME", "0"))


def main() -> None:
    words = jotto.load_words("sgb", rules="norvig")
    out = {
        "words": len(words),
        "rules": "norvig",
        "kernel": runtime.kernel_variant(),
        "threads": THREADS,
        "budget": BUDGET,
        "cpu": platform.processor(),
        "date": time.strftime("%Y-%m-%d"),
        "runs": [],
    }
    for n in SIZES:
        load = os.getloadavg()[0]
        cpu, wall = time.process_time(), time.perf_counter()
        br = jotto.best_response(
            words, hide_from=f"sgb:{n}", budget=BUDGET if BUDGET > 0 else None, threads=THREADS
        )
        run = {
            "n": n,
            "lower": float(br.lower),
            "upper": float(br.upper),
            "lower_exact": str(br.lower),
            "upper_exact": str(br.upper),
            "exact": br.exact,
            "opener": words[int(br.tree.guess[0])],
            "nodes": br.nodes,
            "cpu_seconds": round(time.process_time() - cpu, 1),
            "wall_seconds": round(time.perf_counter() - wall, 1),
            "load_before": load,
            "load_after": os.getloadavg()[0],
        }
        if OPENERS > 0:
            cpu, wall = time.process_time(), time.perf_counter()
            table = jotto.opener_values(
                words, hide_from=f"sgb:{n}", budget=OPENERS, threads=THREADS
            )
            run["openers"] = {
                "best": list(table.best),
                "complete": table.complete,
                "lower": str(table.lower),
                "upper": str(table.upper),
                "top": [[r.word, str(r.lower), str(r.upper)] for r in table.rows[:5]],
                "cpu_seconds": round(time.process_time() - cpu, 1),
                "wall_seconds": round(time.perf_counter() - wall, 1),
            }
        if GAME > 0:
            cpu, wall = time.process_time(), time.perf_counter()
            sol = jotto.solve(
                words,
                method="double-oracle",
                hide_from=f"sgb:{n}",
                time_budget=GAME,
                threads=THREADS,
                progress=False,
            )
            lo, hi = sol.value_bounds
            run["game"] = {
                "lower": float(lo),
                "upper": float(hi),
                "lower_exact": str(lo),
                "upper_exact": str(hi),
                "exact": sol.exact,
                "rounds": sol.rounds,
                "cpu_seconds": round(time.process_time() - cpu, 1),
                "wall_seconds": round(time.perf_counter() - wall, 1),
            }
        out["runs"].append(run)
        print(json.dumps(run), flush=True)
    if len(sys.argv) > 1:
        tmp = sys.argv[1] + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f, indent=1)
        os.replace(tmp, sys.argv[1])


if __name__ == "__main__":
    main()
