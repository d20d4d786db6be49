"""Files: no overwriting unasked, writability checked before the work, atomic writes, locks
between writers (and between games recorded at once)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import jotto
from jotto.util.files import FileLockedError, output_lock, write_atomic
from tests.bad_input import JOTTO, cli, jotto_run, one_line_error, snapshot

# ---- 2. files: locks, no overwriting unasked, writability first ------------------------------


def test_tree_does_not_overwrite_a_file(tmp_path):
    out = tmp_path / "t.json"
    out.write_text("mine")
    one_line_error(
        cli("tree", "-n", 3, "-g", "norvig:max", "-o", out), "t.json: exists; --force overwrites it"
    )
    assert out.read_text() == "mine"


def test_tree_does_not_overwrite_the_word_list_it_reads(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("ace\nbid\ncog\ndux\n")
    before = snapshot(tmp_path)
    one_line_error(
        cli(
            "tree", "-w", words, "-n", 3, "-g", "norvig:max", "-o", tmp_path / "t.txt", "-o", words
        ),
        "words.txt: exists",
    )
    assert snapshot(tmp_path) == before  # not even t.txt: nothing is written unless all can be


def test_tree_format_is_checked_before_the_work(tmp_path):
    start = time.perf_counter()
    one_line_error(
        cli("tree", "-n", 5, "-o", tmp_path / "t.json", "-o", tmp_path / "t.xml"),
        "t.xml: cannot tell a tree format from the suffix '.xml'",
    )
    assert time.perf_counter() - start < 5 and not list(tmp_path.iterdir())


def test_tree_force_overwrites(tmp_path):
    out = tmp_path / "t.json"
    out.write_text("mine")
    assert cli("tree", "-n", 3, "-g", "norvig:max", "-o", out, "--force").exit_code == 0
    assert len(jotto.DecisionTree.load(out)) > 100


@pytest.mark.parametrize(
    "command, name",
    [
        (("tree", "-n", 3, "-g", "norvig:max", "-o"), "t.json"),
        (("solve", "-n", 3, "-i", 3, "-o"), "s.jotto"),
        (("solve", "-n", 3, "-i", 3, "--plot"), "p.png"),
        (("evaluate", "-n", 3, "-g", "norvig:max", "--plot"), "p.png"),
    ],
)
def test_output_into_a_missing_directory_fails_first_naming_it(tmp_path, command, name):
    out = tmp_path / "no" / "such" / name
    start = time.perf_counter()
    line = one_line_error(
        cli(*command, out), f"{out}: cannot write it: {out.parent} does not exist"
    )
    assert ".tmp" not in line and time.perf_counter() - start < 5
    assert not (tmp_path / "no").exists()


def test_output_under_a_file_fails_first(tmp_path):
    (tmp_path / "f").write_text("a file")
    one_line_error(
        cli("solve", "-n", 3, "-i", 3, "-o", tmp_path / "f" / "x.jotto"),
        "x.jotto: cannot write it:",
        "is not a directory",
    )
    assert (tmp_path / "f").read_text() == "a file"


def test_output_that_is_a_directory(tmp_path):
    one_line_error(cli("solve", "-n", 3, "-i", 3, "-o", tmp_path), "is a directory")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into read-only places")
def test_output_into_a_read_only_directory(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        one_line_error(
            cli("solve", "-n", 3, "-i", 3, "-o", ro / "x.jotto"), "x.jotto: cannot write in"
        )
    finally:
        ro.chmod(0o755)


@pytest.mark.parametrize(
    "command",
    [
        ("solve", "-n", 3, "-i", 3, "-o", "{dir}/s.jotto", "--plot", "{dir}/p.png"),
        ("evaluate", "-n", 3, "-g", "norvig:max", "--plot", "{dir}/p.png"),
    ],
)
def test_plots_are_not_overwritten_unasked(tmp_path, command):
    (tmp_path / "p.png").write_text("my picture")
    one_line_error(
        cli(*(a.format(dir=tmp_path) if isinstance(a, str) else a for a in command)),
        "p.png: exists; --force overwrites it",
    )
    assert snapshot(tmp_path) == {"p.png": b"my picture"}


@pytest.mark.parametrize(
    "command",
    [("solve", "-n", 3, "-i", 3, "-o", "{dir}/s.jotto"), ("evaluate", "-n", 3, "-g", "norvig:max")],
)
def test_a_plot_format_is_checked_before_the_work(tmp_path, command):
    args = [a.format(dir=tmp_path) if isinstance(a, str) else a for a in command]
    one_line_error(cli(*args, "--plot", tmp_path / "p.gif"), "p.gif: plots are PNG, SVG, PDF")
    assert not list(tmp_path.iterdir())


def test_plots_are_written_atomically_where_asked(tmp_path):
    pytest.importorskip("matplotlib")
    result = cli("evaluate", "-n", 3, "-g", "norvig:max", "--plot", tmp_path / "h.svg")
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["h.svg"]
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")


def test_write_errors_name_the_users_file_not_a_temporary(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        write_atomic(tmp_path / "gone" / "x.jotto", b"data")
    assert info.value.filename == str(tmp_path / "gone" / "x.jotto")


def test_a_second_writer_is_refused(tmp_path, runs):
    path = tmp_path / "run.jotto"
    path.write_bytes(runs["exact"][0].read_bytes())
    with output_lock(path):  # this process writes it: another jotto must not
        proc = subprocess.run(
            JOTTO + ["solve", "-o", str(path), "--resume", "-i", "20"],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=300,
        )
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert f"another process (pid {os.getpid()}) is writing this file" in proc.stderr
    assert path.read_bytes() == runs["exact"][0].read_bytes()


@pytest.mark.slow
def test_two_solves_into_one_file(tmp_path):
    """A running solve holds --out; a second one (even with --force) is refused at once, and
    the first one's work is intact when it is stopped."""
    path = tmp_path / "run.jotto"
    first = subprocess.Popen(
        JOTTO
        + [
            "solve",
            "-n",
            "5",
            "-i",
            "3000",
            "-o",
            str(path),
            "--no-progress",
            "--checkpoint-every",
            "0.2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.time() + 120
    while not path.exists() and time.time() < deadline and first.poll() is None:
        time.sleep(0.05)
    assert path.exists(), "the first solve wrote no checkpoint"
    for extra in ([], ["--force"], ["--resume"]):
        second = jotto_run(
            ["solve", "-n", 5, "-i", 10, "-o", path, *extra], stdin=subprocess.DEVNULL
        )
        assert second.returncode == 2 and "Traceback" not in second.stderr
        assert f"another process (pid {first.pid}) is writing this file" in second.stderr
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 130, err
    assert 0 < jotto.Solution.load(path).iterations < 3000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jotto"]


def test_the_lock_nests_in_one_process_and_is_removed_after(tmp_path):
    path = tmp_path / "x.jotto"
    with output_lock(path), output_lock(path):
        assert (tmp_path / ".x.jotto.lock").exists()
    assert not (tmp_path / ".x.jotto.lock").exists()


def test_a_stale_lock_file_does_not_block_resuming(tmp_path, runs):
    path = tmp_path / "run.jotto"
    path.write_bytes(runs["exact"][0].read_bytes())
    (tmp_path / ".run.jotto.lock").write_text("999999\n")  # left by a process SIGKILLed
    result = cli("solve", "-o", path, "--resume", "-i", 14)
    assert result.exit_code == 0, result.output
    assert jotto.Solution.load(path).iterations == 14
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.jotto"]


def test_lock_refusal_is_a_file_locked_error(tmp_path):
    path = tmp_path / "x.jotto"
    with output_lock(path):
        child = subprocess.run(
            [
                sys.executable,
                "-c",
                (
                    "import sys; from jotto.util.files import output_lock, FileLockedError\n"
                    "try:\n    output_lock(sys.argv[1]).__enter__()\n"
                    "except FileLockedError as e:\n    print(e.filename)\n"
                ),
                str(path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert child.stdout.strip() == str(path)
    assert issubclass(FileLockedError, OSError)


#: A process recording games: it says "ready" just before the first.
_RECORDER = (
    "import sys\nfrom pathlib import Path\nfrom jotto.play.history import Stats\n"
    "stats = Stats(Path(sys.argv[1]), warn=print)\nprint('ready', flush=True)\n"
    "for i in range(int(sys.argv[3])):\n"
    "    assert stats.record({'mode': 'guess', 'who': sys.argv[2], 'n': i})\n"
)


def _recorder(directory: Path, who: str, games: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", _RECORDER, str(directory), who, str(games)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def test_a_game_recorded_while_another_writes_waits_for_it(tmp_path):
    """The statistics' read-modify-write holds the file's lock: a game ending while another
    one's record is being written waits for it, then adds its own, so neither is lost (without
    the lock the second read the file before the first wrote it, and one record was lost)."""
    from jotto.play.history import Stats

    stats = Stats(tmp_path)
    with output_lock(stats.path):  # this process is writing a record...
        before = stats.games()  # ...it has read the file
        child = _recorder(tmp_path, "child", 1)
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.5)  # the child asks for the lock and waits
        assert child.poll() is None and stats.games() == before
        assert stats.record({"mode": "guess", "who": "parent"})  # (the lock nests)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, (out, err)
    assert [g["who"] for g in stats.games()] == ["parent", "child"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.json"]


def test_games_ending_at_once_keep_every_record(tmp_path):
    """Four processes recording 25 games each into one file, as fast as they can."""
    from jotto.play.history import Stats

    procs = [_recorder(tmp_path, f"p{k}", 25) for k in range(4)]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and out == "ready\n", (out, err)
    games = Stats(tmp_path).games()
    assert sorted((g["who"], g["n"]) for g in games) == sorted(
        (f"p{k}", n) for k in range(4) for n in range(25)
    )


def test_a_lock_held_too_long_is_refused_after_the_wait(tmp_path):
    path = tmp_path / "x.json"
    with output_lock(path):
        child = subprocess.run(
            [
                sys.executable,
                "-c",
                (
                    "import sys, time; from jotto.util.files import output_lock, FileLockedError\n"
                    "start = time.monotonic()\n"
                    "try:\n    output_lock(sys.argv[1], wait=0.3).__enter__()\n"
                    "except FileLockedError as e:\n    print(time.monotonic() - start, e.strerror)\n"
                ),
                str(path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    waited, message = child.stdout.split(" ", 1)
    assert float(waited) >= 0.3
    assert (
        message.strip() == f"another process (pid {os.getpid()}) is writing this file; it "
        f"did not finish within 0.3 s"
    )
