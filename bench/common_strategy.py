"""The strategy ``jotto play --level hard`` plays on Norvig's list (the bundled sgb words under
the ``norvig`` rules): the double oracle's equilibrium of the game whose secrets are the N most
common words (``hide_from="sgb:N"``, :mod:`jotto.game.hiding`), any word a guess (issue 45).

Run: ``python bench/common_strategy.py OUT.jotto [RUN.jotto]``.  Without ``RUN`` it solves the
game (:func:`jotto.solve`, ``method="double-oracle"``) for ``JOTTO_COMMON_STRATEGY_N`` (200)
secrets within ``JOTTO_COMMON_STRATEGY_SECONDS`` (600) on ``JOTTO_COMMON_STRATEGY_THREADS``
(2); with it, it reads that run's strategy file (``jotto solve -w sgb -r norvig --method
double-oracle --hide-from sgb:N -o RUN.jotto``) instead.  Either way it writes
:meth:`~jotto.solvers.double_oracle.solution.DoubleOracleSolution.compacted` with at most
``JOTTO_COMMON_STRATEGY_TREES`` (24) trees to ``OUT`` (never over an existing file), and prints
the certified interval of the run and of the file.  With ``JOTTO_COMMON_STRATEGY_HIDER=ASCENT.json``
(``bench/uniform_ascent.py``'s output) the file's hider is that run's best one, if it proved a
greater bound than the run's hider
(:meth:`~jotto.solvers.double_oracle.solution.DoubleOracleSolution.with_hider`).  The bundled
``src/jotto/data/sgb-norvig-common-200.jotto`` was made so (docs/common-words.md says when,
with what interval).
"""

from __future__ import annotations

import json
import os
import sys
import time
from fractions import Fraction

import numpy as np

import jotto
from jotto.solvers.solution import Solution

N = int(os.environ.get("JOTTO_COMMON_STRATEGY_N", "200"))
SECONDS = float(os.environ.get("JOTTO_COMMON_STRATEGY_SECONDS", "600"))
THREADS = int(os.environ.get("JOTTO_COMMON_STRATEGY_THREADS", "2"))
TREES = int(os.environ.get("JOTTO_COMMON_STRATEGY_TREES", "24"))
HIDER = os.environ.get("JOTTO_COMMON_STRATEGY_HIDER")


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python bench/common_strategy.py OUT.jotto [RUN.jotto]")
    out = sys.argv[1]
    if os.path.exists(out):
        sys.exit(f"{out} exists: not overwritten")
    words = jotto.load_words("sgb", rules="norvig")
    cpu, wall = time.process_time(), time.perf_counter()
    if len(sys.argv) == 3:
        run = Solution.load(sys.argv[2], words)
    else:
        run = jotto.solve(
            words,
            method="double-oracle",
            hide_from=f"sgb:{N}",
            time_budget=SECONDS,
            threads=THREADS,
            progress=False,
        )
    small = run.compacted(TREES)
    if HIDER is not None:
        with open(HIDER) as f:
            best = json.load(f)["best"]
        if Fraction(best["lower"]) > small.value_bounds[0]:
            small = small.with_hider(np.array(best["weights"], dtype=np.int64), best["lower"])
    small.save(out)
    lo, hi = run.value_bounds
    slo, shi = small.value_bounds
    report = {
        "hidden": int(run.hidden.sum()),
        "run": {"lower": str(lo), "upper": str(hi), "trees": len(run.trees)},
        "file": {"lower": str(slo), "upper": str(shi), "trees": len(small.trees)},
        "interval": [float(slo), float(shi)],
        "bytes": os.path.getsize(out),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "load_after": os.getloadavg()[0],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
