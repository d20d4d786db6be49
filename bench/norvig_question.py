"""Norvig's open question on his own list (issue 31, part 5): the bundled sgb words under the
``norvig`` rules (5 letters, 2,845 words).  How good can a guesser be against a uniformly random
word, what is the game's value, and how long would the exact answers take?

Measured: the certified interval of the optimal tree against the uniform hider after budgets of
BUDGETS seconds (each a fresh search), the growth of its lower bound with time (the states a
proof needs grow about exponentially with the bound it proves, so the lower bound grows about
with the logarithm of the time: fitted, and extrapolated to the upper bound), and the double
oracle's certified interval of the game value after DO_BUDGET seconds.

Run: ``python bench/norvig_question.py [OUT.json]`` (about 2 x sum(BUDGETS) + DO_BUDGET seconds;
``JOTTO_NORVIG_BUDGETS=60,120,240`` and ``JOTTO_NORVIG_DO=300`` change them).
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time

import jotto
from jotto.engine import runtime

BUDGETS = [float(x) for x in os.environ.get("JOTTO_NORVIG_BUDGETS", "60,120,240").split(",")]
DO_BUDGET = float(os.environ.get("JOTTO_NORVIG_DO", "300"))
THREADS = int(os.environ.get("JOTTO_NORVIG_THREADS", "1"))


def main() -> None:
    words = jotto.load_words("sgb", rules="norvig")
    out = {
        "words": len(words),
        "length": words.length,
        "rules": "norvig",
        "kernel": runtime.kernel_variant(),
        "threads": THREADS,
        "cpu": platform.processor(),
        "date": time.strftime("%Y-%m-%d"),
        "load_before": os.getloadavg()[0],
        "runs": [],
    }
    for budget in BUDGETS:
        cpu = time.process_time()
        br = jotto.best_response(words, budget=budget, threads=THREADS)
        out["runs"].append(
            {
                "budget": budget,
                "lower": float(br.lower),
                "upper": float(br.upper),
                "lower_exact": str(br.lower),
                "upper_exact": str(br.upper),
                "cpu_seconds": time.process_time() - cpu,
                "nodes": br.nodes,
                "exact": br.exact,
            }
        )
        print(json.dumps(out["runs"][-1]), flush=True)
    runs = out["runs"]
    if len(runs) >= 2 and runs[-1]["lower"] > runs[0]["lower"]:
        # lower ~ a + b ln(t): seconds until it reaches the best upper bound
        b = (runs[-1]["lower"] - runs[0]["lower"]) / math.log(
            runs[-1]["budget"] / runs[0]["budget"]
        )
        upper = min(r["upper"] for r in runs)
        seconds = runs[-1]["budget"] * math.exp((upper - runs[-1]["lower"]) / b)
        out["extrapolated_exact_seconds"] = seconds
        out["lower_per_doubling"] = b * math.log(2)
    cpu = time.process_time()
    sol = jotto.solve(
        words, method="double-oracle", time_budget=DO_BUDGET, threads=THREADS, progress=False
    )
    lo, hi = sol.value_bounds
    out["game_value"] = {
        "budget": DO_BUDGET,
        "lower": float(lo),
        "upper": float(hi),
        "lower_exact": str(lo),
        "upper_exact": str(hi),
        "rounds": sol.rounds,
        "cpu_seconds": time.process_time() - cpu,
    }
    out["load_after"] = os.getloadavg()[0]
    text = json.dumps(out, indent=1)
    print(text)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "x") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
