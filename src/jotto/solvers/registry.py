"""The solvers, by the name their strategy files carry: one table, read when a file is loaded.

A solver's solution class is imported only when a file of that solver is read (or a solve of it
runs), so adding a solver is a row here, not an import for its side effects."""

from __future__ import annotations

import importlib
from typing import Any

from ..util.strategy_file import StrategyFileError

#: Solver name (``--method``, a strategy file's ``solver``) -> its solution class, as
#: ``module:class`` under ``jotto.solvers``.
SOLVERS = {
    "fictitious-play": "fictitious_play.solution:FictitiousPlaySolution",
    "double-oracle": "double_oracle.solution:DoubleOracleSolution",
}
#: Files written before solvers were named hold fictitious play.
DEFAULT_SOLVER = "fictitious-play"


def solver_class(name: Any) -> type:
    """The solution class of the solver ``name`` (a :class:`jotto.solvers.solution.Solution`,
    which imports this table: no import back); a name not in :data:`SOLVERS` is a
    :class:`StrategyFileError`."""
    if not isinstance(name, str) or name not in SOLVERS:
        raise StrategyFileError(f"unknown solver {name!r}")
    module, _, cls = SOLVERS[name].partition(":")
    return getattr(importlib.import_module(f".{module}", __package__), cls)
