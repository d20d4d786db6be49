"""How much the race-aware guesser (``race``, :class:`jotto.players.RaceGuesser`) wins that the
race-naive one otherwise the same (``greedy-cost``, the mean) does not (issue 33, part 3).

Both play as the computer plays in ``jotto play``: second in each round, against an opponent
model moving first; both hide uniformly at random among the bundled ENABLE list's 2780 words
(5 letters, the paper's rules).  Opponents: GuesserGBR (``gbr:exact``), Norvig's
minimise-the-worst guesser (``norvig:max:inconsistent``), a random consistent guesser, the
bundled equilibrium guesser, and the race-naive guesser itself.

The race-naive guesser is a decision tree, so its races against trees and mixtures of trees are
exact (:func:`jotto.race`); against the random guesser it is simulated with the same seeds.
The race-aware guesser watches the other player and is simulated.  Races are played in chunks
(seed = chunk number), round-robin over the opponents, each chunk appended as one JSON line to
``--out`` as it finishes, so that any number of chunks is a result and a stopped run resumes
(chunks already in the file are skipped).  ``--summary`` prints the table with 95% intervals:
the computer's advantage (wins minus losses per race; a draw counts half a win, as in the
race objective) for each guesser, and the difference, race-aware minus race-naive.

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

from statistics import NormalDist

import jotto
from jotto.util.files import output_lock
from jotto.players import CostGuesser, RaceGuesser, make_guesser

OPPONENTS = ("gbr:exact", "norvig:max:inconsistent", "random", "equilibrium", "greedy-cost")
CHUNK = 500


def _opponent(spec: str, words, chunk: int):
    if spec in ("random", "equilibrium"):
        return make_guesser(f"{spec}:seed={chunk}", words)
    return make_guesser(spec, words)


def _counts(result) -> dict[str, int]:
    """The computer's (second player's) wins, draws and losses."""
    est = result.estimate
    return {"wins": est.losses, "draws": est.draws, "losses": est.wins, "games": est.games}


def run(args) -> None:
    words = jotto.load_words()
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as fh:
            for line in fh:
                d = json.loads(line)
                done.add((d["opponent"], d["chunk"]))
    k, parts = (int(x) for x in args.part.split("/"))
    racer, naive = RaceGuesser(words), CostGuesser(words)
    chunks = math.ceil(args.games / args.chunk)
    jobs = [(c, o) for c in range(chunks) for o in OPPONENTS]
    for n, (chunk, spec) in enumerate(jobs):
        if n % parts != k or (spec, chunk) in done:
            continue
        t0 = time.perf_counter()
        opponent = _opponent(spec, words, chunk)
        aware = _counts(jotto.race(words, opponent, racer, games=args.chunk, seed=1000 + chunk))
        line = {"opponent": spec, "chunk": chunk, "aware": aware,
                "seconds": time.perf_counter() - t0, "load": os.getloadavg()[0]}
        if spec == "random":  # the naive guesser's races against it are simulated too
            line["naive"] = _counts(jotto.race(words, _opponent(spec, words, chunk), naive,
                                               games=args.chunk, seed=1000 + chunk))
        with output_lock(args.out, wait=10):
            with open(args.out, "a") as fh:
                fh.write(json.dumps(line) + "\n")
        print(f"{spec} chunk {chunk}: {line['seconds']:.0f} s", file=sys.stderr, flush=True)


def _advantage(c: dict[str, int], z: float) -> tuple[float, float, float]:
    """Wins minus losses per race, its variance, and the half-width of its interval."""
    n = c["games"]
    d = (c["wins"] - c["losses"]) / n
    var = ((c["wins"] + c["losses"]) / n - d * d) / n
    return d, var, z * math.sqrt(var)


def summary(args) -> None:
    words = jotto.load_words()
    z = NormalDist().inv_cdf(0.975)
    totals: dict[str, dict] = {}
    with open(args.out) as fh:
        for line in fh:
            d = json.loads(line)
            t = totals.setdefault(d["opponent"], {"aware": {}, "naive": {}, "seconds": 0.0})
            for side in ("aware", "naive"):
                for key, x in d.get(side, {}).items():
                    t[side][key] = t[side].get(key, 0) + x
            t["seconds"] += d["seconds"]
    naive_guesser = CostGuesser(words)
    print("| opponent | races | race-aware: win / draw / loss | advantage | race-naive: "
          "advantage | difference (95% CI) |")
    print("|---|---|---|---|---|---|")
    for spec in OPPONENTS:
        if spec not in totals:
            continue
        t = totals[spec]
        a = t["aware"]
        da, va, ha = _advantage(a, z)
        if t["naive"]:
            dn, vn, hn = _advantage(t["naive"], z)
            naive_text = f"{100 * dn:+.2f} ± {100 * hn:.2f} (simulated)"
        else:
            exact = jotto.race(words, make_guesser(spec, words), naive_guesser)
            dn, vn = -float(exact.advantage), 0.0
            naive_text = f"{100 * dn:+.2f} (exact)"
        half = z * math.sqrt(va + vn)
        n = a["games"]
        print(f"| {spec} | {n:,} | {100 * a['wins'] / n:.2f}% / {100 * a['draws'] / n:.2f}% / "
              f"{100 * a['losses'] / n:.2f}% | {100 * da:+.2f} ± {100 * ha:.2f} | {naive_text} | "
              f"{100 * (da - dn):+.2f} [{100 * (da - dn - half):+.2f}, "
              f"{100 * (da - dn + half):+.2f}] |")
    print(f"CPU seconds of the simulations: {sum(t['seconds'] for t in totals.values()):.0f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20000, help="races per opponent")
    p.add_argument("--out", default="race_win_rates.jsonl")
    p.add_argument("--part", default="0/1", help="K/N: this process plays every N-th chunk")
    p.add_argument("--chunk", type=int, default=CHUNK, help="races per chunk")
    p.add_argument("--summary", action="store_true")
    a = p.parse_args()
    summary(a) if a.summary else run(a)
