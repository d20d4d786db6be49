"""Facts about the compiled core at run time: OpenMP, thread counts, and the kernel variant.

The hot kernels are compiled for several x86-64 levels and the best one this CPU runs is chosen
at import, so one portable build still uses POPCNT, AVX2 or AVX-512 where the CPU has them.
"""

from __future__ import annotations

import os
import warnings

from . import _core

__all__ = [
    "available_kernel_variants",
    "kernel_variant",
    "openmp_enabled",
    "resolve_threads",
    "select_kernel_variant",
]

if not _core.openmp_enabled():
    warnings.warn("jotto was built without OpenMP (the compiler had none, or JOTTO_OPENMP was "
                  "off): the core runs on one thread", RuntimeWarning, stacklevel=2)


def openmp_enabled() -> bool:
    """Whether this build of the core runs in parallel (it was compiled with OpenMP)."""
    return _core.openmp_enabled()


def resolve_threads(threads: int | None = None) -> int:
    """The thread count to use: ``threads`` if given, else ``OMP_NUM_THREADS``, else all cores.

    Results never depend on it.  A serial build (see :func:`openmp_enabled`) always uses one.
    Raises :class:`ValueError` for a count below 1 or a malformed ``OMP_NUM_THREADS``.
    """
    if threads is None:
        env = os.environ.get("OMP_NUM_THREADS", "").strip()
        if env:
            first = env.split(",")[0].strip()
            if not first.isdigit() or int(first) < 1:
                raise ValueError(f"OMP_NUM_THREADS={env!r} is not a positive thread count")
            threads = int(first)
        else:
            threads = _core.max_threads() if openmp_enabled() else 1
    elif isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, not {threads!r}")
    return threads if openmp_enabled() else 1


def kernel_variant() -> str:
    """The kernel variant in use: ``base``, ``v2``, ``v3`` or ``v4`` (x86-64 levels)."""
    return _core.isa()


def available_kernel_variants() -> list[str]:
    """The variants this build has and this CPU runs, best last."""
    return _core.isa_available()


def select_kernel_variant(name: str) -> None:
    """Use kernel variant ``name`` from now on (for testing and benchmarks; results are
    identical whichever runs)."""
    _core.select_isa(name)
