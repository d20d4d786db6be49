"""``jotto solve`` as a user runs it: output, Ctrl-C / SIGTERM / SIGKILL and resumption, and
one-line errors with exit code 2 for bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import jotto

JOTTO = [sys.executable, "-m", "jotto"]


def run(*args, cwd, check=None):
    """Run ``jotto`` in ``cwd`` (a test's own directory: default output files land there)."""
    proc = subprocess.run(
        JOTTO + [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    if check is not None:
        assert proc.returncode == check, proc.stderr
    return proc


def same_run(a: jotto.Solution, b: jotto.Solution) -> bool:
    return (
        a.iterations == b.iterations
        and a.t_star == b.t_star
        and [x.tolist() for x in a.best_responses] == [x.tolist() for x in b.best_responses]
        and (a.history.eps_hider == b.history.eps_hider).all()
        and (a.history.eps_guesser == b.history.eps_guesser).all()
        and (a.history.value == b.history.value).all()
        and (a.ang_star == b.ang_star).all()
    )


def test_solve_prints_table_json_and_plot(tmp_path):
    proc = run(
        "solve",
        "-n",
        3,
        "-i",
        100,
        "-o",
        tmp_path / "a.jotto",
        "--plot",
        tmp_path / "a.png",
        "--json",
        cwd=tmp_path,
        check=0,
    )
    out = json.loads(proc.stdout)
    assert out["table"]["number_of_iterations"] == 100 and out["mode"] == "exact"
    assert (tmp_path / "a.png").stat().st_size > 1000
    proc = run("solve", "-n", 3, "-i", 100, "--mode", "paper", cwd=tmp_path, check=0)
    assert "Our algorithm self-play hider payoff" in proc.stdout
    assert (tmp_path / "jotto-3-letters-paper.jotto").exists()


def test_paper_column_on_the_papers_dictionary(twl06_path, tmp_path):
    proc = run(
        "solve",
        "-w",
        twl06_path,
        "-n",
        2,
        "--mode",
        "paper",
        "-i",
        50,
        "-o",
        tmp_path / "p.jotto",
        cwd=tmp_path,
        check=0,
    )
    assert "paper" in proc.stdout.splitlines()[0]
    assert "Benchmark self-play hider payoff" in proc.stdout and "6.627" in proc.stdout


def _start(path: Path, iterations: int):
    return subprocess.Popen(
        JOTTO
        + [
            "solve",
            "-n",
            "5",
            "-i",
            str(iterations),
            "-o",
            str(path),
            "--checkpoint-every",
            "0.1",
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def _wait_for_checkpoints(path: Path, proc, n=2, timeout=60):
    seen, deadline, last = 0, time.time() + timeout, None
    while time.time() < deadline and proc.poll() is None:
        if path.exists() and path.stat().st_mtime_ns != last:
            last = path.stat().st_mtime_ns
            seen += 1
            if seen >= n:
                return
        time.sleep(0.02)
    pytest.fail("the solve wrote no checkpoint in time")


@pytest.fixture(scope="module")
def uninterrupted():
    return jotto.solve(5, iterations=1200, progress=False)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_saves_exits_cleanly_and_resumes_identically(tmp_path, uninterrupted, sig):
    path = tmp_path / "run.jotto"
    proc = _start(path, 1200)
    _wait_for_checkpoints(path, proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Resume with:\n  jotto solve --out" in err and "Traceback" not in err
    stopped = jotto.Solution.load(path)
    assert 0 < stopped.iterations < 1200
    run("solve", "-o", path, "--resume", "--no-progress", cwd=tmp_path, check=0)
    assert same_run(jotto.Solution.load(path), uninterrupted)


@pytest.mark.slow
def test_sigkill_loses_nothing_finished(tmp_path, uninterrupted):
    path = tmp_path / "run.jotto"
    proc = _start(path, 1200)
    _wait_for_checkpoints(path, proc, n=3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    # only the dead run's lock file may stay: unlocked (the kernel dropped its flock), it
    # cannot refuse the resumption, which removes it
    left = {p.name for p in tmp_path.iterdir()} - {"run.jotto", ".run.jotto.lock"}
    assert not left, "a temporary file left"
    saved = jotto.Solution.load(path)
    assert 0 < saved.iterations < 1200
    run("solve", "-o", path, "--resume", "--no-progress", cwd=tmp_path, check=0)
    assert same_run(jotto.Solution.load(path), uninterrupted)
    assert [p.name for p in tmp_path.iterdir()] == ["run.jotto"]


def _one_line_error(proc, *fragments):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in proc.stderr, proc.stderr
    return lines


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "small.jotto"
    run("solve", "-n", 3, "-i", 30, "-o", path, cwd=path.parent, check=0)
    return path


def test_bad_options(tmp_path):
    def bad(*args):
        return run("solve", *args, cwd=tmp_path)

    _one_line_error(bad("--mode", "fast"), "'fast' is not one of 'exact', 'paper'")
    _one_line_error(bad("-i", 0), "0 is not in the range 1<=x<=2147483647")
    _one_line_error(bad("-n", 30), "30 is not in the range 1<=x<=26")
    _one_line_error(bad("-w", tmp_path / "none.txt"), "none.txt: no such file")
    _one_line_error(bad("-n", 3, "-o", tmp_path / "no" / "dir" / "x.jotto"), "x.jotto")
    (tmp_path / "jotto-5-letters-exact.jotto").write_text("someone's file")
    _one_line_error(bad("-w", tmp_path / "none.txt"), "none.txt: no such file")
    # --resume without --out continues the default file (issue 42): here not a strategy file
    _one_line_error(bad("--resume"), "jotto-5-letters-exact.jotto")
    assert (tmp_path / "jotto-5-letters-exact.jotto").read_text() == "someone's file"


def test_existing_file_is_not_clobbered(small_run):
    before = small_run.read_bytes()
    lines = _one_line_error(
        run("solve", "-n", 3, "-i", 10, "-o", small_run, cwd=small_run.parent),
        "exists: --resume to continue it, --force to overwrite it",
    )
    assert len(lines) == 1 and small_run.read_bytes() == before


def test_same_solve_again_reports_the_file(small_run):
    before = small_run.read_bytes()
    proc = run("solve", "-n", 3, "-i", 30, "-o", small_run, cwd=small_run.parent, check=0)
    assert "already holds this solve" in proc.stderr and "Number of iterations" in proc.stdout
    assert small_run.read_bytes() == before


def test_resume_refuses_another_word_list_or_mode(small_run):
    before = small_run.read_bytes()
    _one_line_error(
        run(
            "solve",
            "-o",
            small_run,
            "--resume",
            "-w",
            "enable",
            "--anagrams",
            "norvig",
            cwd=small_run.parent,
        ),
        "made for another word list",
    )
    _one_line_error(
        run("solve", "-o", small_run, "--resume", "--mode", "paper", cwd=small_run.parent),
        "made in exact mode, not paper",
    )
    assert small_run.read_bytes() == before


def test_resume_refuses_corrupt_and_truncated_files(small_run, tmp_path):
    bad = tmp_path / "bad.jotto"
    bad.write_bytes(small_run.read_bytes()[:400])
    _one_line_error(
        run("solve", "-o", bad, "--resume", cwd=tmp_path), "bad.jotto: truncated or corrupt"
    )
    bad.write_text("not json at all")
    _one_line_error(
        run("solve", "-o", bad, "--resume", cwd=tmp_path), "bad.jotto: not a jotto strategy file"
    )
    assert bad.read_text() == "not json at all"


def test_double_oracle_plots_its_value_interval(tmp_path):
    """The bug: --plot with the double oracle solved for 46 s and then ended in a traceback."""
    pytest.importorskip("matplotlib")
    proc = run(
        "solve",
        "-n",
        2,
        "--method",
        "double-oracle",
        "-i",
        10,
        "--plot",
        tmp_path / "do.png",
        cwd=tmp_path,
        check=0,
    )
    assert "double oracle: value in [" in proc.stdout and "plot: " in proc.stdout
    assert (tmp_path / "do.png").stat().st_size > 1000


@pytest.mark.parametrize("resume", [False, True])
def test_an_option_of_another_method_is_refused_before_any_work(tmp_path, resume):
    if resume:  # the method is the file's: refused once it is read, before any round
        run(
            "solve",
            "-n",
            2,
            "--method",
            "double-oracle",
            "-i",
            2,
            "-o",
            tmp_path / "d.jotto",
            cwd=tmp_path,
            check=0,
        )
        before = (tmp_path / "d.jotto").read_bytes()
        args = ("--resume", "-o", tmp_path / "d.jotto")
    else:
        args = ("-n", 2, "--method", "double-oracle")
    started = time.monotonic()
    proc = run("solve", *args, "--mode", "paper", cwd=tmp_path, check=2)
    assert time.monotonic() - started < 30  # not after the 1-minute solve
    (line,) = proc.stderr.strip().splitlines()
    assert (
        line == "Error: --mode is fictitious-play's option: --method double-oracle does not take it"
    )
    if resume:
        assert (tmp_path / "d.jotto").read_bytes() == before
    else:
        assert not list(tmp_path.iterdir())


def test_a_stopped_double_oracle_says_round(tmp_path):
    proc = subprocess.Popen(
        JOTTO
        + [
            "solve",
            "-n",
            "3",
            "--method",
            "double-oracle",
            "-o",
            str(tmp_path / "d.jotto"),
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    deadline = time.monotonic() + 60
    while not (tmp_path / "d.jotto").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "jotto: stopped after round " in err and "iteration" not in err
