"""Hypothesis strategies: small Jotto dictionaries over small alphabets (to force ties) and hider
weights from zeros to huge ranges."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

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


def int_weights(D):
    """Non-negative integers whose total keeps the core's sums exact (< 2**63 / D)."""
    cap = (2**63 // D - 1) // D
    element = st.one_of(st.just(0), st.integers(min_value=0, max_value=3),
                        st.integers(min_value=0, max_value=min(cap, 2**40)))
    return st.lists(element, min_size=D, max_size=D)
