"""The house's layout: ruff formats every Python file and sorts its imports, and its lint rules
hold (``[tool.ruff]`` in pyproject.toml), so no change brings back hand-sorted imports or a style
of its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TREES = ["src", "tests", "bench", "docs/conf.py"]


def _ruff() -> list[str]:
    if shutil.which("ruff") is None:
        try:
            import ruff  # noqa: F401 (the test group installs it)
        except ImportError:
            pytest.skip("ruff is not installed (pip install --group test)")
    return [sys.executable, "-m", "ruff"]


@pytest.mark.parametrize("check", [["format", "--check"], ["check"]], ids=["format", "lint"])
def test_ruff_finds_nothing(check):
    run = subprocess.run(
        [*_ruff(), *check, "--quiet", *TREES], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]
