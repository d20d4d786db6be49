"""Builds of the package with other options than the main one's (the serial core, the sanitizers'
core, a refused option), each installed into a folder of its own by pip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def install_core(
    tmp_path: Path, *defines: str, settings: tuple[str, ...] = (), quiet: bool = True
) -> tuple[Path, subprocess.CompletedProcess]:
    """``pip install`` this checkout into ``tmp_path/site`` (built in ``tmp_path/build``) with
    CMake's ``defines`` (``NAME=VALUE``) and other scikit-build-core ``settings``; returns the
    folder and pip's finished process (the caller judges its status).  Without build isolation:
    the test environment has the build requirements (pyproject.toml's ``build`` group)."""
    target = tmp_path / "site"
    options = [f"cmake.define.{d}" for d in defines] + [
        *settings,
        f"build-dir={tmp_path / 'build'}",
    ]
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation"]
    command += ["--target", str(target)]
    if quiet:
        command.append("--quiet")
    for option in options:
        command += ["-C", option]
    command.append(str(ROOT))
    return target, subprocess.run(command, capture_output=True, text=True)
