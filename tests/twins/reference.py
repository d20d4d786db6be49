"""Slow, obviously correct twins of the core, following Ganzfried (2011) Algorithms 1-7 literally.

Words are given as strings and compared letter by letter (Algorithm 5); the hider strategy is a
list of Python floats (paper rule) or Python integers (exact rule).  Nothing here is shared with
the package: these functions are what the fast core is tested against.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence


def num_comm_letts(a: str, b: str) -> int:
    """Algorithm 5: letters the two words share, counted pair by pair."""
    counter = 0
    for c1 in a:
        for c2 in b:
            if c1 == c2:
                counter += 1
    return counter


class Game:
    """A dictionary with its reply table precomputed, as the paper does ("a table of size D^2").

    ``rules`` (a :class:`jotto.game.rules.Rules`, default the paper's): replies are
    ``rules.reply`` codes 0..R-1, R = ``rules.classes(L)``, the win is the guess being the target,
    and under hard rules GuesserGBR chooses among the consistent targets only."""

    def __init__(self, words: Sequence[str], rules=None):
        self.words = list(words)
        self.D = len(self.words)
        self.L = len(self.words[0])
        self.rules = rules
        self.R = self.L + 1 if rules is None else rules.classes(self.L)
        self.hard = rules is not None and rules.hard
        if rules is None:
            self.table = [[num_comm_letts(a, b) for b in self.words] for a in self.words]
        else:
            self.table = [[rules.reply(a, b) for b in self.words] for a in self.words]

    def candidates(self, S: Sequence[bool]) -> list[int]:
        """The words GuesserGBR may guess: all, or under hard rules the consistent ones."""
        return [i for i in range(self.D) if S[i] or not self.hard]

    # ---- the paper rule: Algorithms 1-4 in IEEE double ----------------------------------------

    def answer_probs(self, w: int, h: Sequence[float], S: Sequence[bool]) -> list[float]:
        """Algorithm 4 (answers 0..L, see exp_num_elims): sums left to right in dictionary
        order, then normalised by the sum of h over S, also left to right."""
        A = [0.0] * self.R
        total = 0.0
        for i in range(self.D):
            if S[i]:
                total += h[i]
        for i in range(self.D):
            if S[i]:
                k = self.table[w][i]
                A[k] = A[k] + h[i]
        return [a / total for a in A]

    def num_elims(self, w: int, S: Sequence[bool], j: int) -> int:
        """Algorithm 3."""
        counter = 0
        for k in range(self.D):
            if S[k] and self.table[w][k] != j:
                counter += 1
        return counter

    def exp_num_elims(self, w: int, h: Sequence[float], S: Sequence[bool]) -> float:
        """Algorithm 2, with the sum over every possible answer j = 0..L (the printed
        pseudocode's 1..L leaves out the answer 0; the paper's numbers need it); under other
        rules over every reply code in increasing order."""
        A = self.answer_probs(w, h, S)
        n = 0.0
        for j in range(self.R):
            n = n + A[j] * self.num_elims(w, S, j)
        return n

    def gbr_paper(self, h: Sequence[float], S: Sequence[bool]) -> int:
        """Algorithm 1: the first word with the maximal ExpNumElims.  One consistent target:
        guess it.  All of S weighing zero: its words are equally likely."""
        members = [i for i in range(self.D) if S[i]]
        if len(members) == 1:
            return members[0]
        if all(h[i] == 0.0 for i in members):
            h = [1.0] * self.D
        best, best_value = -1, -math.inf
        for i in self.candidates(S):
            n_i = self.exp_num_elims(i, h, S)
            if n_i > best_value:
                best, best_value = i, n_i
        return best

    # ---- the exact rule ------------------------------------------------------------------------

    def gbr_exact(self, v: Sequence[int], S: Sequence[bool]) -> int:
        """Minimise Q(w) = sum_{i in S} v_i n_{reply(w,i)} exactly; ties to a word of S, then the
        lowest index.  One consistent target: guess it.  All of S weighing zero: equal weights."""
        members = [i for i in range(self.D) if S[i]]
        if len(members) == 1:
            return members[0]
        if all(v[i] == 0 for i in members):
            v = [1] * self.D
        best_key = None
        best = -1
        for w in self.candidates(S):
            n = [0] * self.R
            for i in members:
                n[self.table[w][i]] += 1
            Q = sum(v[i] * n[self.table[w][i]] for i in members)
            key = (Q, 0 if S[w] else 1, w)
            if best_key is None or key < best_key:
                best_key, best = key, w
        return best

    # ---- Algorithms 6 and 7 --------------------------------------------------------------------

    def update_state(self, S: list[bool], nextguess: int, answer: int) -> list[bool]:
        """Algorithm 7."""
        S = list(S)
        for i in range(self.D):
            if S[i] and self.table[nextguess][i] != answer:
                S[i] = False
        return S

    def comp_num_guesses(self, weights: Sequence, rule: str) -> list[int]:
        """Algorithm 6: play GuesserGBR against every target separately.  GuesserGBR is a pure
        function of (weights, S), so its answers are remembered per state (this changes no
        result, only how long the twin takes)."""
        gbr = self.gbr_paper if rule == "paper" else self.gbr_exact
        memo: dict[tuple[bool, ...], int] = {}
        x = []
        for i in range(self.D):
            S = [True] * self.D
            numguesses = 0
            while True:
                numguesses += 1
                key = tuple(S)
                if key not in memo:
                    memo[key] = gbr(weights, S)
                nextguess = memo[key]
                answer = self.table[nextguess][i]
                if nextguess == i:  # the win is the guess being the target
                    break
                S = self.update_state(S, nextguess, answer)
            x.append(numguesses)
        return x


def integer_weights(h: Sequence[float]) -> list[int]:
    """The exact rule's documented conversion: scale by the power of two that brings the largest
    weight into [2**(B-1), 2**B), B = 62 - 2 ceil(log2 D), and round half to even."""
    D = len(h)
    hmax = max(h)
    if hmax == 0:
        return [0] * D
    B = 62 - 2 * (D - 1).bit_length()  # ceil(log2 D)
    e = math.frexp(hmax)[1]
    return [round(math.ldexp(x, B - e)) for x in h]


def solve_jotto(game: Game, T: int, mode: str, forced: Sequence[Sequence[int]] = ()) -> dict:
    """Algorithm 13 (SolveJotto) literally, for T iterations.

    ``paper``: floats, T* = the words of greatest ANG compared exactly (as integer sums of ING,
    so that averages that rounded differently still tie), BR uniform on it, payoffs of
    Algorithms 9-12 summed left to right; ``forced`` replaces T* at iterations 1, 2, ... (to
    reach tie sets no short run reaches).  ``exact``: integer weights 1 + D (times chosen), the
    lowest-index maximiser of the integer ANG sums, and epsilons as exact fractions.  Returns
    the best responses, epsilon_hider, epsilon_guesser and value per iteration, and t*.
    """
    from fractions import Fraction

    D = game.D
    out: dict = {"best_responses": [], "eps_hider": [], "eps_guesser": [], "value": []}
    if mode == "paper":
        s = [1.0 / D] * D
        ING = game.comp_num_guesses(s, "paper")
        ANG = [float(x) for x in ING]
        ang_sum = list(ING)
    else:
        w = [1] * D
        ING = game.comp_num_guesses(w, "exact")
        ang_sum = list(ING)
    best = None
    for t in range(0, T + 1):
        if t > 0:
            if mode == "paper":
                x = max(ang_sum)
                tstar = (
                    [i for i in range(D) if ang_sum[i] == x]
                    if t > len(forced)
                    else [int(i) for i in forced[t - 1]]
                )
                BR = [1 / len(tstar) if i in tstar else 0.0 for i in range(D)]
                a, b = 1 - 1 / (t + 1), 1 / (t + 1)
                s = [a * s[i] + b * BR[i] for i in range(D)]
                ING = game.comp_num_guesses(s, "paper")
                ANG = [a * ANG[i] + b * ING[i] for i in range(D)]
                ang_sum = [ang_sum[i] + ING[i] for i in range(D)]
            else:
                br = ang_sum.index(max(ang_sum))
                tstar = [br]
                w[br] += D
                ING = game.comp_num_guesses(w, "exact")
                ang_sum = [ang_sum[i] + ING[i] for i in range(D)]
            out["best_responses"].append(tstar)
        if mode == "paper":
            maxnumguesses = 0.0  # Algorithm 9
            for i in range(D):
                if ANG[i] > maxnumguesses:
                    maxnumguesses = ANG[i]
            hap = 0.0  # Algorithm 10
            for i in range(D):
                hap = hap + ANG[i] * s[i]
            result = 0.0  # Algorithm 11
            for i in range(D):
                result = result + ING[i] * s[i]
            gbr, gap = -1 * result, -1 * hap  # Algorithms 11, 12
            eh, eg, value = maxnumguesses - hap, gbr - gap, hap
            eps = max(eh, eg)
        else:
            n = t + 1
            sw = [Fraction(wi, n * D) for wi in w]
            ang = [Fraction(x, n) for x in ang_sum]
            s_ang = sum(si * ai for si, ai in zip(sw, ang))
            s_ing = sum(si * x for si, x in zip(sw, ING))
            eh, eg, value = max(ang) - s_ang, s_ang - s_ing, s_ang
            eps = max(eh, eg)
        if best is None or eps < best:
            best, out["t_star"] = eps, t
        out["eps_hider"].append(float(eh))
        out["eps_guesser"].append(float(eg))
        out["value"].append(float(value))
    return out


def best_response_total(words: Sequence[str], v: Sequence[int]) -> int:
    """The least sum_i v_i guesses_i over all decision trees, by exhaustive recursion over states
    (every target, weight 0 or not, stays in the state; every word that narrows the state down
    may be guessed): F(S) = W(S) + min_g sum_{j<L} F(S_j(g)), F(empty) = 0, and a target guessed
    outright costs nothing more.  Exponential: for dictionaries of a few words only."""

    game = Game(words)
    L = game.L

    @functools.cache
    def F(S: frozenset) -> int:
        if not S:
            return 0
        W = sum(v[i] for i in S)
        if len(S) == 1:
            return W
        best = None
        for g in range(game.D):
            classes: dict[int, set] = {}
            for i in S:
                classes.setdefault(game.table[g][i], set()).add(i)
            if L not in classes and len(classes) == 1:
                continue  # g does not narrow S down
            cost = sum(F(frozenset(c)) for j, c in classes.items() if j != L)
            if best is None or cost < best:
                best = cost
        return W + best

    return F(frozenset(range(game.D)))


def tree_total(words: Sequence[str], v: Sequence[int], guess, children) -> int:
    """sum_i v_i guesses_i of a tree given as node arrays (guess[n], children[n][reply]), each
    target walked from the root letter by letter."""
    L = len(words[0])
    total = 0
    for i, target in enumerate(words):
        node, n = 0, 0
        while True:
            n += 1
            r = num_comm_letts(words[guess[node]], target)
            if r == L:
                break
            node = children[node][r]
        total += v[i] * n
    return total
