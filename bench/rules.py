"""Every rule set's game on one dictionary: its size, the greedy benchmark (GuesserGBR against the
uniform hider: self-play and epsilon) and a whole fictitious-play solve, as a Markdown table.

    python bench/rules.py [--words enable] [--letters 5] [--mode exact] [--iterations N]
                          [--threads T]

The rule-set table in docs/rule-sets.md is this script's output (ENABLE, 5 letters, exact mode,
the paper's 3906 iterations).
"""

from __future__ import annotations

import argparse
import time

import jotto
from jotto.engine.runtime import kernel_variant, resolve_threads
from jotto.game.words import WordListError


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default="enable")
    ap.add_argument("--letters", type=int, default=5)
    ap.add_argument("--mode", choices=("exact", "paper"), default="exact")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--rules", nargs="*", default=list(jotto.PRESETS))
    args = ap.parse_args()
    threads = resolve_threads(args.threads)
    print(
        f"{args.words}, {args.letters} letters, {args.mode} mode, kernel "
        f"{kernel_variant()}, {threads} thread(s)\n"
    )
    print(
        "| rules | words | benchmark self-play | benchmark epsilon | iterations | our epsilon "
        "| our self-play value | solve time |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.rules:
        try:
            words = jotto.load_words(args.words, length=args.letters, rules=name)
        except WordListError as exc:
            print(f"| {name} | {exc} | | | | | | |")
            continue
        start = time.perf_counter()
        sol = jotto.solve(
            args.letters,
            words,
            mode=args.mode,
            iterations=args.iterations,
            threads=threads,
            progress=False,
        )
        seconds = time.perf_counter() - start
        t = sol.table()
        print(
            f"| {name} | {len(words)} | {t['benchmark_self_play_hider_payoff']:.3f} | "
            f"{t['benchmark_epsilon']:.3f} | {t['number_of_iterations']} | "
            f"{t['our_final_epsilon']:.3f} | {t['our_self_play_hider_payoff']:.3f} | "
            f"{seconds:.1f} s |",
            flush=True,
        )


if __name__ == "__main__":
    main()
