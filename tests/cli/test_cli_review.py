"""``jotto review`` and ``review`` after ``jotto play``: the game log kept beside the
statistics, the review's lines and JSON against counts recomputed here, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pexpect

import jotto
from jotto.play.review import review_record

JOTTO = [sys.executable, "-m", "jotto"]
#: A 3-letter race given up after two rounds (docs/playing.md's game), then its review.
GAME = "foe\n1\ndie\n0\ngive up\nfur\n"
PLAY = ["play", "-n", "3", "--seed", "7", "--no-sheet"]


def _run(args, stdin=""):
    env = dict(os.environ, NO_COLOR="1")
    env.pop("JOTTO_DEBUG", None)
    return subprocess.run(
        [*JOTTO, *args], input=stdin, capture_output=True, text=True, env=env, timeout=120
    )


def _fitting(words, history):
    return [w for w in words if all(jotto.reply(g, w) == r for g, r in history)]


def test_a_played_game_is_logged_and_reviewed(private_data_dir):
    played = _run([*PLAY, "--save"], GAME + "review\n")
    assert played.returncode == 0, played.stderr
    (record,) = json.loads((private_data_dir / "game-log.json").read_text())["games"]
    words = jotto.load_words("enable", length=3)
    assert record["mode"] == "race" and record["outcome"] == "gave up"
    assert record["words"]["sha256"] == words.sha256 and "list" not in record["words"]
    assert record["yours"] == [
        ["foe", jotto.reply("foe", record["my_word"])],
        ["die", jotto.reply("die", record["my_word"])],
    ]
    assert [m[1] for m in record["mine"]] == [1, 0]  # the answers typed
    share = next(x for x in played.stdout.splitlines() if x.startswith("Share: "))
    assert share.startswith("Share: Jotto race, enable 3 letters: gave up · you 2 guesses")
    assert not any(w in share for w in ("foe", "die", "fur", record["my_word"]))

    out = _run(["review", "--json"])
    assert out.returncode == 0, out.stderr
    review = json.loads(out.stdout)
    yours, mine = review["sides"]
    history = []
    for (guess, reply), g in zip(record["yours"], yours["guesses"]):
        before = len(_fitting(words, history))
        history.append((guess, reply))
        assert (g["guess"], g["reply"], g["candidates"], g["left"]) == (
            guess,
            reply,
            before,
            len(_fitting(words, history)),
        )
        lo, hi = g["expected"]
        assert 1 <= lo <= hi and g["best"][0] <= g["best"][1] <= hi  # best <= this guess
    assert [g["guess"] for g in mine["guesses"]] == [m[0] for m in record["mine"]]
    assert review["share"].startswith("Jotto race, enable 3 letters: gave up · you 2 guesses")
    text = _run(["review", "last"])
    assert text.returncode == 0 and text.stdout.startswith("Game 1 of 1 in ")
    table = [x for x in text.stdout.splitlines() if x.startswith("  1  foe ")]
    assert len(table) == 2 and all(x.split()[2:4] == ["1", "415"] for x in table)
    lines = text.stdout.splitlines()  # the first names the log's path; the last is one line
    assert lines[-1].startswith("Share: ") and all(len(x) <= 80 for x in lines[1:-1])


def test_review_again_gives_the_same_exact_numbers(private_data_dir):
    """Reviews of a logged game agree wherever their numbers are exact (the budget decides
    only how narrow the intervals are)."""
    _run([*PLAY, "--save"], GAME)
    (record,) = json.loads((private_data_dir / "game-log.json").read_text())["games"]
    a, b = review_record(record), review_record(record, nodes=100)
    for sa, sb in zip(a.sides, b.sides):
        for ga, gb in zip(sa.guesses, sb.guesses):
            assert ga.candidates == gb.candidates and ga.left == gb.left
            assert max(ga.expected[0], gb.expected[0]) <= min(ga.expected[1], gb.expected[1])


def test_a_broken_game_log_is_set_aside(private_data_dir):
    (private_data_dir / "game-log.json").write_text("{not json")
    played = _run([*PLAY, "--save"], GAME)
    assert played.returncode == 0
    assert (
        "the game log" in played.stderr and "set it aside as game-log.json.broken-" in played.stderr
    )
    assert [p for p in private_data_dir.iterdir() if p.name.startswith("game-log.json.broken-")]
    assert len(json.loads((private_data_dir / "game-log.json").read_text())["games"]) == 1


def test_review_bad_input_is_one_line_and_exit_2(private_data_dir, tmp_path):
    def fails(args, needle):
        out = _run(args)
        assert out.returncode == 2 and out.stdout == "", out
        assert len(out.stderr.strip().splitlines()) == 1 and needle in out.stderr, out.stderr

    fails(["review"], "no games in the game log")
    bad = tmp_path / "log.json"
    bad.write_text("[1, 2")
    fails(["review", str(bad)], "not a jotto game log")
    assert bad.exists()  # a file named on the command line is never set aside
    fails(["review", str(tmp_path / "none.json")], "no such file")
    _run([*PLAY, "--save"], GAME)
    fails(["review", "--game", "2"], "holds 1 game")
    log = json.loads((private_data_dir / "game-log.json").read_text())
    log["games"][0]["words"]["sha256"] = "0" * 64
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(log))
    fails(["review", str(tampered)], "SHA-256 differs")
    log["games"][0]["words"]["sha256"] = jotto.load_words("enable", length=3).sha256
    log["games"][0]["yours"] = [["foe", 99]]
    tampered.write_text(json.dumps(log))
    fails(["review", str(tampered)], "is not a guess and a reply")


def test_review_at_the_terminal_after_a_game(private_data_dir):
    env = dict(os.environ, NO_COLOR="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "jotto", *PLAY, "--you", "guess"],
        encoding="utf-8",
        timeout=60,
        env=env,
        dimensions=(40, 250),
    )
    child.expect_exact("Your guess: ")
    child.sendline("give up")
    child.expect_exact("Play again? [y/N, or review] ")
    child.sendline("review")
    child.expect_exact("Play again? [y/N, or review] ")
    assert "Share: Jotto guess, enable 3 letters: gave up" in child.before
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
