"""What a guesser minimises: the expected cost ``E[c(guesses)]`` of a non-decreasing cost vector.

A decision tree finds the secret on some guess ``d`` (1-based); an objective charges ``c(d)`` for
it, and a guesser minimises the expectation over the hider's distribution,
``sum_i h_i c(d_i) / sum_i h_i``.  Three kinds are common:

* the mean, ``c(d) = d``: expected guesses, the paper's payoff (:meth:`Objective.mean`);
* within ``k``, ``c(d) = [d > k]``: the chance of *not* finding the word within ``k`` guesses
  (:func:`within`), so minimising it maximises the chance of finding it in time;
* a race, ``c(d) =`` the chance of losing when the word is found on guess ``d``
  (:func:`jotto.game.race_rules.race_objective`).

An objective is ``c(1..K)`` and a ``tail``: ``c(d) = c(K) + tail (d - K)`` for ``d > K``, so
constant beyond ``K`` (tail 0) or growing linearly.  Costs are exact: integers or
:class:`fractions.Fraction` (floats are taken at their exact binary value), non-negative and
non-decreasing; any non-decreasing vector can be shifted to start at 0 without changing which
tree is best.  Searches scale them to integers by their common denominator
(:meth:`Objective.scaled`); :meth:`Objective.rounded` makes a nearby objective with a small one
when that is too large for exact sums.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational, Real
from typing import Union

import numpy as np

__all__ = ["Objective", "ObjectiveSpec", "parse_objective", "within"]

#: Costs as the public API takes them.
Cost = Union[int, Fraction, float]


def _exact(x: object, what: str) -> Fraction:
    """``x`` as an exact non-negative Fraction; ValueError naming ``what`` otherwise."""
    if isinstance(x, bool) or not isinstance(x, (Rational, Real, np.integer, np.floating)):
        raise ValueError(f"{what} must be a number, not {x!r}")
    if isinstance(x, (float, np.floating)) and not math.isfinite(x):
        raise ValueError(f"{what} must be finite, not {x!r}")
    value = Fraction(x) if not isinstance(x, np.integer) else Fraction(int(x))
    if value < 0:
        raise ValueError(f"{what} must not be negative, not {value}")
    return value


@dataclass(frozen=True)
class Objective:
    """A non-decreasing cost vector ``c``: ``c(d) = costs[d-1]`` for ``d <= K``, then
    ``costs[-1] + tail (d - K)``.  Values are exact Fractions.

    Attributes:
        costs: ``c(1), ..., c(K)`` (at least one), non-negative and non-decreasing.
        tail: what each guess beyond ``K`` adds (``>= 0``).
        name: how the objective is shown (``mean``, ``within:3``, ``costs:0,1/2,1``).
    """

    costs: tuple[Fraction, ...]
    tail: Fraction = Fraction(0)
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        costs = tuple(_exact(c, f"cost c({d})") for d, c in enumerate(self.costs, 1))
        if not costs:
            raise ValueError("an objective needs at least one cost, c(1)")
        for d in range(1, len(costs)):
            if costs[d] < costs[d - 1]:
                raise ValueError(
                    f"costs must not decrease: c({d + 1}) = {costs[d]} is below "
                    f"c({d}) = {costs[d - 1]}"
                )
        object.__setattr__(self, "costs", costs)
        object.__setattr__(self, "tail", _exact(self.tail, "tail"))
        if not self.name:
            object.__setattr__(self, "name", self._default_name())

    def __repr__(self) -> str:
        costs = ", ".join(str(c) for c in self.costs)
        return f"Objective({self.name}: costs=({costs}), tail={self.tail})"

    def _default_name(self) -> str:
        text = "costs:" + ",".join(str(c) for c in self.costs)
        return text + (f":tail={self.tail}" if self.tail else "")

    @classmethod
    def mean(cls) -> Objective:
        """Expected guesses: ``c(d) = d``."""
        return cls((Fraction(1),), Fraction(1), "mean")

    @property
    def is_mean(self) -> bool:
        """Whether this is the mean, ``c(d) = d`` for every ``d``."""
        return self.tail == 1 and all(c == d for d, c in enumerate(self.costs, 1))

    @property
    def within(self) -> int | None:
        """``k`` if this is :func:`within` ``(k)``'s vector (``[d > k]``), else None."""
        k = len(self.costs) - 1
        if (
            self.tail == 0
            and self.costs[-1] == 1
            and all(c == 0 for c in self.costs[:-1])
            and k >= 1
        ):
            return k
        return None

    def cost(self, d: int) -> Fraction:
        """``c(d)`` for a guess number ``d >= 1``."""
        if d < 1:
            raise ValueError(f"guess numbers start at 1, not {d}")
        K = len(self.costs)
        return self.costs[d - 1] if d <= K else self.costs[-1] + self.tail * (d - K)

    def shifted(self, t: int) -> Objective:
        """The objective after ``t`` guesses were made: ``c'(d) = c(t + d)``."""
        if t < 0:
            raise ValueError(f"guesses made must be >= 0, not {t}")
        if t == 0:
            return self
        K = len(self.costs)
        costs = self.costs[t:] if t < K else (self.cost(t + 1),)
        return Objective(costs, self.tail, f"{self.name}+{t}")

    def value(self, guesses: Iterable[int], weights: Sequence[int] | np.ndarray) -> Fraction:
        """``sum_i w_i c(guesses_i) / sum_i w_i`` exactly, for guess counts and integer weights."""
        num = den = 0
        for n, w in zip(guesses, weights):
            w = int(w)
            if w:
                num += w * self.cost(int(n))
                den += w
        if den == 0:
            raise ValueError("the weights are all zero: the objective's value is undefined")
        return Fraction(num) / den

    def scaled(self, depths: int) -> tuple[list[int], int, int]:
        """``(c(1..K'), tail, denominator)`` in integers: the costs times their common
        denominator, for the ``depths`` guesses a tree can need (``K' = min(K, depths)``, and
        the tail 0 when it is never reached)."""
        K = min(len(self.costs), max(depths, 1))
        fracs = list(self.costs[:K]) + [self.tail]
        den = 1
        for f in fracs:
            den = den * f.denominator // math.gcd(den, f.denominator)
        ints = [int(f * den) for f in fracs]
        tail = ints[-1] if K == len(self.costs) else 0
        return ints[:-1], tail, den

    def rounded(self, denominator: int = 2**20) -> Objective:
        """A nearby objective whose costs are multiples of ``1/denominator`` (each rounded to
        the nearest, ties up: still non-decreasing), for searches whose exact sums the original
        denominators would overflow; the name says so."""
        if isinstance(denominator, bool) or not isinstance(denominator, int) or denominator < 1:
            raise ValueError(f"denominator must be a positive integer, not {denominator!r}")

        def near(x: Fraction) -> Fraction:
            return Fraction(math.floor(x * denominator + Fraction(1, 2)), denominator)

        return Objective(
            tuple(near(c) for c in self.costs), near(self.tail), f"{self.name}~1/{denominator}"
        )

    def describe(self) -> str:
        """One line for people."""
        if self.is_mean:
            return "expected guesses"
        k = self.within
        if k is not None:
            return f"chance of needing more than {k} guess{'es' if k > 1 else ''}"
        return f"expected cost of the guesses needed ({self.name})"


