"""What a new user and bad input hit beyond certificates and long runs (issue 42, items 7-19):
Dask addresses, executors, reviews of logs that do not fit their lists, specs everywhere,
reviews that read the same twice, --resume's default file, short reprs, short options that
mean one thing, the README's words, assist's messages, wrapped messages, histograms, plots and
the progress bar's last epsilon."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

import jotto
from jotto.cli import main
from jotto.game.proof_check import check_certificate
from jotto.play.history import GameLog
from jotto.play.review import game_record, review_record

ROOT = Path(__file__).resolve().parents[2]
JOTTO = [sys.executable, "-m", "jotto"]


def cli(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_error(run, *fragments):
    assert run.exit_code == 2, (run.output, run.exception)
    lines = run.output.strip().splitlines()
    assert lines and lines[-1].startswith("Error: ") and "Traceback" not in run.output
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]


# ---- 7, 8: Dask addresses and executors --------------------------------------------------------


def test_a_scheduler_that_is_no_address_fails_fast_without_a_traceback(tmp_path):
    pytest.importorskip("distributed")
    words = tmp_path / "w.txt"
    words.write_text("ab\ncd\nef\n")
    done = subprocess.run(
        [
            *JOTTO,
            "openers",
            "-w",
            words,
            "-n",
            "2",
            "--scheduler",
            "not an address",
            "-o",
            tmp_path / "t.jotto",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "--scheduler" in done.stderr and "not an address" in done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize("call", ["opener_values", "best_response"])
def test_an_executor_that_is_not_one_is_named(call):
    wl = jotto.load_words("enable", length=2)
    with pytest.raises(ValueError, match="^executor must be"):
        getattr(jotto, call)(wl, executor="x")


# ---- 9, 11: reviews ----------------------------------------------------------------------------


def _log(tmp_path, record):
    path = tmp_path / "game-log.json"
    assert GameLog(path=path).record(record)
    return path


def test_a_review_of_a_guess_not_in_the_list_is_an_error(tmp_path):
    """The first guess 'qzx' is no word of the list: exit 0 with wrong numbers before."""
    wl = jotto.load_words("enable", length=3)
    record = game_record(wl, "guess", "won", [("qzx", 2), ("zax", wl.win_code)], None)
    with pytest.raises(ValueError, match="qzx"):
        review_record(record)
    path = _log(tmp_path, record)
    one_line_error(cli("review", path), str(path), "game 1", "qzx")


def test_a_review_reads_the_same_on_a_slow_machine(monkeypatch):
    """Node budgets, not seconds: a clock that runs a hundred times faster (a busy machine)
    leaves every number of the review as it was."""
    wl = jotto.load_words("enable", length=3)
    secret = "zax"
    moves = []
    for g in ("ate", "oil", "zap", secret):
        moves.append((g, wl.rules.reply(g, secret)))
    record = game_record(wl, "guess", "won", moves, None)
    first = review_record(record).lines()
    import jotto.play.review as review

    real = time.perf_counter
    start = real()
    monkeypatch.setattr(review.time, "perf_counter", lambda: start + 100 * (real() - start))
    again = review_record(record).lines()
    assert again == first


# ---- 10: specs ---------------------------------------------------------------------------------


def test_race_takes_specs_as_evaluate_does():
    wl = jotto.load_words("enable", length=3)
    by_spec = jotto.race(wl, "gbr:exact", "norvig:entropy")
    by_object = jotto.race(wl, _guesser(wl, "gbr:exact"), _guesser(wl, "norvig:entropy"))
    assert by_spec.exact and (by_spec.win, by_spec.draw, by_spec.loss) == (
        by_object.win,
        by_object.draw,
        by_object.loss,
    )
    hidden = jotto.race(wl, "gbr:exact", "norvig:entropy", first_hider="best-response")
    assert hidden.first_hider != by_spec.first_hider


def _guesser(wl, spec):
    from jotto.players import make_guesser

    return make_guesser(spec, wl)


# ---- 12: --resume without --out ----------------------------------------------------------------


def test_resume_without_out_continues_the_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = cli("solve", "-n", "2", "-i", "5", "--no-progress")
    assert first.exit_code == 0, first.output
    again = cli("solve", "-n", "2", "-i", "9", "--no-progress")
    one_line_error(again, "exists: --resume")
    resumed = cli("solve", "-n", "2", "-i", "9", "--resume", "--no-progress")
    assert resumed.exit_code == 0, resumed.output
    assert "Number of iterations                             9" in resumed.output


def test_openers_resume_without_out_reads_the_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "jotto-2-letters-openers.jotto").write_text("someone's file")
    one_line_error(cli("openers", "-n", "2", "--resume"), "jotto-2-letters-openers.jotto")
    assert (tmp_path / "jotto-2-letters-openers.jotto").read_text() == "someone's file"


# ---- 13: reprs ---------------------------------------------------------------------------------


def test_short_readable_reprs(tmp_path):
    wl = jotto.load_words("enable", length=2)
    table = jotto.opener_values(wl, progress=False)
    assert len(table) == len(wl) == len(list(table))
    assert next(iter(table)) is table.rows[0]
    for text in (repr(table), repr(table.rows[0])):
        assert "\n" not in text and len(text) < 200, text
        assert "Fraction" not in text and "array" not in text, text
    assert re.search(r"lower=\d\.\d{4}\b", repr(table.rows[0]))
    found = jotto.best_response(wl, certificate=tmp_path / "c.cert")
    result = check_certificate(tmp_path / "c.cert")
    text = repr(result)
    assert "\n" not in text and len(text) < 200 and "header" not in text, text
    assert f"{float(found.lower):.4f}" in text
    sol = jotto.solve(wl, method="double-oracle", iterations=2, progress=False)
    assert re.search(r"value in \[\d+\.\d{4}, \d+\.\d{4}\]", repr(sol)), repr(sol)
    assert not re.search(r"\d\.\d{5}", repr(sol) + sol.summary())


# ---- 14: short options -------------------------------------------------------------------------


def test_a_short_option_means_one_thing_in_every_command():
    meaning: dict[str, set[str]] = {}
    for name, command in main.commands.items():
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            longs = sorted(o for o in param.opts if o.startswith("--"))
            for short in (o for o in param.opts if re.fullmatch(r"-[^-]", o)):
                meaning.setdefault(short, set()).add(longs[0] if longs else param.name)
    clashes = {s: m for s, m in meaning.items() if len(m) > 1}
    assert not clashes, clashes


# ---- 15: the README ----------------------------------------------------------------------------


def test_the_readme_says_what_jotto_is_and_lists_every_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    top = " ".join(text.split("## ")[0].split())
    assert "word game" in top and "letters it has in common" in top
    listed = text[text.index("`jotto --help` lists every command") :]
    listed = listed[: listed.index("\n\n")]
    for name in main.commands:
        assert f"`{name}`" in listed, name
    assert '-m "not sanitizers"' in text


# ---- 16, 18: assist ----------------------------------------------------------------------------


def test_assist_says_why_the_first_suggestion_changes():
    run = cli("assist", "-n", "5", "--no-sheet", input="quit\n")
    assert run.exit_code == 0, run.output
    assert "mixed strategy" in run.output and "--seed" in run.output
    seeded = cli("assist", "-n", "5", "--seed", "3", "--no-sheet", input="quit\n")
    assert "mixed strategy" not in seeded.output


@pytest.mark.parametrize(
    "line, says",
    [
        ("lathy 2 3", "'2 3' is not a reply"),
        ("stare x", "'x' is not a reply"),
        ("stare 9", "'9' is not a reply"),
    ],
)
def test_assist_says_what_is_wrong_with_the_reply_given(line, says):
    run = cli("assist", "-n", "5", "-g", "gbr:exact", "--no-sheet", input=f"{line}\nquit\n")
    assert run.exit_code == 0, run.output
    assert says in run.output, run.output
    assert "A reply is from 0 to 5 (not counted)" not in run.output


# ---- 17: help texts ----------------------------------------------------------------------------


def _broken_lines(text: str) -> list[str]:
    """Lines of a docstring broken mid-sentence: a short line whose next line, at the same
    indentation, goes on with the sentence though its first word would have fitted."""
    lines = text.splitlines()
    out = []
    for a, b in zip(lines, lines[1:]):
        ia, ib = len(a) - len(a.lstrip()), len(b) - len(b.lstrip())
        word = b.strip().split(" ")[0] if b.strip() else ""
        if (
            word
            and ia == ib
            and a.strip()
            and not a.rstrip().endswith((".", ":"))
            and word[0].islower()
            and len(a) + 1 + len(word) <= 72
            and len(a.strip()) < 40
        ):
            out.append(f"{a!r} / {b!r}")
    return out


@pytest.mark.parametrize(
    "name", ["solve", "best_response", "race", "opener_values", "check_certificate", "evaluate"]
)
def test_help_is_not_broken_mid_sentence(name):
    assert not _broken_lines(getattr(jotto, name).__doc__)


def test_the_race_guesser_s_help_ends_its_sentence():
    from jotto.players.specs import GUESSER_HELP

    entry = " ".join(GUESSER_HELP[GUESSER_HELP.index("race[:weights") :].split())
    assert entry.endswith("outside a race it plays as greedy-cost does for the mean"), entry


# ---- 19: messages, histograms, plots, the progress bar -----------------------------------------


def test_messages_wrap_at_words_to_the_terminal(monkeypatch, capsys):
    from jotto.cli import options

    monkeypatch.setattr(options.sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(
        options.shutil, "get_terminal_size", lambda *a: type("T", (), {"columns": 50})()
    )
    path = "/a/rather/long/directory/name/for/the/run/jotto-5-letters-exact.jotto"
    message = f"jotto: stopped after iteration 120; the run is saved in {path}. Resume with:"
    options.note(message, f"jotto solve --out {path} --resume")
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1] == f"  jotto solve --out {path} --resume"
    assert " ".join(lines[:-1]) == message
    assert all(len(x) <= 49 for x in lines[:-1] if " " in x.strip())


def test_histograms_are_drawn_alike():
    from jotto.util.text import BAR

    wl = jotto.load_words("enable", length=3)
    text = jotto.evaluate(wl, "norvig:max").histogram_text()
    assert BAR in text and "\u2588" not in text
    source = (ROOT / "src" / "jotto" / "cli" / "stats.py").read_text()
    assert "'#'" not in source and "bar(" in source


def test_the_double_oracle_plot_ticks_whole_rounds(tmp_path):
    pytest.importorskip("matplotlib")
    wl = jotto.load_words("enable", length=2)
    sol = jotto.solve(wl, method="double-oracle", iterations=4, progress=False)
    fig = sol.plot()
    ticks = fig.axes[0].get_xticks()
    assert len(ticks) and np.all(ticks == np.round(ticks)), ticks


def test_the_progress_bar_ends_with_the_result_s_epsilon(capsys):
    sol = jotto.solve(["ab", "cd", "ef", "gh", "ij", "ac", "bd"], iterations=40, progress=True)
    err = capsys.readouterr().err
    last = re.findall(r"eps=([0-9.]+)", err)[-1]
    assert last == f"{sol.epsilon:.4f}", (last, sol.epsilon)
