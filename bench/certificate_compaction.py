"""What a budgeted best response's certificate holds once compacted (docs/certificates.md,
"Each state once"): the records of the search's raw stream against those kept, the file, the
compaction's time, and the check's time against the proof's.

    python bench/certificate_compaction.py SECONDS OUT.cert [MEMO_BYTES]

The word list is TWL06's 3-letter words from ../shared/wordlists/TWL06.txt when present, else
ENABLE's; the search runs on two threads against the uniform hider.
"""

from __future__ import annotations

import os
import resource
import sys
import time

import jotto
from jotto.game import certificates
from jotto.game.proof_check import check_certificate

TWL06 = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "wordlists", "TWL06.txt")


def main() -> None:
    budget, out = float(sys.argv[1]), sys.argv[2]
    memory = int(sys.argv[3]) if len(sys.argv) > 3 else 2**30
    words = jotto.load_words(TWL06 if os.path.exists(TWL06) else "enable", length=3)
    print("words", len(words), words.source, flush=True)
    compaction = certificates._Compaction.__init__
    stats = {}

    def measured(self, stream, D, records):
        t, c = time.perf_counter(), time.process_time()
        compaction(self, stream, D, records)
        stats.update(
            raw=records,
            kept=self.kept,
            raw_bytes=stream.stat().st_size,
            wall=round(time.perf_counter() - t, 1),
            cpu=round(time.process_time() - c, 1),
        )

    certificates._Compaction.__init__ = measured
    t0 = time.perf_counter()
    found = jotto.best_response(words, budget=budget, threads=2, certificate=out, memory=memory)
    print(f"proof {time.perf_counter() - t0:.1f} s wall, load {os.getloadavg()[0]:.1f}:", found)
    print("compaction", stats, "file", os.path.getsize(out), flush=True)
    t1, c1 = time.perf_counter(), time.process_time()
    result = check_certificate(out)
    print(
        "check",
        result.ok,
        result.records,
        f"{time.perf_counter() - t1:.1f} s wall",
        f"{time.process_time() - c1:.1f} s CPU, load {os.getloadavg()[0]:.1f}",
    )
    print("max RSS MiB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)


if __name__ == "__main__":
    main()
