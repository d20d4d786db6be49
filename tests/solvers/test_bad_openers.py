"""Proofs on executors and opener tables: unreachable schedulers refused first, options and
arguments checked, tables never overwritten unasked."""

from __future__ import annotations

import time

import pytest

import jotto
from tests.bad_input import cli, one_line_error, snapshot

# ---- proofs on executors, opener tables (issue 31) ----------------------------------------------


def closed_port() -> int:
    """A local TCP port nothing listens on."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "command",
    [
        ("openers", "-n", 2, "-o", "{dir}/t.jotto"),
        ("evaluate", "-n", 2, "--best-response"),
        ("solve", "-n", 2, "--method", "double-oracle", "-o", "{dir}/s.jotto"),
    ],
)
def test_an_unreachable_scheduler_is_refused_before_the_work(tmp_path, command):
    before = snapshot(tmp_path)
    args = [str(a).format(dir=tmp_path) for a in command]
    started = time.monotonic()
    result = cli(*args, "--scheduler", f"tcp://127.0.0.1:{closed_port()}")
    one_line_error(result, "--scheduler", "cannot reach a Dask scheduler")
    assert time.monotonic() - started < 30
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("--workers", 0), "--workers"),
        (("--workers", 2, "--scheduler", "tcp://127.0.0.1:1"), "choose one"),
        (("--csv", "--json"), "choose one"),
        (("--save-tree", "zz", "t.json"), "not a word of the list"),
        (("--save-tree", "ax", "t.png"), "cannot tell a tree format"),
        (("--time-budget", 0), "--time-budget"),
        (("--width", "nan"), "--width"),
        (("--focus", 0), "--focus"),
    ],
)
def test_openers_options_are_checked(tmp_path, args, fragment):
    before = snapshot(tmp_path)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        result = cli("openers", "-n", 2, *args)
    one_line_error(result, fragment)
    assert snapshot(tmp_path) == before


def test_openers_does_not_overwrite_its_table_unasked(tmp_path):
    out = tmp_path / "t.jotto"
    out.write_bytes(b"precious")
    one_line_error(cli("openers", "-n", 2, "-o", out), "exists", "--resume", "--force")
    assert out.read_bytes() == b"precious"


def test_openers_resume_refuses_another_kind_of_file(tmp_path):
    out = tmp_path / "s.jotto"
    assert cli("solve", "-n", 2, "-i", 3, "-o", out).exit_code == 0
    before = out.read_bytes()
    one_line_error(cli("openers", "-n", 2, "-o", out, "--resume"), "not an opener table")
    assert out.read_bytes() == before


def test_openers_resume_refuses_another_word_list(tmp_path):
    out = tmp_path / "t.jotto"
    words = tmp_path / "w.txt"
    words.write_text("ab\ncd\nef\nac\n")
    assert cli("openers", "-n", 2, "-w", words, "-o", out).exit_code == 0
    one_line_error(cli("openers", "-n", 2, "-o", out, "--resume"), "another word list")


def test_a_table_with_a_malformed_plan_is_refused_and_a_huge_width_is_any_width(tmp_path):
    """A table's stored plan is checked as the arguments were (a fuzzed width of 1e308 once
    overflowed the search); a width past what any tree needs narrows like the list's size."""
    from jotto.util import strategy_file

    wl = jotto.WordList.from_words(["ab", "cd", "ef", "ac", "bd"])
    out = tmp_path / "t.jotto"
    table = jotto.opener_values(wl, budget=1.0, width=1e308, out=out)
    assert table.complete and jotto.OpenerTable.load(out).rows == table.rows
    payload = strategy_file.read(out)
    for plan in ({"focus": "x"}, {"width": -1.0}, []):
        strategy_file.write(out, {**payload, "plan": plan})
        with pytest.raises(strategy_file.StrategyFileError, match="t.jotto: malformed plan"):
            jotto.OpenerTable.load(out)


@pytest.mark.parametrize(
    "command", [("solve", "-n", 2, "-i", 2, "-o", "{dir}/s.jotto"), ("evaluate", "-n", 2)]
)
def test_executor_options_without_a_proof_are_refused(tmp_path, command):
    args = [str(a).format(dir=tmp_path) for a in command]
    one_line_error(cli(*args, "--workers", 2), "--workers")


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"budget": -1}, "budget"),
        ({"focus": 0}, "focus"),
        ({"width": float("inf")}, "width"),
        ({"resume": True}, "resume needs"),
        ({"memory": 10}, "memory"),
    ],
)
def test_opener_values_arguments_are_checked(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        jotto.opener_values(["ab", "cd", "ef"], **kwargs)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("play", "-g", "race:x"), "race takes only options"),
        (("race", "-2", "race:seconds=-1"), "seconds must be a positive number"),
        (("review", "--game", "x"), "'x' is not a valid integer"),
    ],
)
def test_race_guesser_and_review_options(args, fragment):
    """Issue 33: the race guesser's spec and jotto review's options."""
    one_line_error(cli(*args), fragment)
