"""The counting kernels against a plain NumPy count, on every kernel variant: class sizes of any
candidates over any targets, for every word length 1..26, small and large target sets (several
rounds of byte counters, several segments of chunk tables), partial vectors at the ends; whole
trees under uniform weights (the 16-bit q of small nodes) and fictitious-play-like weights
against the reference twin, on one and two threads; and the JOTTO_KERNEL override."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto import _core
from jotto.engine import runtime
from tests.examples import examples
from tests.twins import reference
from tests.twins.strategies import dictionaries

VARIANTS = runtime.available_kernel_variants()


def popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32)
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


def expected_sizes(masks, L, targets, candidates):
    """(L+1, nc): how many targets give each reply to each candidate, counted pair by pair."""
    cand = np.arange(len(masks)) if candidates is None else candidates
    replies = popcount(masks[cand][:, None] & masks[targets][None, :])
    return np.stack([(replies == j).sum(axis=1) for j in range(L + 1)]).astype(np.uint16)


@st.composite
def word_lists(draw):
    """Distinct random letter sets of one length 1..26 (as masks), up to 300 of them."""
    L = draw(st.integers(1, 26))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    room = len(list(itertools.islice(itertools.combinations(range(26), L), 301)))
    D = draw(st.integers(1, min(room, 300)))
    found: set[int] = set()
    while len(found) < D:
        letters = rng.choice(26, L, replace=False)
        found.add(int(np.bitwise_or.reduce(np.left_shift(1, letters))))
    return L, np.array(sorted(found), dtype=np.uint32), rng


@pytest.fixture(params=VARIANTS)
def variant(request):
    default = runtime.kernel_variant()
    runtime.select_kernel_variant(request.param)
    yield request.param
    runtime.select_kernel_variant(default)


@given(
    case=word_lists(),
    m=st.one_of(
        st.integers(1, 40), st.integers(200, 300), st.integers(4090, 4200), st.integers(9000, 9100)
    ),
    subset=st.booleans(),
)
def test_class_sizes_match_a_direct_count(variant, case, m, subset):
    L, masks, rng = case
    D = len(masks)
    words = _core.Words(masks, L)
    targets = rng.integers(0, D, m).astype(np.int32)  # repeats are allowed: m exceeds D
    candidates = None
    if subset:
        candidates = rng.integers(0, D, int(rng.integers(1, 2 * D + 70))).astype(np.int32)
    got = _core.class_sizes(words, targets, candidates)
    assert (got == expected_sizes(masks, L, targets, candidates)).all()


@settings(max_examples=examples(25), deadline=None)
@given(
    words=dictionaries(max_size=150),
    scale=st.sampled_from([1, 3, 2**20]),
    threads=st.sampled_from([1, 2]),
)
def test_uniform_weights_match_the_reference(variant, words, scale, threads):
    """Uniform weights take the kernels' 16-bit q (sum of squares, byte squares below 16
    targets, scaled by the common weight in the pick and the paper rule's window, whose scan goes
    a register at a time); dictionaries up to 150 words give nodes of every size that path takes
    and windows of every length."""
    D = len(words)
    game = reference.Game(words)
    v = [scale] * D
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact", threads=threads)
    assert got.tolist() == game.comp_num_guesses(v, "exact")
    h = [float(scale)] * D
    got = jotto.comp_num_guesses(words, np.array(h), rule="paper", threads=threads)
    assert got.tolist() == game.comp_num_guesses(h, "paper")


@settings(max_examples=examples(25), deadline=None)
@given(words=dictionaries(max_size=150), data=st.data(), threads=st.sampled_from([1, 2]))
def test_weights_match_the_reference(variant, words, data, threads):
    """Weights 1 + D c as fictitious play makes them (c mostly 0, small units or large ones),
    under both rules: the heavier targets' units looked up from the same bit-planes, or counted
    per excess, and (base) the counts of small nodes taken side by side."""
    D = len(words)
    game = reference.Game(words)
    c = data.draw(
        st.lists(
            st.one_of(st.just(0), st.integers(0, 5), st.integers(0, 2**20)), min_size=D, max_size=D
        )
    )
    v = [1 + D * x for x in c]
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact", threads=threads)
    assert got.tolist() == game.comp_num_guesses(v, "exact")
    h = [float(x) for x in v]
    got = jotto.comp_num_guesses(words, np.array(h), rule="paper", threads=threads)
    assert got.tolist() == game.comp_num_guesses(h, "paper")


@pytest.fixture(params=["default", "small"])
def thresholds(request):
    """The production thresholds, and ones under which nodes of more than 4 targets keep their
    class sizes (their heavier targets weighed from them) and small lists take the subset
    tables."""
    if request.param == "small":
        _core.set_thresholds(4, 8, 0)
    yield request.param
    _core.set_thresholds()


@settings(max_examples=examples(25), deadline=None)
@given(words=dictionaries(max_size=150), data=st.data(), threads=st.sampled_from([1, 2]))
def test_wide_units_match_the_reference(variant, thresholds, words, data, threads):
    """Weights 1 + D c with c up to 31, 2^10 - 1, 2^15 - 1, 2^20 - 1 (units of 1 to 4 base-32
    digits, as paper mode's: counted digit by digit, on small nodes in one pass) or wider (one
    sweep per distinct excess), under both rules."""
    D = len(words)
    game = reference.Game(words)
    top = data.draw(st.sampled_from([31, 2**10 - 1, 2**15 - 1, 2**20 - 1, 2**22]))
    c = data.draw(
        st.lists(st.one_of(st.just(0), st.integers(0, top), st.just(top)), min_size=D, max_size=D)
    )
    v = [1 + D * x for x in c]
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact", threads=threads)
    assert got.tolist() == game.comp_num_guesses(v, "exact")
    got = jotto.comp_num_guesses(
        words, np.array([float(x) for x in v]), rule="paper", threads=threads
    )
    assert got.tolist() == game.comp_num_guesses([float(x) for x in v], "paper")


@settings(max_examples=examples(15), deadline=None)
@given(words=dictionaries(max_size=150), data=st.data(), threads=st.sampled_from([1, 2]))
def test_stress_weights_match_the_reference(variant, thresholds, words, data, threads):
    """Issue 44's stress weights: any weights up to 2^30 and a few words of weight 10^9 (no
    common step, units far past the digit tables', sums past 2^32), under both rules."""
    D = len(words)
    game = reference.Game(words)
    v = data.draw(
        st.lists(
            st.one_of(st.integers(1, 2**30), st.just(2**30), st.just(1)), min_size=D, max_size=D
        )
    )
    for i in data.draw(st.lists(st.integers(0, D - 1), max_size=5)):
        v[i] = 10**9
    got = jotto.comp_num_guesses(words, np.array(v, dtype=np.int64), rule="exact", threads=threads)
    assert got.tolist() == game.comp_num_guesses(v, "exact")
    h = [float(x) for x in v]
    got = jotto.comp_num_guesses(words, np.array(h), rule="paper", threads=threads)
    assert got.tolist() == game.comp_num_guesses(h, "paper")


