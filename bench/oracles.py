"""Which guesser oracle makes fictitious play least exploitable for a given time?

    python bench/oracles.py [--words PATH] [--length 2] [--seconds 20] [--certify SECONDS]
                            [--oracles greedy lookahead:2 best-response] [--threads T]

Runs exact-mode fictitious play with each oracle for the same wall time (TWL06 by default, read
from ../shared), then certifies both strategies against true best responses: the hider's
guarantee (branch and bound; exact at 2 letters, else within --certify seconds), the guesser's
exact worst case, and the true NashConv between them.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import jotto
from jotto.cli.options import interval_text

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", default=str(TWL06))
    ap.add_argument("--length", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--certify", type=float, default=None)
    ap.add_argument("--oracles", nargs="+", default=["greedy", "lookahead:2", "best-response"])
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    words = jotto.load_words(args.words, length=args.length)
    print(
        f"{len(words)} words of {args.length} letters, {args.seconds:g} s of fictitious play "
        f"each (exact mode)\n"
    )
    print(
        "| oracle | iterations | reported epsilon | hider guarantees | guesser's worst case "
        "| true NashConv |"
    )
    print("|---|---|---|---|---|---|")
    for spec in args.oracles:
        sol = jotto.solve(
            args.length,
            words,
            oracle=spec,
            time_budget=args.seconds,
            iterations=10**9,
            threads=args.threads,
            progress=False,
        )
        st = sol.strength(args.certify, threads=args.threads)
        lo, hi = st.nash_conv
        guarantee = interval_text(st.hider_lower, st.hider_upper, digits=3)
        nash = interval_text(lo, hi, digits=3)
        print(
            f"| {spec} | {sol.iterations} | {sol.epsilon:.3f} | {guarantee} | "
            f"{float(st.guesser_worst):.3f} | {nash} |"
        )


if __name__ == "__main__":
    main()
