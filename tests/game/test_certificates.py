"""Certificates of lower bounds (jotto.game.certificates, search_certificate.c) and their checker
(jotto.game.proof_check): every certificate the search writes is verified, on random family-rich
dictionaries, under every rule set and on several threads; its claim is the search's bound and
never above the exhaustive twin's optimum; and every kind of damage to a certificate is rejected
with the step named (mutations), or as unreadable (exit code 2 on the command line)."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jotto
from jotto import _core
from jotto.cli import main
from jotto.game.certificates import (
    CertificateError,
    CertificateWriter,
    read_certificate,
    remove_stale_streams,
)
from jotto.game.proof_check import _Game, check_certificate, trim_certificate
from jotto.game.words import WordList
from tests.responses.test_family_bound import family_dictionaries, states
from tests.twins import reference_game
from tests.twins.strategies import rule_cases

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def enable(length, n=None, rules=None):
    """The first n words of the bundled ENABLE list (all if None), as a word list."""
    wl = jotto.load_words("enable", length=length, rules=rules)
    return wl if n is None else WordList.from_words(wl.words[:n], rules=wl.rules)


def certify(tmp_path, words, v=None, name="c.cert", **kw):
    path = tmp_path / name
    found = jotto.best_response(words, v, certificate=path, **kw)
    return path, found


def true_total(words, v, rules=None):
    """The exhaustive twin's optimum (sum_i v_i guesses_i)."""
    if rules is None:
        return reference_game.best_response_total(list(words), list(v))
    return reference_game.best_response_total(list(words), list(v), rules)


# ---- every certificate the search writes is verified ------------------------------------------


@SETTINGS
@given(
    words=family_dictionaries(max_extra=10),
    uniform=st.booleans(),
    nodes=st.one_of(st.none(), st.integers(1, 300)),
    data=st.data(),
)
def test_certificates_on_family_rich_lists_verify(tmp_path_factory, words, uniform, nodes, data):
    """Equal weights put the family, member and lookahead bounds to work; budgets stop the
    search anywhere.  The certificate verifies, claims the search's lower bound, and that is at
    most the exhaustive optimum."""
    v = (
        [1] * len(words)
        if uniform
        else data.draw(st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)))
    )
    wl = WordList.from_words(words)
    path, found = certify(tmp_path_factory.mktemp("c"), wl, np.array(v), nodes=nodes)
    result = check_certificate(path)
    assert result.ok, result.failure
    assert result.lower == found.lower
    assert result.bound <= true_total(words, v)


@SETTINGS
@given(case=rule_cases(max_size=8))
def test_exact_certificates_under_every_rule_set(tmp_path_factory, case):
    """Any rules, weights from 0 to 2**40: an exact search's certificate proves the optimum."""
    rules, words, v = case
    wl = WordList.from_words(words, rules=rules)
    path, found = certify(tmp_path_factory.mktemp("c"), wl, np.array(v, dtype=np.int64))
    assert found.exact
    result = check_certificate(path)
    assert result.ok, result.failure
    assert result.bound == true_total(words, v, rules)
    assert result.lower == found.lower


def test_hard_mode_certificate_proves_the_twins_optimum(tmp_path):
    wl = enable(3, 40, "paper,hard")
    path, found = certify(tmp_path, wl)
    result = check_certificate(path)
    assert result.ok, result.failure
    assert found.exact and result.lower == found.lower


@settings(max_examples=25, deadline=None)
@given(
    words=family_dictionaries(max_extra=10),
    threads=st.integers(2, 3),
    nodes=st.one_of(st.just(0), st.integers(1, 300)),
)
def test_records_of_threads_come_after_the_records_they_use(
    tmp_path_factory, words, threads, nodes
):
    """Several threads append to one stream: a thread may use a bound another proved, and its
    record must come after that one.  Tiny lists are forced onto threads that share states."""
    wl = WordList.from_words(words)
    v = np.ones(len(wl), dtype=np.int64)
    path = tmp_path_factory.mktemp("c") / "t.cert"
    with CertificateWriter(path) as writer:
        search = _core.BestResponseSearch(wl.core, v, 2**22)
        search.certificate_open(writer.stream)
        value, exact, *_ = search.run(0, _core.BS_INF, 0.0, nodes, False, None, 0, threads, 3)
        records = search.certificate_close()
        writer.finish(wl, v, value, records, "best response")
    result = check_certificate(path)
    assert result.ok, result.failure
    assert value <= true_total(words, v)