def test_counting_methods_agree_on_a_real_list(twl06):
    """Every third 5-letter word of TWL06 (945 words: nodes of hundreds of targets): each
    variant, counting its big nodes with subset tables wherever they may (from jt_t_shared's 128
    targets) or bit-sliced everywhere, gives the guess counts of base's bit-sliced sweeps, for
    uniform, fictitious-play-like and stress weights (the variants' measured rules,
    jt_kernels.table_above, choose between the two by size alone: results must not move)."""
    words = list(twl06[5])[::3]
    D = len(words)
    rng = np.random.default_rng(44)
    c = rng.choice([0, 0, 0, 0, 1, 2, 5, 31], size=D)
    stress = rng.integers(1, 2**30 + 1, D)
    stress[rng.choice(D, 5, replace=False)] = 10**9
    weights = {"uniform": None, "fictitious play": 1 + D * c, "stress": stress}
    default = runtime.kernel_variant()
    got = {}
    try:
        for name in VARIANTS:
            runtime.select_kernel_variant(name)
            for method, table in (("sliced", 10**6), ("tables", 4)):
                _core.set_thresholds(128, table)
                for wname, v in weights.items():
                    for threads in (1, 2):
                        got[name, method, wname, threads] = jotto.comp_num_guesses(
                            words, v, rule="exact", threads=threads
                        ).tolist()
    finally:
        _core.set_thresholds()
        runtime.select_kernel_variant(default)
    for (name, method, wname, threads), counts in got.items():
        assert counts == got["base", "sliced", wname, 1], (name, method, wname, threads)
    assert len({tuple(got["base", "sliced", w, 1]) for w in weights}) == 3


def random_words(n, seed, length=5):
    """n random words of distinct letters, no two sharing their letters."""
    rng = np.random.default_rng(seed)
    found: dict[frozenset, str] = {}
    while len(found) < n:
        w = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), length, replace=False))
        found.setdefault(frozenset(w), w)
    return list(found.values())


def test_lists_with_too_many_subsets_for_16_bit_ranks_count_without_tables():
    """The subset tables' ranks are 16-bit (common/sweeps_table.h): a list whose words have more
    than 2^16 distinct proper letter subsets (16,000 random 6-letter words) gets no tables.  With
    tables allowed at every big node its guess counts equal the bit-sliced sweeps' (ranks cut to
    16 bits would look up other subsets' counts)."""
    words = random_words(16000, 6, length=6)
    subsets = {
        frozenset(c) for w in words for s in range(1, 6) for c in itertools.combinations(w, s)
    }
    assert len(subsets) > 2**16
    got = {}
    try:
        for method, table in (("sliced", 10**6), ("tables", 4)):
            _core.set_thresholds(128, table)
            got[method] = jotto.comp_num_guesses(words, rule="exact", threads=2).tolist()
    finally:
        _core.set_thresholds()
    assert got["tables"] == got["sliced"]
    assert max(got["sliced"]) >= 3