def within(k: int) -> Objective:
    """The objective of finding the word within ``k`` guesses: ``c(d) = [d > k]``, whose value
    is the chance of needing more (minimising it maximises the chance of finding it in time)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"within needs a number of guesses k >= 1, not {k!r}")
    k = int(k)
    return Objective((Fraction(0),) * k + (Fraction(1),), Fraction(0), f"within:{k}")


#: What the public API takes for an objective.
ObjectiveSpec = Union[None, str, Objective]


def _fraction_text(text: str, what: str) -> Fraction:
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(
            f"{what}: {text.strip()!r} is not a number (write 3, 0.25 or 1/4)"
        ) from None
    if value < 0:
        raise ValueError(f"{what}: {text.strip()!r} is negative")
    return value


def parse_objective(spec: ObjectiveSpec) -> Objective:
    """An objective from ``None`` or ``"mean"`` (expected guesses), ``"within:K"``,
    ``"costs:C1,C2,...[:tail=X]"`` (numbers such as ``3``, ``0.25`` or ``1/4``), or an
    :class:`Objective` (returned as it is).  :class:`ValueError` with a one-line reason
    otherwise."""
    if spec is None:
        return Objective.mean()
    if isinstance(spec, Objective):
        return spec
    if not isinstance(spec, str):
        raise ValueError(
            f"an objective is 'mean', 'within:K', 'costs:C1,C2,...' or an "
            f"Objective, not {type(spec).__name__}"
        )
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind == "mean" and not rest:
        return Objective.mean()
    if kind == "within":
        text = rest.strip()
        if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) < 1:
            raise ValueError(
                f"objective {spec!r}: within takes a number of guesses K >= 1, like within:6"
            )
        return within(int(text))
    if kind == "costs" and rest:
        values, _, tail_part = rest.partition(":")
        tail = Fraction(0)
        if tail_part:
            key, eq, value = tail_part.partition("=")
            if key.strip().lower() != "tail" or not eq:
                raise ValueError(f"objective {spec!r}: after the costs only tail=X may follow")
            tail = _fraction_text(value, f"objective {spec!r}, tail")
        costs = [_fraction_text(x, f"objective {spec!r}") for x in values.split(",")]
        return Objective(tuple(costs), tail)
    raise ValueError(f"unknown objective {spec!r}; use mean, within:K or costs:C1,C2,...[:tail=X]")
