"""Hypothesis strategies: small Jotto dictionaries over small alphabets (to force ties), under the
paper's rules or any rule set, and hider weights from zeros to huge ranges."""

from __future__ import annotations

import itertools

from hypothesis import assume
from hypothesis import strategies as st

from jotto.game.rules import ANAGRAMS, PRESETS, Rules

LETTERS = "etaoinshrdlu"


@st.composite
def dictionaries(draw, min_size=2, max_size=60, lengths=(2, 3, 4, 5)):
    """Distinct letter sets of one length over the first few letters, as words."""
    L = draw(st.sampled_from(lengths))
    a = draw(st.integers(min_value=L + 1, max_value=min(len(LETTERS), L + 7)))
    sets = list(itertools.combinations(LETTERS[:a], L))
    hi = min(max_size, len(sets))
    lo = min(min_size, hi)
    D = draw(st.one_of(st.integers(lo, min(hi, 12)), st.integers(min(hi, 12), hi)))
    chosen = draw(st.permutations(sets))[:D]
    return ["".join(draw(st.permutations(s))) for s in chosen]


def float_weights(D):
    """Non-negative floats: zeros, equal values, small integers, and wide ranges."""
    element = st.one_of(
        st.just(0.0),
        st.integers(min_value=0, max_value=5).map(float),
        st.floats(min_value=1e-30, max_value=1e30, allow_nan=False, allow_infinity=False),
        st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    )
    return st.one_of(
        st.lists(element, min_size=D, max_size=D),
        st.floats(min_value=1e-300, max_value=1e299).map(lambda x: [x] * D),
    )


def zero_one_weights(D):
    """Weights 1 on some words and 0 on the rest: secrets restricted to a subset of the list
    (``hide_from``), every word still a guess."""
    return st.lists(st.sampled_from([0, 1]), min_size=D, max_size=D)


def int_weights(D):
    """Non-negative integers whose total keeps the core's sums exact (< 2**63 / D)."""
    cap = (2**63 // D - 1) // D
    element = st.one_of(
        st.just(0),
        st.integers(min_value=0, max_value=3),
        st.integers(min_value=0, max_value=min(cap, 2**40)),
    )
    return st.lists(element, min_size=D, max_size=D)


#: Every preset, and any combination of the fine options.
ANY_RULES = st.one_of(
    st.sampled_from(list(PRESETS.values())),
    st.builds(
        Rules,
        repeats=st.booleans(),
        anagrams=st.sampled_from(ANAGRAMS),
        positional=st.booleans(),
        hard=st.booleans(),
    ),
)


@st.composite
def rules_dictionaries(
    draw, max_size=40, lengths=(2, 3, 4), rules=st.sampled_from(list(PRESETS.values()))
):
    """(rules, words): words of one length over a few letters, with anagram families (several
    spellings of one letter multiset) and, where the rules allow, repeated letters; the anagram
    rule applied as :meth:`Rules.select` applies it."""
    rules = draw(rules)
    L = draw(st.sampled_from(lengths))
    alphabet = LETTERS[: draw(st.integers(min_value=L + 1, max_value=L + 4))]
    letters = st.lists(st.sampled_from(alphabet), min_size=L, max_size=L, unique=not rules.repeats)
    families = draw(st.lists(st.tuples(letters, st.integers(1, 3)), min_size=1, max_size=16))
    words: list[str] = []
    for multiset, spellings in families:
        for _ in range(spellings):
            w = "".join(draw(st.permutations(multiset)))
            if w not in words:
                words.append(w)
    kept = rules.select(words[:max_size])[0]
    return rules, kept if kept else words[:1]


@st.composite
def rule_cases(draw, max_size=8, rules=ANY_RULES):
    """(rules, words, integer weights): a tiny dictionary of :func:`rules_dictionaries` under
    any rules, with weights from zeros to 2**40."""
    rules, words = draw(rules_dictionaries(max_size=max_size, rules=rules))
    v = draw(
        st.lists(
            st.one_of(st.integers(0, 3), st.integers(0, 2**40)),
            min_size=len(words),
            max_size=len(words),
        )
    )
    assume(sum(v) > 0)
    return rules, words, v