@pytest.mark.parametrize("top", [31, 2**15 - 1, 2**20 - 1])
def test_wide_units_on_big_nodes_agree_across_variants(top):
    """3000 words, most of them heavier than the lightest with units of 1, 3 or 4 base-32
    digits: the root weighs more than 2048 heavier targets (several pieces of the digit sweep)
    and its children hundreds.  Every vector variant gives the guess counts of the scalar base
    level, which has no unit sweep (one pass per distinct excess, or per target)."""
    words = random_words(3000, top)
    rng = np.random.default_rng(top)
    c = rng.integers(0, top + 1, len(words))
    c[rng.random(len(words)) < 0.1] = 0
    v = (1 + len(words) * c).astype(np.int64)
    default = runtime.kernel_variant()
    got = {}
    try:
        for name in VARIANTS:
            runtime.select_kernel_variant(name)
            got[name] = jotto.comp_num_guesses(words, v, rule="exact", threads=2).tolist()
    finally:
        runtime.select_kernel_variant(default)
    assert all(counts == got["base"] for counts in got.values())
    assert len(got) == len(VARIANTS) and max(got["base"]) >= 2


def test_jotto_kernel_environment_override():
    code = "import jotto.engine.runtime as r; print(r.kernel_variant())"
    for name in VARIANTS:
        env = dict(os.environ, JOTTO_KERNEL=name)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == name
    env = dict(os.environ, JOTTO_KERNEL="v9")
    out = subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == VARIANTS[-1]
    assert "JOTTO_KERNEL='v9' is not a kernel variant this CPU runs" in out.stderr


@pytest.mark.parametrize("m", [127, 128, 200])
def test_byte_pair_products_at_their_bounds(m):
    """Every node small (jt_t_shared above m), m words of which one ("vwxyz") shares no letter
    with the rest, and nine heavier targets whose units (eight of 31, one of 7) sum to 255: for
    that candidate class 0 holds m - 1 targets and every unit, the largest class sizes and unit
    sums the vector levels' one-pass weighted sweep takes (at m = 127, n_0 X_0 = 126 * 255, just
    under the 2^15 of their byte-pair dot products; bigger nodes go digit by digit).  Every
    variant gives the scalar base level's counts (no dot products), and at m = 127 the
    reference's."""
    rng = np.random.default_rng(m)
    found = {frozenset("vwxyz"): "vwxyz"}
    while len(found) < m:
        w = "".join(rng.choice(list("abcdefghijklmnopqrstu"), 5, replace=False))
        found.setdefault(frozenset(w), w)
    words = sorted(found.values())
    D = len(words)
    units = np.zeros(D, np.int64)
    heavy = rng.choice([i for i, w in enumerate(words) if w != "vwxyz"], 9, replace=False)
    units[heavy] = [31] * 8 + [7]
    v = 1 + D * units
    default = runtime.kernel_variant()
    got = {}
    try:
        _core.set_thresholds(m + 1, 10**6)
        for name in VARIANTS:
            runtime.select_kernel_variant(name)
            got[name] = jotto.comp_num_guesses(words, v, rule="exact", threads=1).tolist()
    finally:
        _core.set_thresholds()
        runtime.select_kernel_variant(default)
    assert all(counts == got["base"] for counts in got.values())
    if m == 127:
        assert got["base"] == reference.Game(words).comp_num_guesses(v.tolist(), "exact")


def test_the_core_refuses_weights_below_zero_or_summing_past_its_limit():
    """The core's own check of integer weights (below the Python checks, for whoever calls it
    directly): none negative, their sum at most 2**63 // D, also where single weights are so
    big that a running sum would wrap; a tree built within the limit is updated within it."""
    wl = jotto.load_words(["cab", "dog", "fit", "hum"], length=3)
    lim = 2**63 // 4

    def build(v):
        return _core.build_tree(
            wl.core, _core.RULE_EXACT, _core.CAND_ALL, np.array(v, np.int64), None, 0.0, 0.0, 1
        )

    for bad in (
        [1, -1, 1, 1],
        [lim, 1, 0, 0],
        [2**62, 2**62, 2**62, 2**62],
        [-(2**63), 2**62, 2**62, 1],
    ):
        with pytest.raises(ValueError):
            build(bad)
    tree = build([lim - 3, 1, 1, 1])
    with pytest.raises(ValueError):
        tree.update(np.array([lim - 2, 1, 1, 1], np.int64), None, 1)
    tree.update(np.array([lim - 4, 2, 1, 1], np.int64), None, 1)