def test_top_k_passes_write_no_records(tmp_path):
    """A top-K pass's values are of restricted trees (upper bounds): none enters a proof."""
    wl = enable(3, 60)
    v = np.ones(len(wl), dtype=np.int64)
    search = _core.BestResponseSearch(wl.core, v, 2**22)
    search.certificate_open(tmp_path / "raw")
    search.run(2, _core.BS_INF, 0.0, 0)
    assert search.certificate_close() == 0


def test_double_oracle_lower_bound_certificate(tmp_path):
    wl = enable(3, 24)
    path = tmp_path / "value.cert"
    sol = jotto.solve(wl, method="double-oracle", certificate=path, progress=False)
    result = check_certificate(path)
    assert result.ok, result.failure
    assert result.lower >= sol.value_bounds[0]
    assert result.about == "game value"
    assert result.header.weights.tolist() == [int(x) for x in sol.hider_int]


# ---- mutations ---------------------------------------------------------------------------------


def varint(x: int) -> bytes:
    out = bytearray()
    while x >= 0x80:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def load(path):
    """(header dict, [(targets, bound)]) of a certificate, read with the package's reader."""
    with read_certificate(path) as (h, recs):
        records = [(list(map(int, idx)), b) for idx, b in recs]
    with gzip.open(path, "rb") as fh:
        header = json.loads(fh.readline())
    return header, records


def save(path, header, records, count=None):
    """A certificate written by hand (this test's own encoder of the documented format)."""
    header = dict(header, records=len(records) if count is None else count)
    body = bytearray(json.dumps(header).encode() + b"\n")
    for idx, b in records:
        body += varint(len(idx)) + varint(b)
        last = -1
        for t in idx:
            body += varint(t - last - 1)
            last = t
    body += b"\x00"
    with gzip.open(path, "wb") as fh:
        fh.write(bytes(body))


@pytest.fixture(scope="module")
def exact_certificate(tmp_path_factory):
    """An exact certificate over 40 words of ENABLE (weights 2: room to lower one)."""
    wl = enable(3, 40)
    path = tmp_path_factory.mktemp("m") / "exact.cert"
    found = jotto.best_response(wl, np.full(len(wl), 2, dtype=np.int64), certificate=path)
    assert found.exact
    header, records = load(path)
    assert check_certificate(path).ok
    return wl, path, header, records


def needed_record(tmp_path, header, records):
    """The index of a record the proof cannot do without (dropping it fails the check)."""
    for i in range(len(records) - 2, -1, -1):
        save(tmp_path / "drop.cert", header, records[:i] + records[i + 1 :])
        if not check_certificate(tmp_path / "drop.cert").ok:
            return i
    raise AssertionError("no record is needed")


def test_a_bound_raised_is_rejected(tmp_path, exact_certificate):
    wl, _, header, records = exact_certificate
    root = max(range(len(records)), key=lambda i: (len(records[i][0]), records[i][1]))
    assert len(records[root][0]) == len(wl)  # the exact optimum of every target
    raised = list(records)
    raised[root] = (records[root][0], records[root][1] + 1)
    save(tmp_path / "raised.cert", header, raised)
    result = check_certificate(tmp_path / "raised.cert")
    assert not result.ok
    assert result.failure.startswith(f"record {root + 1}: the state")
    assert f"claims {records[root][1] + 1}, but the guess" in result.failure
    claim = dict(header, claim=dict(header["claim"], bound=header["claim"]["bound"] + 1))
    save(tmp_path / "claim.cert", claim, records)
    result = check_certificate(tmp_path / "claim.cert")
    assert not result.ok and result.failure.startswith("the claim: the state")


def test_a_guess_left_unrefuted_is_rejected(tmp_path, exact_certificate):
    """A record a guess's refutation needs is dropped: that guess's classes fall short."""
    _, _, header, records = exact_certificate
    i = needed_record(tmp_path, header, records)
    result = check_certificate(tmp_path / "drop.cert")
    assert "but the guess" in result.failure and "reply" in result.failure
    assert result.failure.startswith("record") or result.failure.startswith("the claim")
    assert i >= 0


