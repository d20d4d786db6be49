"""States a proof takes with and without each optional bound (issue 31, part 4): the count of
states is deterministic on one thread (it depends on neither load nor machine), so it measures a
bound's strength alone; CPU time says whether its cost pays.

Each case is one lower-bound pass to a fixed beta (as the anytime search's passes are made:
shares by class size), on one thread, from an empty memo, with the default bounds
(``BS_DEFAULT_BOUNDS``) with and without each optional bound that concerns it (``BS_SUBSETS``,
off by default; ``BS_WEIGHTED_FAMILIES`` and ``BS_HARD_FAMILIES``, on), one after the other.
Cases (CASES): TWL06 at 3 letters against the uniform hider (the docs' 2629/421 and higher
betas), against a weighted hider (weights 1-4 drawn from a fixed seed), in hard mode, and under
the ``eckler`` rules (907 words, anagrams kept: no family bound there).  Results:
docs/certified-strength.md, "Stronger bounds, measured", and for issue 45's prunings (no flag
of their own: each was a change of the search, measured before and after on these cases)
"Pruning as the exact Wordle proofs did, measured".

Run: ``python bench/bound_states.py [OUT.json]``; ``JOTTO_BOUND_CASES=uniform-2629,...`` picks
cases by name (see CASES).  TWL06 is read from ../shared (never bundled).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import jotto
from jotto.engine import core, runtime

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"

#: the optional bounds (core.BS_*), each compared on and off (the others at their defaults)
SUBSETS, WEIGHTED, HARD = "subsets", "weighted families", "hard-mode families"
BOUNDS = {
    SUBSETS: core.BS_SUBSETS,
    WEIGHTED: core.BS_WEIGHTED_FAMILIES,
    HARD: core.BS_HARD_FAMILIES,
}

#: name: (rules, hider ("uniform" or a seed for weights 1-4), beta, the bounds that concern it)
CASES = {
    "uniform-2629": ("paper", "uniform", 2629, [SUBSETS]),
    "uniform-2660": ("paper", "uniform", 2660, [SUBSETS]),
    "uniform-2690": ("paper", "uniform", 2690, [SUBSETS]),
    "weighted-6300": ("paper", 1, 6300, [WEIGHTED, SUBSETS]),
    "weighted-6400": ("paper", 1, 6400, [WEIGHTED]),
    "hard-2650": ("hard", "uniform", 2650, [HARD]),
    "eckler-5600": ("eckler", "uniform", 5600, [SUBSETS]),
    "eckler-5700": ("eckler", "uniform", 5700, [SUBSETS]),
}


def weights(n: int, hider) -> np.ndarray:
    if hider == "uniform":
        return np.ones(n, dtype=np.int64)
    return np.random.default_rng(hider).integers(1, 5, size=n).astype(np.int64)


def prove(words, v: np.ndarray, beta: int, bounds: int) -> dict:
    """One pass proving beta from an empty memo on one thread with the optional ``bounds``."""
    search = core.BestResponseSearch(words.core, v, 2**31)
    search.set_bounds(bounds)
    cpu = time.process_time()
    value, exact, stop, *_, states = search.run(beta=beta, by_size=True, threads=1)
    cpu = time.process_time() - cpu
    return {
        "value": value,
        "exact": exact,
        "stop": stop,
        "states": states,
        "cpu": cpu,
        "subset_raised": search.subset_raised(),
    }


def main() -> None:
    if not TWL06.exists():
        sys.exit(f"TWL06 (not bundled) is not at {TWL06}")
    names = os.environ.get("JOTTO_BOUND_CASES", ",".join(CASES))
    out = {
        "kernel": runtime.kernel_variant(),
        "cpu": platform.processor(),
        "threads": 1,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "load_before": os.getloadavg()[0],
        "cases": [],
    }
    for name in names.split(","):
        rules, hider, beta, bounds = CASES[name]
        words = jotto.load_words(TWL06, length=3, rules=rules)
        v = weights(len(words), hider)
        for bound in bounds:
            flag = BOUNDS[bound]
            on = prove(words, v, beta, core.BS_DEFAULT_BOUNDS | flag)
            off = prove(words, v, beta, core.BS_DEFAULT_BOUNDS & ~flag)
            for r in (on, off):  # the same proof either way
                assert r["stop"] == "done" and (r["exact"] or r["value"] >= beta), r
            assert on["exact"] == off["exact"] and (not on["exact"] or on["value"] == off["value"])
            row = {
                "case": name,
                "total": int(v.sum()),
                "beta": beta,
                "bound": bound,
                "states_on": on["states"],
                "states_off": off["states"],
                "cpu_on": on["cpu"],
                "cpu_off": off["cpu"],
                "raised": on["subset_raised"],
            }
            out["cases"].append(row)
            print(
                f"{name:>14} beta {beta}/{row['total']}  {bound}: states {off['states']:,} -> "
                f"{on['states']:,} ({on['states'] / off['states']:.3f}x), CPU "
                f"{off['cpu']:.1f} -> {on['cpu']:.1f} s ({on['cpu'] / off['cpu']:.3f}x)",
                flush=True,
            )
    out["load_after"] = os.getloadavg()[0]
    print(
        f"kernel {out['kernel']}, 1 thread, load average {out['load_before']:.2f} before, "
        f"{out['load_after']:.2f} after, {out['date']}"
    )
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
