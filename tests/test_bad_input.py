"""Bad input, as a careless or hostile user gives it: every case ends with a one-line error and
exit code 2 (or the correct result), never a traceback, never a resource used up before it was
checked, and never a file already written lost or changed.

The classes follow issue 13: resources chosen by the input, files, values outside the domain,
strategy files with a valid checksum but nonsense inside, and interactive and process edges.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import math
import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

import jotto
from jotto.util import strategy_file
from jotto.cli import main
from jotto.cli.main import JottoGroup
from jotto.solvers.fictitious_play.algorithm import PaperPlay
from jotto.util.files import FileLockedError, output_lock, quote, write_atomic
from jotto.util.strategy_file import StrategyFileError, encode_array

from . import reference

JOTTO = [sys.executable, "-m", "jotto"]


def cli(*args, env=None, input=None):
    """``jotto ARGS`` in this process (stdin from ``input``)."""
    return CliRunner().invoke(main, [str(a) for a in args], env=env, input=input)


def one_line_error(result, *fragments):
    """Exit code 2 and one error line holding every fragment (click's own option errors put
    the usage above it, as click always does)."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    lines = result.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr
    assert len(lines[-1]) < 400, "the error echoes too much"
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]
    return lines[-1]


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` and its bytes."""
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def gzip_of_zeros(n: int) -> bytes:
    """A small gzip file that expands to ``n`` zero bytes (a decompression bomb)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    parts = [c.compress(block) for _ in range(n >> 20)]
    return b"".join(parts) + c.compress(bytes(n % (1 << 20))) + c.flush()


ONE_MB = {"JOTTO_MAX_INPUT_MB": "1"}


# ---- 1. resources chosen by the input -------------------------------------------------------

def test_gzip_word_list_stops_at_the_limit(tmp_path):
    bomb = tmp_path / "words.txt.gz"
    bomb.write_bytes(gzip_of_zeros(3 << 20))
    assert bomb.stat().st_size < 10_000
    one_line_error(cli("tree", "-w", bomb, env=ONE_MB), "words.txt.gz: decompresses to more "
                                                        "than 1 MiB", "JOTTO_MAX_INPUT_MB")


def test_plain_word_list_stops_at_the_limit(tmp_path):
    big = tmp_path / "words.txt"
    big.write_bytes(b"abcde\n" * 400_000)
    one_line_error(cli("tree", "-w", big, env=ONE_MB), "words.txt: holds more than 1 MiB")


def test_endless_word_list_stops_at_the_limit():
    one_line_error(cli("tree", "-w", "/dev/zero", env=ONE_MB), "/dev/zero: holds more than")


def test_strategy_file_bomb_stops_at_the_limit(tmp_path):
    bomb = tmp_path / "bomb.jotto"
    bomb.write_bytes(gzip_of_zeros(3 << 20))
    one_line_error(cli("evaluate", "-g", f"equilibrium:{bomb}", env=ONE_MB),
                   "bomb.jotto: decompresses to more than 1 MiB")


def test_tree_file_stops_at_the_limit(tmp_path):
    big = tmp_path / "t.json"
    big.write_bytes(b" " * (2 << 20))
    one_line_error(cli("evaluate", "-g", f"tree:{big}", env=ONE_MB), "t.json: holds more than")


def test_weights_file_stops_at_the_limit(tmp_path):
    big = tmp_path / "w.txt"
    big.write_bytes(b"1\n" * (1 << 20))
    one_line_error(cli("evaluate", "-w", "sgb", "-H", f"weights:{big}", env=ONE_MB),
                   "w.txt: holds more than")


def test_limit_setting_itself_is_checked():
    one_line_error(cli("tree", "-n", 3, env={"JOTTO_MAX_INPUT_MB": "lots"}),
                   "JOTTO_MAX_INPUT_MB must be a positive whole number")


def _npy(path: Path, header: dict, data: bytes = b"") -> Path:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    path.write_bytes(buf.getvalue() + data)
    return path


@pytest.mark.parametrize("header, data, fragment", [
    ({"descr": "<f8", "fortran_order": False, "shape": (10**12,)}, b"\0" * 64,
     "holds float64 of shape (1000000000000,)"),
    ({"descr": "|O", "fortran_order": False, "shape": (2177,)}, b"", "holds object"),
    ({"descr": "<f8", "fortran_order": False, "shape": (2177,)}, b"\0" * 80,
     "80 bytes of data where its header promises 17416"),
    ({"descr": "<c16", "fortran_order": False, "shape": (2177,)}, b"", "holds complex128"),
], ids=["huge-shape", "object", "truncated", "complex"])
def test_npy_headers_are_checked_before_allocating(tmp_path, header, data, fragment):
    path = _npy(tmp_path / "w.npy", header, data)
    one_line_error(cli("evaluate", "-w", "sgb", "-H", f"weights:{path}"), "w.npy: " + fragment)


def test_npy_that_is_not_npy(tmp_path):
    path = tmp_path / "w.npy"
    path.write_bytes(os.urandom(300))
    one_line_error(cli("evaluate", "-w", "sgb", "-H", f"weights:{path}"),
                   "w.npy: not a NumPy .npy file")


def test_a_huge_bad_token_is_not_echoed_whole(tmp_path):
    path = tmp_path / "words.txt"
    path.write_bytes(b"about\n" + b"x1" * 3_000_000 + b"\n")
    line = one_line_error(cli("tree", "-w", path), "words.txt, line 2:",
                          "(6000000 characters) is not a word")
    assert len(line) < 200


def test_a_huge_weights_line_is_not_echoed_whole(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("about " + "9" * 500_000 + "z\n")
    line = one_line_error(cli("evaluate", "-w", "sgb", "-H", f"weights:{path}"),
                          "w.txt, line 1:", "is not a number")
    assert len(line) < 200


def test_a_huge_spec_is_not_echoed_whole():
    line = one_line_error(cli("evaluate", "-g", "q" * 100_000), "unknown guesser")
    assert len(line) < 400


@pytest.mark.parametrize("option", ["--mode", "-i", "--time-budget", "-n"])
def test_a_huge_option_value_is_not_echoed_whole(option):
    line = one_line_error(cli("solve", option, "x" * 100_000), "(100000 characters)")
    assert len(line) < 300


def test_a_huge_input_line_is_not_echoed_whole():
    result = cli("assist", "-n", 3, "-g", "norvig:max", input="a" * 1_000_000 + " 1\nquit\n")
    assert result.exit_code == 0 and "(1000000 characters) has 1000000 letters" in result.output
    assert max(map(len, result.output.splitlines())) < 300


def test_quote_cuts_and_says_how_long():
    assert quote("abc") == "'abc'"
    assert quote("x" * 1000) == f"{'x' * 40!r}… (1000 characters)"
    assert len(quote(list(range(10**5)))) <= 41


# ---- 2. files: locks, no overwriting unasked, writability first ------------------------------

def test_tree_does_not_overwrite_a_file(tmp_path):
    out = tmp_path / "t.json"
    out.write_text("mine")
    one_line_error(cli("tree", "-n", 3, "-g", "norvig:max", "-o", out),
                   "t.json: exists; --force overwrites it")
    assert out.read_text() == "mine"


def test_tree_does_not_overwrite_the_word_list_it_reads(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("ace\nbid\ncog\ndux\n")
    before = snapshot(tmp_path)
    one_line_error(cli("tree", "-w", words, "-n", 3, "-g", "norvig:max", "-o", tmp_path
                       / "t.txt", "-o", words), "words.txt: exists")
    assert snapshot(tmp_path) == before  # not even t.txt: nothing is written unless all can be


def test_tree_format_is_checked_before_the_work(tmp_path):
    start = time.perf_counter()
    one_line_error(cli("tree", "-n", 5, "-o", tmp_path / "t.json", "-o", tmp_path / "t.xml"),
                   "t.xml: cannot tell a tree format from the suffix '.xml'")
    assert time.perf_counter() - start < 5 and not list(tmp_path.iterdir())


def test_tree_force_overwrites(tmp_path):
    out = tmp_path / "t.json"
    out.write_text("mine")
    assert cli("tree", "-n", 3, "-g", "norvig:max", "-o", out, "--force").exit_code == 0
    assert len(jotto.DecisionTree.load(out)) > 100


@pytest.mark.parametrize("command, name", [(("tree", "-n", 3, "-g", "norvig:max", "-o"), "t.json"),
                                           (("solve", "-n", 3, "-i", 3, "-o"), "s.jotto"),
                                           (("solve", "-n", 3, "-i", 3, "--plot"), "p.png"),
                                           (("evaluate", "-n", 3, "-g", "norvig:max", "--plot"),
                                            "p.png")])
def test_output_into_a_missing_directory_fails_first_naming_it(tmp_path, command, name):
    out = tmp_path / "no" / "such" / name
    start = time.perf_counter()
    line = one_line_error(cli(*command, out), f"{out}: cannot write it: {out.parent} does not "
                                              f"exist")
    assert ".tmp" not in line and time.perf_counter() - start < 5
    assert not (tmp_path / "no").exists()


def test_output_under_a_file_fails_first(tmp_path):
    (tmp_path / "f").write_text("a file")
    one_line_error(cli("solve", "-n", 3, "-i", 3, "-o", tmp_path / "f" / "x.jotto"),
                   "x.jotto: cannot write it:", "is not a directory")
    assert (tmp_path / "f").read_text() == "a file"


def test_output_that_is_a_directory(tmp_path):
    one_line_error(cli("solve", "-n", 3, "-i", 3, "-o", tmp_path), "is a directory")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into read-only places")
def test_output_into_a_read_only_directory(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        one_line_error(cli("solve", "-n", 3, "-i", 3, "-o", ro / "x.jotto"), "x.jotto: cannot "
                                                                             "write in")
    finally:
        ro.chmod(0o755)


@pytest.mark.parametrize("command", [("solve", "-n", 3, "-i", 3, "-o", "{dir}/s.jotto",
                                      "--plot", "{dir}/p.png"),
                                     ("evaluate", "-n", 3, "-g", "norvig:max", "--plot",
                                      "{dir}/p.png")])
def test_plots_are_not_overwritten_unasked(tmp_path, command):
    (tmp_path / "p.png").write_text("my picture")
    one_line_error(cli(*(a.format(dir=tmp_path) if isinstance(a, str) else a
                         for a in command)), "p.png: exists; --force overwrites it")
    assert snapshot(tmp_path) == {"p.png": b"my picture"}


@pytest.mark.parametrize("command", [("solve", "-n", 3, "-i", 3, "-o", "{dir}/s.jotto"),
                                     ("evaluate", "-n", 3, "-g", "norvig:max")])
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


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Small finished solves (3 letters, 12 iterations) in both modes, and their payloads."""
    d = tmp_path_factory.mktemp("runs")
    out = {}
    for mode in ("exact", "paper"):
        path = d / f"{mode}.jotto"
        jotto.solve(3, iterations=12, mode=mode, out=path, progress=False)
        out[mode] = (path, strategy_file.read(path))
    return out


def test_a_second_writer_is_refused(tmp_path, runs):
    path = tmp_path / "run.jotto"
    path.write_bytes(runs["exact"][0].read_bytes())
    with output_lock(path):  # this process writes it: another jotto must not
        proc = subprocess.run(JOTTO + ["solve", "-o", str(path), "--resume", "-i", "20"],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=300)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert f"another process (pid {os.getpid()}) is writing this file" in proc.stderr
    assert path.read_bytes() == runs["exact"][0].read_bytes()


@pytest.mark.slow
def test_two_solves_into_one_file(tmp_path):
    """A running solve holds --out; a second one (even with --force) is refused at once, and
    the first one's work is intact when it is stopped."""
    path = tmp_path / "run.jotto"
    first = subprocess.Popen(JOTTO + ["solve", "-n", "5", "-i", "3000", "-o", str(path),
                                      "--no-progress", "--checkpoint-every", "0.2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             stdin=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not path.exists() and time.time() < deadline and first.poll() is None:
        time.sleep(0.05)
    assert path.exists(), "the first solve wrote no checkpoint"
    for extra in ([], ["--force"], ["--resume"]):
        second = _jotto(["solve", "-n", 5, "-i", 10, "-o", path, *extra],
                        stdin=subprocess.DEVNULL)
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
        child = subprocess.run([sys.executable, "-c", (
            "import sys; from jotto.util.files import output_lock, FileLockedError\n"
            "try:\n    output_lock(sys.argv[1]).__enter__()\n"
            "except FileLockedError as e:\n    print(e.filename)\n"), str(path)],
            capture_output=True, text=True, timeout=60)
    assert child.stdout.strip() == str(path)
    assert issubclass(FileLockedError, OSError)


#: A process recording games: it says "ready" just before the first.
_RECORDER = ("import sys\nfrom pathlib import Path\nfrom jotto.play.history import Stats\n"
             "stats = Stats(Path(sys.argv[1]), warn=print)\nprint('ready', flush=True)\n"
             "for i in range(int(sys.argv[3])):\n"
             "    assert stats.record({'mode': 'guess', 'who': sys.argv[2], 'n': i})\n")


def _recorder(directory: Path, who: str, games: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _RECORDER, str(directory), who, str(games)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)


def test_a_game_recorded_while_another_writes_waits_for_it(tmp_path):
    """The statistics' read-modify-write holds the file's lock: a game ending while another
    one's record is being written waits for it, then adds its own, so neither is lost (without
    the lock the second read the file before the first wrote it, and one record was lost)."""
    from jotto.play.history import Stats

    stats = Stats(tmp_path)
    with output_lock(stats.path):  # this process is writing a record...
        before = stats.games()     # ...it has read the file
        child = _recorder(tmp_path, "child", 1)
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.5)            # the child asks for the lock and waits
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
    assert sorted((g["who"], g["n"]) for g in games) == \
        sorted((f"p{k}", n) for k in range(4) for n in range(25))


def test_a_lock_held_too_long_is_refused_after_the_wait(tmp_path):
    path = tmp_path / "x.json"
    with output_lock(path):
        child = subprocess.run([sys.executable, "-c", (
            "import sys, time; from jotto.util.files import output_lock, FileLockedError\n"
            "start = time.monotonic()\n"
            "try:\n    output_lock(sys.argv[1], wait=0.3).__enter__()\n"
            "except FileLockedError as e:\n    print(time.monotonic() - start, e.strerror)\n"),
            str(path)], capture_output=True, text=True, timeout=60)
    waited, message = child.stdout.split(" ", 1)
    assert float(waited) >= 0.3
    assert message.strip() == f"another process (pid {os.getpid()}) is writing this file; it " \
                              f"did not finish within 0.3 s"


# ---- 3. values outside the domain -------------------------------------------------------------

@pytest.mark.parametrize("option, value", [("--time-budget", "inf"), ("--target-epsilon", "inf"),
                                           ("--time-budget", "nan"), ("--target-epsilon", "-1"),
                                           ("--checkpoint-every", "inf"),
                                           ("--time-budget", "1e999")])
def test_infinite_or_nan_bounds_are_refused_before_the_work(tmp_path, option, value):
    start = time.perf_counter()
    one_line_error(cli("solve", "-n", 3, "-o", tmp_path / "s.jotto", option, value),
                   "is not a positive finite number")
    assert time.perf_counter() - start < 5 and not list(tmp_path.iterdir())


def test_too_many_sampled_games_are_refused():
    one_line_error(cli("evaluate", "-n", 3, "--games", 10**12), "is not in the range 1<=x<=1000000")


def test_too_many_iterations_are_refused(tmp_path):
    one_line_error(cli("solve", "-n", 3, "-o", tmp_path / "s.jotto", "-i", 2**31),
                   "2147483648 is not in the range")


@pytest.mark.parametrize("kwargs", [{"time_budget": float("inf")},
                                    {"target_epsilon": float("nan")},
                                    {"checkpoint_seconds": float("inf")},
                                    {"iterations": 2**40}])
def test_the_api_refuses_them_too(kwargs):
    with pytest.raises(ValueError, match="must be"):
        jotto.solve(3, progress=False, **kwargs)


@pytest.mark.parametrize("args, fragments", [
    (("evaluate", "-g", "random:seed=-1"), ("'-g' / '--guesser'", "'random:seed=-1': seed must "
                                            "be a non-negative integer, not '-1'")),
    (("evaluate", "-H", "equilibrium:t=-1"), ("'-H' / '--hider'", "t must be a non-negative "
                                              "integer")),
    (("tree", "-g", "equilibrium:seed=x"), ("'-g' / '--guesser'", "seed must be")),
    (("assist", "-g", "random:seed=-2"), ("'-g' / '--guesser'", "seed must be")),
    (("play", "-g", "norvig:most"), ("'-g' / '--guesser'", "use norvig:METRIC")),
    (("evaluate", "-g", "random", "--games", 5, "--seed", -1), ("'--seed'", "-1 is not in the "
                                                                "range x>=0")),
    (("play", "--seed", -1), ("'--seed'", "-1 is not in the range x>=0")),
], ids=["guesser-seed", "hider-t", "tree", "assist", "play-spec", "evaluate-seed", "play-seed"])
def test_bad_seeds_and_specs_name_the_option_and_field(tmp_path, args, fragments):
    """Refused when the option is read, before the word list or any strategy file is loaded
    (the statistics directory stays empty: no game was played)."""
    one_line_error(cli(*args, env={"JOTTO_DATA_DIR": str(tmp_path)}, input="quit\n"),
                   "Invalid value for", *fragments)
    assert not list(tmp_path.iterdir())


def _threads_warning() -> str:
    cap = jotto.engine.runtime.usable_cpus()
    return f"Warning: 1000000 threads asked for, but this process can use {cap} CPUs; using {cap}"


def test_a_warning_is_one_line_of_its_own():
    """A Python warning the library gives (``warnings.warn``, for Python users) is one line on
    the command line, without the path, line number and source line Python adds, and once
    although two functions give it here."""
    result = cli("evaluate", "-n", 3, "-g", "norvig:max", "-j", 1_000_000, "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [_threads_warning()]
    assert result.stdout == cli("evaluate", "-n", 3, "-g", "norvig:max", "--json").stdout


@pytest.mark.parametrize("env, expected", [
    ({"OMP_NUM_THREADS": "1000000"}, [_threads_warning()]),
    ({"JOTTO_KERNEL": "v9"}, ["Warning: JOTTO_KERNEL='v9' is not a kernel variant this CPU runs "
                              f"(available: {', '.join(jotto.engine.runtime.available_kernel_variants())}"
                              f"); using {jotto.engine.runtime.kernel_variant()!r}"]),
], ids=["threads", "kernel-while-loading"])
def test_warnings_of_the_installed_command_are_one_line(env, expected):
    """Also a warning given while the commands load, before the command group runs."""
    proc = _jotto(["evaluate", "-n", 3, "-g", "norvig:max"], stdin=subprocess.DEVNULL,
                  env={**os.environ, **env})
    assert proc.returncode == 0 and proc.stdout.startswith("norvig:max")
    assert proc.stderr.splitlines() == expected


SGB = ("-w", "sgb")


def _weights(tmp_path, text: str) -> str:
    path = tmp_path / "w.txt"
    path.write_text(text)
    return f"weights:{path}"


def test_huge_weights_give_the_right_numbers(tmp_path):
    words = jotto.load_words("sgb")
    spec = _weights(tmp_path, "".join(f"{w} 1e308\n" for w in words))
    huge = cli("evaluate", *SGB, "-g", "norvig:max", "-H", spec, "--json")
    uniform = cli("evaluate", *SGB, "-g", "norvig:max", "--json")
    assert huge.exit_code == 0 and uniform.exit_code == 0
    assert json.loads(huge.stdout)["head_to_head"] == \
        pytest.approx(json.loads(uniform.stdout)["head_to_head"], rel=1e-12)
    assert json.loads(uniform.stdout)["head_to_head"] > 6


@pytest.mark.parametrize("text, fragment", [
    ("about 1\nwhite 2\nabout 3\n", "w.txt, line 3: 'about' was already given a weight on "
                                    "line 1"),
    ("about -1\n", "must be finite, non-negative"),
    ("about nan\n", "must be finite"),
    ("about inf\n", "must be finite"),
    ("about 0\n", "not all zero"),
    ("1\n2\n", "2 weights for 2177 words"),
    ("about 1\n2\n", "w.txt, line 2: expected one number per line"),
    ("about one\n", "w.txt, line 1: 'one' is not a number"),
    ("zzzzz 1\n", "'zzzzz' is not in the word list"),
    ("# comment\n\nabout 1\nabout 2\n", "w.txt, line 4: 'about' was already given a weight on "
                                        "line 3"),
], ids=["duplicate", "negative", "nan", "inf", "zero", "count", "mixed", "word", "unknown",
        "line-numbers"])
def test_bad_weight_files(tmp_path, text, fragment):
    one_line_error(cli("evaluate", *SGB, "-H", _weights(tmp_path, text)), fragment)


def test_weights_not_utf8(tmp_path):
    path = tmp_path / "w.txt"
    path.write_bytes(b"about 1\n\xff\xfe 2\n")
    one_line_error(cli("evaluate", *SGB, "-H", f"weights:{path}"), "w.txt, line 2: bytes that "
                                                                   "are not UTF-8")


def test_huge_weights_for_the_paper_rule_are_one_line(tmp_path):
    words = jotto.load_words("sgb")
    spec = _weights(tmp_path, "".join(f"{w} 1e308\n" for w in words))
    one_line_error(cli("evaluate", *SGB, "-g", f"gbr:paper:{spec.replace('weights:', 'weights=')}"),
                   "weights too large")


# ---- 4. strategy files with a valid checksum and nonsense inside ------------------------------

def _set(field: str, value):
    """A mutation setting ``payload[a][b]...`` (``field`` "a.b") to ``value`` (a function of
    the payload if callable)."""
    def mutate(p):
        *parents, last = field.split(".")
        d = p
        for k in parents:
            d = d[k]
        d[last] = value(p) if callable(value) else value
    return mutate


def _array(field: str, change, dtype=None):
    """A mutation applying ``change`` to the array stored at ``field``."""
    def mutate(p):
        *parents, last = field.split(".")
        d = p
        for k in parents:
            d = d[k]
        a = strategy_file.decode_array(d[last]).copy()
        a = change(a)
        d[last] = encode_array(a if dtype is None else a.astype(dtype))
    return mutate


def _delete(field: str):
    def mutate(p):
        *parents, last = field.split(".")
        d = p
        for k in parents:
            d = d[k]
        del d[last]
    return mutate


def _nan_at(i):
    def change(a):
        a[i] = np.nan
        return a
    return change


def _add_at(i, x):
    def change(a):
        a[i] += x
        return a
    return change


def _not_least(p):
    eps = np.maximum(strategy_file.decode_array(p["history"]["eps_hider"]),
                     strategy_file.decode_array(p["history"]["eps_guesser"]))
    return int(np.argmax(eps))


def _huge_tie(p):
    D = len(p["words"]["words"])
    p["best_responses"]["sizes"] = encode_array(np.array([D + 5] + [1] * 11, np.int32))
    p["best_responses"]["words"] = encode_array(np.arange(D + 16, dtype=np.int32) % D)


def _dup_tie(p):
    sizes = strategy_file.decode_array(p["best_responses"]["sizes"]).copy()
    flat = list(strategy_file.decode_array(p["best_responses"]["words"]))
    sizes[0] += 1
    flat.insert(0, flat[0])
    p["best_responses"]["sizes"] = encode_array(sizes)
    p["best_responses"]["words"] = encode_array(np.array(flat, np.int32))


PAYLOAD_CASES = [
    ("exact", _array("history.eps_hider", _nan_at(1)), "history.eps_hider: nan at index 1 is "
                                                        "not a finite number"),
    ("exact", _array("history.eps_guesser", _nan_at(0)), "history.eps_guesser: nan"),
    ("exact", _array("sums_star.ing", _add_at(0, -10**6)), "sums_star.ing: "),
    ("exact", _array("sums_last.ing_sq", lambda a: -a), "sums_last.ing_sq: "),
    ("exact", _set("t_star", -2), "t_star: -2 is not from 0 to 12"),
    ("exact", _set("t_star", 13), "t_star: 13 is not from 0 to 12"),
    ("exact", _set("t_star", 2.0), "t_star: not a whole number but 2.0"),
    ("exact", _set("t_star", True), "t_star: not a whole number but True"),
    ("exact", _set("t_star", _not_least), "is not the first iteration of least epsilon"),
    ("paper", _set("t_star", _not_least), "is not the first iteration of least epsilon"),
    ("exact", _set("plan.iterations", "many"), "plan.iterations: not a whole number"),
    ("exact", _set("plan.target_epsilon", -1), "plan.target_epsilon: not a positive finite"),
    ("exact", _set("plan.time_budget", "soon"), "plan.time_budget: not a positive finite"),
    ("exact", _set("plan", [1, 2]), "plan: not an object"),
    ("paper", _huge_tie, "best_responses.sizes: "),
    ("paper", _dup_tie, "best_responses.words: a tie set is not of distinct words"),
    ("exact", _array("best_responses.words", lambda a: a + 10**6), "best_responses.words: "),
    ("exact", _array("best_responses.sizes", lambda a: a + 1), "best_responses.sizes: 2 at "
                                                                "index 0 is above 1"),
    ("exact", _set("iterations_done", 13), "history.eps_hider: shape [13], not 14"),
    ("exact", _set("iterations_done", -1), "iterations_done: -1 is not from 0"),
    ("exact", _set("mode", "fast"), "mode: 'fast' is not one of exact, paper"),
    ("exact", _set("rule", "paper"), "rule: 'paper' is not exact mode's rule"),
    ("exact", _set("words.words", "ace bad"), "words.words: not a non-empty list of words"),
    ("exact", _set("words.words", []), "words.words: not a non-empty list of words"),
    ("exact", _set("words.length", "3"), "words.length: not a whole number"),
    ("exact", _set("words.words", ["ab"] * (jotto._core.MAX_WORDS + 1)), "words.words: "),
    ("exact", _set("words.source", "x" * 10_000), "words.source: longer than 4096"),
    ("exact", _set("words.sha256", "0" * 64), "does not match its sha256"),
    ("exact", _set("best_epsilon", [1, 3]), "best_epsilon: does not match the history's"),
    ("exact", _set("best_epsilon", [1, 0]), "best_epsilon: not a fraction"),
    ("exact", _set("best_epsilon", "1/3"), "best_epsilon: not a fraction"),
    ("exact", _array("best_responses.sizes", lambda a: a, np.float64),
     "best_responses.sizes: float64 where integers belong"),
    ("exact", _set("ing0", lambda p: encode_array(np.ones(3, np.int32))), "ing0: shape [3], not "
                                                                           "415"),
    ("exact", _array("ing0", lambda a: a * 0), "ing0: 0 at index 0 is below 1"),
    ("exact", _array("sums_last.hist", _add_at(1, 1)), "sums_last: the histogram does not agree"),
    ("paper", _array("ang_star", _nan_at(7)), "ang_star: nan at index 7"),
    ("paper", _array("ang_last", lambda a: a * 1e6), "ang_last: "),
    ("exact", _delete("sums_star"), "sums_star: missing"),
    ("exact", _delete("history.value"), "history.value: missing"),
    ("exact", _set("history", "all good"), "history: not an object"),
    ("exact", _set("history.value", {"dtype": "float64", "shape": [13], "base64": "!!"}),
     "history.value: not an array"),
    ("exact", _array("history.seconds", lambda a: -a - 1), "history.seconds: "),
    ("exact", _set("jotto_version", 7), "jotto_version: not a string"),
]


@pytest.mark.parametrize("mode, mutate, fragment", PAYLOAD_CASES,
                         ids=[f"{i}-{c[2][:30]}" for i, c in enumerate(PAYLOAD_CASES)])
def test_nonsense_with_a_valid_checksum(tmp_path, runs, mode, mutate, fragment):
    payload = copy.deepcopy(runs[mode][1])
    mutate(payload)
    path = tmp_path / "bad.jotto"
    strategy_file.write(path, payload)
    written = path.read_bytes()
    with pytest.raises(StrategyFileError) as info:
        jotto.Solution.load(path)
    assert str(info.value).startswith(f"{path}: ") and fragment in str(info.value)
    one_line_error(cli("evaluate", "-g", f"equilibrium:{path}"), "bad.jotto: ", fragment)
    one_line_error(cli("solve", "-o", path, "--resume", "--no-progress"), "bad.jotto: ",
                   fragment)
    assert path.read_bytes() == written  # refused, never replaced


def _container(path: Path, text: bytes) -> Path:
    path.write_bytes(gzip.compress(text))
    return path


@pytest.mark.parametrize("text, fragment", [
    (b'{"format": "jotto-strategy", "version": 1, "payload": {"t": NaN}, "sha256": "x"}',
     "payload.t: NaN is not a JSON number"),
    (b'{"format": "jotto-strategy", "format": "jotto-strategy"}',
     "key 'format' appears twice"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"format": "jotto-strategy", "version": true}', "unknown strategy file version True"),
    (b'{"format": "jotto-strategy", "version": "' + b"9" * 10_000 + b'"}',
     "(10000 characters)"),
], ids=["nan", "duplicate-key", "deep", "bool-version", "long-version"])
def test_strategy_containers_with_bad_json(tmp_path, text, fragment):
    path = _container(tmp_path / "c.jotto", text)
    one_line_error(cli("evaluate", "-g", f"equilibrium:{path}"), "c.jotto: ", fragment)


def test_strategy_gzip_with_garbage_after_it(tmp_path, runs):
    path = tmp_path / "g.jotto"
    path.write_bytes(runs["exact"][0].read_bytes() + b"garbage")
    one_line_error(cli("evaluate", "-g", f"equilibrium:{path}"), "g.jotto: truncated or "
                                                                 "corrupt")


#: The 30 primes from 2 to 113: tie sets of these sizes make the least common multiple of the
#: sizes, which paper mode's exact weights carry, about 3.2e46, far beyond 64 bits.
PRIMES = [p for p in range(2, 114) if all(p % q for q in range(2, p))]


def test_paper_resume_with_ties_of_30_prime_sizes(tmp_path, monkeypatch):
    """Tie sets of 30 distinct prime sizes (valid per the format; HiderBR is made to choose
    them, so every other field is what the solver wrote) used to end the resumed solve with an
    OverflowError.  It goes on with the weights that outgrew 64 bits dropped, and finishes
    exactly as the literal Algorithm 13 given the same tie sets, and as an uninterrupted run."""
    assert len(PRIMES) == 30 and PRIMES[-1] == 113
    words = jotto.WordList.from_words(list(jotto.load_words("enable", length=3))[:120])
    D = len(words)
    assert math.lcm(*PRIMES) * D >= 2**64
    rng = np.random.default_rng(35)
    forced = [np.sort(rng.choice(D, p, replace=False)) for p in PRIMES]
    natural = PaperPlay._hider_best_response
    monkeypatch.setattr(PaperPlay, "_hider_best_response",
                        lambda run: forced[run.t - 1] if run.t <= len(forced) else natural(run))
    part, whole = tmp_path / "part.jotto", tmp_path / "whole.jotto"
    jotto.solve(3, words, mode="paper", iterations=30, out=part, progress=False)
    uninterrupted = jotto.solve(3, words, mode="paper", iterations=34, out=whole,
                                progress=False)
    monkeypatch.undo()
    assert [len(b) for b in jotto.Solution.load(part).best_responses] == PRIMES

    result = cli("solve", "-o", part, "--resume", "-i", 34, "--no-progress")
    assert result.exit_code == 0, (result.output, result.exception)
    resumed = jotto.Solution.load(part)
    literal = reference.solve_jotto(reference.Game(list(words)), 34, "paper", forced=forced)
    for run in (resumed, uninterrupted):
        assert [b.tolist() for b in run.best_responses] == literal["best_responses"]
        for key in ("eps_hider", "eps_guesser", "value"):
            assert getattr(run.history, key).tolist() == literal[key], key
        assert run.t_star == literal["t_star"]
    assert (resumed.ang_star == uninterrupted.ang_star).all()
    assert PaperPlay.restore(words, 1, 34, strategy_file.read(part)).v is None  # no 64 bits


def test_valid_files_still_load(runs):
    for mode, (path, _) in runs.items():
        s = jotto.Solution.load(path)
        assert s.mode == mode and s.iterations == 12


@pytest.mark.parametrize("text, fragment", [
    ('{"format": "jotto-tree", "version": 1, "size": NaN}', "t.json: size: NaN is not a JSON "
                                                            "number"),
    ('{"format": "jotto-tree", "version": 1, "version": 1}', "key 'version' appears twice"),
    ("[" * 100_000, "nested too deeply"),
    ('{"format": "jotto-tree", "version": 1, "words": {}, "tree": {}, "' + "k" * 5000 + '": 1}',
     "(5000 characters)"),
], ids=["nan", "duplicate-key", "deep", "long-key"])
def test_tree_files_with_bad_json(tmp_path, text, fragment):
    path = tmp_path / "t.json"
    path.write_text(text)
    one_line_error(cli("evaluate", "-n", 3, "-g", f"tree:{path}"), "t.json: ", fragment)


@pytest.fixture(scope="module")
def tree_text(tmp_path_factory):
    """A valid tree file's text (norvig:max on the 3-letter list; its root holds 415 words)."""
    path = tmp_path_factory.mktemp("tree") / "t.json"
    assert cli("tree", "-n", 3, "-g", "norvig:max", "-o", path).exit_code == 0
    text = path.read_text()
    assert '"branches":{"0":' in text and text.count('"size":415,') == 1
    return text


@pytest.mark.parametrize("old, new, fragment", [
    ('"size":415,', '"size":NaN,', "t.json: tree.size: NaN is not a JSON number"),
    ('"size":415,', '"size":-Infinity,', "t.json: tree.size: -Infinity is not a JSON number"),
    ('"size":415,', '"size":' + "7" * 5000 + ",", "t.json: tree.size: an integer of 5000 digits"),
    ('"branches":{"0":', '"branches":{"' + "1" * 5000 + '":{},"0":',
     "t.json: reply '11111111111111111111'… (5000 characters) at depth 0 is out of range"),
    ('"words":{"words":["ace",', '"words":{"words":["ace",NaN,',
     "t.json: words.words[1]: NaN is not a JSON number"),
], ids=["nan-size", "infinite-size", "long-size", "long-branch-key", "nan-in-a-list"])
def test_tree_files_name_the_field_of_a_value_python_cannot_hold(tmp_path, tree_text, old, new,
                                                                 fragment):
    """NaN, infinities and integers of more digits than Python converts are refused by the
    place they stand in (the field), not only by the file."""
    path = tmp_path / "t.json"
    path.write_text(tree_text.replace(old, new, 1))
    one_line_error(cli("evaluate", "-n", 3, "-g", f"tree:{path}"), fragment)


# ---- 5. interactive and process edges ---------------------------------------------------------

def _jotto(args, **kw):
    return subprocess.run(JOTTO + [str(a) for a in args], capture_output=True, text=True,
                          timeout=300, **kw)


def test_closed_stdin_ends_the_session_quietly():
    proc = _jotto(["play", "-n", 3, "--seed", 1], stdin=subprocess.DEVNULL,
                  preexec_fn=lambda: os.close(0))
    assert proc.returncode == 0 and "Bye." in proc.stdout and "Traceback" not in proc.stderr


def test_closed_stdout_is_an_error_before_any_work(tmp_path):
    proc = _jotto(["tree", "-n", 3, "-o", tmp_path / "t.json"], stdin=subprocess.DEVNULL,
                  preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2 and "standard output is closed" in proc.stderr
    assert "Traceback" not in proc.stderr and not list(tmp_path.iterdir())


def test_assist_with_a_tree_survives_a_guess_off_the_tree(tmp_path):
    tree = tmp_path / "t.json"
    assert cli("tree", "-n", 3, "-g", "norvig:max", "-o", tree).exit_code == 0
    first = jotto.DecisionTree.load(tree)
    root = first.words[int(first.guess[0])]
    other = next(w for w in first.words if w != root)
    result = cli("assist", "-n", 3, "-g", f"tree:{tree}",
                 input=f"{other} 1\nundo\n{root} 0\nquit\n")
    assert result.exit_code == 0, result.output
    assert "No suggestion: these guesses left the tree" in result.output
    assert result.output.count("Suggested guess:") == 3 and result.output.endswith("Bye.\n")


def _interrupted(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["make_context", "parse_args"])
def test_ctrl_c_in_clicks_own_code_is_quiet(monkeypatch, where):
    """A SIGINT landing in click's main outside the group's invoke (here while click parses the
    command line) ends quietly with 130, as everywhere else; it used to be 'Aborted!', exit 1."""
    monkeypatch.setattr(JottoGroup, where, _interrupted)
    result = cli("tree", "-n", 3)
    assert result.exit_code == 130 and result.stdout == "" and result.stderr.strip() == ""


@pytest.mark.parametrize("args, code, first, last", [
    (["--help"], 0, "Usage: jotto [OPTIONS] COMMAND [ARGS]...", None),
    (["tree", "-h"], 0, "Usage: jotto tree [OPTIONS]", None),
    (["--version"], 0, f"jotto, version {jotto.__version__}", None),
    ([], 2, "Usage: jotto [OPTIONS] COMMAND [ARGS]...", None),
    (["nope"], 2, "Usage: jotto [OPTIONS] COMMAND [ARGS]...", "Error: No such command 'nope'."),
    (["solve", "-i", "x"], 2, "Usage: jotto solve [OPTIONS]",
     "Error: Invalid value for '-i' / '--iterations': 'x' is not a valid integer range."),
    (["x" * 100], 2, "Usage: jotto", f"Error: No such command {quote('x' * 100)}."),
], ids=["help", "command-help", "version", "nothing", "no-such-command", "bad-value",
        "long-command"])
def test_exit_codes_and_messages_of_click_are_kept(args, code, first, last):
    """click runs with standalone_mode=False; what standalone mode did is done by the group:
    help and version exit 0 (a bare ``jotto`` shows the help and exits 2), usage errors print
    the usage and the error (a long value cut) and exit 2."""
    result = CliRunner().invoke(main, args, prog_name="jotto")
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(first)
    if last is None:
        assert "Error:" not in result.output
        assert len(lines) == 1 or any(ln.split()[:3] == ["-h,", "--help", "Show"]
                                      for ln in lines)
    else:
        assert lines[-1] == last


def test_end_of_input_in_clicks_own_code_is_still_aborted(monkeypatch):
    def end(*args, **kwargs):
        raise EOFError
    monkeypatch.setattr(JottoGroup, "make_context", end)
    result = cli("tree", "-n", 3)
    assert result.exit_code == 1 and result.stderr.strip() == "Aborted!"


def test_python_callers_may_still_ask_click_for_standalone_mode_off():
    assert main.main(["--version"], standalone_mode=False) == 0
    with pytest.raises(click.UsageError):
        main.main(["nope"], standalone_mode=False)


@pytest.mark.parametrize("delay", [0.03, 0.06, 0.1, 0.15, 0.25, 0.5])
def test_ctrl_c_at_any_moment_of_startup_is_quiet(tmp_path, delay):
    """From the moment jotto's code runs (``import jotto`` loads nothing heavy, so the
    command handles Ctrl-C before NumPy and the core load) to the solve's own handling, a
    Ctrl-C ends the command with 130 and at most the solve's own word, never click's
    "Aborted!" (a SIGINT landing in click's code, outside the group's invoke, used to end so,
    with exit 1, about once in four runs of this test)."""
    proc = subprocess.Popen(JOTTO + ["solve", "-n", "5", "-i", "100000", "--no-progress",
                                     "-o", str(tmp_path / "s.jotto")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if "Traceback" in err:
        # only Python's own start-up can still be interrupted (site, runpy, and the imports at
        # the top of jotto/__init__.py and jotto/__main__.py): never jotto's run(), nor the
        # loading of NumPy, the core and the commands (a machine busy with other work may
        # still be starting Python at any of these delays)
        assert "numpy" not in err and "_core" not in err, err
        frames = [ln.strip() for ln in err.splitlines()
                  if ln.strip().startswith("File ") and "/jotto/" in ln]
        assert all(f.endswith("in <module>") and ("jotto/__init__.py" in f
                                                  or "jotto/__main__.py" in f)
                   for f in frames), err
    else:
        assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, err)
        assert out == "" and (err == "" or err.startswith(("jotto: stopped after iteration",
                                                           "\n"))), err


@pytest.mark.parametrize("kind", ["strategy", "tree"])
def test_a_jotto_file_given_as_a_word_list_says_what_it_is(tmp_path, kind):
    """It said only 'bytes that are not UTF-8': it now names the file's kind and the option
    that takes it."""
    if kind == "strategy":
        path = tmp_path / "s.jotto"
        jotto.solve(2, iterations=5, out=path)
        expected = "is not a word list: it looks like a strategy file (jotto solve -o): pass " \
                   "it with --strategy FILE"
    else:
        path = tmp_path / "t.json"
        assert cli("tree", "-n", 2, "-g", "gbr:exact", "-o", path).exit_code == 0
        expected = "is not a word list: it looks like a decision tree file (jotto tree -o): " \
                   "pass it as a guesser, -g tree:FILE"
    one_line_error(cli("play", "-w", path, input=""), str(path), expected)
    with pytest.raises(jotto.WordListError, match="is not a word list"):
        jotto.load_words(path)


# ---- proofs on executors, opener tables (issue 31) ----------------------------------------------

def closed_port() -> int:
    """A local TCP port nothing listens on."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("command", [("openers", "-n", 2, "-o", "{dir}/t.jotto"),
                                     ("evaluate", "-n", 2, "--best-response"),
                                     ("solve", "-n", 2, "--method", "double-oracle", "-o",
                                      "{dir}/s.jotto")])
def test_an_unreachable_scheduler_is_refused_before_the_work(tmp_path, command):
    before = snapshot(tmp_path)
    args = [str(a).format(dir=tmp_path) for a in command]
    started = time.monotonic()
    result = cli(*args, "--scheduler", f"tcp://127.0.0.1:{closed_port()}")
    one_line_error(result, "--scheduler", "cannot reach a Dask scheduler")
    assert time.monotonic() - started < 30
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("args, fragment", [
    (("--workers", 0), "--workers"),
    (("--workers", 2, "--scheduler", "tcp://127.0.0.1:1"), "choose one"),
    (("--csv", "--json"), "choose one"),
    (("--save-tree", "zz", "t.json"), "not a word of the list"),
    (("--save-tree", "ax", "t.png"), "cannot tell a tree format"),
    (("--time-budget", 0), "--time-budget"),
    (("--width", "nan"), "--width"),
    (("--focus", 0), "--focus"),
])
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


@pytest.mark.parametrize("command", [("solve", "-n", 2, "-i", 2, "-o", "{dir}/s.jotto"),
                                     ("evaluate", "-n", 2)])
def test_executor_options_without_a_proof_are_refused(tmp_path, command):
    args = [str(a).format(dir=tmp_path) for a in command]
    one_line_error(cli(*args, "--workers", 2), "--workers")


@pytest.mark.parametrize("kwargs, fragment", [({"budget": -1}, "budget"),
                                              ({"focus": 0}, "focus"),
                                              ({"width": float("inf")}, "width"),
                                              ({"resume": True}, "resume needs"),
                                              ({"memory": 10}, "memory")])
def test_opener_values_arguments_are_checked(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        jotto.opener_values(["ab", "cd", "ef"], **kwargs)

@pytest.mark.parametrize("args, fragment", [
    (("play", "-g", "race:x"), "race takes only options"),
    (("race", "-2", "race:seconds=-1"), "seconds must be a positive number"),
    (("review", "--game", "x"), "'x' is not a valid integer"),
])
def test_race_guesser_and_review_options(args, fragment):
    """Issue 33: the race guesser's spec and jotto review's options."""
    one_line_error(cli(*args), fragment)
