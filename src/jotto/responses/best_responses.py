"""The guesser's true best response: the decision tree with the fewest expected guesses.

GuesserGBR (:mod:`jotto.responses.gbr`) is greedy: it maximises the targets eliminated by the next
guess.
The true best response to a hider minimises the expected number of guesses of the whole game,

    F(S) = W(S) + min_g sum_{j != win} F(S_j(g)),   F({i}) = v_i,

over every word g of the list (also words already ruled out; in hard mode only the words still
consistent), where S is the state (targets still consistent), W(S) its weight and S_j(g) the
targets giving reply code j to g; the win is g itself, whatever the rules call its reply.  The
expected number of guesses is F(all) / W(all).  The rules are the word list's
(:class:`jotto.game.rules.Rules`): replies, anagrams kept or not, positional replies, hard mode.

The compiled core finds it by depth-first branch and bound (search.c): exact integer arithmetic,
admissible counting, member and lookahead bounds (the best split a large class admits, each part
at its counting bound), a memo of exact values and proven lower bounds per state, greedy move
ordering, cut-offs while summing reply classes.  A pass over 128 targets or more runs on every
thread it is given (search_parallel.c: each thread searches from the root over the shared memo,
taking the words and states the others are not searching); exact values and trees are the same
on any number of threads.

The search is anytime: it first builds the greedy tree (an upper bound), then raises a proven lower
bound pass by pass (each pass either finds the optimum below a target or proves there is none)
until the two meet, the budget runs out or ``upper_bound`` is proven out of reach.  With a budget a
second search with its own memo looks for better trees meanwhile (top-K passes, K = 2, 3, 4, then
top-2 trees whose subtrees are optimal below a growing state size): on a second thread when there
is one, so that both use all of the time.  Every number it reports is exact
(:class:`fractions.Fraction`) and proven.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from concurrent.futures import Executor
from dataclasses import replace
from fractions import Fraction
from numbers import Real

import numpy as np

from ..engine.runtime import resolve_threads
from ..game.certificates import CertificateWriter, check_certificate_args
from ..game.objectives import ObjectiveSpec, parse_objective
from .cost_search import objective_best_response
from .gbr import as_word_list
from .mean_search import Progress, mean_best_response
from .proof.distributed import check_executor
from .proof.executors import best_response_on
from .result import (
    DEFAULT_MEMORY,
    BestResponse,
    HideFrom,
    Hider,
    Words,
    expected_guesses,
    hider_of,
    positive_number,
    weights_and_total,
)

__all__ = ["BestResponse", "best_response", "expected_guesses"]


def best_response(
    words: Words,
    hider: Hider = None,
    *,
    hide_from: HideFrom = None,
    budget: float | None = None,
    nodes: int | None = None,
    top_k: int | None = None,
    upper_bound: Real | None = None,
    threads: int | None = None,
    memory: int = DEFAULT_MEMORY,
    objective: ObjectiveSpec = None,
    certificate: str | os.PathLike[str] | None = None,
    about: str = "best response",
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> BestResponse:
    """The guesser's best response to ``hider``: the decision tree minimising the expected
    number of guesses (or another ``objective``), with proven bounds.

    When an exact search (no ``budget``, ``nodes`` or ``top_k``) is feasible: the 2-letter game
    finishes in a fraction of a second (TWL06's 51 words: 5.7843 expected guesses against the
    uniform hider, 0.10 s, 19,778 states; ENABLE's 50 words: 5.72, 0.07 s).  From 3 letters on
    it does not finish in practice: on TWL06's 421 three-letter words 120 s of search leave the
    optimum in [6.3895, 6.8765] (4.3 million states), and at 5 letters an unbudgeted search
    runs for many minutes without a word.  So give a ``budget`` (seconds) from 3 letters on: the
    answer is then the certified interval ``[lower, upper]`` and the best tree found.  (Measured
    2026-11-26 on an AMD EPYC (Zen 4, kernel variant v4), one thread, on a busy machine.)

    Args:
        words: a :class:`~jotto.game.words.WordList` (or a sequence of playable words).
        hider: the hider's weights, one per word: ``None`` (uniform), floats (a probability or
            weight vector, converted by the documented rule :func:`jotto.integer_weights`), an
            integer array (used exactly), or a sequence of :class:`fractions.Fraction` (scaled
            exactly to integers by their common denominator; :class:`ValueError` if that total
            reaches ``2**63 / D``).  Words of weight 0 cost nothing but the tree still guesses
            each of them somewhere (by the greedy rule once only such words remain).
        hide_from: instead of ``hider``, the words the hider may hide, each equally likely
            (:mod:`jotto.game.hiding`): ``"sgb:500"``, the 500 most common words of the
            bundled Stanford GraphBase list among the list's, ``"sgb"``, or a word file
            (``"PATH"``, ``"PATH:N"``); any word of the list may still be guessed.
        budget: seconds the search may take (``None``: no limit).  The greedy tree that starts
            the search is always built.
        nodes: states the search may visit (``None``: no limit).
        top_k: ``None`` searches every guess (exact when it finishes); ``K`` restricts every
            state to the first ``K`` guesses of distinct splits in greedy order: much faster,
            ``upper`` is the best such tree and ``lower`` the cheap proven bound.
        upper_bound: only trees with fewer expected guesses than this matter: a full search
            stops once it proves there is none (``stopped == "upper_bound"``,
            ``lower >= upper_bound``); a double oracle asks whether any tree beats a value.
        threads: as elsewhere in the package (:func:`jotto.resolve_threads`).  The search's
            passes run on all of them (over 128 words or more; fewer do not pay for threads).
            With a budget the search is two searches, one for good trees (top-K passes), one
            raising the lower bound: with two threads or more the tree search runs on one of
            them beside the proof, which has the others (TREES_BESIDE), else one after the
            other.  Exact results (no budget, or a budget the search finishes within) are the
            same whatever the thread count; what a budget stops at is a proven interval in
            every case, but on several threads it depends on timing (a node budget too: which
            states the threads searched when it ran out), so it may differ from run to run.
        memory: bytes the memos of states may take together (then they stop growing; results
            without budgets do not change, only the time); with an executor, each worker's.
        objective: what the tree minimises (:func:`jotto.game.objectives.parse_objective`): None or
            ``"mean"``, expected guesses; ``jotto.within(k)`` or ``"within:K"``, the chance of
            needing more than k guesses (:attr:`BestResponse.found_within` gives the chance of
            finding the word in time); ``jotto.Objective(costs=..., tail=...)`` or
            ``"costs:C1,C2,...[:tail=X]"``, the expected cost ``E[c(guesses)]`` of any
            non-decreasing cost vector.  Objectives other than the mean are searched by
            :func:`jotto.responses.cost_search.objective_best_response` (one thread, no
            ``top_k``, no executor).
        certificate: a file to write a certificate of ``lower`` to (docs/certificates.md),
            which :func:`jotto.check_certificate` verifies without the search; written as the
            search runs and renamed into place at the end (:class:`FileExistsError` at once if
            the file exists).  The mean only, in this process (no executor).
        about: what the certificate says its bound is of (its header's ``about``): the
            default, or ``"game value"`` when the hider's strategy proves the game's value.
        executor: run the proof as tasks on this :class:`concurrent.futures.Executor` (a Dask
            client's ``get_executor()``, a ``ProcessPoolExecutor``;
            :mod:`jotto.responses.proof.distributed`): each opener is a task
            (:func:`jotto.responses.proof.executors.best_response_on`), its passes on one thread
            of a worker.  ``threads`` is then unused; ``memo_states`` sums the workers' memos.
        progress: called as ``progress(lower, upper)`` (expected guesses: the bound proved and
            the best tree's value so far) before every search pass, on the search's threads:
            a long search shows its bounds rising, and a caller interrupted (Ctrl-C) knows what
            was proved.  Not with an executor (:class:`ValueError`) nor other objectives.

    Returns:
        A :class:`BestResponse`.  With no ``budget`` or ``nodes`` its values and tree are the
        same whatever the machine, thread count and executor (its ``nodes`` are not); with
        them, on one thread and no executor, all of it is.
    """
    if certificate is not None:
        check_certificate_args(certificate, about)
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a function of (lower, upper) or None, not {progress!r}")
    wanted = parse_objective(objective)
    if hide_from is not None:
        words = as_word_list(words)
        hider = hider_of(words, hider, hide_from)
    if not wanted.is_mean:
        if certificate is not None:
            raise ValueError(
                "certificates prove bounds on the mean's search; it takes no other objective"
            )
        if top_k is not None:
            raise ValueError("top_k restricts the mean's search; it takes no other objective")
        if executor is not None or progress is not None:
            raise ValueError(
                "an executor or progress: the mean's proof; other objectives are "
                "searched in this process without either"
            )
        resolve_threads(threads)
        return objective_best_response(
            words, hider, wanted, budget=budget, nodes=nodes, upper_bound=upper_bound, memory=memory
        )
    t0 = time.perf_counter()
    wl = as_word_list(words)
    v, total = weights_and_total(hider, len(wl))
    budget = positive_number("budget", budget)
    nodes = positive_number("nodes", nodes, integer=True)
    top_k = positive_number("top_k", top_k, integer=True)
    threads = resolve_threads(threads)
    if isinstance(upper_bound, bool) or not (upper_bound is None or isinstance(upper_bound, Real)):
        raise ValueError(f"upper_bound must be a number or None, not {upper_bound!r}")
    if isinstance(memory, bool) or not isinstance(memory, (int, np.integer)) or memory < 2**20:
        raise ValueError(f"memory must be at least 2**20 bytes, not {memory!r}")
    goal = None if upper_bound is None else math.ceil(Fraction(upper_bound) * total)
    if executor is not None:
        check_executor(executor)
        if certificate is not None or progress is not None:
            raise ValueError(
                "certificate, progress: the search in this process; it takes no executor"
            )
        return best_response_on(executor, wl, v, total, t0, budget, nodes, top_k, goal, int(memory))
    deadline = None if budget is None else t0 + budget
    with contextlib.ExitStack() as stack:
        cert = None
        if certificate is not None:
            cert = stack.enter_context(CertificateWriter(certificate))
        found = mean_best_response(
            wl,
            v,
            total,
            t0,
            deadline,
            nodes,
            top_k,
            goal,
            int(memory),
            threads,
            (cert, about),
            progress,
        )
    return replace(found, objective=wanted)
