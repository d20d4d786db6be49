"""Evaluating guessers and hiders: guesses per target, head-to-head payoffs, exploitability.

A guesser is evaluated by one game against every target (Norvig's ``play_jottos``), or, for a
guesser that mixes deterministic ones, by the exact distribution of that game.  The payoff of a
hider against a guesser is the expected number of guesses; it is exact whenever the guesser is
deterministic or a finite mixture (the equilibrium guesser), since then each target's expected
guesses are known exactly.

Exploitability, in OpenSpiel's sense: the *best-response value* against a guesser is what the
hider's best response (its worst target) earns; against a hider, the greedy best-response value
is what GuesserGBR against that hider needs (greedy, so an upper bound on the true best
response's).  For a profile (hider p, guesser g) with value v = p . E_g:
``NashConv = (max_i E_g,i - v) + (v - p . GBR(p))`` and ``exploitability = NashConv / 2``;
these are the paper's epsilon_hider and epsilon_guesser summed and halved.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..game.hiding import hide_from_mask
from ..game.turns import Guesser, Hider, play
from ..game.words import WordList
from ..responses.gbr import as_word_list, comp_num_guesses
from ..responses.result import HideFrom
from ..util.text import bar
from .hiders import worst_targets

__all__ = [
    "Evaluation",
    "Exploitability",
    "evaluate",
    "exploitability",
    "head_to_head",
    "sample_games",
]


@dataclass(frozen=True)
class Evaluation:
    """A guesser's guesses against every target.

    Attributes:
        expected: expected guesses per target (exact unless ``exact`` is False, when it is one
            played game per target).
        second: expected squared guesses per target (the same, squared, for played games).
        histogram: expected number of targets needing each number of guesses (index: guesses).
        exact: whether the numbers are exact expectations rather than one sample.
        mixed: whether the guesser mixes decision trees (an equilibrium guesser): then
            :attr:`worst` is the longest game of any tree in the mix, and the hardest target's
            expected guesses (:attr:`worst_expected`) say how bad the mix is at worst.
        hidden: the targets evaluated, ``hidden[i]`` for word ``i`` (:func:`evaluate`'s
            ``hide_from``); None: every word.  ``expected`` and ``second`` hold every word's
            all the same; the mean, deviation, worst case, hardest targets and histogram are
            over the hidden words only.
    """

    words: WordList
    guesser: str
    expected: np.ndarray = field(repr=False)
    second: np.ndarray = field(repr=False)
    histogram: np.ndarray = field(repr=False)
    exact: bool
    mixed: bool = False
    hidden: np.ndarray | None = field(default=None, repr=False)

    def _targets(self, per_word: np.ndarray) -> np.ndarray:
        """``per_word`` at the evaluated targets only."""
        return per_word if self.hidden is None else per_word[self.hidden]

    def __repr__(self) -> str:
        return (
            f"Evaluation(guesser={self.guesser!r}, words={self.words.describe()}, "
            f"mean={self.mean:.4f}, std={self.std:.4f}, worst={self.worst}, "
            f"exact={self.exact})"
        )

    @property
    def mean(self) -> float:
        """Mean guesses over the targets (the payoff against the uniform hider, of the hidden
        words if :attr:`hidden` is set)."""
        expected = self._targets(self.expected)
        return math.fsum(expected) / len(expected)

    @property
    def std(self) -> float:
        """The sample standard deviation of the D games' guesses, Norvig's measure (for a
        mixture, its expectation over the guesser's randomness)."""
        expected, second = self._targets(self.expected), self._targets(self.second)
        D = len(expected)
        if D < 2:
            return 0.0
        var_each = second - expected**2  # variance of each target's game
        e_sum_sq = math.fsum(second)  # E[sum g_t^2]
        e_mean_sq = self.mean**2 + math.fsum(var_each) / D**2  # E[mean^2]
        return math.sqrt(max(0.0, (e_sum_sq - D * e_mean_sq) / (D - 1)))

    @property
    def worst(self) -> int:
        """The most guesses any game takes (for a mixed guesser, in any tree of the mix)."""
        return int(np.flatnonzero(self.histogram)[-1])

    @property
    def worst_expected(self) -> float:
        """The hardest target's expected guesses (for a deterministic guesser, :attr:`worst`)."""
        return float(self._targets(self.expected).max())

    def worst_note(self) -> str:
        """For a mixed guesser, what its worst case means, one line (else empty)."""
        if not self.mixed:
            return ""
        return (
            f"worst = {self.worst} is the longest game of any tree in the mix; against its "
            f"hardest target the mix expects {self.worst_expected:.2f} guesses"
        )

    def worst_targets(self, n: int | None = None) -> list[tuple[str, float]]:
        """Targets by expected guesses, most first (ties in list order); all of the worst if
        ``n`` is None."""
        which = (
            np.arange(len(self.expected)) if self.hidden is None else np.flatnonzero(self.hidden)
        )
        expected = self.expected[which]
        if n is None:
            idx = worst_targets(expected)
        else:
            idx = np.argsort(-expected, kind="stable")[:n]
        return [(self.words[int(which[i])], float(expected[i])) for i in idx]

    def against(self, p: np.ndarray) -> float:
        """Expected guesses against a hider playing the distribution ``p``."""
        return float(np.dot(np.asarray(p, dtype=np.float64), self.expected))

    def summary(self) -> str:
        """Norvig's line: ``mean = 7.15 ± 1.81 guesses; worst = 18``."""
        return f"mean = {self.mean:.2f} ± {self.std:.2f} guesses; worst = {self.worst}"

    def histogram_text(self, width: int = 40) -> str:
        """The histogram as text: guesses, % of targets, a bar."""
        pct = 100 * self.histogram / self.histogram.sum()
        lo = int(np.flatnonzero(self.histogram)[0])
        top = pct.max()
        lines = []
        for k in range(lo, self.worst + 1):
            lines.append(f"{k:>4} {pct[k]:6.2f}% {bar(pct[k] / top if top else 0, width)}")
        return "\n".join(lines)

    def plot_histogram(self, path: str | os.PathLike[str] | None = None):
        """The histogram as a bar chart (PNG, SVG, PDF by suffix); needs matplotlib."""
        return histogram_plot(self, path)

    def as_dict(self, worst: int = 10) -> dict[str, Any]:
        return {
            "guesser": self.guesser,
            "exact": self.exact,
            "mixed": self.mixed,
            "targets": len(self._targets(self.expected)),
            "mean": self.mean,
            "std": self.std,
            "worst": self.worst,
            "worst_expected": self.worst_expected,
            "worst_targets": [
                {"word": w, "expected_guesses": g} for w, g in self.worst_targets(worst)
            ],
            "histogram": {str(k): float(v) for k, v in enumerate(self.histogram) if v},
        }


def _histogram(counts: np.ndarray) -> np.ndarray:
    return np.bincount(counts.astype(np.int64)).astype(np.float64)


def _guesser(words: WordList, guesser: Guesser | str | None, threads: int | None) -> Guesser:
    """The guesser a caller named: a player as it is, a spec made into one, None the default
    spec of ``jotto evaluate`` (:func:`jotto.players.specs.default_guesser_spec`)."""
    if guesser is not None and not isinstance(guesser, str):
        return guesser
    from .specs import default_guesser_spec, make_guesser

    return make_guesser(guesser or default_guesser_spec(words), words, threads)


def evaluate(
    words: WordList | Sequence[str],
    guesser: Guesser | str | None = None,
    *,
    threads: int | None = None,
    hide_from: HideFrom = None,
) -> Evaluation:
    """A guesser against every target, as ``jotto evaluate`` does it: exact for deterministic
    guessers (their decision tree) and for mixtures that give their ``moments()`` (the
    equilibrium guessers), else one played game per target.

    Args:
        words: a :class:`~jotto.game.words.WordList` (or a sequence of playable words).
        guesser: a guesser (:class:`jotto.game.turns.Guesser`), or its spec as ``jotto evaluate -g``
            takes it (``"norvig:entropy"``, ``"gbr:exact"``, ``"equilibrium"``, ...; see
            :mod:`jotto.players.specs`); default, as the command: the equilibrium guesser of
            the list's bundled solve, else ``"gbr:exact"``.
        threads: threads for building a guesser's decision tree.
        hide_from: only these targets (:mod:`jotto.game.hiding`: ``"sgb:500"``, a word file),
            as :func:`jotto.best_response` takes them: the mean is then against a uniformly
            random one of them (:attr:`Evaluation.hidden`).

    Returns:
        An :class:`Evaluation`: mean ± sd, worst case, the hardest targets, the histogram.
    """
    words = as_word_list(words)
    hidden = None if hide_from is None else hide_from_mask(words, hide_from)
    guesser = _guesser(words, guesser, threads)
    name = getattr(guesser, "name", type(guesser).__name__)
    moments = getattr(guesser, "moments", None)
    if moments is not None:  # a mixture of deterministic guessers that knows its distribution
        expected, second, hist = moments()
        if hidden is not None:  # the expected number of hidden targets per guess count
            chance = guesser.count_distribution(hidden.astype(np.int64))
            hist = np.zeros(max(chance) + 1)
            for c, x in chance.items():
                hist[c] = float(x * int(hidden.sum()))
        return Evaluation(words, name, expected, second, hist, True, mixed=True, hidden=hidden)
    tree = getattr(guesser, "tree", None)
    if getattr(guesser, "deterministic", False) and tree is not None:
        counts = tree().guesses_needed()
        exact = True
    else:
        counts = sample_games(words, guesser, np.arange(len(words)))
        exact = False
    return Evaluation(
        words,
        name,
        counts.astype(np.float64),
        counts.astype(np.float64) ** 2,
        _histogram(counts if hidden is None else counts[hidden]),
        exact,
        hidden=hidden,
    )


def sample_games(words: WordList, guesser: Guesser, targets: np.ndarray) -> np.ndarray:
    """Guesses in one game against each of ``targets`` (indices), in order."""
    return np.array([len(play(words, guesser, int(t))) for t in targets], dtype=np.int32)


def head_to_head(
    words: WordList | Sequence[str],
    guesser: Guesser | str | None = None,
    hider: Hider | str | ArrayLike = "uniform",
    *,
    threads: int | None = None,
) -> float:
    """The hider's payoff, the expected number of guesses, when ``hider`` meets ``guesser``, as
    ``jotto evaluate`` reports it ("Against hider ..."): ``p . E``, with ``E`` the guesser's
    expected guesses per target (:func:`evaluate`; exact unless the guesser is played) and ``p``
    the hider's distribution.

    Args:
        words: a :class:`~jotto.game.words.WordList` (or a sequence of playable words).
        guesser: as for :func:`evaluate` (a guesser or its spec; default as ``jotto evaluate``).
        hider: a hider (:class:`jotto.game.turns.Hider`), its spec as ``jotto evaluate -H`` takes it
            (``"uniform"``, ``"word:WORD"``, ``"equilibrium"``, ``"best-response"`` to the
            guesser, ...), or a probability (or weight) per word.
        threads: threads for building a guesser's decision tree.
    """
    words = as_word_list(words)
    player = _guesser(words, guesser, threads)
    ev = evaluate(words, player)
    if isinstance(hider, str):
        from .specs import make_hider

        hider = make_hider(hider, words, ev.expected, ev.guesser)
    if isinstance(hider, Hider):
        p = hider.distribution()
    else:
        from .hiders import DistributionHider

        p = DistributionHider(words, hider).distribution()  # checked: one per word, >= 0
    return ev.against(p)


@dataclass(frozen=True)
class Exploitability:
    """How far a (hider, guesser) profile is from equilibrium, in guesses.

    ``value``: p . E (the hider's payoff); ``hider_br_value``: max_i E_i, what the hider's best
    response to the guesser earns; ``guesser_br_value``: p . GBR(p), what GuesserGBR against the
    hider needs; ``hider_gain`` = hider_br_value - value (the paper's epsilon_hider);
    ``guesser_gain`` = value - guesser_br_value (epsilon_guesser); ``nash_conv`` their sum;
    ``exploitability`` half of it.

    With a true best response (``best_response`` set, :func:`jotto.best_response`), the
    guesser's best response against p needs between ``best_response[0]`` (proved) and
    ``best_response[1]`` (the best tree found) guesses, and ``true_nash_conv`` is the certified
    interval of NashConv measured with it.
    """

    value: float
    hider_br_value: float
    guesser_br_value: float
    best_response: tuple[Fraction, Fraction] | None = None

    @property
    def hider_gain(self) -> float:
        return self.hider_br_value - self.value

    @property
    def guesser_gain(self) -> float:
        return self.value - self.guesser_br_value

    @property
    def nash_conv(self) -> float:
        return self.hider_gain + self.guesser_gain

    @property
    def exploitability(self) -> float:
        return self.nash_conv / 2

    @property
    def true_nash_conv(self) -> tuple[float, float] | None:
        """NashConv against the true best responses, as a certified interval (None unless
        ``best_response`` is known)."""
        if self.best_response is None:
            return None
        lo, hi = self.best_response
        return self.hider_br_value - float(hi), self.hider_br_value - float(lo)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "value": self.value,
            "hider_best_response_value": self.hider_br_value,
            "guesser_greedy_best_response_value": self.guesser_br_value,
            "hider_gain": self.hider_gain,
            "guesser_gain": self.guesser_gain,
            "nash_conv": self.nash_conv,
            "exploitability": self.exploitability,
        }
        if self.best_response is not None:
            lo, hi = self.best_response
            nc = self.true_nash_conv
            d["guesser_best_response_value"] = [float(lo), float(hi)]
            d["guesser_best_response_value_exact"] = [str(lo), str(hi)]
            d["true_nash_conv"] = list(nc)
            d["true_exploitability"] = [nc[0] / 2, nc[1] / 2]
        return d


