"""Our time per SolveJotto iteration against the paper's (Table 1, 16 cores), as a ratio.

    python bench/vs_paper.py [--iterations N] [--threads T] [--words PATH]

Runs each length at the paper's iteration count (or N) in both modes on TWL06 (read from
../shared) and prints the average seconds per iteration beside the paper's minutes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import jotto
from jotto.game.paper import TABLE1

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--words", default=str(TWL06))
    args = ap.parse_args()
    print(
        f"{'letters':>7} {'mode':>6} {'iterations':>10} {'wall s':>8} {'ours/iter':>12} "
        f"{'paper/iter':>12} {'speed-up':>10}"
    )
    for L in (2, 3, 4, 5):
        words = jotto.load_words(args.words, length=L)
        for mode in ("exact", "paper"):
            start = time.perf_counter()
            sol = jotto.solve(
                L,
                words,
                mode=mode,
                iterations=args.iterations,
                threads=args.threads,
                progress=False,
            )
            wall = time.perf_counter() - start
            ours = sol.table()["avg_seconds_per_iteration"]
            paper = TABLE1["avg_minutes_per_iteration"][L] * 60
            print(
                f"{L:>7} {mode:>6} {sol.iterations:>10} {wall:>8.2f} {ours * 1e3:>9.3f} ms "
                f"{paper:>10.4g} s {paper / ours:>10.3g}"
            )


if __name__ == "__main__":
    main()