def test_a_class_moved_is_rejected(tmp_path, exact_certificate):
    """A target moved out of a needed record's state into another: the record is about
    another set, so the class its parent needs has no record (or the record fails)."""
    wl, _, header, records = exact_certificate
    i = needed_record(tmp_path, header, records)
    idx, b = records[i]
    outside = next(t for t in range(len(wl)) if t not in idx)
    moved = sorted(idx[1:] + [outside])
    mutated = records[:i] + [(moved, b)] + records[i + 1 :]
    save(tmp_path / "moved.cert", header, mutated)
    result = check_certificate(tmp_path / "moved.cert")
    assert not result.ok
    assert "but the guess" in result.failure or "has value" in result.failure


def test_a_primitive_bound_inflated_is_rejected(tmp_path, exact_certificate):
    """The first record can rest on primitive bounds alone (nothing precedes it): set above its
    state's true value (the exhaustive twin's), the primitive bounds cannot carry it."""
    wl, _, header, records = exact_certificate
    idx, b = records[0]
    v = [2 if t in idx else 0 for t in range(len(wl))]
    true = true_total(list(wl.words), v)
    assert b <= true
    save(tmp_path / "inflated.cert", header, [(idx, true + 1)] + records[1:])
    result = check_certificate(tmp_path / "inflated.cert")
    assert not result.ok
    assert result.failure.startswith("record 1: the state")
    assert (
        "(counting)" in result.failure
        or "(member)" in result.failure
        or "(family)" in result.failure
        or "has value" in result.failure
    )


def test_a_certificate_for_other_weights_is_rejected(tmp_path, exact_certificate):
    """The same records presented for weights one lighter on one word: the optimum is lower,
    so the claim (the optimum of the weights proved) fails."""
    _, _, header, records = exact_certificate
    weights = list(header["weights"])
    weights[0] -= 1
    other = dict(header, weights=weights, claim=dict(header["claim"], total=sum(weights)))
    save(tmp_path / "other.cert", other, records)
    result = check_certificate(tmp_path / "other.cert")
    assert not result.ok
    assert "but the guess" in result.failure or "has value" in result.failure


@pytest.mark.parametrize("cut", [0.5, 0.99, "header", "count"])
def test_truncated_or_malformed_files_are_unreadable(tmp_path, exact_certificate, cut):
    _, path, header, records = exact_certificate
    bad = tmp_path / "bad.cert"
    data = path.read_bytes()
    if cut == "header":
        bad.write_bytes(gzip.compress(b'{"format": "jotto-certificate", "version": 7}\n'))
    elif cut == "count":
        save(bad, header, records, count=len(records) + 1)
    else:
        bad.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(CertificateError, match=r"^.*bad\.cert: "):
        check_certificate(bad)
    run = CliRunner().invoke(main, ["check-proof", str(bad)])
    assert run.exit_code == 2
    assert len(run.output.strip().splitlines()) == 1


def test_check_proof_command(tmp_path, exact_certificate):
    _, path, header, records = exact_certificate
    run = CliRunner().invoke(main, ["check-proof", str(path)])
    assert run.exit_code == 0, run.output
    total = sum(header["weights"])
    lower = Fraction(header["claim"]["bound"], total)
    assert f"verified (best response): every guesser needs at least {lower}" in run.output
    run = CliRunner().invoke(main, ["check-proof", "--json", str(path)])
    assert json.loads(run.output)["verified"] is True
    raised = [(idx, b + 10**6) for idx, b in records]
    save(tmp_path / "r.cert", header, raised)
    run = CliRunner().invoke(main, ["check-proof", str(tmp_path / "r.cert")])
    assert run.exit_code == 1
    assert "NOT verified: record 1:" in run.output
    ref = CliRunner().invoke(main, ["check-proof", "--reference", str(tmp_path / "r.cert")])
    assert ref.exit_code == 1 and ref.output == run.output


def test_workers_find_the_same_first_failure(tmp_path, exact_certificate):
    """Two processes sharing the records report the step one process reports."""
    _, path, header, records = exact_certificate
    assert check_certificate(path, workers=2).ok
    i = needed_record(tmp_path, header, records)
    one = check_certificate(tmp_path / "drop.cert")
    two = check_certificate(tmp_path / "drop.cert", workers=2)
    assert not two.ok and two.failure == one.failure
    assert i >= 0


