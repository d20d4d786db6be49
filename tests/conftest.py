"""Shared fixtures: the paper's dictionary (read from ../shared, never bundled) and helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import jotto
from jotto import _core
from jotto.util import strategy_file
from tests.examples import examples

settings.register_profile(
    "default",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# Under the sanitizers, tests without their own count draw fewer examples too (tests/examples.py)
settings.register_profile(
    "sanitizers", parent=settings.get_profile("default"), max_examples=examples(40)
)
settings.load_profile(os.environ.get("JOTTO_HYPOTHESIS_PROFILE", "default"))

SHARED = Path(__file__).resolve().parents[2] / "shared"
TWL06 = SHARED / "wordlists" / "TWL06.txt"


def _compile_seconds(item) -> float:
    mark = item.get_closest_marker("compiles")
    return mark.kwargs["seconds"] if mark else 0.0


def pytest_collection_modifyitems(items):
    """Tests that compile C code for minutes run first, the longest first: under pytest-xdist
    (`-n auto --dist loadgroup`, as the README runs the suite) the sanitizer build starts at once
    on one worker and the aarch64 cross build and the serial build of the package (one
    xdist_group, "builds") on another, instead of queueing behind it or running last while the
    other workers sit idle.  The order is otherwise kept."""
    items.sort(key=lambda item: -_compile_seconds(item))


@pytest.fixture(scope="session")
def twl06_path() -> Path:
    """TWL06, the paper's dictionary: copyrighted, so only read from ../shared when present."""
    if not TWL06.exists():
        pytest.skip(f"TWL06 (the paper's dictionary, not bundled) is not at {TWL06}")
    return TWL06


@pytest.fixture(scope="session")
def twl06(twl06_path):
    """TWL06 word lists by length, with the paper's rules."""
    return {L: jotto.load_words(twl06_path, length=L) for L in (2, 3, 4, 5)}


@pytest.fixture
def small_thresholds():
    """Move the core's method thresholds so that small word lists reach every path: shared big
    nodes from 4 targets, subset tables from 8, every thread asked for however small the work."""
    _core.set_thresholds(4, 8, 0)
    yield
    _core.set_thresholds()


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory, monkeypatch) -> Path:
    """Every test (and every jotto it starts) keeps play statistics in a fresh temporary
    directory, never in the real user's data directory."""
    path = tmp_path_factory.mktemp("jotto-data")
    monkeypatch.setenv("JOTTO_DATA_DIR", str(path))
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Small finished solves (3 letters, 12 iterations) in both modes, and their payloads."""
    d = tmp_path_factory.mktemp("runs")
    out = {}
    for mode in ("exact", "paper"):
        path = d / f"{mode}.jotto"
        jotto.solve(3, iterations=12, mode=mode, out=path, progress=False)
        out[mode] = (path, strategy_file.read(path))
    return out
