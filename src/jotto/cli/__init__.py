"""The ``jotto`` command: one click group (:mod:`jotto.cli.main`, with its error handling) and
the subcommands of the table in :mod:`jotto.cli.commands` (solve, evaluate, tree, play, assist,
...), each loaded when it is run.  Bad input ends with a one-line error and exit code 2; set
``JOTTO_DEBUG=1`` to see the traceback instead."""

from __future__ import annotations

from .main import main

__all__ = ["main"]
