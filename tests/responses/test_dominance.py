"""The dominance rule of docs/certified-strength.md ("Dominance"), checked on the exhaustive twin
(tests/twins/reference_game.py): outside hard mode, a guess h whose split of a state S is coarser
than another guess g's (every class of h, its win class too, a union of classes of g, the win
class of g too) costs at S at least what g costs, provided h is not in S, or both are and
v_g >= v_h.  The search does not use it (measured: no state saved on the 3-letter proofs, as a
coarser split's class bounds already refute the word), but the rule and its two conditions are
claims of the docs, so they are tested here, the conditions by the smallest cases that break
the rule without them."""

from __future__ import annotations

from hypothesis import given, settings

from jotto.game.rules import PRESETS
from tests.twins import reference_game
from tests.twins.strategies import ANY_RULES, rule_cases

SOFT = ANY_RULES.filter(lambda r: not r.hard)


def blocks(words, rules, x, S):
    """The classes of guess x at state S, its win class ({x} if x is in S) among them."""
    win = rules.win_code(len(words[0]))
    out: dict[int, set[int]] = {}
    for i in S:
        out.setdefault(win if i == x else rules.reply(words[x], words[i]), set()).add(i)
    return {frozenset(b) for b in out.values()}


def coarser(bh, bg):
    """Every class of bh is a union of classes of bg (and the splits differ)."""
    return bh != bg and all(any(b <= c for c in bh) for b in bg)


def costs(words, v, rules):
    """For every state the recursion meets: {guess: (sum of F over its classes, its blocks)}."""
    F, classes = reference_game.state_values(words, v, rules)
    D = len(words)
    seen, todo = set(), [frozenset(range(D))]
    while todo:
        S = todo.pop()
        if len(S) < 2 or S in seen:
            continue
        seen.add(S)
        for g in range(D):
            todo.extend(classes(g, S))
    for S in seen:
        out = {}
        for x in range(D):
            parts = classes(x, S)
            if x in S or len(parts) > 1:  # x narrows S down
                out[x] = (sum(F(c) for c in parts), blocks(words, rules, x, S))
        yield S, out


def violations(words, v, rules):
    """(S, g, h, conditions hold) for every coarser h costing less than g."""
    for S, info in costs(words, v, rules):
        for g, (cg, bg) in info.items():
            for h, (ch, bh) in info.items():
                if coarser(bh, bg) and ch < cg:
                    yield S, g, h, h not in S or (g in S and v[g] >= v[h])


@settings(max_examples=150, deadline=None)
@given(case=rule_cases(max_size=7, rules=SOFT))
def test_a_coarser_split_never_costs_less(case):
    """Every rule set but hard mode, any weights (targets of weight 0 in a state too, as the
    twin keeps them): no coarser guess meeting the conditions costs less than the finer one."""
    rules, words, v = case
    assert [x for x in violations(words, v, rules) if x[3]] == []


def test_the_conditions_are_needed():
    """Without them the rule fails: a coarser h in S beside a finer g of less weight (h's win
    class costs nothing, g's class {h} costs v_h), and a coarser h in S beside a finer g outside
    it (g's win class pays nothing back)."""
    paper = PRESETS["paper"]
    weight = list(violations(["aio", "ast", "eno"], [3, 1, 1], paper))
    assert (frozenset({0, 1, 2}), 1, 0, False) in weight  # 'aio' 3 guesses in all, 'ast' 4
    win = list(violations(["aio", "eot", "iot", "ist", "nst"], [3, 1, 3, 1, 2], paper))
    assert (frozenset({0, 1, 3}), 4, 0, False) in win  # 'aio' 3, 'nst' 5
