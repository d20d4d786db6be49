"""jotto: game-theoretic strategies for the word game Jotto.

Ganzfried's fictitious play (2011) with an exact, fast C core, Norvig's guessers and evaluation,
and play against the computer.  The README's glossary maps the paper's names to these.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .best_responses import BestResponse, best_response, expected_guesses
from .gbr import comp_num_guesses, gbr_tree, guesser_gbr
from .game import reply
from .runtime import openmp_enabled, resolve_threads
from .do_solution import DoubleOracleSolution
from .fp_solution import EquilibriumGuesser, FictitiousPlaySolution
from .solution import Solution, Strength
from .solve import SolveInterrupted, solve
from .strategy_file import StrategyFileError
from .trees import DecisionTree
from .weights import RULES, integer_weights
from .words import WordList, WordListError, load_words

__all__ = [
    "RULES",
    "BestResponse",
    "DecisionTree",
    "DoubleOracleSolution",
    "EquilibriumGuesser",
    "FictitiousPlaySolution",
    "Solution",
    "Strength",
    "SolveInterrupted",
    "StrategyFileError",
    "WordList",
    "WordListError",
    "best_response",
    "comp_num_guesses",
    "expected_guesses",
    "gbr_tree",
    "guesser_gbr",
    "integer_weights",
    "load_words",
    "openmp_enabled",
    "reply",
    "resolve_threads",
    "solve",
]
