"""jotto: game-theoretic strategies for the word game Jotto.

Ganzfried's fictitious play (2011) with an exact, fast C core, Norvig's guessers and evaluation,
and play against the computer.  The manual's glossary (docs/reference/glossary.md) maps the
paper's names to these.
"""

from __future__ import annotations

import importlib
import os

from ._version import __version__ as __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up

# OpenMP threads that wait for work by spinning take CPU from whatever else runs, and on a busy
# machine a spinning thread that loses its CPU stalls every parallel region: wait passively
# unless the user chose otherwise.  Must be set before the core (and its OpenMP runtime) loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

#: Where each public name lives.  ``import jotto`` loads none of them (PEP 562): the ``jotto``
#: command starts handling Ctrl-C before NumPy and the core load, and a name is imported on
#: first use (``jotto.solve``, ``from jotto import solve``).
_EXPORTS = {
    "comp_num_guesses": "responses.gbr",
    "gbr_tree": "responses.gbr",
    "guesser_gbr": "responses.gbr",
    "reply": "game.turns",
    "PRESETS": "game.rules",
    "Rules": "game.rules",
    "RulesError": "game.rules",
    "parse_rules": "game.rules",
    "openmp_enabled": "engine.runtime",
    "resolve_threads": "engine.runtime",
    "BestResponse": "responses.result",
    "best_response": "responses.best_responses",
    "expected_guesses": "responses.result",
    "CertificateError": "game.certificates",
    "check_certificate": "game.proof_check",
    "CheckResult": "game.proof_check",
    "TrimResult": "game.proof_check",
    "trim_certificate": "game.proof_check",
    "DoubleOracleSolution": "solvers.double_oracle.solution",
    "OpenerTable": "solvers.openers",
    "OpenerValue": "solvers.openers",
    "opener_values": "solvers.openers",
    "EquilibriumGuesser": "solvers.fictitious_play.solution",
    "FictitiousPlaySolution": "solvers.fictitious_play.solution",
    "Solution": "solvers.solution",
    "Strength": "solvers.solution",
    "SolveInterrupted": "solvers.driver",
    "solve": "solvers.solving",
    "StrategyFileError": "util.strategy_file",
    "DecisionTree": "game.trees",
    "Evaluation": "players.evaluation",
    "evaluate": "players.evaluation",
    "head_to_head": "players.evaluation",
    "Objective": "game.objectives",
    "within": "game.objectives",
    "race": "players.races",
    "DECISION_RULES": "engine.weights",
    "integer_weights": "engine.weights",
    "WordList": "game.words",
    "WordListError": "game.words",
    "load_words": "game.words",
}

if TYPE_CHECKING:
    from .engine.runtime import openmp_enabled, resolve_threads
    from .engine.weights import DECISION_RULES, integer_weights
    from .game.certificates import CertificateError
    from .game.objectives import Objective, within
    from .game.proof_check import CheckResult, TrimResult, check_certificate, trim_certificate
    from .game.rules import PRESETS, Rules, RulesError, parse_rules
    from .game.trees import DecisionTree
    from .game.turns import reply
    from .game.words import WordList, WordListError, load_words
    from .players.evaluation import Evaluation, evaluate, head_to_head
    from .players.races import race
    from .responses.best_responses import best_response
    from .responses.gbr import comp_num_guesses, gbr_tree, guesser_gbr
    from .responses.result import BestResponse, expected_guesses
    from .solvers.double_oracle.solution import DoubleOracleSolution
    from .solvers.driver import SolveInterrupted
    from .solvers.fictitious_play.solution import EquilibriumGuesser, FictitiousPlaySolution
    from .solvers.openers import OpenerTable, OpenerValue, opener_values
    from .solvers.solution import Solution, Strength
    from .solvers.solving import solve
    from .util.strategy_file import StrategyFileError


def __getattr__(name: str) -> object:
    """A public name, or a submodule (``jotto.game``), loaded on first use."""
    if name not in _EXPORTS:
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'jotto' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    if callable(value):  # help() and inspect.signature show types, not quoted strings
        from .util.annotations import resolve

        resolve(value)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (``__all__``), as tab completion and ``dir(jotto)`` show them."""
    return sorted(__all__)


__all__ = [
    "DECISION_RULES",
    "PRESETS",
    "BestResponse",
    "CertificateError",
    "CheckResult",
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
    "TrimResult",
    "WordList",
    "WordListError",
    "best_response",
    "check_certificate",
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
    "trim_certificate",
    "within",
]
