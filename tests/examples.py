"""How many examples a property test draws.

The plain run draws as many as each test's ``@settings(max_examples=examples(N))`` says, N, which
its comparison with a twin needs.  The instrumented run of the reference tests
(tests/house/test_sanitizers.py sets ``JOTTO_HYPOTHESIS_PROFILE=sanitizers``) looks for bad memory
accesses and undefined behaviour, which a tenth of them (at least 8) reach on the same paths, at a
tenth of the time: the sanitizers' build runs the core many times slower.
"""

from __future__ import annotations

import os

SANITIZERS = os.environ.get("JOTTO_HYPOTHESIS_PROFILE") == "sanitizers"


def examples(n: int) -> int:
    """N in the plain run; under the sanitizers a tenth of N, at least 8 (never more than N)."""
    return min(n, max(8, n // 10)) if SANITIZERS else n
