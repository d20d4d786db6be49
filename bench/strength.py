"""Table 1 revisited: how strong the paper's strategies really are, and the game's value.

    python bench/strength.py [--words PATH] [--lengths 2 3 4 5] [--certify SECONDS]
                             [--do-seconds SECONDS] [--oracle SPEC] [--threads T]

For each word length (TWL06, read from ../shared, never bundled): the paper's self-play value and
epsilon; paper mode's (our reproduction); what paper mode's strategies guarantee against *true*
best responses (the hider's guarantee, an interval proved by branch and bound within --certify
seconds, and the guesser's exact worst case) and the NashConv that follows; and the double
oracle's certified interval for the game's value (exact best responses at 2 letters; at longer
lengths the --oracle, default lookahead:2, within --do-seconds).  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import jotto
from jotto.cli.options import interval_text
from jotto.game.paper import TABLE1

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default=str(TWL06))
    ap.add_argument("--lengths", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument(
        "--certify",
        type=float,
        default=60.0,
        help="seconds for each best-response search of the certification",
    )
    ap.add_argument(
        "--do-seconds",
        type=float,
        default=600.0,
        help="time budget of the double oracle at 3 letters and more",
    )
    ap.add_argument(
        "--oracle", default="lookahead:2", help="the double oracle's oracle at 3 letters and more"
    )
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    rows: dict[str, list[str]] = {}

    def put(label: str, value: str) -> None:
        rows.setdefault(label, []).append(value)

    for L in args.lengths:
        words = jotto.load_words(args.words, length=L)
        start = time.perf_counter()
        fp = jotto.solve(L, words, mode="paper", threads=args.threads, progress=False)
        fp_seconds = time.perf_counter() - start
        tb = fp.table()
        start = time.perf_counter()
        st = fp.strength(None if L == 2 else args.certify, threads=args.threads)
        cert_seconds = time.perf_counter() - start
        start = time.perf_counter()
        if L == 2:
            do = jotto.solve(L, words, method="double-oracle", threads=args.threads, progress=False)
        else:
            do = jotto.solve(
                L,
                words,
                method="double-oracle",
                oracle=args.oracle,
                time_budget=args.do_seconds,
                threads=args.threads,
                progress=False,
            )
        do_seconds = time.perf_counter() - start
        lo, hi = do.value_bounds
        nc_lo, nc_hi = st.nash_conv
        put("Dictionary size", str(len(words)))
        put(
            "Paper: self-play value / epsilon",
            f"{TABLE1['our_self_play_hider_payoff'][L]:.3f} / {TABLE1['our_final_epsilon'][L]:.3f}",
        )
        put(
            "Ours, paper mode: self-play value / epsilon",
            f"{tb['our_self_play_hider_payoff']:.3f} / {tb['our_final_epsilon']:.3f}",
        )
        put(
            "Paper-mode hider guarantees (true best response)",
            interval_text(st.hider_lower, st.hider_upper, digits=3),
        )
        put("Paper-mode guesser guarantees (worst target, exact)", f"{float(st.guesser_worst):.3f}")
        put(
            "Paper-mode true NashConv (reported epsilon: one side, greedy)",
            interval_text(nc_lo, nc_hi, digits=3),
        )
        put(
            "Double oracle: game value",
            interval_text(lo, hi, digits=3) + (" (exact)" if lo == hi else ""),
        )
        put("Double oracle: rounds, trees", f"{do.rounds}, {len(do.trees)}")
        put(
            "Time: paper mode / certification / double oracle",
            f"{fp_seconds:.1f} s / {cert_seconds:.1f} s / {do_seconds:.1f} s",
        )
    print("| row | " + " | ".join(f"{L} letters" for L in args.lengths) + " |")
    print("|---" * (1 + len(args.lengths)) + "|")
    for label, cells in rows.items():
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
