"""Table 1 of Ganzfried (2011) beside ours, paper mode and exact mode, as a Markdown table.

    python bench/table1.py [--words PATH] [--threads T]

Runs 2, 3, 4 and 5 letters at the paper's iteration counts on TWL06 (read from ../shared, never
bundled) in both modes; the output is the table in docs/reproducing-the-paper.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import jotto
from jotto.cli.solve import ROWS
from jotto.game.paper import TABLE1

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default=str(TWL06))
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    cols, walls = {}, {}
    for L in (2, 3, 4, 5):
        words = jotto.load_words(args.words, length=L)
        for mode in ("paper", "exact"):
            start = time.perf_counter()
            sol = jotto.solve(L, words, mode=mode, threads=args.threads, progress=False)
            walls[L, mode] = time.perf_counter() - start
            cols[L, mode] = sol.table()
    header = (
        "| row | "
        + " | ".join(
            f"{L}: paper | {L}: ours, paper mode | {L}: ours, exact mode" for L in (2, 3, 4, 5)
        )
        + " |"
    )
    print(header)
    print("|---" * (1 + 12) + "|")
    for key, label, fmt in ROWS:
        cells = []
        for L in (2, 3, 4, 5):
            cells.append(fmt.format(TABLE1[key][L]))
            cells += [fmt.format(cols[L, m][key]) for m in ("paper", "exact")]
        print(f"| {label} | " + " | ".join(cells) + " |")
    cells = []
    for L in (2, 3, 4, 5):
        cells.append(f"{TABLE1['avg_minutes_per_iteration'][L]:.4g} min")
        cells += [
            f"{cols[L, m]['avg_seconds_per_iteration'] * 1e3:.3f} ms" for m in ("paper", "exact")
        ]
    print("| Avg time per iteration | " + " | ".join(cells) + " |")
    cells = []
    for L in (2, 3, 4, 5):
        cells.append("")
        cells += [f"{walls[L, m]:.1f} s" for m in ("paper", "exact")]
    print("| Wall time of the whole run | " + " | ".join(cells) + " |")
    cells = []
    for L in (2, 3, 4, 5):
        cells.append("")
        cells += [str(cols[L, m]["t_star"]) for m in ("paper", "exact")]
    print("| t* | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
