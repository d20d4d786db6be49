"""The checker's compiled twin (src/jotto/game/proof_kernel.c) against the pure-Python checker
(proof_check._Game.verify, the reference): on random states, claims and records under every
rule set, and on certificates the search writes with every kind of mutation, both give the same
verdicts and the same reports, word for word."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jotto.game._proof_kernel import Kernel
from jotto.game.proof_check import _Game, check_certificate
from jotto.game.words import WordList
from tests.game.test_certificates import certify, load, save
from tests.responses.test_family_bound import family_dictionaries
from tests.twins.strategies import rule_cases

SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def both(game, kernel, idx, claim, only=None):
    """The reference's report and the compiled twin's (None: the claim holds)."""
    failed = kernel.verify(idx, claim, only)
    return game.verify(idx, claim, only), (
        None if failed is None else game.describe(idx, claim, failed)
    )


@st.composite
def games(draw):
    """(word list, weights): family-rich lists with equal or random weights (the family and
    member bounds at work), or tiny lists under any rules with weights up to 2**40."""
    if draw(st.booleans()):
        words = draw(family_dictionaries(max_extra=10))
        wl = WordList.from_words(words)
        v = (
            [1] * len(words)
            if draw(st.booleans())
            else draw(st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)))
        )
        if draw(st.booleans()) and v[0] == 1:
            v = [draw(st.integers(1, 5))] * len(words)
    else:
        rules, words, v = draw(rule_cases(max_size=8))
        wl = WordList.from_words(words, rules=rules)
    return wl, np.array(v, dtype=np.int64)


@SETTINGS
@given(case=games(), data=st.data())
def test_every_state_gets_the_reference_s_verdict(case, data):
    """Random states and claims around their values, with random records of their subsets
    entered in both checkers' tables: the same verdict, naming the same guess and bounds."""
    wl, v = case
    game = _Game(wl, v)
    kernel = Kernel(game, game.kernel_tables())
    pool = np.arange(len(wl)) if game.hard else np.flatnonzero(v > 0)
    for _ in range(data.draw(st.integers(0, 6))):  # records of subsets, true or not
        sub = np.array(
            sorted(data.draw(st.sets(st.sampled_from(pool.tolist()), min_size=1))), dtype=np.int64
        )
        b = data.draw(st.integers(0, 4 * int(v[sub].sum()) * len(sub) + 4))
        assert kernel.record(sub, b, False) is (b > game.known.get1(*game.key(sub)))
        game.known.put(*game.key(sub), b)
        assert kernel.known(sub)[0] == game.known.get1(*game.key(sub))
    for _ in range(4):
        idx = np.array(
            sorted(data.draw(st.sets(st.sampled_from(pool.tolist()), min_size=1))), dtype=np.int64
        )
        W = int(v[idx].sum())
        claim = data.draw(st.integers(0, W * (len(idx) + 2) + 2))
        only = data.draw(st.one_of(st.none(), st.integers(0, len(wl) - 1)))
        if only is not None and len(idx) < 2:
            only = None
        ref, compiled = both(game, kernel, idx, claim, only)
        assert compiled == ref


MUTATIONS = ("raise", "drop", "move", "claim", "weights", "none")


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=games(), mutation=st.sampled_from(MUTATIONS), data=st.data())
def test_the_mutation_suite_gets_the_same_verdicts(tmp_path_factory, case, mutation, data):
    """A certificate the search writes, with one record's bound raised, one record dropped,
    one target moved out of a record's state, the claim raised, or other weights (or as
    written): the compiled checker and the reference agree on the verdict and the report."""
    wl, v = case
    folder = tmp_path_factory.mktemp("m")
    path, _ = certify(folder, wl, v)
    header, records = load(path)
    if mutation in ("raise", "drop", "move") and records:
        i = data.draw(st.integers(0, len(records) - 1))
        idx, b = records[i]
        if mutation == "raise":
            records[i] = (idx, b + data.draw(st.integers(1, 3 * max(1, int(v.sum())))))
        elif mutation == "drop":
            del records[i]
        else:
            outside = [t for t in range(len(wl)) if t not in idx and (v[t] > 0 or wl.rules.hard)]
            if outside:
                records[i] = (sorted(idx[1:] + [data.draw(st.sampled_from(outside))]), b)
    elif mutation == "claim":
        header = dict(
            header,
            claim=dict(
                header["claim"], bound=header["claim"]["bound"] + data.draw(st.integers(1, 10))
            ),
        )
    elif mutation == "weights":
        weights = list(header["weights"])
        t = data.draw(st.integers(0, len(weights) - 1))
        weights[t] = max(0, weights[t] + data.draw(st.sampled_from([-1, 1])))
        if sum(weights):
            header = dict(header, weights=weights, claim=dict(header["claim"], total=sum(weights)))
    save(folder / "mutated.cert", header, records)
    ref = check_certificate(folder / "mutated.cert", reference=True)
    compiled = check_certificate(folder / "mutated.cert")
    assert (compiled.ok, compiled.failure, compiled.records) == (ref.ok, ref.failure, ref.records)
    if mutation == "none":
        assert compiled.ok


def test_the_two_agree_on_a_real_proof(tmp_path):
    """ENABLE's first 40 three-letter words under equal weights (records, member bounds): the
    certificate verifies in both, and records raised by one, spread over the file, are
    rejected by both at the same step (or verified by both)."""
    import jotto

    wl = jotto.load_words("enable", length=3)
    wl = WordList.from_words(wl.words[:40], rules=wl.rules)
    path, found = certify(tmp_path, wl)
    header, records = load(path)
    assert check_certificate(path).ok and check_certificate(path, reference=True).ok
    rejected = 0
    for i in range(0, len(records), max(1, len(records) // 12)):
        raised = records[:i] + [(records[i][0], records[i][1] + 1)] + records[i + 1 :]
        save(tmp_path / "r.cert", header, raised)
        ref = check_certificate(tmp_path / "r.cert", reference=True)
        compiled = check_certificate(tmp_path / "r.cert")
        assert (compiled.ok, compiled.failure) == (ref.ok, ref.failure)
        rejected += not ref.ok
    assert rejected >= 3  # (a record's bound may be below its state's value: raised, it holds)


def test_the_compiled_checker_shares_nothing_with_the_search():
    """proof_kernel.c and its wrapper include only the C library and each other: nothing of the
    engine (src/jotto/_engine), so the search's code cannot vouch for itself."""
    import re
    from pathlib import Path

    here = Path(__file__).resolve().parents[2] / "src" / "jotto" / "game"  # the sources: an
    # installed package holds the compiled module, not its C files
    for name in ("proof_kernel.c", "proof_kernel.h", "_proof_kernel.pyx"):
        text = (here / name).read_text()
        includes = set(re.findall(r'#include [<"]([^>"]+)[>"]', text))
        includes |= set(re.findall(r'cdef extern from "([^"]+)"', text))
        assert includes <= {"stdint.h", "stdlib.h", "string.h", "proof_kernel.h"}, name
        assert not re.search(r"\b(jt|bs)_\w+\(", text), name  # the engine's functions
