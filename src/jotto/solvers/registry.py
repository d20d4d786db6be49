"""The solvers, by the name their strategy files carry: one table, read when a file is loaded or
a solve runs.

A solver is its folder: its algorithm, its solution class (which reports itself and draws its
plot), its file codec and its run (``run.py``: ``check`` and ``run``, which :func:`jotto.solve`
calls).  Each is imported only when a file of that solver is read or a solve of it runs, so
adding a solver is its folder and a row here, not an import for its side effects."""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from ..util.strategy_file import StrategyFileError


class Solver(NamedTuple):
    """A row of the table: where the solver's solution class (``module:class``) and its run
    (a module) live under ``jotto.solvers``; its modes, the default first (``--mode``; none: the
    solver has no modes); whether it proves bounds (it takes ``--certificate`` and runs its
    proofs on ``--workers`` or ``--scheduler``)."""

    solution: str
    run: str
    modes: tuple[str, ...] = ()
    proves: bool = False


#: Solver name (``--method``, a strategy file's ``solver``) -> its row.
SOLVERS = {
    "fictitious-play": Solver(
        "fictitious_play.solution:FictitiousPlaySolution",
        "fictitious_play.run",
        modes=("exact", "paper"),
    ),
    "double-oracle": Solver(
        "double_oracle.solution:DoubleOracleSolution", "double_oracle.run", proves=True
    ),
}
#: Files written before solvers were named hold fictitious play.
DEFAULT_SOLVER = "fictitious-play"


def solver_class(name: Any) -> type:
    """The solution class of the solver ``name`` (a :class:`jotto.solvers.solution.Solution`,
    which imports this table: no import back); a name not in :data:`SOLVERS` is a
    :class:`StrategyFileError`."""
    if not isinstance(name, str) or name not in SOLVERS:
        raise StrategyFileError(f"unknown solver {name!r}")
    module, _, cls = SOLVERS[name].solution.partition(":")
    return getattr(importlib.import_module(f".{module}", __package__), cls)


def solver_run(name: str) -> Any:
    """The run module of the solver ``name`` (one of :data:`SOLVERS`): its ``check(request,
    certificate)`` and ``run(words, request, payload, path)``."""
    return importlib.import_module(f".{SOLVERS[name].run}", __package__)
