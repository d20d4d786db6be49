"""The subset bound of the best-response search (JT_BS_SUBSETS, search_bounds.c: F(S) >= F(S \\ {t})
+ v_t from the memo's bounds of S minus one target; opt-in): passes that reuse a memo full of
bounds stay proven under every rule set against the exhaustive twin, it is off in hard mode
(where it does not hold) and while a certificate is written, and it fires on the 3-letter proof
without changing what the proof proves."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from jotto import _core
from jotto.game.rules import PRESETS
from tests.responses.test_best_response import assert_exact_pass, assert_pass_proves, core_search
from tests.twins import reference_game
from tests.twins.strategies import LETTERS


@st.composite
def dictionaries_with_weights(draw):
    """24 to 36 words of 2 or 3 distinct letters over the first 9 letters (classes above 12
    targets, where the bound is looked up), equal weights or 1-9."""
    L = draw(st.sampled_from([2, 3]))
    sets = draw(st.permutations(list(itertools.combinations(LETTERS[:9], L))))
    words = ["".join(s) for s in sets[: draw(st.integers(24, 36))]]
    v = draw(
        st.one_of(
            st.just([1] * len(words)),
            st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)),
        )
    )
    return words, v


@settings(max_examples=15, deadline=None)
@given(
    case=dictionaries_with_weights(),
    rules=st.sampled_from(list(PRESETS.values())),
    passes=st.lists(
        st.tuples(st.integers(1, 300), st.integers(0, 60), st.booleans()), min_size=2, max_size=5
    ),
)
def test_passes_over_a_memo_of_bounds_stay_proven(case, rules, passes):
    """Budgeted passes to betas around the optimum leave bounds of many states in the memo,
    which later passes combine into subset bounds: every value is a lower bound, exact when the
    pass finished below beta, and the last pass is the optimum, under every preset."""
    words, v = case
    true = reference_game.best_response_total(words, v, rules)
    search = core_search(rules, words, v)
    search.set_bounds(_core.BS_ALL_BOUNDS)
    for nodes, beta, by_size in passes:
        beta = max(true - 30 + beta, 1)
        assert_pass_proves(search, true, beta, nodes, by_size)
    assert_exact_pass(search, true)
    if rules.hard:
        assert search.subset_raised() == 0


def proof_2629(words, bounds, certificate=None):
    """One pass proving 2629/421 at 3 letters (the docs' example), from an empty memo."""
    search = _core.BestResponseSearch(words.core, np.ones(len(words), dtype=np.int64), 2**28)
    search.set_bounds(bounds)
    if certificate is not None:
        search.certificate_open(certificate)
    out = search.run(0, 2629, 0.0, 0, True)
    if certificate is not None:
        search.certificate_close()
    return out, search.subset_raised()


def test_the_subset_bound_fires_on_the_3_letter_proof(twl06, tmp_path):
    """It raises bounds on the way (fewer states) and proves the same; with a certificate open
    it is off (the checker could not re-verify it) and the pass is the one without it."""
    words = twl06[3]
    (value, exact, stop, *_, states), raised = proof_2629(words, _core.BS_ALL_BOUNDS)
    (v0, e0, s0, *_, states0), raised0 = proof_2629(words, _core.BS_DEFAULT_BOUNDS)
    assert (value, exact, stop) == (v0, e0, s0) and stop == "done" and value >= 2629
    assert raised > 0 and raised0 == 0 and states < states0
    (v1, *_, states1), raised1 = proof_2629(words, _core.BS_ALL_BOUNDS, tmp_path / "c.records")
    assert raised1 == 0 and states1 == states0 and v1 == v0