def test_certificates_never_replace_a_file(tmp_path):
    target = tmp_path / "there.cert"
    target.write_text("keep me")
    wl = enable(2)
    with pytest.raises(FileExistsError):
        jotto.best_response(wl, certificate=target)
    assert target.read_text() == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["there.cert"]  # no stream left behind


def test_a_killed_run_s_stream_is_removed_by_the_next_run(tmp_path):
    """A run killed by SIGKILL leaves its hidden record stream beside the certificate; the next
    run writing that certificate removes it (its lock died with the process), and writes the
    certificate."""
    target = tmp_path / "killed.cert"
    script = (
        "import jotto, sys\n"
        "words = jotto.load_words('enable', length=3)\n"
        "jotto.best_response(words, certificate=sys.argv[1], threads=1)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, str(target)])
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".killed.cert.*.records")):
            assert proc.poll() is None and time.monotonic() < deadline, "no stream appeared"
            time.sleep(0.05)
        time.sleep(0.2)  # the search is writing records
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    (stale,) = tmp_path.glob(".killed.cert.*.records")
    assert not target.exists()
    found = jotto.best_response(enable(2), certificate=target)
    assert not stale.exists() and check_certificate(target).lower == found.lower
    assert [p.name for p in tmp_path.iterdir()] == ["killed.cert"]


def test_a_running_writer_s_stream_is_left_alone(tmp_path):
    """Two writers of one certificate at once: the second removes nothing of the first's (its
    lock is held), and each removes only its own stream."""
    with CertificateWriter(tmp_path / "x.cert") as first:
        first.stream.write_bytes(b"\x01\x01\x00")
        with CertificateWriter(tmp_path / "x.cert") as second:
            assert first.stream.exists() and second.stream.exists()
            assert remove_stale_streams(tmp_path / "x.cert") == []
        assert first.stream.exists() and not second.stream.exists()
    assert not first.stream.exists()


def test_check_against_the_word_list_it_is_about(tmp_path):
    wl = enable(2)
    path, _ = certify(tmp_path, wl)
    assert check_certificate(path, words=wl).ok
    with pytest.raises(ValueError, match="another word list"):
        check_certificate(path, words=list(wl.words)[:-1])


def test_a_claim_about_one_opener(tmp_path):
    """claim.first_guess (certificates per opener): the optimum holds for the trees opening with
    the optimal tree's first guess (its classes' records are in the certificate); one more than
    it is false for that opener, and rejected."""
    wl = enable(3, 40)
    v = np.full(len(wl), 2, dtype=np.int64)
    path = tmp_path / "exact.cert"
    found = jotto.best_response(wl, v, certificate=path)
    header, records = load(path)
    opener = wl.words[int(found.tree.guess[0])]
    claim = dict(header["claim"], first_guess=opener)
    save(tmp_path / "opener.cert", dict(header, claim=claim), records)
    result = check_certificate(tmp_path / "opener.cert")
    assert result.ok, result.failure
    assert result.header.first_guess == opener
    claim = dict(claim, bound=claim["bound"] + 1)
    save(tmp_path / "more.cert", dict(header, claim=claim), records)
    result = check_certificate(tmp_path / "more.cert")
    assert not result.ok
    assert result.failure.startswith("the claim: the state") and repr(opener) in result.failure


