"""The double oracle: Jotto's equilibrium with the guesser's strategy as a mixture of explicit
decision trees, and certified bounds on the game's value.

The hider's strategy space is every word; the guesser's is a growing set of trees.  Each round
solves the restricted game by linear programming, then asks the guesser's oracle, the
branch-and-bound best response of :func:`jotto.best_response`, for a tree against the restricted
game's hider mixture, after cheaper searches that usually find the same tree (GuesserGBR's tree
and top-K "scouts"; see :meth:`DoubleOracle.step`).  The restricted game is played in behaviour
strategies over the trees' states (:mod:`.flow`): the guesser may mix at every state between the
guesses the trees made there, which is never worse than mixing the trees and at 2 letters took
the exact run from 565 rounds to 94.  The hider's best reply to the guesser is always among the
rows, so the round's restricted value is what the guesser's strategy guarantees.

Bounds, all exact rationals:

- upper: the guesser's strategy, split into a mixture of trees (its float probabilities made
  exact rationals), has a worst case over all targets; the least seen so far is an upper bound
  on the game's value.
- lower: the best response's proved lower bound against the hider's mixture (made integer weights
  by :func:`jotto.integer_weights`) is a lower bound on the value; the greatest seen is kept,
  starting from the uniform hider's counting bound (:mod:`jotto.game.bounds`), which needs no
  search, and then what the first round proves against the uniform hider
  (:meth:`DoubleOracle._answer_uniform`), so that it is never below that hider's.

When no tree improves on the restricted value, the guesser's trees join the columns and the
restricted game over the trees (which then has the same value) gives its exact rational
equilibrium, recovered from the LP's supports
(:func:`jotto.solvers.matrix_game.exact_equilibrium`), and the exact best response against its
hider mixture is computed: if it equals the restricted value, both bounds are that value and the
game is solved, a certificate checked entirely in rational arithmetic.

With a ``lookahead:K`` oracle (3 letters and more, where exact best responses are out of reach)
the columns come from a *hedge* instead (:meth:`DoubleOracle.hedge_round`): a hider that plays
multiplicative weights against the trees so far, each tree the oracle's answer to it.  The LP
still gives the guesser's mixture, and so the upper bound, but the trees answer a smooth,
slowly moving hider instead of the LP's, which jumps between vertices of the restricted game and
draws trees that each fix little: at 3 letters, in 150 s on one thread, the LP-driven rounds
reached a mixture whose worst case is 7.185 (lookahead:2) and the hedge 7.030 / 7.004 / 6.992
(lookahead:2 / 3 / 4), with one LP solve per ``HEDGE_STEPS`` trees instead of one per tree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ...engine.weights import integer_weights, rational_weights
from ...game.bounds import counting_bound
from ...game.trees import DecisionTree
from ...game.words import WordList
from ...responses.gbr import gbr_tree
from ...responses.oracles import Oracle
from ...util.strategy_file import StrategyFileError
from ..matrix_game import GrowingGame, exact_equilibrium
from .flow import FlowGame, FlowSolution
from .solution import SOLVER_VERSION, DoubleOracleSolution, encode_fraction, int_list

if TYPE_CHECKING:
    from ...responses.mean_search import BoundSearch

__all__ = ["DoubleOracle"]

#: Float probabilities of the guesser's mixture are made exact with this many bits.
_Q_BITS = 40
#: The oracle runs at least this often, however well GuesserGBR does, to raise the lower bound
#: (and for a stronger column).
PROVE_EVERY = 20
#: The same for an oracle with scouts: they find the columns, and the oracle (an exact search,
#: whose cost is mostly its proof) is needed only for the lower bound.
PROVE_EVERY_SCOUTED = 100
#: The strong scout runs at least this often, however well the cheap one does: its trees are
#: better columns (fewer rounds).  Without it, budgeted runs at 200 and 500 common secrets of
#: Norvig's list got a little further per CPU second (4.620 against 4.637 after 110 s of CPU at
#: 200), but the exact run of TWL06's 2-letter game took 1,240 rounds and 1.7 times the CPU
#: (docs/common-words.md): kept.
STRONG_EVERY = 5
#: States the strong scout may visit: a top-20 search takes at most 70 000 on TWL06's 2-letter
#: mixes, but minutes at 3 letters; stopped, it gives its best tree so far (or the greedy one),
#: and the oracle runs if that does not improve.
STRONG_NODES = 200_000
#: The part of a run's time left that the first round's answer to the uniform hider may take
#: (:meth:`DoubleOracle._answer_uniform`).
UNIFORM_SHARE = 0.25
#: The part of a run's time left that a round's best-response search may take
#: (:meth:`DoubleOracle._timed_oracle`): at 500 common secrets one such search against the
#: first round's hider took all of a 600-s budget that the uniform hider's answer left.
ROUND_SHARE = 0.5
#: Weight of the stability centre (the hider that proved the lower bound) in the hider mixture
#: handed to the oracles, the LP's hider having the rest.  At 200 common secrets of Norvig's
#: list (one thread each, the same load, 200 s) the rounds' upper bound reached 4.651 with
#: the centre where a moving average of the LP's hiders (this weight on the previous
#: rounds') reached 4.802.  A weight of 0.75 did better there over 300 s (4.593 against 4.630
#: with 0.25), but the exact 2-letter run took 647 rounds and 1.3 times the CPU of 0.5's 565.
#: Its cost: the centre gives every hidden word weight, so each search spans them all; on all
#: 2,845 words 300 s make 7 rounds (7.817) where the LP's own hider makes 33 (7.458), while at
#: 500 and 1000 secrets smoothing wins (docs/common-words.md, "Smoothing costs the rounds").
SMOOTHING = 0.5
#: A checkpoint keeps the flow game's trees of the one before if they are younger than this
#: (:meth:`DoubleOracle._columns_with_guesser`): making them takes seconds.
FILE_SECONDS = 60.0
#: Part of a time budget kept for the last step, :meth:`DoubleOracle.prove`.
PROVE_SHARE = 0.25
#: The part of the last step's time that the short proofs ranking its candidate hiders take.
RANK_SHARE = 0.2
#: Of a run's threads, how many the proof beside the rounds takes (prove_beside; the rounds
#: have the rest, at least one).
BESIDE_THREADS = -1  # all but one
#: The hedge's learning rate (per guess of a target's cumulative count) and the trees it draws
#: between two LP solves (a round).  At 3 letters, 150 s, with GuesserGBR and lookahead:2 trees,
#: the best mixture of the trees drawn had a worst case of 7.129 with a rate of 0.03, 7.125 with
#: 0.1 and 7.160 with 0.5; with lookahead:2 and 3 trees, 7.028 with 0.1 and 7.037 with 0.2.
HEDGE_RATE = 0.1
HEDGE_STEPS = 8
#: Searches tried before an oracle of each kind, cheapest first: each runs when the ones before
#: it found no improving tree (the strong one also every STRONG_EVERY rounds).  The top-5 search
#: costs about 2% of an exact best response and the top-20 one 40%, and the top-20 tree is the
#: optimal one in most rounds: the exact search's cost is its proof.
_SCOUTS = {
    "best-response": (
        Oracle("lookahead", top_k=5),
        Oracle("lookahead", top_k=20, nodes=STRONG_NODES),
    )
}


def _distribution(d: Any, size: int, what: str) -> np.ndarray:
    """A stored mixture over the words, checked."""
    try:
        arr = np.array(d, dtype=np.float64)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    if arr.shape != (size,) or not np.isfinite(arr).all() or (arr < 0).any():
        raise StrategyFileError(f"{what} is not a distribution over the words")
    return arr


def _exact_mixture(q: np.ndarray) -> np.ndarray:
    """Float probabilities as integer weights (Python integers), ``_Q_BITS`` bits each."""
    return np.round(np.asarray(q) * 2.0**_Q_BITS).astype(np.int64).astype(object)


def _exact_dot(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``counts @ w`` exactly for non-negative integer weights: in int64 when no sum can reach
    2**63, else in Python integers."""
    if int(counts.max(initial=0)) * int(sum(int(x) for x in w)) < 2**62:
        return counts.astype(np.int64) @ np.array([int(x) for x in w], dtype=np.int64)
    return counts.astype(object) @ np.asarray(w, dtype=object)


