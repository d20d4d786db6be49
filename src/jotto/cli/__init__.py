"""The ``jotto`` command: one click group, a subcommand per job (solve, evaluate, tree, play,
assist).  Bad input ends with a one-line error and exit code 2; set ``JOTTO_DEBUG=1`` to see
the traceback instead."""

from __future__ import annotations

from .main import main

__all__ = ["main"]
