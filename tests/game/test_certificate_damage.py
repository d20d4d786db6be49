"""Certificates damaged after they were written, bounds outside the format, arguments of the
wrong type, and what a budgeted run's certificate holds (issue 42, items 1-3).

Damage is damage: a flipped byte anywhere is reported in one line naming the file and the
damage (exit 2), never as a zlib traceback nor as a false proof step; the compiled and the
reference checkers report the same line for bounds no state can reach.
"""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

import jotto
from jotto.cli import main
from jotto.game.certificates import CertificateError, read_certificate
from jotto.game.proof_check import check_certificate
from jotto.game.words import WordList


def enable(length, n):
    wl = jotto.load_words("enable", length=length)
    return WordList.from_words(wl.words[:n], rules=wl.rules)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """The exact certificate of the 2-letter game against the uniform hider."""
    path = tmp_path_factory.mktemp("d") / "two.cert"
    found = jotto.best_response(jotto.load_words("enable", length=2), certificate=path)
    assert found.exact and check_certificate(path).ok
    return path


def varint(x: int) -> bytes:
    out = bytearray()
    while x >= 0x80:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def raw_parts(path):
    """(header line, record bytes without the end marker) of a certificate."""
    with gzip.open(path, "rb") as fh:
        data = fh.read()
    line, _, body = data.partition(b"\n")
    return json.loads(line), body[:-1]


def rewrite(path, header, body, count):
    """A certificate of ``header`` (with ``count`` records) and the record bytes ``body``,
    correctly compressed: not damage, a file the format's rules must judge."""
    with gzip.open(path, "wb") as fh:
        fh.write(json.dumps(dict(header, records=count)).encode() + b"\n" + body + b"\x00")


def record(idx, bound: bytes) -> bytes:
    out = varint(len(idx)) + bound
    last = -1
    for t in idx:
        out += varint(t - last - 1)
        last = t
    return out


def assert_one_line(path, *fragments):
    for reference in (False, True):
        with pytest.raises(CertificateError) as err:
            check_certificate(path, reference=reference)
        message = str(err.value)
        assert message.startswith(f"{path}: ") and "\n" not in message
        for fragment in fragments:
            assert fragment in message, message
    run = CliRunner().invoke(main, ["check-proof", str(path)])
    assert run.exit_code == 2, run.output
    lines = run.output.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0], run.output
    return message


@pytest.mark.parametrize("offset", list(range(10, 101, 10)))
def test_a_byte_flipped_near_the_start_is_damage(tmp_path, certificate, offset):
    """One byte flipped in the compressed data near the start: the issue saw a zlib traceback
    (exit 1) for 9 of 11 such offsets."""
    data = bytearray(certificate.read_bytes())
    data[offset] ^= 0xFF
    bad = tmp_path / "bad.cert"
    bad.write_bytes(bytes(data))
    with pytest.raises(CertificateError, match="bad.cert: "):
        check_certificate(bad)
    run = CliRunner().invoke(main, ["check-proof", str(bad)])
    assert run.exit_code == 2, run.output
    assert len(run.output.strip().splitlines()) == 1 and "Traceback" not in run.output


@pytest.mark.parametrize("where", [0.3, 0.5, 0.7, 0.9])
def test_damage_in_the_middle_is_not_a_false_step(tmp_path, certificate, where):
    """A flipped byte deep in the records is told apart from a false proof step by the
    stream's checksum, checked before any step."""
    data = bytearray(certificate.read_bytes())
    data[int(len(data) * where)] ^= 0x10
    bad = tmp_path / "bad.cert"
    bad.write_bytes(bytes(data))
    message = assert_one_line(bad)
    assert "damaged" in message or "truncated" in message, message
    assert "record" not in message


def test_a_number_of_more_than_64_bits_is_named_at_its_record(tmp_path, certificate):
    """A well-formed stream whose record 4,000 holds an 11-byte number: the report names that
    record (the issue saw "record 1" for damage 40,000 records in)."""
    header, body = raw_parts(certificate)
    with read_certificate(certificate) as (_, records):
        recs = [(list(map(int, idx)), b) for idx, b in records]
    assert len(recs) > 4000
    body = b"".join(record(idx, varint(b)) for idx, b in recs[:3999])
    body += record(recs[3999][0], b"\xff" * 10 + b"\x01")
    bad = tmp_path / "long.cert"
    rewrite(bad, header, body, len(recs))
    assert_one_line(bad, "record 4000: a number of more than 64 bits")


@pytest.mark.parametrize("bound", [2**63, 2**64 - 1])
def test_a_record_bound_of_2_63_or_more_reads_the_same_with_both_checkers(
    tmp_path, certificate, bound
):
    """The compiled checker crashed with OverflowError; the reference rejected it in a line."""
    header, body = raw_parts(certificate)
    bad = tmp_path / "big.cert"
    rewrite(bad, header, record([0, 1], varint(bound)) + body, header["records"] + 1)
    assert_one_line(bad, "record 1: the bound", "2**63 or more")


@pytest.mark.parametrize("bound", [2**63, 2**64, 2**70])
def test_a_header_bound_of_2_63_or_more_reads_the_same_with_both_checkers(
    tmp_path, certificate, bound
):
    header, body = raw_parts(certificate)
    header["claim"]["bound"] = bound
    bad = tmp_path / "claim.cert"
    rewrite(bad, header, body, header["records"])
    assert_one_line(bad, "header.claim.bound")


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"about": 5}, "about"),
        ({"about": ""}, "about"),
        ({"about": "a\nb"}, "about"),
        ({"certificate": 5}, "certificate"),
        ({"certificate": b"x.cert"}, "certificate"),
    ],
)
def test_arguments_that_go_into_a_certificate_are_checked(tmp_path, kw, name):
    """``about=5`` was accepted and the report read ``verified ():``."""
    kw = {"certificate": tmp_path / "a.cert", **kw}
    with pytest.raises(ValueError, match=f"^{name} must be"):
        jotto.best_response(enable(2, 20), **kw)
    assert not list(tmp_path.iterdir())


def test_a_budgeted_certificate_holds_each_state_once(tmp_path):
    """Budgeted passes prove states again to higher bounds: the certificate keeps each state
    once (its highest bound), smaller states first, and still verifies the run's bound."""
    wl = enable(3, 120)
    path = tmp_path / "b.cert"
    found = jotto.best_response(wl, nodes=20_000, threads=1, certificate=path)
    assert found.passes >= 3
    with read_certificate(path) as (header, records):
        recs = [(tuple(map(int, idx)), b) for idx, b in records]
    states = [idx for idx, _ in recs]
    assert len(set(states)) == len(states), "a state written twice"
    sizes = [len(idx) for idx in states]
    assert sizes == sorted(sizes)
    result = check_certificate(path)
    assert result.ok, result.failure
    assert result.lower == found.lower
