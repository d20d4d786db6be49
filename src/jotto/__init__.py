"""jotto: game-theoretic strategies for the word game Jotto.

Ganzfried's fictitious play (2011) with an exact, fast C core, Norvig's guessers and evaluation,
and play against the computer.  The README's glossary maps the paper's names to these.
"""

from __future__ import annotations

import os

# OpenMP threads that wait for work by spinning take CPU from whatever else runs, and on a busy
# machine a spinning thread that loses its CPU stalls every parallel region: wait passively
# unless the user chose otherwise.  Must be set before the core (and its OpenMP runtime) loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"

from .gbr import comp_num_guesses, gbr_tree, guesser_gbr
from .game import reply
from .runtime import openmp_enabled, resolve_threads
from .solution import EquilibriumGuesser, Solution
from .solve import SolveInterrupted, solve
from .strategy_file import StrategyFileError
from .trees import DecisionTree
from .weights import RULES, integer_weights
from .words import WordList, WordListError, load_words

__all__ = [
    "RULES",
    "DecisionTree",
    "EquilibriumGuesser",
    "Solution",
    "SolveInterrupted",
    "StrategyFileError",
    "WordList",
    "WordListError",
    "comp_num_guesses",
    "gbr_tree",
    "guesser_gbr",
    "integer_weights",
    "load_words",
    "openmp_enabled",
    "reply",
    "resolve_threads",
    "solve",
]
