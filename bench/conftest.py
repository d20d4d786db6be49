"""Benchmarks run on the paper's dictionary, TWL06, read from ../shared (never bundled)."""

from __future__ import annotations

from pathlib import Path

import pytest

import jotto

TWL06 = Path(__file__).resolve().parents[2] / "shared" / "wordlists" / "TWL06.txt"


@pytest.fixture(scope="session")
def twl06():
    if not TWL06.exists():
        pytest.skip(f"TWL06 (the paper's dictionary, not bundled) is not at {TWL06}")
    return {L: jotto.load_words(TWL06, length=L) for L in (2, 3, 4, 5)}
