"""Two builds of jotto compared on the kernels, every kernel variant, interleaved.

    python bench/compare_builds.py OLD_PYTHON NEW_PYTHON [--rounds 5] [--variants base,v3]
                                   [--cases perl,hard]

Each python is the interpreter of a virtual environment with one build installed (say the main
branch's and yours).  For every variant and round the two run the same cases in turn, each in a
fresh process with ``JOTTO_KERNEL`` set (the order alternating from round to round), so that a
machine that gets busier or quieter during the run slows both alike; each case is the least CPU
time of several calls on one thread (CPU time, which other programs on a shared machine disturb
less than wall time).  The table gives each build's least time over the rounds and their ratio.

Cases: CompNumGuesses on TWL06 (read from ../shared, never bundled), 2 to 5 letters, both rules,
uniform weights; 5 letters with the weights of 2000 exact fictitious-play iterations and the
paper rule with paper mode's after 2000 (computed once by NEW_PYTHON, as in
bench/test_comp_num_guesses.py); and every rule set on the first 2780 words of its own ENABLE
list (bench/same_size.py, as bench/test_rules_speed.py times them).  ``--cases`` keeps the
cases whose name holds one of the given pieces.  OLD_PYTHON may hold a build from before the
package's wings (``jotto.gbr`` rather than ``jotto.responses.gbr``, say): the cases use the names
both layouts have.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TWL06 = HERE.parents[1] / "shared" / "wordlists" / "TWL06.txt"
REPEATS = 5


def make_weights(out: Path) -> None:
    """The 5-letter weights of bench/test_comp_num_guesses.py's fixtures, into out."""
    import numpy as np

    import jotto
    from jotto.solvers.fictitious_play.algorithm import ExactPlay, PaperPlay

    words = jotto.load_words(TWL06, length=5)
    run = ExactPlay(words, 2)
    for _ in range(2001):
        run.step()
    np.save(out / "exact.npy", run.weights())
    paper = PaperPlay(words, 2, 4000)
    for _ in range(2001):
        paper.step()
    np.savez(out / "paper.npz", v=paper.v, s=paper.s, err_rel=paper.err_rel)


#: The cases that take make_weights' weights (computed only when one of them is run).
FP_CASE = "TWL06 5, exact rule, fictitious-play weights"
PAPER_CASE = "TWL06 5, paper rule, paper-mode weights"


def wanted(case: str, only: list[str]) -> bool:
    """Whether the case is run: every case when only is empty, else those holding a piece."""
    return not only or any(piece in case for piece in only)


def module(name: str, before_wings: str):
    """The module ``name``, or in a build from before the wings the one it was then."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return importlib.import_module(before_wings)


def child(weights: Path, only: list[str]) -> dict[str, float]:
    """The least CPU time on one thread of every case (of those whose name holds a piece of
    only, if any), in this process's build and variant."""
    import numpy as np

    import jotto
    from jotto import _core

    # builds before the word list carried hard mode chose the candidates by the rules
    candidate_rule = getattr(
        module("jotto.responses.gbr", "jotto.gbr"), "candidate_rule", lambda words: _core.CAND_ALL
    )
    decision_rules = getattr(jotto, "DECISION_RULES", None) or jotto.RULES

    sys.path.insert(0, str(HERE))
    from same_size import same_size_lists

    twl = {L: jotto.load_words(TWL06, length=L) for L in (2, 3, 4, 5)}
    cases = {}
    for L in (5, 4, 3, 2):
        for rule in decision_rules:
            cases[f"TWL06 {L} letters, {rule} rule"] = lambda w=twl[L], r=rule: (
                jotto.comp_num_guesses(w, rule=r, threads=1)
            )
    if wanted(FP_CASE, only):
        fp = np.load(weights / "exact.npy")
        cases[FP_CASE] = lambda: jotto.comp_num_guesses(twl[5], fp, rule="exact", threads=1)
    if wanted(PAPER_CASE, only):
        pp = np.load(weights / "paper.npz")
        words = twl[5]
        cases[PAPER_CASE] = lambda: _core.build_tree(
            words.core,
            _core.RULE_PAPER,
            candidate_rule(words),
            pp["v"],
            pp["s"],
            0.0,
            float(pp["err_rel"]),
            1,
        )
    for name, w in same_size_lists().items():
        for rule in decision_rules:
            cases[f"ENABLE 5 {name}, {rule} rule"] = lambda w=w, r=rule: jotto.comp_num_guesses(
                w, rule=r, threads=1
            )
    cases = {name: fn for name, fn in cases.items() if wanted(name, only)}
    best = {}
    for name, fn in cases.items():
        fn()  # warm-up
        t = float("inf")
        for _ in range(REPEATS):
            t0 = time.process_time()
            fn()
            t = min(t, time.process_time() - t0)
        best[name] = t
    return best


def run_child(python: str, variant: str, weights: Path, only: list[str]) -> dict[str, float]:
    env = dict(os.environ, JOTTO_KERNEL=variant, OMP_NUM_THREADS="1")
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import compare_builds as c; "
        "r = c.module('jotto.engine.runtime', 'jotto.runtime'); "
        "assert r.kernel_variant() == sys.argv[2], r.kernel_variant(); "
        "print(json.dumps(c.child(c.Path(sys.argv[3]), sys.argv[4:])))"
    )
    out = subprocess.run(
        [python, "-c", code, str(HERE), variant, str(weights), *only],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--variants", default="base,v2,v3,v4")
    ap.add_argument(
        "--cases",
        default="",
        help="comma-separated pieces of case names: only the cases holding one",
    )
    args = ap.parse_args()
    only = [p for p in args.cases.split(",") if p]
    if not TWL06.exists():
        sys.exit(f"compare_builds: TWL06 (not bundled) is not at {TWL06}")
    variants = args.variants.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        weights = Path(tmp)
        if wanted(FP_CASE, only) or wanted(PAPER_CASE, only):
            subprocess.run(
                [
                    args.new,
                    "-c",
                    "import sys; sys.path.insert(0, sys.argv[1]); "
                    "import compare_builds as c; c.make_weights(c.Path(sys.argv[2]))",
                    str(HERE),
                    tmp,
                ],
                check=True,
            )
        best: dict[tuple[str, str], dict[str, float]] = {}
        for r in range(args.rounds):
            for variant in variants:
                order = ("old", "new") if r % 2 == 0 else ("new", "old")
                for build in order:
                    got = run_child(getattr(args, build), variant, weights, only)
                    key = (variant, build)
                    best[key] = {
                        k: min(v, best.get(key, {}).get(k, float("inf"))) for k, v in got.items()
                    }
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print("| variant | case | old ms | new ms | new / old |")
    print("|---|---|---:|---:|---:|")
    for variant in variants:
        old, new = best[(variant, "old")], best[(variant, "new")]
        for case in old:
            print(
                f"| {variant} | {case} | {old[case] * 1e3:.2f} | {new[case] * 1e3:.2f} | "
                f"{new[case] / old[case]:.3f} |"
            )
        total_old, total_new = sum(old.values()), sum(new.values())
        print(
            f"| {variant} | all cases (sum) | {total_old * 1e3:.1f} | {total_new * 1e3:.1f} | "
            f"{total_new / total_old:.3f} |"
        )


if __name__ == "__main__":
    main()
