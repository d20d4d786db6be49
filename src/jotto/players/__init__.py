"""Guessers and hiders: Norvig's, GuesserGBR against any hider, decision trees, the equilibrium
players of a strategy file, a fast guesser for any objective, and the spec strings that name
them."""

from __future__ import annotations

from ..solvers.fictitious_play.solution import EquilibriumGuesser
from ..solvers.solution import EquilibriumHider
from ..util.annotations import resolve
from .cost_guesser import CostGuesser
from .guessers import NORVIG_METRICS, GBRGuesser, NorvigGuesser, RandomGuesser, TreeGuesser
from .hiders import BestResponseHider, DistributionHider, FixedHider, UniformHider
from .race_guesser import RaceGuesser, RoundsModel
from .specs import SPEC_HELP, make_guesser, make_hider

__all__ = [
    "NORVIG_METRICS",
    "SPEC_HELP",
    "BestResponseHider",
    "CostGuesser",
    "DistributionHider",
    "EquilibriumGuesser",
    "EquilibriumHider",
    "FixedHider",
    "GBRGuesser",
    "NorvigGuesser",
    "RaceGuesser",
    "RandomGuesser",
    "RoundsModel",
    "TreeGuesser",
    "UniformHider",
    "make_guesser",
    "make_hider",
]

for _name in __all__:  # help() shows their signatures' types, not quoted strings
    if callable(globals()[_name]):
        resolve(globals()[_name])
del _name
