"""Interactive and process edges: closed stdin and stdout, Ctrl-C at any moment of start-up and
in click's own code, exit codes, a jotto file given as a word list."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import click
import pytest
from click.testing import CliRunner

import jotto
from jotto.cli import main
from jotto.cli.main import JottoGroup
from jotto.util.files import quote
from tests.bad_input import JOTTO, cli, jotto_run, one_line_error

# ---- 5. interactive and process edges ---------------------------------------------------------


def test_closed_stdin_ends_the_session_quietly():
    proc = jotto_run(
        ["play", "-n", 3, "--seed", 1], stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0)
    )
    assert proc.returncode == 0 and "Bye." in proc.stdout and "Traceback" not in proc.stderr


def test_closed_stdout_is_an_error_before_any_work(tmp_path):
    proc = jotto_run(
        ["tree", "-n", 3, "-o", tmp_path / "t.json"],
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(1),
    )
    assert proc.returncode == 2 and "standard output is closed" in proc.stderr
    assert "Traceback" not in proc.stderr and not list(tmp_path.iterdir())


def test_assist_with_a_tree_survives_a_guess_off_the_tree(tmp_path):
    tree = tmp_path / "t.json"
    assert cli("tree", "-n", 3, "-g", "norvig:max", "-o", tree).exit_code == 0
    first = jotto.DecisionTree.load(tree)
    root = first.words[int(first.guess[0])]
    other = next(w for w in first.words if w != root)
    result = cli(
        "assist", "-n", 3, "-g", f"tree:{tree}", input=f"{other} 1\nundo\n{root} 0\nquit\n"
    )
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


@pytest.mark.parametrize(
    "args, code, first, last",
    [
        (["--help"], 0, "Usage: jotto [OPTIONS] COMMAND [ARGS]...", None),
        (["tree", "-h"], 0, "Usage: jotto tree [OPTIONS]", None),
        (["--version"], 0, f"jotto, version {jotto.__version__}", None),
        ([], 2, "Usage: jotto [OPTIONS] COMMAND [ARGS]...", None),
        (["nope"], 2, "Usage: jotto [OPTIONS] COMMAND [ARGS]...", "Error: No such command 'nope'."),
        (
            ["solve", "-i", "x"],
            2,
            "Usage: jotto solve [OPTIONS]",
            "Error: Invalid value for '-i' / '--iterations': 'x' is not a valid integer range.",
        ),
        (["x" * 100], 2, "Usage: jotto", f"Error: No such command {quote('x' * 100)}."),
    ],
    ids=[
        "help",
        "command-help",
        "version",
        "nothing",
        "no-such-command",
        "bad-value",
        "long-command",
    ],
)
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
        assert len(lines) == 1 or any(ln.split()[:3] == ["-h,", "--help", "Show"] for ln in lines)
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
    proc = subprocess.Popen(
        JOTTO
        + ["solve", "-n", "5", "-i", "100000", "--no-progress", "-o", str(tmp_path / "s.jotto")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if "Traceback" in err:
        # only Python's own start-up can still be interrupted (site, runpy, and the imports at
        # the top of jotto/__init__.py and jotto/__main__.py): never jotto's run(), nor the
        # loading of NumPy, the core and the commands (a machine busy with other work may
        # still be starting Python at any of these delays)
        assert "numpy" not in err and "_core" not in err, err
        frames = [
            ln.strip()
            for ln in err.splitlines()
            if ln.strip().startswith("File ") and "/jotto/" in ln
        ]
        assert all(
            f.endswith("in <module>") and ("jotto/__init__.py" in f or "jotto/__main__.py" in f)
            for f in frames
        ), err
    else:
        assert proc.returncode in (130, -signal.SIGINT), (proc.returncode, err)
        assert out == "" and (
            err == "" or err.startswith(("jotto: stopped after iteration", "\n"))
        ), err


@pytest.mark.parametrize("kind", ["strategy", "tree"])
def test_a_jotto_file_given_as_a_word_list_says_what_it_is(tmp_path, kind):
    """It said only 'bytes that are not UTF-8': it now names the file's kind and the option
    that takes it."""
    if kind == "strategy":
        path = tmp_path / "s.jotto"
        jotto.solve(2, iterations=5, out=path)
        expected = (
            "is not a word list: it looks like a strategy file (jotto solve -o): pass "
            "it with --strategy FILE"
        )
    else:
        path = tmp_path / "t.json"
        assert cli("tree", "-n", 2, "-g", "gbr:exact", "-o", path).exit_code == 0
        expected = (
            "is not a word list: it looks like a decision tree file (jotto tree -o): "
            "pass it as a guesser, -g tree:FILE"
        )
    one_line_error(cli("play", "-w", path, input=""), str(path), expected)
    with pytest.raises(jotto.WordListError, match="is not a word list"):
        jotto.load_words(path)