def test_evaluate_and_solve_write_certificates(tmp_path):
    """jotto evaluate --best-response --certificate, jotto solve --method double-oracle
    --certificate: each writes a certificate that jotto check-proof verifies; without the
    bound they certify, or over an existing file, a one-line error (exit 2)."""
    runner = CliRunner()
    words = tmp_path / "words.txt"
    words.write_text("\n".join(enable(3, 20).words) + "\n")
    ev = tmp_path / "ev.cert"
    run = runner.invoke(
        main,
        ["evaluate", "--words", str(words), "-n", "3", "--best-response", "--certificate", str(ev)],
    )
    assert run.exit_code == 0, run.output
    run = runner.invoke(main, ["check-proof", str(ev)])
    assert run.exit_code == 0 and "verified (best response)" in run.output
    do = tmp_path / "do.cert"
    run = runner.invoke(
        main,
        [
            "solve",
            "--words",
            str(words),
            "-n",
            "3",
            "--method",
            "double-oracle",
            "--out",
            str(tmp_path / "do.jotto"),
            "--certificate",
            str(do),
        ],
    )
    assert run.exit_code == 0, run.output
    run = runner.invoke(main, ["check-proof", "--json", str(do)])
    assert run.exit_code == 0 and json.loads(run.output)["about"] == "game value"
    for args in (
        ["evaluate", "--words", str(words), "-n", "3", "--certificate", str(tmp_path / "x")],
        ["evaluate", "--words", str(words), "-n", "3", "--best-response", "--certificate", str(ev)],
        [
            "solve",
            "--words",
            str(words),
            "-n",
            "3",
            "--out",
            str(tmp_path / "fp.jotto"),
            "--certificate",
            str(tmp_path / "y"),
        ],
    ):
        run = runner.invoke(main, args)
        assert run.exit_code == 2 and len(run.output.strip().splitlines()) == 1, run.output


@SETTINGS
@given(case=rule_cases(max_size=8), data=st.data())
def test_the_checker_never_verifies_a_false_bound(tmp_path_factory, case, data):
    """The checker's own bounds against the exhaustive twin: the search's exact certificate
    with a record, or the claim, raised above the true value of its state is rejected, under
    every rule set and any weights."""
    rules, words, v = case
    folder = tmp_path_factory.mktemp("c")
    path, _ = certify(folder, WordList.from_words(words, rules=rules), np.array(v, dtype=np.int64))
    header, records = load(path)
    if records:
        i = data.draw(st.integers(0, len(records) - 1))
        idx, _ = records[i]
        if rules.hard:  # a hard-mode state holds its words of weight 0, and guesses only them
            true = true_total([words[t] for t in idx], [v[t] for t in idx], rules)
        else:
            true = true_total(words, [v[t] if t in idx else 0 for t in range(len(words))], rules)
        save(folder / "bad.cert", header, records[:i] + [(idx, true + 1)] + records[i + 1 :])
        assert not check_certificate(folder / "bad.cert").ok
    claim = dict(header["claim"], bound=true_total(words, v, rules) + 1)
    save(folder / "claim.cert", dict(header, claim=claim), records)
    assert not check_certificate(folder / "claim.cert").ok


# ---- the checker's vectorised bounds against their definitions, class by class ---------------


@SETTINGS
@given(state=states(), uniform=st.booleans(), data=st.data())
def test_bounds_of_every_guess_at_once_are_each_class_s_own(state, uniform, data):
    """The checker bounds the classes of every guess at once (counting by ranks, the families'
    parts by arrays); each equals the bound of that class alone, from the definitions: sum_k
    (W - the N_k heaviest), the family bound of its parts (the per-class code the member bound
    uses), and the member bound as a loop over first guesses."""
    words, S = state
    wl = WordList.from_words(words)
    v = (
        np.ones(len(wl), dtype=np.int64)
        if uniform
        else np.array(
            data.draw(st.lists(st.integers(1, 9), min_size=len(wl), max_size=len(wl))),
            dtype=np.int64,
        )
    )
    game = _Game(wl, v)
    idx = np.array(S)
    w = v[idx]
    guesses, codes, cnt = game.splits(None, idx)
    assert all(len(set(codes[i].tolist())) > 1 for i in range(len(guesses)))
    assert len(guesses) == sum(len(set(game.reply[g, idx].tolist())) > 1 for g in range(len(wl)))
    counting = game.class_counting(codes, w, cnt)
    for i in range(len(guesses)):
        for r in range(game.win):
            assert cnt[i, r] == (codes[i] == r).sum()
            assert counting[i, r] == game.counting(w[codes[i] == r])
    fams = game.pack_families(idx) if game.families and uniform else []
    if fams:
        family = game.family_bounds(fams, game.masks[guesses], cnt)
        for i, g in enumerate(guesses.tolist()):
            parts = game._parts(fams, int(game.masks[g]))
            for r in range(game.win):
                sizes = [x.bit_count() for _, x in parts.get(r, [])]
                alone = game._family_bound(int(cnt[i, r]), sizes, sum(sizes)) if sizes else 0
                assert family[i, r] == alone
    # the member bound: a member first (its classes at their counting bounds) or, outside
    # hard mode, another word (finds nothing; B N_k within k more)
    W = int(w.sum())
    best = min(
        W + sum(game.counting(w[game.reply[a, idx] == r]) for r in range(game.win))
        for a in idx.tolist()
    )
    top = np.concatenate([[0], np.cumsum(np.sort(w)[::-1])])
    other, k = W, 0
    while game.B * game.cap(k) < len(idx):
        other += W - int(top[game.B * game.cap(k)])
        k += 1
    assert game.member_bound(idx) == min(best, other)


