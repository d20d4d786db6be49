"""A guesser that plays the race to win (:mod:`jotto.game.race_rules`), not for the fewest guesses.

In a race what counts is finding the word before the other player.  :class:`RaceGuesser` sees
the other's progress (its ``observe`` gets a :class:`jotto.players.races.RaceView` before each guess:
the computer knows the other's consistent set exactly, since it answers its guesses) and turns it
into a race objective (:func:`jotto.game.race_rules.race_objective`): the chance of losing when its word is
found on guess d, plus half the chance of a draw.  It then chooses its guess for that objective
as :class:`~jotto.players.CostGuesser` does (greedy with the same lookahead).  Behind, the
objective rewards a bold guess that may end the race now; ahead, it rewards safety.

The other player is modelled by :class:`RoundsModel`: a player with n candidates left needs k
more guesses with the chance that a model guesser's decision tree (GuesserGBR, exact rule,
against the uniform hider, unless another tree is given) needs k more guesses at its nodes of
about n targets, every target under such a node counted once.  The model looks only at the
number of candidates, not at the word this guesser hid: a person is not GuesserGBR, and the
count is what any player's progress shows.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..game.objectives import Objective
from ..game.race_rules import race_objective
from ..game.trees import DecisionTree
from ..game.turns import History
from ..game.words import WordList
from .cost_guesser import LEVELS, WIDTH, CostGuesser

__all__ = ["RaceGuesser", "RoundsModel"]

#: Node sizes up to this are their own bucket; larger ones share buckets growing by RATIO.
EXACT_SIZES = 16
RATIO = 1.25
#: Race decisions remembered (objective and state) for each word list, rules, hider and
#: lookahead, shared by the guessers of a process: the first guesses of races repeat, and
#: every game of a session of jotto play makes a new guesser.
CACHE = 4096
_DECISIONS: dict[tuple, OrderedDict[tuple, int]] = {}
#: The default model of each word list and rules, made once per process (every game of a
#: session of jotto play makes a new guesser).
_MODELS: dict[tuple, RoundsModel] = {}


def _bucket(n: int) -> int:
    """The bucket of a state of ``n`` candidates: n itself up to :data:`EXACT_SIZES`, then one
    per factor :data:`RATIO`."""
    if n <= EXACT_SIZES:
        return n
    return EXACT_SIZES + math.ceil(math.log(n / EXACT_SIZES) / math.log(RATIO))


class RoundsModel:
    """How many more guesses a player with n candidates needs: ``rounds(n)`` is ``{k: chance}``,
    the share of (node, target) pairs of ``tree`` at nodes of n's size bucket where the target
    needs k more guesses from the node (the nearest bucket holding a node when n's holds none).
    """

    def __init__(self, tree: DecisionTree, name: str = "tree"):
        self.name = name
        nodes, targets = tree.visits()
        # the guesses each target still needs from the node
        left = tree.guesses_needed()[targets].astype(np.int64) - tree.depth[nodes]
        sizes, where = np.unique(tree.size[nodes], return_inverse=True)
        bucket = np.array([_bucket(int(n)) for n in sizes], dtype=np.int64)[where]
        pairs, tally = np.unique(np.stack([bucket, left]), axis=1, return_counts=True)
        counts: dict[int, dict[int, int]] = {}
        for (b, k), c in zip(pairs.T.tolist(), tally.tolist()):
            counts.setdefault(b, {})[k] = c
        self._buckets = sorted(counts)
        self._counts = counts
        self._cache: dict[int, dict[int, Fraction]] = {}

    def rounds(self, n: int) -> dict[int, Fraction]:
        """The chance that a player with ``n >= 1`` candidates needs k more guesses, by k."""
        if n < 1:
            raise ValueError(f"a player has at least one candidate, not {n}")
        b = _bucket(n)
        if b not in self._cache:
            near = min(self._buckets, key=lambda x: (abs(x - b), x))
            hist = self._counts[near]
            total = sum(hist.values())
            self._cache[b] = {k: Fraction(c, total) for k, c in sorted(hist.items())}
        return self._cache[b]

    def mean(self, n: int) -> float:
        """The expected guesses a player with ``n`` candidates still needs, in this model."""
        return float(sum(k * p for k, p in self.rounds(n).items()))


class RaceGuesser(CostGuesser):
    """Plays the race to win: before each guess it reads the other player's progress
    (``observe``) and guesses for the race objective (:func:`jotto.game.race_rules.race_objective`, a
    draw as half a win) against :class:`RoundsModel`'s chance of the other needing each number
    of rounds.  Otherwise as :class:`CostGuesser` with the mean (``weights``, ``levels``,
    ``width``, ``seconds``); outside a race (no view observed) it is that guesser.

    ``model``: the :class:`RoundsModel` of the other player (default: GuesserGBR's tree,
    exact rule, uniform hider).
    """

    def __init__(
        self,
        words: WordList,
        weights: ArrayLike | None = None,
        *,
        model: RoundsModel | None = None,
        draw: Fraction = Fraction(1, 2),
        levels: int = LEVELS,
        width: int = WIDTH,
        seconds: float | None = None,
        name: str | None = None,
    ):
        super().__init__(
            words, None, weights, levels=levels, width=width, seconds=seconds, name=name or "race"
        )
        race_objective({1: 1}, draw)  # checks draw
        self.draw = draw
        self._model = model
        self._race_cache = _DECISIONS.setdefault(
            (
                words.sha256,
                tuple(sorted(words.rules.to_dict().items())),
                hashlib.sha256(self.weights.tobytes()).hexdigest(),
                self.levels,
                self.width,
            ),
            OrderedDict(),
        )
        self.view: Any = None

    @property
    def model(self) -> RoundsModel:
        """The model of the other player (GuesserGBR's tree by default, built when first
        needed)."""
        if self._model is None:
            key = (self.words.sha256, tuple(sorted(self.words.rules.to_dict().items())))
            if key not in _MODELS:
                from ..responses.gbr import gbr_tree

                _MODELS[key] = RoundsModel(gbr_tree(self.words, None, rule="exact"), "gbr:exact")
            self._model = _MODELS[key]
        return self._model

    def new_game(self) -> None:
        self.view = None

    def observe(self, view) -> None:
        """What it sees of the other player before its next guess (a
        :class:`jotto.players.races.RaceView`)."""
        self.view = view

    def objective_now(self) -> Objective | None:
        """The race objective of the next guess (None outside a race: then the mean)."""
        if self.view is None:
            return None
        if self.view.opponent_found:
            return race_objective({1: 1}, self.draw)  # only finding the word now draws
        # rounds counted from this guess's round: the other has guessed in it already when
        # this player moves second
        shift = 0 if self.view.moves_first else 1
        rounds = self.model.rounds(len(self.view.opponent_state))
        return race_objective({k + shift: p for k, p in rounds.items()}, self.draw)

    def next_guess(self, state: np.ndarray, history: History) -> int:
        objective = self.objective_now()
        if objective is None:
            return super().next_guess(state, history)
        S = np.ascontiguousarray(state, dtype=np.int32)
        key = (objective.costs, objective.tail, S.tobytes())
        if self.deterministic and key in self._race_cache:
            self._race_cache.move_to_end(key)
            return self._race_cache[key]
        g = self.choose(S, 0, objective)  # the objective counts guesses from this one
        if self.deterministic:
            self._race_cache[key] = g
            if len(self._race_cache) > CACHE:
                self._race_cache.popitem(last=False)
        return g

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "objective": "race",
            "draw": str(self.draw),
            "model": self.model.name,
        }
