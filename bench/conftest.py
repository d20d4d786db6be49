"""Benchmarks run on the paper's dictionary, TWL06, read from ../shared (never bundled), on every
kernel variant this CPU runs (the `kernel` fixture); each result records its variant."""

from __future__ import annotations

from pathlib import Path

import pytest

import jotto
from jotto.engine import runtime

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"


@pytest.fixture(scope="session")
def twl06():
    if not TWL06.exists():
        pytest.skip(f"TWL06 (the paper's dictionary, not bundled) is not at {TWL06}")
    return {L: jotto.load_words(TWL06, length=L) for L in (2, 3, 4, 5)}


@pytest.fixture(params=runtime.available_kernel_variants())
def kernel(request, benchmark):
    """Run the benchmark on one kernel variant and record which."""
    default = runtime.kernel_variant()
    runtime.select_kernel_variant(request.param)
    benchmark.extra_info["kernel"] = request.param
    yield request.param
    runtime.select_kernel_variant(default)
