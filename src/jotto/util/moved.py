"""The modules that moved into the package's wings (0.2), still importable from their old
paths for one release, with a :class:`DeprecationWarning` that names the new one.

``import jotto.best_responses`` (or ``from jotto.trees import DecisionTree``) gives the very
module now at ``jotto.responses.best_responses`` (or ``jotto.game.trees``): one module object
under two names, so state and ``isinstance`` checks agree whichever name a caller used.  The
table is the CHANGELOG's list of moves.  ``jotto/__init__.py`` puts a finder last on
``sys.meta_path`` that asks :func:`spec_for` about the names no other finder found, so this
module loads only when an old name is imported.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import warnings
from types import ModuleType

#: Old module (under ``jotto.``) -> where it lives now.  (``jotto.game``, the old module of
#: replies, is now the game's wing: ``jotto/game/__init__.py`` gives its old names, warning.)
MOVED = {
    "_annotations": "util.annotations", "files": "util.files", "interrupts": "util.interrupts",
    "plots": "util.plots",
    "runtime": "engine.runtime", "weights": "engine.weights",
    "bounds": "game.bounds", "objectives": "game.objectives",
    "paper": "game.paper", "race_rules": "game.race_rules", "rules": "game.rules",
    "trees": "game.trees", "words": "game.words",
    "best_responses": "responses.best_responses", "cost_search": "responses.cost_search",
    "gbr": "responses.gbr", "oracles": "responses.oracles",
    "bundled": "solvers.bundled", "matrix_game": "solvers.matrix_game",
    "solution": "solvers.solution", "strategy_file": "util.strategy_file",
    "solve": "solvers.solving",
    "double_oracle": "solvers.double_oracle.algorithm",
    "do_solution": "solvers.double_oracle.solution",
    "fictitious_play": "solvers.fictitious_play.algorithm",
    "fp_solution": "solvers.fictitious_play.solution",
    "strategy_schema": "solvers.fictitious_play.codec",
    "analysis": "play.analysis", "evaluation": "players.evaluation",
    "races": "players.races",
    "commonness": "play.commonness", "interactive": "play.sessions", "sheet": "play.sheet",
    "stats": "play.history", "vocabulary": "play.vocabulary",
}


class _Alias:
    """Loads an old name as the module at its new one (a loader of the import system)."""

    def __init__(self, new: str) -> None:
        self.new = new
        self._spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        # stacklevel 2: the import system's own frames are skipped, so this is the importer
        warnings.warn(f"{spec.name} moved to {self.new}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)
        module = importlib.import_module(self.new)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The module is already loaded under its new name: only give it back its own spec,
        which the import system replaced with the old name's."""
        module.__spec__ = self._spec


def spec_for(fullname: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of ``jotto.<old>`` for an old name of :data:`MOVED`, else None."""
    package, _, name = fullname.rpartition(".")
    if package != "jotto" or name not in MOVED:
        return None
    return importlib.machinery.ModuleSpec(fullname, _Alias(f"jotto.{MOVED[name]}"))
