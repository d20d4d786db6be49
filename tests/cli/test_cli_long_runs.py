"""Long runs that say what they do (issue 42, items 4-6): the quick part of a command is printed
before its long search, the search shows its bounds as they rise, and Ctrl-C ends it with what
was proved or simulated so far (exit status 130)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

import numpy as np
from click.testing import CliRunner

import jotto
from jotto.cli import main
from jotto.players.guessers import RandomGuesser

JOTTO = [sys.executable, "-m", "jotto"]


def run_until(args, *, stdout_has=None, stderr_has=None, timeout=90.0, cwd=None):
    """Start ``jotto ARGS``, wait until its output holds the given texts (while it still
    runs), send Ctrl-C (SIGINT) and return (exit status, stdout, stderr)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="200")
    proc = subprocess.Popen(
        [*JOTTO, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    out = {proc.stdout.fileno(): b"", proc.stderr.fileno(): b""}
    o, e = proc.stdout.fileno(), proc.stderr.fileno()
    end = time.monotonic() + timeout
    try:
        while not (
            (stdout_has is None or stdout_has.encode() in out[o])
            and (stderr_has is None or stderr_has.encode() in out[e])
        ):
            assert proc.poll() is None, (out[o].decode(), out[e].decode())
            assert time.monotonic() < end, ("timed out", out[o].decode(), out[e].decode())
            ready, _, _ = select.select([o, e], [], [], 0.2)
            for fd in ready:
                out[fd] += os.read(fd, 65536)
        time.sleep(1)  # into the search
        proc.send_signal(signal.SIGINT)
        rest_out, rest_err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, (out[o] + rest_out).decode(), (out[e] + rest_err).decode()


def test_solve_certify_prints_the_table_first_and_what_ctrl_c_proved(tmp_path):
    """``solve --certify`` without SECONDS at 3 letters never ends: the table comes first, the
    certification shows its bounds, Ctrl-C says what it proved."""
    code, out, err = run_until(
        ["solve", "-n", "3", "-i", "5", "--certify", "--progress", "-o", tmp_path / "s.jotto"],
        stdout_has="t* = ",
        stderr_has="certifying: ",
    )
    assert code == 130, err
    assert "Number of iterations" in out
    assert "proved so far: at least " in err and "Traceback" not in err


def test_evaluate_best_response_prints_the_evaluation_first(tmp_path):
    """``evaluate --best-response`` printed nothing for 30 s, not even what takes 1 s."""
    code, out, err = run_until(
        ["evaluate", "-n", "3", "-g", "norvig:max", "--best-response"], stdout_has="NashConv"
    )
    assert code == 130, err
    assert "Against hider uniform" in out
    assert "interrupted after" in err and "Traceback" not in err


def test_a_simulated_race_stopped_by_ctrl_c_says_what_was_simulated(monkeypatch):
    """Ctrl-C (here: after the 50th race) reports the races played, in one line, exit 130."""
    import jotto.cli.race as command

    real = command.race

    def race(*args, progress, **kwargs):
        def stop_at_50(so_far, games):
            progress(so_far, games)
            if so_far.games == 50:
                raise KeyboardInterrupt

        return real(*args, progress=stop_at_50, **kwargs)

    monkeypatch.setattr(command, "race", race)
    run = CliRunner().invoke(
        main, ["race", "-n", "2", "-1", "random", "-2", "random:seed=1", "--games", "1000"]
    )
    assert run.exit_code == 130, run.output
    assert "interrupted after 50 simulated races (seed 0): first wins" in run.stderr, run.stderr
    assert "Traceback" not in run.output


def test_race_reports_progress_race_by_race():
    """``progress`` gets the races so far after each, the last being the result's."""
    wl = jotto.load_words("enable", length=2)
    seen = []
    result = jotto.race(
        wl,
        RandomGuesser(wl, seed=1),
        RandomGuesser(wl, seed=2),
        games=50,
        progress=lambda so_far, games: seen.append((so_far, games)),
    )
    assert [s.games for s, _ in seen] == list(range(1, 51))
    assert all(games == 50 for _, games in seen)
    assert seen[-1][0] == result.estimate


def test_best_response_progress_rises_and_ends_at_the_result():
    """``progress(lower, upper)`` before every pass: the lower bounds never fall, the upper
    never rise, and they stay within the result's interval."""
    wl = jotto.load_words("enable", length=3)
    seen = []
    found = jotto.best_response(
        wl, nodes=30_000, threads=1, progress=lambda lo, hi: seen.append((lo, hi))
    )
    assert len(seen) >= 2
    lows = [lo for lo, _ in seen]
    highs = [hi for _, hi in seen]
    assert lows == sorted(lows) and highs == sorted(highs, reverse=True)
    assert lows[-1] <= found.lower and highs[-1] >= found.upper
    assert all(lo <= hi for lo, hi in seen)
    np.testing.assert_array_less(0, [float(x) for x in lows])
