"""Where subset tables start to count a node faster than the bit-sliced sweeps, per kernel variant.

    python bench/table_crossover.py [--variants v3,v2,base] [--sizes 128,192,...] [--states 12]

The numbers behind each variant's measured cost rule (``table_above`` in
src/jotto/_engine/common/kernels.c): for random states S of TWL06's 5-letter words of each size,
GuesserGBR's decision at S (exact rule, every word a candidate) is timed with the node's
candidates counted bit-sliced and with subset tables (the core's test thresholds force one or
the other), alternating, under uniform weights and the weights of 2000 exact fictitious-play
iterations (bench/yardstick.py's, ``--fp-weights FILE.npy`` to reuse them).  Each call also
makes a tree and its scratch, the same for both methods, so the sizes where the two medians
cross are the rule, not their ratio.  The subset tables cost about the same on every variant
(scalar look-ups); the sweeps' cost grows with |S| at the variant's vector width.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import jotto
from jotto import _core
from jotto.engine import runtime

sys.path.insert(0, str(Path(__file__).resolve().parent))
from yardstick import TWL06, fictitious_play_weights

#: test thresholds that make every node of at least 4 targets a big one, counted one way
SLICED, TABLES = (4, 10**6), (4, 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default=",".join(reversed(runtime.available_kernel_variants())))
    ap.add_argument("--sizes", default="64,128,192,256,384,512,768")
    ap.add_argument("--states", type=int, default=12, help="random states per size")
    ap.add_argument("--fp-weights", type=Path, default=None)
    args = ap.parse_args()
    if not TWL06.exists():
        sys.exit(f"table_crossover: TWL06 (not bundled) is not at {TWL06}")
    words = jotto.load_words(TWL06, length=5)
    D = len(words)
    weights = {
        "uniform": np.ones(D, np.int64),
        "fp": fictitious_play_weights(words, args.fp_weights),
    }
    rng = np.random.default_rng(44)
    default = runtime.kernel_variant()
    print("| variant | weights | " + " | ".join(f"{m}" for m in args.sizes.split(",")) + " |")
    print("|---|---|" + "---:|" * len(args.sizes.split(",")))
    try:
        for variant in args.variants.split(","):
            runtime.select_kernel_variant(variant)
            for wname, v in weights.items():
                cells = []
                for m in [int(x) for x in args.sizes.split(",")]:
                    times = {SLICED: [], TABLES: []}
                    for _ in range(args.states):
                        S = np.sort(rng.choice(D, m, replace=False)).astype(np.int32)
                        for how in (SLICED, TABLES):
                            _core.set_thresholds(*how)
                            t0 = time.perf_counter()
                            _core.decide(
                                words.core, _core.RULE_EXACT, _core.CAND_ALL, v, None, 0.0, 0.0, S
                            )
                            times[how].append(time.perf_counter() - t0)
                    a, b = statistics.median(times[SLICED]), statistics.median(times[TABLES])
                    cells.append(f"{a * 1e6:.0f} / {b * 1e6:.0f}")
                print(f"| {variant} | {wname} | " + " | ".join(cells) + " |", flush=True)
    finally:
        _core.set_thresholds()
        runtime.select_kernel_variant(default)
    print("\n(cells: microseconds per decision, bit-sliced / subset tables, medians)")


if __name__ == "__main__":
    main()
