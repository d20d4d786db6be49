"""A review of a game: how good each guess was, how lucky each reply, and a summary to share.

For each guess of a game (the person's, and the computer's), at the state S of candidates still
consistent before it (every word of the list equally likely: the review does not know how the
other player hides):

* the candidates left after it;
* the expected guesses still needed after it, if every later guess is the best:
  ``E(g) = sum_C |C| / |S| V(C)`` over its non-winning reply classes C, where V(C) is the least
  expected number of guesses to find a word drawn uniformly from C (:class:`StateValues`);
  against the best guess's, ``V(S) - 1``;
* the guesses lost, ``E(g) - (V(S) - 1)`` (0 for a best guess);
* luck: ``E(g)`` minus what the reply left, ``V(C_reply)`` (0 when the guess found the word):
  positive when the reply was better than the guess could expect.

V is exact where the best-response search finishes within the review's budget, else a proven
interval (the best tree found above, the search's lower bound below), and every number built
from it is then an interval too.  Since an interval can be wide for the large states of a 5-letter
game's first guesses, guesses lost and luck also get an estimate that compares like with like:
every value taken as its best tree found (the upper bounds); it is the exact value when the
values are exact, and 0 lost for the best tree's own first guess.

Summaries, from the estimates: a skill score ``floor(99 exp(-L / 2))`` from the guesses lost L in
all, so 99 is a game without a lost guess, 60 one guess lost in all, 36 two; a luck score
``round(99 / (1 + exp(-luck)))`` from the total luck, 50 for replies as good as expected; and a
line to share that names no word and no reply: a square per guess, green for at most 0.1 guess
lost, yellow for at most 0.5, red beyond.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..game.bounds import counting_total
from ..game.rules import Rules, RulesError
from ..game.words import BUNDLED, WordList, WordListError, load_words
from ..responses.cost_search import StateSearch
from ..responses.mean_search import StateProof
from .vocabulary import Vocabulary

__all__ = [
    "DEFAULT_NODES",
    "GuessReview",
    "Review",
    "SideReview",
    "StateValues",
    "game_record",
    "logged_words",
    "review_game",
    "review_guesses",
    "review_record",
]

#: The work a review's searches may do beyond the bounds every state needs, in states visited
#: times the words of the state searched times the words that may be guessed (what a state of
#: the search costs at most): a budget of work, not seconds, so that the same game reads the
#: same every time, on any machine and however busy it is (on one thread the searches are
#: deterministic).  About 1.2 s of CPU for a 5-letter race of 4 guesses each
#: (docs/playing.md).
DEFAULT_NODES = 10**9
#: Memory of each state's search (bytes): the states of a game are small searches.
MEMORY = 2**23
#: The work each state's search may do when first met (as DEFAULT_NODES counts it; most small
#: states are then exact).
QUICK = 3 * 10**6
#: States of more words keep the bounds they start with: each of their states costs
#: milliseconds (0.7 s a pass over the 2780 words of ENABLE).
BIG = 400
#: Each pass aims 1/STEPS of the way from the lower bound to the best tree.
STEPS = 16
#: Guesses lost (estimate) below which a guess shows as good, below which as fair, on the share
#: line.
GOOD, FAIR = Fraction(1, 10), Fraction(1, 2)


@dataclass(frozen=True)
class Value:
    """The least expected guesses to find a word drawn uniformly from a state, in
    ``[lower, upper]`` (equal when exact), and the first guess of a tree worth ``upper``."""

    lower: Fraction
    upper: Fraction
    guess: int

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


class StateValues:
    """V(S) for the states of games on ``words``: exact or a proven interval.  :meth:`value`
    gives a state's bounds at once (searching it within :data:`QUICK` work: small states are
    then exact); :meth:`refine` shares a budget of work among those not yet exact,
    continuing their searches.  Outside hard mode a state is searched as the best response to
    the hider putting weight 1 on its words (its root: those words; every word may be guessed);
    in hard mode, where guesses must fit the replies so far, by the cost search from the state
    (:class:`jotto.responses.cost_search.StateSearch`)."""

    def __init__(self, words: WordList):
        self.words = words
        self.memo: dict[bytes, Value] = {}
        #: the searches of the states not yet exact: key -> (state, guesses made, search)
        self.open: dict[bytes, tuple[np.ndarray, int, Any]] = {}
        self._hard = StateSearch(words, None, "mean") if words.rules.hard else None

    def value(self, state: np.ndarray, made: int = 0) -> Value:
        """V of ``state`` (word indices) reached after ``made`` guesses."""
        S = np.ascontiguousarray(np.sort(np.asarray(state, dtype=np.int64)))
        if len(S) == 0:
            raise ValueError("a state holds at least one word")
        key = S.tobytes()
        if key not in self.memo:
            if len(S) == 1:
                self.memo[key] = Value(Fraction(1), Fraction(1), int(S[0]))
            else:
                search = None if self._hard is not None else self._start(S)
                self.open[key] = (S, made, search)
                if len(S) <= BIG or search is None:  # hard mode: the bounds come from it
                    self._search(key, QUICK)
                if len(S) > BIG:
                    self.open.pop(key, None)
        return self.memo[key]

    def refine(self, work: int) -> None:
        """Search the states not yet exact, smallest first, within ``work`` in all (states
        visited times the state's words times the words: :data:`DEFAULT_NODES`), each an equal
        share of what is left."""
        keys = sorted(self.open, key=lambda k: (len(self.open[k][0]), k))
        for k, key in enumerate(keys):
            if work <= 0:
                return
            work -= self._search(key, max(1, work // (len(keys) - k)))

    def _start(self, S: np.ndarray) -> StateProof:
        """The proof of state S, its greedy tree and bound in the memo."""
        proof = StateProof(self.words, S, MEMORY)
        self.memo[S.tobytes()] = self._value(proof, len(S))
        return proof

    @staticmethod
    def _value(proof: StateProof, n: int) -> Value:
        return Value(
            Fraction(min(proof.lower, proof.upper), n), Fraction(proof.upper, n), int(proof.guess)
        )

    def _search(self, key: bytes, work: int) -> int:
        """Search state ``key`` further within about ``work`` (states visited times its words
        times the words); returns the work done."""
        S, made, proof = self.open[key]
        n = len(S)
        per_state = n * len(self.words)
        nodes = max(1, work // per_state)
        if proof is None:  # hard mode
            v = self._hard.value(S, made, nodes=nodes)  # type: ignore[union-attr]
            used = nodes
            counting = Fraction(
                counting_total([1] * n, self.words.rules.branches(self.words.length)), n
            )  # what the cost search does not start from
            value = Value(
                min(max(v.lower - made, counting), v.upper - made), v.upper - made, v.guess
            )
        else:
            used = proof.refine(nodes, STEPS)
            value = self._value(proof, n)
        self.memo[key] = value
        if value.exact:
            del self.open[key]
        return used * per_state


@dataclass(frozen=True)
class GuessReview:
    """One guess reviewed (see the module's description); intervals as (lower, upper).

    Attributes:
        guess: the word; reply: its reply code; found: whether it was the word.
        candidates: the candidates before it; left: after it (0 when found).
        expected: E(g), the expected guesses still needed after it; best: V(S) - 1, after the
            best guess; best_guess: the first guess of the best tree found.
        after: what the reply left, V(C_reply) (0 when found).
    """

    guess: str
    reply: int
    found: bool
    candidates: int
    left: int
    expected: tuple[Fraction, Fraction]
    best: tuple[Fraction, Fraction]
    best_guess: str
    after: tuple[Fraction, Fraction]

    @property
    def exact(self) -> bool:
        return self.expected[0] == self.expected[1] and self.best[0] == self.best[1]

    @property
    def lost(self) -> tuple[Fraction, Fraction]:
        """The guesses lost, E(g) - (V(S) - 1), proven to lie in this interval."""
        return (
            max(Fraction(0), self.expected[0] - self.best[1]),
            max(Fraction(0), self.expected[1] - self.best[0]),
        )

    @property
    def luck(self) -> tuple[Fraction, Fraction]:
        """E(g) minus what the reply left, proven to lie in this interval."""
        return self.expected[0] - self.after[1], self.expected[1] - self.after[0]

    @property
    def lost_estimate(self) -> Fraction:
        """The guesses lost against the best tree found, every value taken as its best tree
        found (the upper bounds): the exact loss when the values are exact, and 0 for the
        best tree's own first guess."""
        return self.expected[1] - self.best[1]

    @property
    def luck_estimate(self) -> Fraction:
        """The luck, every value taken as its best tree found (the upper bounds)."""
        return self.expected[1] - self.after[1]

    def as_dict(self) -> dict[str, Any]:
        def pair(x: tuple[Fraction, Fraction]) -> list[float]:
            return [float(x[0]), float(x[1])]

        return {
            "guess": self.guess,
            "reply": self.reply,
            "found": self.found,
            "candidates": self.candidates,
            "left": self.left,
            "exact": self.exact,
            "expected": pair(self.expected),
            "best": pair(self.best),
            "best_guess": self.best_guess,
            "after": pair(self.after),
            "lost": pair(self.lost),
            "lost_estimate": float(self.lost_estimate),
            "luck": pair(self.luck),
            "luck_estimate": float(self.luck_estimate),
        }


@dataclass(frozen=True)
class SideReview:
    """The guesses of one player reviewed, and its summary; ``stopped`` says why the review
    ended before the last guess (a reply no word of the list fits), else None."""

    who: str
    guesses: list[GuessReview]
    found: bool
    stopped: str | None = None

    @property
    def lost(self) -> Fraction:
        """The guesses lost in all (:attr:`GuessReview.lost_estimate`)."""
        return sum((g.lost_estimate for g in self.guesses), Fraction(0))

    @property
    def luck(self) -> Fraction:
        """The luck in all, in guesses (:attr:`GuessReview.luck_estimate`)."""
        return sum((g.luck_estimate for g in self.guesses), Fraction(0))

    @property
    def skill(self) -> int:
        """``floor(99 exp(-lost / 2))``: 99 without a lost guess."""
        return min(99, math.floor(99 * math.exp(-float(self.lost) / 2) + 1e-9))

    @property
    def luck_score(self) -> int:
        """``round(99 / (1 + exp(-luck)))``: 50 for replies as good as expected."""
        return round(99 / (1 + math.exp(-float(self.luck))))

    def squares(self) -> str:
        """One square per guess: green (at most 0.1 guess lost), yellow (at most 0.5), red."""
        out = []
        for g in self.guesses:
            lost = g.lost_estimate
            out.append("🟩" if lost <= GOOD else "🟨" if lost <= FAIR else "🟥")
        return "".join(out)

    def as_dict(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "found": self.found,
            "stopped": self.stopped,
            "skill": self.skill,
            "luck_score": self.luck_score,
            "lost": float(self.lost),
            "luck": float(self.luck),
            "guesses": [g.as_dict() for g in self.guesses],
        }


def review_guesses(
    words: WordList,
    moves: Sequence[tuple[str, int]],
    who: str = "you",
    values: StateValues | None = None,
    nodes: int = 0,
) -> SideReview:
    """Review the guesses ``moves`` ((word, reply code) in order; the word's own reply is
    ``words.win_code`` when it found the word) of one player looking for a word of ``words``,
    the states searched ``nodes`` states beyond their bounds."""
    values = values or StateValues(words)
    if nodes > 0:
        review_guesses(words, moves, who, values)
        values.refine(nodes)
    vocab = Vocabulary(words)
    S = np.arange(len(words))
    out: list[GuessReview] = []
    found = False
    for made, (word, code) in enumerate(moves):
        r = vocab.replies(word, S)
        parts = {int(c): S[r == c] for c in np.unique(r)}
        win = words.win_code
        before = values.value(S, made)
        lo = hi = Fraction(0)
        for c, C in parts.items():
            if c == win:
                continue
            v = values.value(C, made + 1)
            lo += v.lower * len(C) / len(S)
            hi += v.upper * len(C) / len(S)
        # g and then the best trees found of its classes is a tree too: V(S) <= 1 + E(g)
        best = (before.lower - 1, min(before.upper - 1, hi))
        found = code == win
        if found:
            after, left = (Fraction(0), Fraction(0)), 0
        elif code not in parts:
            return SideReview(
                who,
                out,
                False,
                f"no word of the list fits the reply "
                f"{vocab.show(code)} to {word} (guess "
                f"{made + 1})",
            )
        else:
            v = values.value(parts[code], made + 1)
            after, left = (v.lower, v.upper), len(parts[code])
        out.append(
            GuessReview(
                word,
                int(code),
                found,
                len(S),
                left,
                (lo, hi),
                best,
                word if best[1] == hi < before.upper - 1 else words[before.guess],
                after,
            )
        )
        if found:
            break
        S = parts[code]
    return SideReview(who, out, found)


@dataclass(frozen=True)
class Review:
    """A game reviewed: each side's guesses, and what is needed to say it."""

    words: WordList
    mode: str
    outcome: str
    sides: list[SideReview] = field(default_factory=list)
    seconds: float = 0.0

    def share(self) -> str:
        """One line to share that gives nothing away: the mode, the list, the outcome, each
        side's guesses, skill, luck and squares."""
        head = f"Jotto {self.mode}, {self.words.source} {self.words.length} letters: {self.outcome}"
        parts = [head]
        for s in self.sides:
            n = len(s.guesses)
            parts.append(
                f"{s.who} {n} guess{'es' if n != 1 else ''} {s.squares()} skill "
                f"{s.skill} luck {s.luck_score}"
            )
        return " · ".join(parts)

    def lines(self) -> list[str]:
        """The review as people read it: per side a table of its guesses (columns as wide as
        their longest entry, so that a 5-letter game fits 80 columns), its summary, then the
        line to share.  Lost and luck are the estimates; their proven bounds are in
        :meth:`as_dict`."""
        vocab = Vocabulary(self.words)
        out = []
        for s in self.sides:
            title = "Your guesses" if s.who == "you" else "My guesses"
            out.append(f"{title} (expected guesses still needed after each; a..b: proven bounds):")
            rows = [
                ("#", "guess", "reply", "candidates", "after it", "after the best", "lost", "luck")
            ]
            for k, g in enumerate(s.guesses, 1):
                rows.append(
                    (
                        str(k),
                        g.guess,
                        "found" if g.found else vocab.show(g.reply),
                        f"{g.candidates} -> {g.left}",
                        _num(g.expected),
                        f"{_num(g.best)} {g.best_guess}",
                        f"{float(g.lost_estimate):.2f}",
                        f"{float(g.luck_estimate):+.2f}",
                    )
                )
            out.extend("  " + line for line in _table(rows, right={0, 2, 6, 7}))
            if s.stopped:
                out.append(f"  (review stopped: {s.stopped})")
            out.append(
                f"  skill {s.skill}/99 ({float(s.lost):.2f} guesses lost), luck "
                f"{s.luck_score}/99 ({float(s.luck):+.2f} guesses)"
            )
        out.append("Share: " + self.share())
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "outcome": self.outcome,
            "seconds": self.seconds,
            "words": {
                "source": self.words.source,
                "length": self.words.length,
                "size": len(self.words),
                "rules": self.words.rules.name,
            },
            "sides": [s.as_dict() for s in self.sides],
            "share": self.share(),
        }


def _num(x: tuple[Fraction, Fraction]) -> str:
    if x[0] == x[1]:
        return f"{float(x[0]):.2f}"
    return f"{float(x[0]):.2f}..{float(x[1]):.2f}"


def _table(rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    """Rows as lines of columns two spaces apart, each as wide as its longest entry; the
    columns in ``right`` aligned right."""
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    return [
        "  ".join(
            x.rjust(w) if j in right else x.ljust(w) for j, (x, w) in enumerate(zip(r, widths))
        ).rstrip()
        for r in rows
    ]


def review_game(
    words: WordList,
    mode: str,
    outcome: str,
    yours: Sequence[tuple[str, int]] | None,
    mine: Sequence[tuple[str, int]] | None,
    nodes: int = DEFAULT_NODES,
) -> Review:
    """Review a game on ``words``: the person's guesses ``yours`` and the computer's ``mine``
    ((word, reply code) pairs; None for a side that did not guess), with ``nodes`` states for
    the searches beyond the bounds (shared by both sides).  The same game reads the same every
    time: the budget is of states, not seconds."""
    t0 = time.perf_counter()
    values = StateValues(words)
    moves = [(who, m) for who, m in (("you", yours), ("me", mine)) if m]
    # the bounds of every state first, then the budget shared among the states not yet exact:
    # so a short budget still gives an interval for every guess
    for who, m in moves:
        review_guesses(words, m, who, values)
    values.refine(nodes)
    sides = [review_guesses(words, m, who, values) for who, m in moves]
    return Review(words, mode, outcome, sides, time.perf_counter() - t0)


def game_record(
    words: WordList,
    mode: str,
    outcome: str,
    yours: Sequence[tuple[str, int]] | None,
    mine: Sequence[tuple[str, int]] | None,
    level: str | None = None,
    my_word: str | None = None,
) -> dict[str, Any]:
    """A finished game as the game log keeps it (:class:`jotto.play.history.GameLog`): enough to
    review it again later.  The word list is named with its rules and SHA-256; the words
    themselves are kept unless the list is bundled with jotto."""
    listed: dict[str, Any] = {
        "source": words.source,
        "size": len(words),
        "length": words.length,
        "rules": words.rules.to_dict(),
        "sha256": words.sha256,
    }
    if words.source not in BUNDLED:
        listed["list"] = words.to_record()
    return {
        "mode": mode,
        "outcome": outcome,
        "level": level,
        "words": listed,
        "my_word": my_word,
        "yours": None if yours is None else [[w, int(c)] for w, c in yours],
        "mine": None if mine is None else [[w, int(c)] for w, c in mine],
    }


def _moves(record: dict[str, Any], key: str, where: str) -> list[tuple[str, int]] | None:
    moves = record.get(key)
    if moves is None:
        return None
    if not isinstance(moves, list) or not all(
        isinstance(m, list)
        and len(m) == 2
        and isinstance(m[0], str)
        and isinstance(m[1], int)
        and not isinstance(m[1], bool)
        for m in moves
    ):
        raise ValueError(f"{where}: {key} is not a list of [guess, reply] pairs")
    return [(w, c) for w, c in moves]


def logged_words(record: dict[str, Any], where: str = "the game") -> WordList:
    """The word list a logged game was played on (:func:`game_record`), checked against its
    SHA-256; :class:`ValueError` naming ``where`` otherwise."""
    d = record.get("words")
    if not isinstance(d, dict):
        raise ValueError(f"{where}: no word list recorded")
    try:
        if "list" in d:
            return WordList.from_record(d["list"], f"{where}: words.list")
        rules = Rules.from_dict(d.get("rules"), f"{where}: words.rules")  # type: ignore[arg-type]
        source, length = d.get("source"), d.get("length")
        if source not in BUNDLED or not isinstance(length, int) or isinstance(length, bool):
            raise ValueError(f"{where}: words: neither a bundled list nor the words themselves")
        wl = load_words(source, length=length, rules=rules)
    except (WordListError, RulesError) as exc:
        raise ValueError(str(exc)) from None
    if wl.sha256 != d.get("sha256"):
        raise ValueError(
            f"{where}: the bundled list {source} ({length} letters) is not the one "
            f"the game was played on (its SHA-256 differs: another jotto version)"
        )
    return wl


def review_record(
    record: dict[str, Any], where: str = "the game", nodes: int = DEFAULT_NODES
) -> Review:
    """Review a logged game again (:func:`game_record`)."""
    words = logged_words(record, where)
    yours, mine = _moves(record, "yours", where), _moves(record, "mine", where)
    if not yours and not mine:
        raise ValueError(f"{where}: no guess was made in it")
    vocab = Vocabulary(words)
    for key, moves in (("yours", yours), ("mine", mine)):
        for w, c in moves or ():
            if (
                not (w.isascii() and w.isalpha() and len(w) == words.length)
                or not 0 <= c < words.classes
            ):
                raise ValueError(
                    f"{where}: {key}: {w!r} with reply {c} is not a guess and a reply of this game"
                )
            problem = vocab.why_not_guess(w)
            if problem is not None:  # a record that does not fit its list: wrong numbers
                raise ValueError(f"{where}: {key}: {problem}")
    return review_game(
        words, str(record.get("mode", "game")), str(record.get("outcome", "")), yours, mine, nodes
    )
