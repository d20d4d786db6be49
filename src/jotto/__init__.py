"""jotto: game-theoretic strategies for the word game Jotto.

Ganzfried's fictitious play (2011) with an exact, fast C core, Norvig's guessers and evaluation,
and play against the computer.  The manual's glossary (docs/reference/glossary.md) maps the
paper's names to these.
"""

from __future__ import annotations

import importlib
import os
import sys
import types

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up

# OpenMP threads that wait for work by spinning take CPU from whatever else runs, and on a busy
# machine a spinning thread that loses its CPU stalls every parallel region: wait passively
# unless the user chose otherwise.  Must be set before the core (and its OpenMP runtime) loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"

#: Where each public name lives.  ``import jotto`` loads none of them (PEP 562): the ``jotto``
#: command starts handling Ctrl-C before NumPy and the core load, and a name is imported on
#: first use (``jotto.solve``, ``from jotto import solve``).
_EXPORTS = {
    "comp_num_guesses": "gbr", "gbr_tree": "gbr", "guesser_gbr": "gbr",
    "reply": "game",
    "PRESETS": "rules", "Rules": "rules", "RulesError": "rules", "parse_rules": "rules",
    "openmp_enabled": "runtime", "resolve_threads": "runtime",
    "BestResponse": "best_responses", "best_response": "best_responses",
    "expected_guesses": "best_responses",
    "DoubleOracleSolution": "do_solution",
    "OpenerTable": "openers", "OpenerValue": "openers", "opener_values": "openers",
    "EquilibriumGuesser": "fp_solution", "FictitiousPlaySolution": "fp_solution",
    "Solution": "solution", "Strength": "solution",
    "SolveInterrupted": "solve", "solve": "solve",
    "StrategyFileError": "strategy_file",
    "DecisionTree": "trees",
    "Evaluation": "evaluation", "evaluate": "evaluation", "head_to_head": "evaluation",
    "Objective": "objectives", "within": "objectives",
    "race": "races",
    "RULES": "weights", "integer_weights": "weights",
    "WordList": "words", "WordListError": "words", "load_words": "words",
}

if TYPE_CHECKING:
    from .game import reply
    from .rules import PRESETS, Rules, RulesError, parse_rules
    from .gbr import comp_num_guesses, gbr_tree, guesser_gbr
    from .runtime import openmp_enabled, resolve_threads
    from .best_responses import BestResponse, best_response, expected_guesses
    from .do_solution import DoubleOracleSolution
    from .openers import OpenerTable, OpenerValue, opener_values
    from .fp_solution import EquilibriumGuesser, FictitiousPlaySolution
    from .solution import Solution, Strength
    from .solve import SolveInterrupted, solve
    from .strategy_file import StrategyFileError
    from .trees import DecisionTree
    from .evaluation import Evaluation, evaluate, head_to_head
    from .objectives import Objective, within
    from .races import race
    from .weights import RULES, integer_weights
    from .words import WordList, WordListError, load_words


def __getattr__(name: str) -> object:
    """A public name, or a submodule (``jotto.strategy_file``), loaded on first use."""
    if name not in _EXPORTS:
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'jotto' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    if callable(value):  # help() and inspect.signature show types, not quoted strings
        from ._annotations import resolve

        resolve(value)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (``__all__``), as tab completion and ``dir(jotto)`` show them."""
    return sorted(__all__)


class _Package(types.ModuleType):
    """``jotto`` itself.  When a submodule first loads, the import system binds it as an
    attribute of its package; for ``jotto.solve`` that would hide the function ``solve`` the
    name stands for (an eager ``from .solve import solve`` used to rebind it), so that one
    binding is skipped: the module stays reachable through ``sys.modules``."""

    def __setattr__(self, name: str, value: object) -> None:
        if not (isinstance(value, types.ModuleType) and name in _EXPORTS):
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "PRESETS",
    "RULES",
    "BestResponse",
    "DecisionTree",
    "DoubleOracleSolution",
    "EquilibriumGuesser",
    "Evaluation",
    "FictitiousPlaySolution",
    "Objective",
    "OpenerTable",
    "OpenerValue",
    "Rules",
    "RulesError",
    "Solution",
    "SolveInterrupted",
    "StrategyFileError",
    "Strength",
    "WordList",
    "WordListError",
    "best_response",
    "comp_num_guesses",
    "evaluate",
    "expected_guesses",
    "gbr_tree",
    "guesser_gbr",
    "head_to_head",
    "integer_weights",
    "load_words",
    "opener_values",
    "openmp_enabled",
    "parse_rules",
    "race",
    "reply",
    "resolve_threads",
    "solve",
    "within",
]