def test_a_failure_names_the_first_guess_in_the_list_s_order(tmp_path, exact_certificate):
    """Several guesses may fall short of a raised bound: the report names the first of them in
    the list's order, the same on every run (the checker's keys are drawn afresh each time)."""
    wl, _, header, records = exact_certificate
    raised = [(idx, b + 10**6) for idx, b in records]
    save(tmp_path / "r.cert", header, raised)
    reports = {check_certificate(tmp_path / "r.cert").failure for _ in range(3)}
    assert len(reports) == 1
    (report,) = reports
    # record 1 raised by 10**6 fails for every guess: the first word that narrows its state
    state = records[0][0]
    reply = _Game(wl, np.array(header["weights"])).reply
    first = next(g for g in range(len(wl)) if len(set(reply[g, state].tolist())) > 1)
    assert report.startswith("record 1:") and f"the guess {wl.words[first]!r}" in report


# ---- trimmed certificates: only the records the proof uses -------------------------------------


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(words=family_dictionaries(max_extra=10), uniform=st.booleans(), data=st.data())
def test_a_trimmed_certificate_proves_the_same_claim(tmp_path_factory, words, uniform, data):
    """The records the proof uses suffice: the trimmed certificate verifies the same claim with
    at most as many records (a subsequence of them, in their order), and trimming it again
    keeps them all."""
    v = (
        [1] * len(words)
        if uniform
        else data.draw(st.lists(st.integers(1, 9), min_size=len(words), max_size=len(words)))
    )
    folder = tmp_path_factory.mktemp("t")
    path, found = certify(folder, WordList.from_words(words), np.array(v))
    trimmed = trim_certificate(path, folder / "trimmed.cert")
    assert trimmed.check.ok and trimmed.check.records == check_certificate(path).records
    result = check_certificate(folder / "trimmed.cert")
    assert result.ok and result.bound == found.lower * sum(v) and result.records == trimmed.kept
    _, records = load(path)
    _, kept = load(folder / "trimmed.cert")
    it = iter(records)
    assert all(any(r == k for r in it) for k in kept)  # a subsequence, in the file's order
    again = trim_certificate(folder / "trimmed.cert", folder / "again.cert")
    assert again.kept == trimmed.kept


def test_trimming_a_false_certificate_writes_nothing(tmp_path, exact_certificate):
    _, path, header, records = exact_certificate
    raised = [(idx, b + 10**6) for idx, b in records]
    save(tmp_path / "r.cert", header, raised)
    trimmed = trim_certificate(tmp_path / "r.cert", tmp_path / "t.cert")
    assert not trimmed.check.ok and trimmed.kept == 0
    assert trimmed.check.failure == check_certificate(tmp_path / "r.cert").failure
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.cert"]
    trimmed = trim_certificate(path, tmp_path / "t.cert")
    assert trimmed.check.ok and 0 < trimmed.kept <= len(records)


def test_check_proof_trim_command(tmp_path, exact_certificate):
    _, path, _, records = exact_certificate
    out = tmp_path / "t.cert"
    run = CliRunner().invoke(main, ["check-proof", str(path), "--trim", str(out)])
    assert run.exit_code == 0, run.output
    kept = check_certificate(out).records
    assert f"{out}: written with the {kept} records of {len(records)} the proof uses" in run.output
    for args in (
        ["--trim", str(out)],
        ["--trim", str(tmp_path / "u.cert"), "--workers", "2"],
        ["--trim", str(tmp_path / "u.cert"), "--reference"],
    ):
        run = CliRunner().invoke(main, ["check-proof", str(path), *args])
        assert run.exit_code == 2 and len(run.output.strip().splitlines()) == 1, run.output
        assert "exists" in run.output or "--trim" in run.output
