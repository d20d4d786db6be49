"""How much the race-aware guesser (``race``, :class:`jotto.players.RaceGuesser`) wins that the
race-naive one otherwise the same (``greedy-cost``, the mean) does not (issue 33, part 3).

Both play as the computer plays in ``jotto play``: second in each round, against an opponent
model moving first; everyone hides uniformly at random among the bundled ENABLE list's 2780
words (5 letters, the paper's rules).  Opponents: GuesserGBR (``gbr:exact``), Norvig's
minimise-the-worst guesser (``norvig:max:inconsistent``), a random consistent guesser, the
bundled equilibrium guesser, and the race-naive guesser itself.

The comparison is paired (:func:`jotto.players.races.paired_race`, common random numbers): in
each race the race-aware and the race-naive computer look for the same word and race the very
same play of the opponent (a random or mixed opponent draws once per race, and both computers
see the same draws), so the interval of the difference comes from the per-race differences of
results, not from two independent simulations.  Races are played in chunks (the secrets drawn
with seed 1000 + chunk, the random and equilibrium opponents seeded with the chunk number), the
opponents taken in turn, each chunk appended as one JSON line to ``--out`` as it finishes, so
that any number of chunks is a result and a stopped run resumes (chunks already in the file are
skipped).  ``--summary`` prints the table: the computer's advantage (wins minus losses per race)
for each guesser, and the difference, race-aware minus race-naive, with its 95% interval from
the per-race differences.  Against opponents that play trees the race-naive computer's advantage
is also known exactly (:func:`jotto.race`), and the difference is then estimated with it
(:meth:`~jotto.players.races.PairedRaces.controlled_difference`, the race-naive computer's
simulated races as a control variate), whose interval is never wider than either the paired one
or that of the race-aware computer's races alone; the target (better, the interval excluding
zero) is judged on that interval there, and on the paired one against the random opponent.

Run (two processes share the chunks: ``--part 0/2`` and ``--part 1/2``)::

    python bench/race_win_rates.py --games 20000 --out race_win_rates.jsonl --part 0/2 &
    python bench/race_win_rates.py --games 20000 --out race_win_rates.jsonl --part 1/2 &
    python bench/race_win_rates.py --out race_win_rates.jsonl --summary
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import jotto
from jotto.players import CostGuesser, RaceGuesser, TreeGuesser, make_guesser
from jotto.players.races import PairedRaces, paired_race
from jotto.util.files import output_lock

OPPONENTS = ("gbr:exact", "norvig:max:inconsistent", "random", "equilibrium", "greedy-cost")
CHUNK = 500


def _opponent(spec: str, words, chunk: int, naive_tree):
    if spec in ("random", "equilibrium"):
        return make_guesser(f"{spec}:seed={chunk}", words)
    if spec == "greedy-cost":  # its tree, made once (the same guesses, without the search)
        return TreeGuesser(naive_tree, "greedy-cost")
    return make_guesser(spec, words)


def _paired(d: dict) -> PairedRaces:
    return PairedRaces(
        d["games"], (d["seed"],), 0.95, True, tuple(tuple(row) for row in d["table"])
    )


def _done(path: str) -> set[tuple[str, int]]:
    """The (opponent, chunk) pairs already in the file."""
    if not os.path.exists(path):
        return set()
    with open(path) as fh:
        return {(d["opponent"], d["chunk"]) for d in map(json.loads, fh)}


def run(args) -> None:
    words = jotto.load_words()
    k, parts = (int(x) for x in args.part.split("/"))
    opponents = args.opponents.split(",")
    racer = RaceGuesser(words)
    naive_tree = CostGuesser(words).tree()
    naive = TreeGuesser(naive_tree, "greedy-cost")  # plays as CostGuesser(words) does
    chunks = math.ceil(args.games / args.chunk)
    jobs = [(c, o) for c in range(chunks) for o in opponents]
    if args.reverse:  # to help a run going the other way: they meet in the middle
        jobs.reverse()
    for n, (chunk, spec) in enumerate(jobs):
        if n % parts != k or (spec, chunk) in _done(args.out):
            continue
        cpu, wall = time.process_time(), time.perf_counter()
        result = paired_race(
            words,
            _opponent(spec, words, chunk, naive_tree),
            racer,
            naive,
            games=args.chunk,
            seed=1000 + chunk,
        )
        line = {
            "opponent": spec,
            "chunk": chunk,
            "games": result.games,
            "seed": 1000 + chunk,
            "table": [list(r) for r in result.table],
            "cpu_seconds": time.process_time() - cpu,
            "seconds": time.perf_counter() - wall,
            "load": os.getloadavg()[0],
        }
        with output_lock(args.out, wait=10):
            with open(args.out, "a") as fh:
                fh.write(json.dumps(line) + "\n")
        print(f"{spec} chunk {chunk}: {line['cpu_seconds']:.0f} s CPU", file=sys.stderr, flush=True)


def summary(args) -> None:
    words = jotto.load_words()
    runs: dict[str, list[PairedRaces]] = {}
    cpu = 0.0
    seen = set()
    with open(args.out) as fh:
        for line in fh:
            d = json.loads(line)
            if (d["opponent"], d["chunk"]) in seen:  # two runs met in the middle
                continue
            seen.add((d["opponent"], d["chunk"]))
            runs.setdefault(d["opponent"], []).append(_paired(d))
            cpu += d["cpu_seconds"]
    naive = CostGuesser(words)
    print(
        "| opponent | races | race-aware: win / draw / loss | its advantage | race-naive's "
        "advantage: simulated (exact) | paired difference [95% CI] | with the exact "
        "race-naive advantage [95% CI] | target met |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for spec in OPPONENTS:
        if spec not in runs:
            continue
        p = PairedRaces.combine(runs[spec])
        n = p.games
        wins, draws, losses = p.results("a")
        lo, hi = p.difference_interval()
        exact, controlled = "", "-"
        met = lo > 0
        if spec != "random":  # the race-naive guesser and the opponent play trees
            b = -float(jotto.race(words, make_guesser(spec, words), naive).advantage)
            d, clo, chi = p.controlled_difference(b)
            exact = f" ({100 * b:+.2f})"
            controlled = f"{100 * d:+.2f} [{100 * clo:+.2f}, {100 * chi:+.2f}]"
            met = clo > 0
        print(
            f"| {spec} | {n:,} | {100 * wins / n:.2f}% / {100 * draws / n:.2f}% / "
            f"{100 * losses / n:.2f}% | {100 * p.advantage('a'):+.2f} | "
            f"{100 * p.advantage('b'):+.2f}{exact} | {100 * p.difference:+.2f} "
            f"[{100 * lo:+.2f}, {100 * hi:+.2f}] | {controlled} | "
            f"{'yes' if met else 'no'} |"
        )
    print(f"CPU seconds of the simulations: {cpu:.0f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20000, help="races per opponent")
    p.add_argument("--out", default="race_win_rates.jsonl")
    p.add_argument("--part", default="0/1", help="K/N: this process plays every N-th chunk")
    p.add_argument("--chunk", type=int, default=CHUNK, help="races per chunk")
    p.add_argument(
        "--opponents",
        default=",".join(OPPONENTS),
        help="comma-separated opponent specs, taken in turn",
    )
    p.add_argument(
        "--reverse",
        action="store_true",
        help="take the chunks from the last (to help a run already going)",
    )
    p.add_argument("--summary", action="store_true")
    a = p.parse_args()
    summary(a) if a.summary else run(a)