def exploitability(
    p: np.ndarray,
    evaluation: Evaluation,
    rule: str = "exact",
    threads: int | None = None,
    best_response: bool = False,
    budget: float | None = None,
    certificate: str | os.PathLike[str] | None = None,
    executor=None,
    progress=None,
) -> Exploitability:
    """The profile (hider ``p``, evaluated guesser): see :class:`Exploitability`.  The guesser's
    greedy best response is GuesserGBR against ``p`` under ``rule``; with ``best_response`` the
    true best response is searched for too (for at most ``budget`` seconds; exact when None,
    on ``executor`` if given: see :func:`jotto.best_response`), against ``p`` made integer
    weights by :func:`jotto.integer_weights`, and a certificate of its lower bound written to
    ``certificate`` if given (docs/certificates.md); ``progress`` is the search's
    (:func:`jotto.best_response`)."""
    if certificate is not None and not best_response:
        raise ValueError(
            "certificate: a certificate is of the true best response's lower "
            "bound (best_response=True)"
        )
    p = np.asarray(p, dtype=np.float64)
    gbr = comp_num_guesses(evaluation.words, p, rule=rule, threads=threads)
    bounds = None
    if best_response:
        from ..responses.best_responses import best_response as search

        br = search(
            evaluation.words,
            p,
            budget=budget,
            threads=threads,
            certificate=certificate,
            executor=executor,
            progress=progress,
        )
        bounds = (br.lower, br.upper)
    return Exploitability(
        evaluation.against(p), evaluation.worst_expected, float(np.dot(p, gbr)), bounds
    )


def histogram_plot(evaluation: Evaluation, path: str | os.PathLike[str] | None = None):
    """Percent of targets against guesses needed (Norvig's chart), with mean ± sd and worst;
    titled with the guesser (its spec) and the word list; saved to ``path`` if given.  Needs
    matplotlib (:mod:`jotto.util.plots`)."""
    from ..util.plots import new_figure, save

    fig = new_figure((7, 4))
    ax = fig.add_subplot()
    hist = evaluation.histogram
    pct = 100 * hist / hist.sum()
    ks = np.arange(len(hist))
    shown = hist > 0
    ax.bar(ks[shown], pct[shown], width=0.9, color="tab:blue")
    ax.set_xticks(ks[shown])
    ax.set_xlabel("Number of guesses to find target")
    ax.set_ylabel("% of targets")
    ax.set_title(
        f"{evaluation.guesser} on {evaluation.words.describe()}\n{evaluation.summary()}",
        fontsize=10,
    )
    if path is not None:
        save(fig, path)
    return fig
