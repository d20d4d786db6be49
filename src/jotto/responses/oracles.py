"""The guesser's oracles: what a solver asks for a decision tree against a hider strategy.

Spec strings (``jotto solve --oracle``, ``jotto.solve(oracle=...)``)::

    greedy                    GuesserGBR under the exact rule (the paper's oracle); proves nothing
                              about the best response, so its lower bound is 1 guess
    lookahead:K               branch and bound over the K best candidates (by the greedy metric)
                              at every state: a strong tree fast
    best-response[:SECONDS]   the true best response by branch and bound, exact unless SECONDS
                              bounds each search (then the best tree found and a proved bound)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..engine.weights import exact_weights
from ..game.trees import DecisionTree
from ..game.words import WordList
from .gbr import gbr_tree

__all__ = ["Oracle", "Response", "parse_oracle"]


@dataclass(frozen=True)
class Response:
    """An oracle's answer: a tree, and bounds on the best response's expected guesses (``upper``
    is the tree's own value)."""

    tree: DecisionTree
    lower: Fraction
    upper: Fraction


@dataclass(frozen=True)
class Oracle:
    """A parsed oracle spec (see the module docstring)."""

    kind: str
    seconds: float | None = None
    top_k: int | None = None
    nodes: int | None = None  # states a search may visit (the double oracle's scouts)

    @property
    def spec(self) -> str:
        if self.kind == "lookahead":
            return f"lookahead:{self.top_k}"
        if self.kind == "best-response" and self.seconds is not None:
            return f"best-response:{self.seconds:g}"
        return self.kind

    def respond(
        self,
        words: WordList,
        weights: Any,
        threads: int | None = None,
        upper_bound: Any = None,
        executor: Any = None,
    ) -> Response:
        """A tree against the hider with integer ``weights`` (an integer array or a sequence of
        :class:`fractions.Fraction`, as :func:`jotto.best_response` takes them).  The best
        response may stop once it proves that no tree beats ``upper_bound`` (its ``lower`` is
        then at least that).  ``executor``: where the best response's proof runs (top-K
        searches, which prove nothing, run here)."""
        if self.kind == "greedy":
            w = exact_weights(weights, len(words)).astype(object)
            tree = gbr_tree(words, w.astype(np.int64), rule="exact", threads=threads)
            value = Fraction(int(tree.guesses_needed().astype(object) @ w), int(w.sum()))
            return Response(tree, Fraction(1), value)
        from .best_responses import best_response

        br = best_response(
            words,
            weights,
            budget=self.seconds,
            nodes=self.nodes,
            top_k=self.top_k,
            upper_bound=None if self.top_k else upper_bound,
            threads=threads,
            executor=None if self.top_k else executor,
        )
        return Response(br.tree, br.lower, br.upper)


def parse_oracle(spec: str) -> Oracle:
    """The oracle a spec names; :class:`ValueError` naming the problem otherwise."""
    if not isinstance(spec, str):
        raise ValueError(f"an oracle spec is a string, not {spec!r}")
    kind, _, arg = spec.strip().lower().partition(":")
    if kind == "greedy" and not arg:
        return Oracle("greedy")
    if kind == "lookahead":
        if not arg.isdigit() or int(arg) < 1:
            raise ValueError(f"oracle {spec!r}: use lookahead:K with K a positive integer")
        return Oracle("lookahead", top_k=int(arg))
    if kind in ("best-response", "best_response", "br"):
        if not arg:
            return Oracle("best-response")
        try:
            seconds = float(arg)
        except ValueError:
            seconds = float("nan")
        if not 0 < seconds < float("inf"):
            raise ValueError(
                f"oracle {spec!r}: use best-response:SECONDS with SECONDS a positive finite number"
            )
        return Oracle("best-response", seconds=seconds)
    raise ValueError(
        f"unknown oracle {spec!r}; oracles: greedy, lookahead:K, best-response[:SECONDS]"
    )
