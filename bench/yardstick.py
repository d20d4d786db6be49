"""The package's tree kernel timed beside the AVX2 yardstick (issue 44), interleaved.

    python bench/yardstick.py [--variants v3,v2,base] [--threads 1,2] [--rounds 21]
                              [--weights uniform,fp] [--fp-weights FILE.npy] [--json OUT]

The yardstick is the hybrid prototype in ``../shared/perf/avx2-hybrid`` (outside this
repository, never copied into it): this script compiles its ``proto.c`` into a shared library in
a temporary directory (gcc, ``-O3 -march=x86-64-v3 -fopenmp``), loads it with ctypes and builds
GuesserGBR's whole decision tree on TWL06's 5-letter words with both, exact rule, checking
first that the two give the same guess count for every target.  Each round calls the package
and the yardstick once each, the order alternating from round to round, so that a machine
that gets busier or quieter slows both alike; the table gives both medians (wall time, the
tree's build in one call) and ``package / yardstick`` (below 1: the package is faster), with
the 1-minute load average before and after.  ``--clock cpu`` times the process's CPU time
instead, which other programs on a busy machine disturb less (on one thread that is the work;
on two it is both threads' time, waiting included).

Weights: uniform, and ``fp``: the hider weights after 2000 exact fictitious-play iterations
(1 + D times chosen, as bench/test_comp_num_guesses.py makes them; ``--fp-weights FILE.npy``
keeps them between runs).  Needs an x86-64 CPU with AVX2 and BMI2 (the yardstick's), gcc and
TWL06 at ``../shared/wordlists``.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import jotto
from jotto.engine import runtime

SHARED = Path(__file__).resolve().parents[2] / "shared"
TWL06 = SHARED / "wordlists" / "TWL06.txt"
YARDSTICK = SHARED / "perf" / "avx2-hybrid"
#: proto_build's number for the hybrid design (subset tables for big states, bit-sliced below)
HYBRID = 5


class Yardstick:
    """The prototype's shared library, loaded for one word list's masks."""

    def __init__(self, source: Path, tmp: Path, masks: np.ndarray):
        lib = tmp / "libyardstick.so"
        subprocess.run(
            [
                "gcc",
                "-O3",
                "-march=x86-64-v3",
                "-fopenmp",
                "-pthread",
                "-shared",
                "-fPIC",
                "-o",
                str(lib),
                str(source / "proto.c"),
            ],
            check=True,
        )
        self.lib = ctypes.CDLL(str(lib))
        self.lib.proto_init.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.proto_set_weights.argtypes = [ctypes.c_void_p]
        self.lib.proto_build.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
        self.masks = np.ascontiguousarray(masks, dtype=np.uint32)
        if self.lib.proto_init(self.masks.ctypes.data, len(self.masks)) <= 0:
            raise RuntimeError("the yardstick refused the word list")
        self.out = np.zeros(len(self.masks), np.int32)
        self.v = None

    def set_weights(self, v: np.ndarray | None) -> None:
        self.v = None if v is None else np.ascontiguousarray(v, dtype=np.int64)
        if self.lib.proto_set_weights(None if v is None else self.v.ctypes.data) != 0:
            raise RuntimeError("the yardstick refused the weights")

    def counts(self, threads: int) -> np.ndarray:
        self.lib.proto_build(HYBRID, threads, self.out.ctypes.data)
        return self.out


def fictitious_play_weights(words, cache: Path | None) -> np.ndarray:
    """The exact-mode hider weights after 2000 iterations (bench/test_comp_num_guesses.py's)."""
    if cache and cache.exists():
        return np.load(cache)
    from jotto.solvers.fictitious_play.algorithm import ExactPlay

    run = ExactPlay(words, runtime.resolve_threads())
    for _ in range(2001):
        run.step()
    v = run.weights()
    if cache:
        part = cache.with_suffix(".part.npy")
        np.save(part, v)
        part.replace(cache)
    return v


def interleaved(package, yardstick, rounds: int, clock) -> tuple[list[float], list[float]]:
    """Times (by clock) of rounds calls of each, alternating which goes first."""
    tp, ty = [], []
    for r in range(rounds):
        order = ((package, tp), (yardstick, ty)) if r % 2 == 0 else ((yardstick, ty), (package, tp))
        for fn, times in order:
            t0 = clock()
            fn()
            times.append(clock() - t0)
    return tp, ty


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default=",".join(reversed(runtime.available_kernel_variants())))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--weights", default="uniform,fp")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument(
        "--fp-weights",
        type=Path,
        default=None,
        help="a .npy file keeping the fictitious-play weights between runs",
    )
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("--yardstick", type=Path, default=YARDSTICK)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not (args.yardstick / "proto.c").exists():
        sys.exit(f"yardstick: no prototype at {args.yardstick} (it lives outside the repository)")
    if not TWL06.exists():
        sys.exit(f"yardstick: TWL06 (not bundled) is not at {TWL06}")
    if shutil.which("gcc") is None:
        sys.exit("yardstick: gcc is needed to build the prototype")
    words = jotto.load_words(TWL06, length=5)
    weights = {"uniform": None}
    if "fp" in args.weights.split(","):
        weights["fp"] = fictitious_play_weights(words, args.fp_weights)
    weights = {k: v for k, v in weights.items() if k in args.weights.split(",")}
    default = runtime.kernel_variant()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ys = Yardstick(args.yardstick, Path(tmp), np.asarray(words.masks))
        print(
            "| weights | threads | variant | package ms | yardstick ms | package / yardstick "
            "| load |\n|---|---:|---|---:|---:|---:|---|",
            flush=True,
        )
        for wname, v in weights.items():
            ys.set_weights(v)
            for threads in [int(t) for t in args.threads.split(",")]:
                for variant in args.variants.split(","):
                    runtime.select_kernel_variant(variant)

                    def package(v=v, threads=threads):
                        return jotto.comp_num_guesses(words, v, rule="exact", threads=threads)

                    want = package()
                    got = ys.counts(threads)
                    if not np.array_equal(want, got):
                        sys.exit(
                            f"yardstick: {wname} weights, {threads} threads: the counts "
                            f"differ for {int((want != got).sum())} targets"
                        )
                    load0 = os.getloadavg()[0]
                    tp, ty = interleaved(
                        package,
                        lambda t=threads: ys.counts(t),
                        args.rounds,
                        time.perf_counter if args.clock == "wall" else time.process_time,
                    )
                    load1 = os.getloadavg()[0]
                    mp, my = statistics.median(tp), statistics.median(ty)
                    rows.append(
                        {
                            "weights": wname,
                            "threads": threads,
                            "variant": variant,
                            "package_ms": mp * 1e3,
                            "yardstick_ms": my * 1e3,
                            "ratio": mp / my,
                            "load": [load0, load1],
                            "package_all": tp,
                            "yardstick_all": ty,
                            "clock": args.clock,
                        }
                    )
                    print(
                        f"| {wname} | {threads} | {variant} | {mp * 1e3:.2f} | {my * 1e3:.2f} "
                        f"| {mp / my:.2f}x | {load0:.1f}-{load1:.1f} |",
                        flush=True,
                    )
    runtime.select_kernel_variant(default)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