@dataclass
class DoubleOracle:
    """The state of a double-oracle run; :meth:`step` runs one round."""

    words: WordList
    oracle: Oracle = field(default_factory=lambda: Oracle("best-response"))
    threads: int | None = None
    trees: list[DecisionTree] = field(default_factory=list)
    lower: Fraction = Fraction(1)
    upper: Fraction | None = None
    hider_int: np.ndarray | None = None  # the hider that proved ``lower``
    guesser_int: np.ndarray | None = None  # the mixture that guarantees ``upper``
    guesser_den: int = 1
    rounds: int = 0
    done: bool = False
    hedge_sum: np.ndarray | None = None  # the hedge's guess counts, summed per target
    hedge_mean: np.ndarray | None = None  # the mean of the hedge's hider mixtures
    hedge_steps: int = 0
    history: dict[str, list[float]] = field(
        default_factory=lambda: {
            "lower": [],
            "upper": [],
            "restricted": [],
            "columns": [],
            "seconds": [],
        }
    )
    #: A :func:`time.monotonic` time at which a hedge round stops drawing trees (after one) and
    #: solves its LP: a round at 5 letters takes 20 s, which a time budget should not overrun.
    deadline: float | None = None
    #: Where the proofs run (the best-response oracle's and :meth:`prove`'s): a
    #: :class:`concurrent.futures.Executor` (see :func:`jotto.best_response`), or None: here.
    executor: Any = None
    #: The words the hider may hide (``hide_from``, :mod:`jotto.game.hiding`), ``hidden[i]``
    #: for word ``i``; None: every word.  The game's rows are these words only, every word
    #: remains a guess.
    hidden: np.ndarray | None = None

    def __post_init__(self) -> None:
        D = len(self.words)
        if self.hidden is None:
            self.hidden = np.ones(D, dtype=bool)
        self._rows = np.flatnonzero(self.hidden)
        self._counts = np.zeros((D, 0), dtype=np.int32)
        # the restricted game's LP over the hidden words, warm-started round after round: over
        # the trees (for the exact certificate, _certify) and in behaviour strategies over their
        # states (the rounds' hider and upper bound: flow.py)
        self._game = GrowingGame(len(self._rows))
        # (hedge rounds keep to the trees: at 3 letters the flow game's LP over 500 trees takes
        # 16 s from scratch, minutes warm-started, where a round takes a second)
        self._flow = None if self.hedges else FlowGame(self.words, self._rows)
        # the flow's trees that guarantee ``upper`` when they do (policies, integer weights),
        # made DecisionTrees only for the file (_mixture_trees)
        self._mixture: tuple[list[dict[int, int]], np.ndarray] | None = None
        self._made: dict[tuple[int, ...], tuple[DecisionTree, np.ndarray]] = {}
        # the flow mixture the file holds when the flow's guesser is the best
        # (_columns_with_guesser): its trees, their guess counts, integer weights, the upper
        # bound they guarantee, and the monotonic time they were made
        self._filed: tuple[list[DecisionTree], np.ndarray, np.ndarray, Fraction, float] | None
        self._filed = None
        self._seen: dict[bytes, int] = {}  # a column's guess counts: its index
        self._smoothed: np.ndarray | None = None
        self._side: BoundSearch | None = None  # the proof beside the rounds (prove_beside)
        self._side_threads = 0
        # the given trees (a resumed run's) become columns in their order; _add records each
        # one's index, which the file's guesser weights and the flow's trees are matched by
        given, self.trees = self.trees, []
        for tree in given:
            self._add(tree)
        if not self.trees:
            self._add(gbr_tree(self.words, None, rule="exact", threads=self.threads))
        if self.hedges and self.hedge_sum is None:
            self.hedge_sum = np.zeros(D, dtype=np.int64)
            self.hedge_mean = self.hidden / len(self._rows)
        if self.hider_int is None:
            # the uniform hider's counting bound: a value bound before any search
            self.hider_int = self.uniform.astype(object)
            self.lower = max(self.lower, counting_bound(self.words, self.uniform))

    @property
    def uniform(self) -> np.ndarray:
        """The uniform hider's integer weights: 1 on each word it may hide, 0 elsewhere."""
        return self.hidden.astype(np.int64)

    def _spread(self, p: np.ndarray) -> np.ndarray:
        """A mixture over the game's rows (the hidden words) as one over every word."""
        full = np.zeros(len(self.words))
        full[self._rows] = p
        return full

    # ---- columns -------------------------------------------------------------------------------

    def _add(self, tree: DecisionTree, g: np.ndarray | None = None) -> bool:
        """Add a tree (``g``: its guess counts, if known) unless one with the same guess counts
        is in (they are the same column)."""
        g = tree.guesses_needed() if g is None else g
        key = g.tobytes()
        if key in self._seen:
            return False
        self._seen[key] = len(self.trees)
        self.trees.append(tree)
        self._counts = np.column_stack([self._counts, g])
        self._game.add_column(g[self._rows])
        if self._flow is not None:
            self._flow.add_tree(tree)
        return True

    @property
    def met(self) -> bool:
        """Whether the bounds have met: the game's value is certified exactly."""
        return self.upper is not None and self.lower >= self.upper

    # ---- one round -----------------------------------------------------------------------------

    @property
    def hedges(self) -> bool:
        """Whether the rounds draw their trees against the hedge (a lookahead oracle)."""
        return self.oracle.kind == "lookahead"

    def step(self) -> None:
        """One round: solve the restricted game, tighten the bounds, add improving trees; sets
        ``done`` when the bounds meet or no oracle finds an improving tree.

        Cheap trees come first: GuesserGBR's and, when the oracle is the best response, the
        scouts' (searches over the best 5, then 20, candidates per state, which find the optimal
        tree in a fraction of the time its proof takes; the strong one when nothing cheaper
        improves, and every ``STRONG_EVERY`` rounds).  The oracle itself runs when no scout
        improves on the restricted game, and every ``PROVE_EVERY`` rounds
        (``PROVE_EVERY_SCOUTED`` with scouts) for the lower bound.  Every tree that improves on
        the restricted game is added: a round may add several columns.  They answer the
        LP's hider smoothed toward the hider that proved the lower bound (``SMOOTHING``);
        when none improves, the same searches answer the LP's own hider before the exact
        certificate.  With a deadline or a budgeted oracle the first round first answers the
        uniform hider (:meth:`_answer_uniform`).  With a lookahead oracle the round is :meth:`hedge_round`.
        """
        if self.hedges:
            self.hedge_round()
            return
        start = time.perf_counter()
        if self.rounds == 0 and (self.deadline is not None or self.oracle.seconds is not None):
            self._answer_uniform()
        G = self._counts
        value, p = self._restricted()
        p = self._spread(p)
        # The hider handed to the oracles is the LP's smoothed toward the stability centre,
        # the hider that proved the lower bound (Wentges smoothing): the LP's answer jumps
        # between vertices of the restricted game, and trees that answer a steadier mix
        # converge in fewer rounds.  Any hider's proved bound is a lower bound, so a tree
        # that does not improve on the LP's value still raises the bound toward it.
        center = np.asarray(self.hider_int, dtype=np.float64)
        self._smoothed = SMOOTHING * center / center.sum() + (1 - SMOOTHING) * p
        w = integer_weights(self._smoothed)
        cut = value - 1e-9 * value

        def offer(tree: DecisionTree) -> bool:
            g = tree.guesses_needed()
            if float(g @ p) < cut:
                return self._add(tree, g)
            # no better at the root, but its subtrees may be somewhere: the flow game's pairs
            self._flow.add_tree(tree)
            return False

        scouts = _SCOUTS.get(self.oracle.kind, ())
        # (not in the first round, whose proof is the uniform hider's answer)
        periodic = (
            self.rounds > 0 and self.rounds % (PROVE_EVERY_SCOUTED if scouts else PROVE_EVERY) == 0
        )

        def search(w: np.ndarray, prove: bool) -> bool:
            """GuesserGBR's tree, the scouts' and (if they find nothing, or ``prove``) the
            oracle's against ``w``, offered; whether one was added."""
            added = offer(gbr_tree(self.words, w, rule="exact", threads=self.round_threads))
            for k, scout in enumerate(scouts):
                if k > 0 and added and self.rounds % STRONG_EVERY:
                    break
                found = scout.respond(self.words, w, self.round_threads)
                self._offer_hider(found.lower, w.astype(object))
                added |= offer(found.tree)
            if not added or prove:
                # the search may stop once it proves that no tree beats the set's best
                # against w
                best = Fraction(int(_exact_dot(G.T, w).min()), int(w.sum(dtype=object)))
                br = self._timed_oracle(ROUND_SHARE).respond(
                    self.words, w, self.round_threads, upper_bound=best, executor=self.executor
                )
                self._offer_hider(br.lower, w.astype(object))
                added |= offer(br.tree)
            return added

        added = search(w, periodic)
        lp_w = integer_weights(p)
        if not added and not np.array_equal(lp_w, w):
            # Mispriced: nothing that answers the smoothed hider improves on the LP's value
            # (its proof raised the lower bound instead).  Ask about the LP's own hider, as an
            # unsmoothed round would, before the exact certificate.
            added = search(lp_w, False)
        if not added:
            added = self._certify()
        self._record(value, start)
        if self.met or not added:
            self.done = True

    def _answer_uniform(self) -> None:
        """The oracle's answer to the uniform hider (1 on each word it may hide): its tree
        joins the columns and its proved bound is offered as a lower bound.

        Any hider mixture's best-response value is a lower bound on the game's value, and the
        uniform hider's is often the greatest a run proves: with secrets the 200 most common
        of Norvig's words, the best tree against it needs exactly 221/50 = 4.42, where the
        rounds' mixtures proved 4.37 in 600 s (docs/common-words.md).  So a run's certified
        lower bound is never below what the oracle proves against the uniform hider, and the
        hider it keeps (the one that proved its bound) never weaker than uniform by that
        measure.  With a :attr:`deadline` a best-response oracle's search takes at most
        ``UNIFORM_SHARE`` of the time left (then its proved bound and best tree so far).
        Asked only of runs with a deadline or a budgeted oracle: a run without either asks the
        exact oracle, whose answer to the uniform hider at 3 letters would not end (nor heed
        Ctrl-C within its pass), and such a run that ends has the game's exact value, at least
        the uniform hider's."""
        uniform = self.uniform
        found = self._timed_oracle(UNIFORM_SHARE).respond(
            self.words, uniform, self.round_threads, executor=self.executor
        )
        self._offer_hider(found.lower, uniform.astype(object))
        self._add(found.tree)

    def _timed_oracle(self, share: float = 1.0) -> Oracle:
        """The oracle, a best-response search stopped after ``share`` of the time left to the
        :attr:`deadline` (at least a second; then its proved bound and best tree so far).
        Unstopped, one exact answer to a skewed hider can take longer than a whole budget: at
        200 common secrets of Norvig's list the exact answer to the 100th round's hider ran
        for minutes past a 600-s budget (docs/common-words.md)."""
        oracle = self.oracle
        if self.deadline is not None and oracle.kind == "best-response":
            seconds = max(1.0, share * (self.deadline - time.monotonic()))
            if oracle.seconds is None or seconds < oracle.seconds:
                oracle = replace(oracle, seconds=seconds)
        return oracle

    def hedge_round(self) -> None:
        """One round with a lookahead oracle: ``HEDGE_STEPS`` steps of the hedge (fewer once
        :attr:`deadline` has passed), then the LP.

        The hedge is a hider playing multiplicative weights (Hedge, Freund and Schapire 1997):
        its mixture weighs target i by ``exp(HEDGE_RATE * G_i)``, where ``G_i`` sums the guesses
        the hedge's trees so far needed for i, so the targets they find late gain weight.  Each
        step the oracle answers that mixture with a tree, which joins the guesser's set (unless
        an equal column is in) and the hedge's sum, and with the lower bound its search proved
        against the mixture.  The LP over all trees then gives the guesser's mixture and the
        upper bound, as in :meth:`step`; its hider is not used.  The run is done when the bounds
        meet or a round finds no new tree.
        """
        start = time.perf_counter()
        added = False
        for k in range(HEDGE_STEPS):
            if k and self.deadline is not None and time.monotonic() >= self.deadline:
                break
            top = self.hedge_sum[self._rows].max()
            x = HEDGE_RATE * (self.hedge_sum - top).astype(np.float64)
            mix = np.exp(x) * self.hidden
            mix /= mix.sum()
            w = integer_weights(mix)
            found = self.oracle.respond(self.words, w, self.round_threads)
            self._offer_hider(found.lower, w.astype(object))
            g = found.tree.guesses_needed()
            added |= self._add(found.tree, g)
            self.hedge_sum += g
            self.hedge_steps += 1
            self.hedge_mean += (mix - self.hedge_mean) / self.hedge_steps
        self._record(self._restricted()[0], start)
        # a round whose trees were all in the set: the hedge cycles among known trees
        self.done = self.met or not added

    def _record(self, restricted: float, start: float) -> None:
        """The round is over: count it and keep its numbers in the history."""
        self.rounds += 1
        h = self.history
        h["lower"].append(float(self.lower))
        h["upper"].append(float(self.upper))
        h["restricted"].append(restricted)
        h["columns"].append(len(self.trees))
        h["seconds"].append(time.perf_counter() - start)

    def prove(self, seconds: float) -> None:
        """The last step of a run that its time budget stops: about ``seconds`` spent proving a
        lower bound on the game's value, keeping it if it beats the run's.

        Unfinished rounds prove little at 3 letters and more, and which hider lets a search prove
        most is not the hardest one.  At 3 letters the LP's hider is far from an equilibrium
        (after 900 s a top-5 tree needs 5.67 guesses against it, 6.90 against the uniform
        hider); the hedge's mean is closer (a top-5 tree needs 6.94 against it after 60 s), but
        20 s of search prove only 5.77 against it where they prove 6.26 against the uniform
        hider: bounds are weaker on uneven weights.  So the candidates (the uniform hider, the
        LP's, the smoothed and the hedge's mixtures, and the one that proved the bound so far)
        are ranked by what a short proof against each gives, and the rest of the time goes to
        proving against the best of them.  Its tree joins the guesser's set, and the guesser's
        mixture is solved again.
        """
        from ...responses.best_responses import best_response

        if not seconds > 0:
            return
        start = time.perf_counter()
        D = len(self.words)
        mixes = [self.uniform, integer_weights(self._spread(self._restricted()[1]))]
        if self._smoothed is not None:
            mixes.append(integer_weights(self._smoothed))
        if self.hedge_steps:  # the hedge's mean mixture: close to an equilibrium's hider
            mixes.append(integer_weights(self.hedge_mean))
        if self.hider_int is not None and int(self.hider_int.sum()) * D < 2**62:
            kept = self.hider_int.astype(np.int64)
            if not any(np.array_equal(kept, w) for w in mixes):  # often still the uniform one
                mixes.append(kept)
        share = RANK_SHARE * seconds / len(mixes)
        proved = [
            best_response(
                self.words, w, budget=share, threads=self.threads, executor=self.executor
            ).lower
            for w in mixes
        ]
        best = mixes[proved.index(max(proved))]
        self._offer_hider(max(proved), best.astype(object))
        left = seconds - (time.perf_counter() - start)
        if left <= 0:
            return
        br = best_response(
            self.words, best, budget=left, threads=self.threads, executor=self.executor
        )
        self._offer_hider(br.lower, best.astype(object))
        if self._add(br.tree):
            self._restricted()
        if self.met:
            self.done = True

    def prove_beside(self, seconds: float) -> None:
        """Start proving a lower bound against the uniform hider on a thread of its own for
        ``seconds`` (:class:`jotto.responses.mean_search.BoundSearch`), while the rounds go on;
        read
        with :meth:`take_side_bound`.  The proof's passes run on all of the run's threads but
        one (BESIDE_THREADS), the rounds' searches on what the proof leaves
        (:attr:`round_threads`).

        This is :meth:`prove` for a run with a second core: instead of the last quarter of the
        time on both cores, the whole time on one, the rounds having the other all along.  At
        3 letters in 180 s, with lookahead:2 trees, the interval went from [6.283, 7.030] to
        [6.352, 7.029].  Its hider is the uniform one, which a short proof ranks first at 3-5
        letters: searches prove more against even weights than against the hedge's or the
        LP's mixtures (see :meth:`prove`), and no ranking is needed before the search starts.
        """
        from ...engine.runtime import resolve_threads
        from ...responses.mean_search import BoundSearch

        if self.executor is not None:  # the proof's tasks run there; the rounds keep every thread
            from ...responses.proof.executors import BoundSearchOn

            self._side_threads = 0
            self._side = BoundSearchOn(self.executor, self.words, self.uniform, seconds)
            return
        threads = resolve_threads(self.threads)
        share = BESIDE_THREADS if BESIDE_THREADS > 0 else threads + BESIDE_THREADS
        self._side_threads = max(1, min(share, threads))
        self._side = BoundSearch(self.words, self.uniform, seconds, threads=self._side_threads)

    @property
    def round_threads(self) -> int | None:
        """The threads the rounds' searches use: the run's, but those of a proof beside them
        (at least one)."""
        if self._side is None:
            return self.threads
        from ...engine.runtime import resolve_threads

        return max(1, resolve_threads(self.threads) - self._side_threads)

    def take_side_bound(self, stop: bool = False) -> None:
        """Keep the lower bound the search beside the rounds has proved so far, if it is
        better; ``stop``: stop that search first (for good).  Nothing without one."""
        side = self._side
        if side is None:
            return
        if stop:
            self._side = None  # gone even if stopping raises what went wrong on its thread
            lower = side.stop()
        else:
            lower = side.lower
        self._offer_hider(lower, side.weights.astype(object))
        if self.met:
            self.done = True

    def side_proof_wait(self, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for the search beside the rounds to end by itself
        (its time spent); whether it has (also when there is none)."""
        return self._side is None or self._side.wait(timeout)

    def _restricted(self) -> tuple[float, np.ndarray]:
        """Solve the restricted game (the flow game; in hedge runs the tree game) and offer its
        guesser: its value and its hider over the hidden words."""
        if self._flow is None:
            sol = self._game.solve()
            self._offer_lp_guesser(sol.q)
            return sol.value, sol.p
        flow = self._flow.solve()
        self._offer_flow_guesser(flow)
        return flow.value, flow.p

    def _offer_lp_guesser(self, q: np.ndarray) -> None:
        """Offer the LP's guesser mixture, its float probabilities made exact with
        ``_Q_BITS`` bits."""
        self._offer_guesser(_exact_mixture(q))

    def _offer_guesser(self, q_int: np.ndarray) -> None:
        """Keep the guesser mixture ``q_int / sum(q_int)`` of the trees if its exact worst
        case is better."""
        den = int(q_int.sum())
        worst = Fraction(int(_exact_dot(self._counts[self._rows], q_int).max()), den)
        if self.upper is None or worst < self.upper:
            self.upper, self.guesser_int, self.guesser_den = worst, q_int, den
            # the flow's trees filed before are worse than this guesser: a checkpoint must not
            # go back to them (it makes the next flow mixture's, or files these trees)
            self._mixture = self._filed = None

    def _offer_flow_guesser(self, sol: FlowSolution) -> None:
        """Keep the flow game's guesser, split into trees (:meth:`FlowGame.solve`), their
        float probabilities made exact with ``_Q_BITS`` bits, if its exact worst case is
        better."""
        q_int = _exact_mixture(sol.weights)
        den = int(q_int.sum())
        if den <= 0:
            return
        worst = Fraction(int(_exact_dot(sol.counts, q_int).max()), den)
        if self.upper is None or worst < self.upper:
            self.upper, self.guesser_int, self.guesser_den = worst, None, den
            self._mixture = (sol.policies, q_int)

    def _mixture_trees(self) -> tuple[list[DecisionTree], np.ndarray]:
        """The flow mixture's trees that guarantee ``upper`` and their guess counts
        (``[D, k]``), each made once while mixtures keep it (only the last mixture's are kept:
        a tree over 2,845 words holds about 3,000 nodes)."""
        made, trees = {}, []
        for policy in self._mixture[0]:
            key = tuple(sorted(policy.values()))
            known = made.get(key) or self._made.get(key)
            if known is None:
                tree = self._flow.tree(policy)
                known = (tree, tree.guesses_needed())
            made[key] = known
            trees.append(known)
        self._made = made
        return [t for t, _ in trees], np.column_stack([g for _, g in trees])

    def _columns_with_guesser(
        self, fresh: bool = True
    ) -> tuple[list[DecisionTree], np.ndarray, np.ndarray, Fraction]:
        """The trees, their guess counts, the guesser's integer weights over them and the upper
        bound they guarantee, as the file stores them: the columns, and the flow mixture's
        trees after them (a tree with a column's guess counts is that column) when it is the
        guesser that guarantees ``upper``.

        Making the flow's trees takes about 40 ms a tree at 200 common secrets of Norvig's
        list, and a round's mixture holds about 100: unless ``fresh`` (or the rounds are over:
        done or past the deadline), a checkpoint less than ``FILE_SECONDS`` after the last
        one that made them keeps that one's mixture, and the upper bound it guarantees."""
        if self._mixture is None:
            return self.trees, self._counts, self.guesser_int, self.upper
        now = time.monotonic()
        over = self.done or (self.deadline is not None and now >= self.deadline)
        filed = self._filed
        if filed is None or (
            filed[3] != self.upper and (fresh or over or now - filed[4] >= FILE_SECONDS)
        ):
            trees, counts = self._mixture_trees()
            filed = self._filed = (trees, counts, self._mixture[1], self.upper, now)
        out, where = list(self.trees), dict(self._seen)
        weights = [0] * len(out)
        extra = []
        for tree, g, q in zip(filed[0], filed[1].T, filed[2]):
            key = g.tobytes()
            if key not in where:
                where[key] = len(out)
                out.append(tree)
                weights.append(0)
                extra.append(g)
            weights[where[key]] += int(q)
        columns = np.column_stack([self._counts, *extra]) if extra else self._counts
        return out, columns, np.array(weights, dtype=object), filed[3]

    @property
    def filed_stale(self) -> bool:
        """Whether the last :meth:`payload` held an older guesser than the run's best."""
        return self._mixture is not None and (self._filed is None or self._filed[3] != self.upper)

    def _offer_hider(self, lower: Fraction, w: np.ndarray) -> None:
        if lower > self.lower:
            self.lower, self.hider_int = lower, w

    def _certify(self) -> bool:
        """No oracle improves on the LP's answer: recover the restricted game's exact
        equilibrium and check it against the exact best response.  Returns whether a tree was
        added (the LP was not exact after all).

        The exact equilibrium is the tree game's: the flow game's guesser, split into trees,
        joins the trees first (its trees' mixture is in the tree game, so their game's value
        is the flow's)."""
        if self._mixture is not None:
            for tree in self._mixture_trees()[0]:
                self._add(tree)
        sol = self._game.solve()
        self._offer_lp_guesser(sol.q)
        eq = exact_equilibrium(self._counts[self._rows], sol)
        if eq is None:
            return False
        self._offer_guesser(np.array(rational_weights(eq.q)[0], dtype=object))
        p = [Fraction(0)] * len(self.words)
        for i, x in zip(self._rows, eq.p):
            p[i] = x
        try:
            br = self._timed_oracle().respond(
                self.words, p, self.round_threads, executor=self.executor
            )
        except ValueError:  # the exact mixture's weights outgrow the core's exact arithmetic
            return False
        self._offer_hider(br.lower, np.array(rational_weights(p)[0], dtype=object))
        if br.upper < eq.value:
            return self._add(br.tree)
        return False

    # ---- files ---------------------------------------------------------------------------------

    def payload(self, fresh: bool = False) -> dict[str, Any]:
        """The run as the strategy file stores it (see
        :mod:`jotto.solvers.double_oracle.solution`); a checkpoint's may hold the guesser made
        at the one before (``fresh``: the best; see :meth:`_columns_with_guesser`)."""
        trees, _, q_int, upper = self._columns_with_guesser(fresh)
        weights = [0] * len(trees)
        for k, x in enumerate(q_int):
            weights[k] = int(x)
        return {
            "solver": DoubleOracleSolution.solver,
            "solver_version": SOLVER_VERSION,
            "trees": [t.to_nodes() for t in trees],
            "guesser": {"weights": weights, "denominator": sum(weights)},
            "hider": [int(x) for x in self.hider_int],
            "lower": encode_fraction(self.lower),
            "upper": encode_fraction(upper),
            "rounds": self.rounds,
            "done": self.done,
            "history": self.history,
            "hidden": None if self.hidden.all() else [int(i) for i in self._rows],
            "oracle": self.oracle.spec,
            "smoothed": None if self._smoothed is None else self._smoothed.tolist(),
            "hedge": None
            if self.hedge_sum is None
            else {
                "sum": [int(x) for x in self.hedge_sum],
                "mean": self.hedge_mean.tolist(),
                "steps": self.hedge_steps,
            },
        }

    @classmethod
    def restore(
        cls,
        words: WordList,
        payload: dict[str, Any],
        oracle: Oracle,
        threads: int | None,
        executor: Any = None,
    ) -> DoubleOracle:
        """Continue the run a payload holds (its solution is checked on the way)."""
        sol = DoubleOracleSolution(words, payload)
        run = cls(
            words,
            oracle,
            threads,
            trees=list(sol.trees),
            lower=sol.value_bounds[0],
            upper=sol.value_bounds[1],
            hider_int=sol.hider_weights(),
            guesser_int=sol.guesser_weights.copy(),
            guesser_den=sol.guesser_denominator,
            rounds=sol.rounds,
            done=bool(payload.get("done", False)),
            history={k: list(map(float, v)) for k, v in sol.history.items()},
            executor=executor,
            hidden=sol.hidden,
        )
        if len(run.trees) != len(sol.trees):
            raise StrategyFileError("two trees of the file are the same guesser")
        smoothed = payload.get("smoothed")
        if smoothed is not None:
            run._smoothed = _distribution(smoothed, len(words), "smoothed")
        hedge = payload.get("hedge")
        if hedge is not None and run.hedges:
            if not isinstance(hedge, dict):
                raise StrategyFileError("hedge is not an object with sum, mean and steps")
            sums = int_list(hedge.get("sum"), "hedge sum", len(words))
            if max(sums, default=0) >= 2**62:
                raise StrategyFileError("hedge sum holds a count too large to be a run's")
            run.hedge_sum = np.array(sums, dtype=np.int64)
            run.hedge_mean = _distribution(hedge.get("mean"), len(words), "hedge mean")
            steps = hedge.get("steps")
            if type(steps) is not int or steps < 0:
                raise StrategyFileError("hedge steps is not a non-negative integer")
            run.hedge_steps = steps
        return run

    def solution(self, extra: dict[str, Any]) -> DoubleOracleSolution:
        trees, counts, _, _ = self._columns_with_guesser()
        return DoubleOracleSolution(
            self.words, {**self.payload(fresh=True), **extra}, known=(trees, counts)
        )
