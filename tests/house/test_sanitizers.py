"""The core built with AddressSanitizer and UBSan runs the reference tests: no read or write out
of bounds, no use after free, no undefined behaviour (signed overflow, misaligned or bad shifts)
on any evaluation path, kernel variant or thread count.  It compiles the core, so it is slow;
the property tests take a few examples each here (the "sanitizers" profile of
tests/conftest.py), as many as they need in the plain run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from jotto.engine import runtime
from tests.house.core_builds import ROOT, install_core

# The reference tests, every path and variant; the length checks of every _core entry; whole
# TWL06 trees (when present) with weights and both thread counts; the kernels' class sizes; the
# best-response search (its memo, levels and trees) against its reference twin, every rule set,
# and its family bound against its own; the search on 1-3 threads (the shared memo, full and
# growing, and the stops); the cost search and the cost guesser's model against their twins;
# trees updated again and again (nodes and states dropped into their pools, which poison them,
# and grown again from them; the memo) against fresh builds.
SELECTED = [
    "tests/engine/test_gbr_properties.py",
    "tests/responses/test_gbr.py",
    "tests/engine/test_kernels.py",
    "tests/responses/test_best_response.py",
    "tests/responses/test_family_bound.py",
    "tests/responses/test_objectives.py",
    "tests/players/test_cost_guesser.py",
    "tests/responses/test_proof_threads.py::test_exact_values_and_trees_do_not_depend_on_threads",
    "tests/responses/test_proof_threads.py::test_budgets_on_threads_give_proven_bounds",
    "tests/responses/test_proof_threads.py::test_a_full_memo_changes_nothing_on_threads",
    "tests/solvers/test_solve.py::test_updated_tree_equals_a_fresh_build",
]

# Left out under the sanitizers (the plain run has them): a Ctrl-C's timing, which is Python's
# signal handling and not the core's memory, and 60,000-state TWL06 passes on 1 and 2 threads,
# 90 s instrumented, whose paths the small cases above and the TSan test (test_proof_threads.py)
# already take.
DESELECTED = ["test_ctrl_c_stops_the_search", "test_twl06_node_budgets_on_threads"]

# The word lengths compiled with specialised sweeps: the instrumented kernels take minutes a
# unit, and a length's sweeps are one source with the length a constant, so two lengths (the
# proofs' and the game's) and the generic sweeps, which the tests' other lengths (2 and 4) take,
# cover their code.
SWEEP_LENGTHS = "3;5"

RUNNER = textwrap.dedent("""
    import sys
    target = sys.argv[1]
    # the editable install of the main build would shadow the instrumented one: drop it
    sys.meta_path = [f for f in sys.meta_path if "editable" not in type(f).__module__]
    sys.path = [target] + [p for p in sys.path if not p.rstrip("/").endswith("/src")]
    import jotto
    assert jotto.__file__.startswith(target), jotto.__file__
    import pytest
    sys.exit(pytest.main(["-x", "-q", "-p", "no:cacheprovider", *sys.argv[2:]]))
""")


def runnable_levels() -> str:
    """The kernel levels this CPU runs (JOTTO_KERNELS's form): only they can be tested, so the
    instrumented build compiles no other (an AVX2 machine skips v4, a quarter of the build)."""
    levels = [v for v in runtime.available_kernel_variants() if v != "base"]
    return ";".join(levels) or "base"


def _libasan() -> str | None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if not cc:
        return None
    out = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


@pytest.mark.slow
@pytest.mark.sanitizers
@pytest.mark.compiles(seconds=240)
def test_reference_tests_pass_under_asan_and_ubsan(tmp_path):
    libasan = _libasan()
    if libasan is None:
        pytest.skip("no libasan.so from the C compiler (gcc -print-file-name=libasan.so)")
    target, build = install_core(
        tmp_path,
        "JOTTO_SANITIZE=ON",
        f"JOTTO_KERNELS={runnable_levels()}",
        f"JOTTO_KERNEL_LENGTHS={SWEEP_LENGTHS}",
        settings=("cmake.build-type=RelWithDebInfo",),
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (tmp_path / "runner.py").write_text(RUNNER)
    env = dict(
        os.environ,
        LD_PRELOAD=libasan,
        # CPython's own allocations are never freed at exit: leaks are not ours to judge
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
        OMP_NUM_THREADS="2",
        JOTTO_HYPOTHESIS_PROFILE="sanitizers",
    )
    deselect = " and ".join(f"not {name}" for name in DESELECTED)
    run = subprocess.run(
        [sys.executable, str(tmp_path / "runner.py"), str(target), *SELECTED, "-k", deselect],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, (run.stdout[-4000:], run.stderr[-4000:])
    assert " passed" in run.stdout
