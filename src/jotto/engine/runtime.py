"""Facts about the compiled core at run time: OpenMP, thread counts, and the kernel variant.

The hot kernels are compiled for several instruction-set levels (x86-64: ``base``, ``v2``,
``v3``, ``v4``; aarch64: ``base``, ``neon``) and the best one this CPU runs is chosen at import,
so one portable build still uses POPCNT, AVX2, AVX-512 or NEON where the CPU has them.  The
environment variable ``JOTTO_KERNEL=<name>`` picks another (for tests and benchmarks).
"""

from __future__ import annotations

import os
import warnings

from . import core

__all__ = [
    "available_kernel_variants",
    "kernel_variant",
    "openmp_enabled",
    "resolve_threads",
    "select_kernel_variant",
    "usable_cpus",
]

if not core.openmp_enabled():
    warnings.warn(
        "jotto was built without OpenMP (the compiler had none, or JOTTO_OPENMP was "
        "off): the core runs on one thread",
        RuntimeWarning,
        stacklevel=2,
    )

_forced = os.environ.get("JOTTO_KERNEL", "").strip()
if _forced and _forced != core.isa():
    warnings.warn(
        f"JOTTO_KERNEL={_forced!r} is not a kernel variant this CPU runs (available: "
        f"{', '.join(core.isa_available())}); using {core.isa()!r}",
        RuntimeWarning,
        stacklevel=2,
    )


def openmp_enabled() -> bool:
    """Whether this build of the core runs in parallel (it was compiled with OpenMP)."""
    return core.openmp_enabled()


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def resolve_threads(threads: int | None = None) -> int:
    """The thread count to use: ``threads`` if given, else ``OMP_NUM_THREADS``, else all cores.

    Results never depend on it.  A serial build (see :func:`openmp_enabled`) always uses one.
    A count above the CPUs this process may use (:func:`usable_cpus`) is lowered to that, with
    a :class:`RuntimeWarning`: more threads than CPUs only wait for each other, and each thread
    gets scratch memory the size of the word list.  Raises :class:`ValueError` for a count
    below 1 or a malformed ``OMP_NUM_THREADS``.
    """
    if threads is None:
        env = os.environ.get("OMP_NUM_THREADS", "").strip()
        if env:
            first = env.split(",")[0].strip()
            if not first.isdigit() or int(first) < 1:
                raise ValueError(f"OMP_NUM_THREADS={env!r} is not a positive thread count")
            threads = int(first)
        else:
            return min(core.max_threads(), usable_cpus()) if openmp_enabled() else 1
    elif isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, not {threads!r}")
    if not openmp_enabled():
        return 1
    cap = usable_cpus()
    if threads > cap:
        warnings.warn(
            f"{threads} threads asked for, but this process can use {cap} CPUs; using {cap}",
            RuntimeWarning,
            stacklevel=2,
        )
        threads = cap
    return threads


def kernel_variant() -> str:
    """The kernel variant in use: ``base``, ``v2``, ``v3``, ``v4`` (x86-64) or ``neon``."""
    return core.isa()


def available_kernel_variants() -> list[str]:
    """The variants this build has and this CPU runs, best last."""
    return core.isa_available()


def select_kernel_variant(name: str) -> None:
    """Use kernel variant ``name`` from now on (for testing and benchmarks; results are
    identical whichever runs)."""
    core.select_isa(name)
