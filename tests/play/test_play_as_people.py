"""Jotto as people play it (issue 36): the computer hides words people know, the sheet on
demand and marked by hand, the person's word asked for and checked at the end of a race, text
wrapped to the terminal, ``analyze`` taking every guess ``play`` takes, and statistics kept
apart by list, length and level, from terminals only unless asked.

Expected values are derived here: the common words from the bundled Stanford GraphBase file
and from ``wordfreq`` itself, replies with ``jotto.reply``, secrets by replaying the command's
draw in-process."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources

import numpy as np
import pexpect
import pytest

import jotto
from jotto.play.analysis import partition_of, partition_vectors
from jotto.play.commonness import ZIPF_COMMON, hiding_set
from jotto.play.history import Stats, summarise
from jotto.play.sessions import HIDE_FROM, Assist, Race, level_players
from jotto.play.sheet import Style
from tests.bad_input import cli, one_line_error
from tests.cli.test_cli_play import (
    ASSIST_PROMPT,
    GUESS_PROMPT,
    Terminal,
    _env,
    fitting,
    piped,
    secret_of,
)

SGB = set(resources.files("jotto").joinpath("data", "sgb-words.txt").read_text().split())


@pytest.fixture(scope="module")
def words():
    return jotto.load_words()


@pytest.fixture(scope="module")
def solution(words):
    return jotto.play.sessions.bundled_solution(words)


@pytest.fixture
def no_wordfreq(monkeypatch):
    """As on a machine without the optional wordfreq package."""
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import fails


# ---- which words the computer hides --------------------------------------------------------------


def test_sgb_hides_the_stanford_graphbase_words(words):
    h = hiding_set(words, "sgb")
    assert [w for w, m in zip(words, h.mask) if m] == [w for w in words if w in SGB]
    assert h.count == 1739 and "fauld" in words and "fauld" not in SGB  # the secret
    assert h.about == "one of the 1739 common ones (in the Stanford GraphBase list)"


def test_wordfreq_hides_words_used_once_per_million(words):
    wordfreq = pytest.importorskip("wordfreq")
    for w in (words, jotto.load_words(length=3)):
        h = hiding_set(w, "wordfreq")
        assert h.mask.tolist() == [wordfreq.zipf_frequency(x, "en") >= ZIPF_COMMON for x in w]
        assert 0 < h.count < len(w) and not h.mask[w.index("fauld")] if w.length == 5 else True


def test_common_is_the_best_source_installed(words, no_wordfreq):
    assert hiding_set(words, "common").mask.tolist() == hiding_set(words, "sgb").mask.tolist()
    three = jotto.load_words(length=3)
    h = hiding_set(three, "common")  # no list of common 3-letter words: any word, said so
    assert h.mask.all() and "no list of common 3-letter words here" in h.about
    assert "pip install 'jotto[common]'" in h.about
    with pytest.raises(ImportError, match=r"pip install 'jotto\[common\]'"):
        hiding_set(words, "wordfreq")


def test_common_with_wordfreq_installed(words):
    pytest.importorskip("wordfreq")
    assert hiding_set(words, "common").mask.tolist() == hiding_set(words, "wordfreq").mask.tolist()


def test_hide_from_a_file(words, tmp_path):
    path = tmp_path / "mine.txt"
    a, b = words[10], words[20]  # heart is not a secret (an anagram), ab too short
    path.write_text(f"{b}\n{a}\nzzzzz\nheart\nab\n")
    h = hiding_set(words, str(path))
    assert [w for w, m in zip(words, h.mask) if m] == [a, b]
    assert h.about == f"one of the 2 in {path}"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("-n", 3, "--hide-from", "sgb"), "the Stanford GraphBase list has only 5-letter words"),
        (("--hide-from", "nosuchfile"), "'nosuchfile' is not one of common, wordfreq, sgb, all"),
    ],
)
def test_bad_hide_from_is_one_line(args, fragment):
    one_line_error(cli("play", "--no-save", *args, input="quit\n"), fragment)


def test_hide_from_a_file_without_secrets_is_one_line(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("heart\n")
    one_line_error(cli("play", "--hide-from", path, input=""), "none of the 2780 secrets")


def test_levels_hide_common_words_and_hard_any(words, solution, no_wordfreq):
    """Easy and medium hide a common word (uniformly among them), hard the equilibrium's
    draw over every word; --hide-from common at hard keeps the equilibrium's weights on the
    common words."""
    common = np.array([w in SGB for w in words], dtype=float)
    for level in ("easy", "medium"):
        assert HIDE_FROM[level] == "common"
        _, _, p = level_players(words, solution, None, 1, level, hiding_set(words, "common"))
        assert p.tolist() == common.tolist()
    _, _, p = level_players(words, solution, None, 1, "hard", hiding_set(words, "all"))
    assert p.tolist() == np.asarray(solution.hider()).tolist()
    _, _, p = level_players(words, solution, None, 1, "hard", hiding_set(words, "common"))
    assert p.tolist() == (np.asarray(solution.hider()) * common).tolist()
    secrets = {secret_of(words, common, s) for s in range(40)}
    assert secrets <= SGB


def test_easy_game_says_and_hides_a_common_word(tmp_path, words):
    seed = 5
    p = hiding_set(words, "sgb").mask.astype(float)
    secret = secret_of(words, p, seed)
    proc = piped(
        [
            "play",
            "--you",
            "guess",
            "--level",
            "easy",
            "--hide-from",
            "sgb",
            "--seed",
            seed,
            "--no-sheet",
        ],
        "give up\n",
        tmp_path,
    )
    out = proc.stdout.splitlines()
    assert out[0] == (
        "I am thinking of a 5-letter word from enable (2780 words), one of the "
        "1739 common ones (in the Stanford GraphBase list). Type 'help' for "
        "commands."
    )
    assert f"My word was {secret}." in out and secret in SGB


# ---- the sheet: on demand, marked by hand, in assist ---------------------------------------------


def test_sheet_and_marks_in_a_guess_game(tmp_path, words, solution):
    seed = 2
    secret = secret_of(words, solution.hider(), seed)
    zero = next(w for w in words if jotto.reply(w, secret) == 0)
    t = Terminal(["play", "--you", "guess", "--no-save", "--seed", seed], tmp_path, GUESS_PROMPT)
    try:
        t.start()
        after = t.send(zero)
        absent = " ".join(sorted(zero))
        assert after == [
            f"{zero}: 0",
            "Your sheet:",
            f"   1  {zero}  0",
            f"      in: none  out: {absent}",
        ]
        assert t.send("sheet") == after[1:]
        marked = t.send("mark qx out")
        assert marked == [*after[1:], "      your marks: in: none  out: q x"]
        assert t.send("mark e in")[-1] == "      your marks: in: E  out: q x"
        assert t.send("mark q clear")[-1] == "      your marks: in: E  out: x"
        assert t.send("mark 1 in") == ["'1': marks are letters a to z."]
        assert t.send("mark") == [
            "Mark letters as on paper: 'mark X in', 'mark X out' or "
            "'mark X clear' (X: one or more letters)."
        ]
        assert any(x.startswith("  mark X in") for x in t.send("help"))
        lines, _ = t.finish(secret)
        assert lines[0].startswith(f"Yes! {secret} is my word.")
        assert "      your marks: in: E  out: x" in lines  # the whole sheet at the end
    finally:
        t.child.close(force=True)


def test_assist_shows_the_sheet(words):
    session = Assist(words, jotto.players.make_guesser("gbr:exact", words), "g", sheet=True)
    session.start()
    lines = session.handle("stare 0").lines
    assert lines[:3] == ["The sheet:", "   1  stare  0", "      in: none  out: a e r s t"]
    assert lines[3] == f"{len(fitting(words, [('stare', 0)]))} candidates left."
    assert session.handle("sheet").lines == lines[:3]
    assert session.handle("mark b in").lines[-1] == "      your marks: in: B  out: none"
    assert session.handle("new").lines[0] == "New game."
    assert session.handle("sheet").lines == ["The sheet:", "      in: none  out: none"]


def test_assist_sheet_in_a_terminal(tmp_path, words):
    t = Terminal(["assist", "--seed", 1], tmp_path, ASSIST_PROMPT)
    try:
        t.start()
        lines = t.send("stare 0")
        assert lines[:3] == ["The sheet:", "   1  stare  0", "      in: none  out: a e r s t"]
    finally:
        t.child.close(force=True)


# ---- the end of a race: your word, your answers checked ------------------------------------------


def _race(words, solution, seed):
    guesser, name, p = level_players(words, solution, None, seed, "hard", hiding_set(words, "all"))
    race = Race(words, p, guesser, name, seed, style=Style(False), sheet=True)
    race.start()
    return race


def test_race_checks_your_answers_against_your_word(words, solution):
    """You answer the computer's first guess wrongly, then find its word: it asks for yours and
    shows the answer that was wrong."""
    seed = 6
    probe = _race(words, solution, seed)
    mine = words[probe.mine.secret]
    first = next(w for w in words if w != mine)
    g1 = probe.handle(first).lines[-1].split()[-1]
    yours = next(w for w in words if w not in (g1, mine) and jotto.reply(g1, w) == 2)
    race = _race(words, solution, seed)
    race.handle(first)
    race.handle("3")  # untrue: g1 and your word share 2 letters
    out = race.handle(mine)
    assert out.lines[0] == f"Yes! {mine} is my word. You found it in 2 guesses."
    g2 = out.lines[-1].split()[-1]
    answer = str(jotto.reply(g2, yours))
    assert g2 != yours  # for this seed: the computer has not found it
    end = race.handle(answer)
    assert not end.done and race.prompt == "Your word: "
    assert end.lines[-1] == "What was your word? I will check your answers (Enter to skip)."
    assert race.result()["outcome"] == "won"
    check = race.handle(yours)
    assert check.done and check.lines == [
        f"Your answer to {g1} was 3, but {g1} and {yours} share 2 letters: that answer ruled "
        f"{yours} out."
    ]


def test_race_the_computer_won_ends_without_asking(words, solution):
    """When the computer finds the word with true answers, the word is known: the race ends
    at once, nothing more to check."""
    race = _race(words, solution, 3)
    race.handle(next(w for w in words if w != words[race.mine.secret]))
    end = race.handle("yes")
    assert end.done and not race.asking_word and race.result()["outcome"] == "lost"
    assert end.lines[:2] == [
        f"Got it: {words[race.theirs.current]} in 1 guess.",
        "I found your word first: I win.",
    ]
    assert not any("What was your word" in x or "Your answer to" in x for x in end.lines)


# ---- text wrapped to the terminal ---------------------------------------------------------------


def test_long_lines_wrap_to_the_terminal_width(tmp_path):
    child = pexpect.spawn(
        sys.executable,
        ["-m", "jotto", "play", "--you", "guess", "--seed", "1", "--no-save"],
        encoding="utf-8",
        timeout=30,
        cwd=str(tmp_path),
        dimensions=(40, 60),
        env=_env(),
    )
    try:
        child.expect_exact(GUESS_PROMPT)
        lines = child.before.split("\r\n")
        assert lines[0].startswith("I am thinking of a 5-letter word")
        assert all(len(x) <= 59 for x in lines) and len(lines) > 6
        assert lines[1].startswith("  ")  # continuation lines indented
    finally:
        child.close(force=True)
    piped_out = piped(["play", "--you", "guess", "--seed", 1, "--no-save"], "", tmp_path).stdout
    assert max(map(len, piped_out.splitlines())) > 100  # through a pipe: as written


# ---- analyze takes the guesses play takes --------------------------------------------------------


def test_partition_of_any_guess_play_takes(words):
    assert "stare" not in words  # the paper's rules drop it (an anagram), play takes it
    twin = np.bincount([jotto.reply("stare", w) for w in words], minlength=words.classes)
    assert partition_of(words, "stare").tolist() == twin.tolist()
    assert (
        partition_of(words, "doyen").tolist()
        == partition_vectors(words, [words.index("doyen")])[0].tolist()
    )
    with pytest.raises(ValueError, match="'qzxvw' is not in my word list"):
        partition_of(words, "qzxvw")


def test_analyze_partition_command_takes_stare():
    result = cli("analyze", "partition", "stare", "doyen", "--json")
    assert result.exit_code == 0, result.output
    words = jotto.load_words()
    got = json.loads(result.stdout)
    assert got["stare"] == partition_of(words, "stare").tolist()
    one_line_error(cli("analyze", "partition", "stares"), "'stares' has 6 letters")
    assert cli("analyze", "neighbours", "stare").stdout.startswith("stare: 24 neighbours: ")


# ---- statistics ----------------------------------------------------------------------------------


def test_stats_are_kept_apart_by_list_length_and_level(private_data_dir):
    stats = Stats()
    games = [
        ({"mode": "guess", "outcome": "won", "your_guesses": 4}, "enable", 5, "easy"),
        ({"mode": "guess", "outcome": "gave up", "your_guesses": 2}, "enable", 5, "easy"),
        ({"mode": "guess", "outcome": "won", "your_guesses": 6}, "enable", 5, "hard"),
        ({"mode": "guess", "outcome": "won", "your_guesses": 3}, "enable", 3, "easy"),
        ({"mode": "race", "outcome": "draw", "your_guesses": 5, "my_guesses": 5}, "sgb", 5, "hard"),
    ]
    for game, source, length, level in games:
        assert stats.record(
            {**game, "level": level, "words": {"source": source, "size": 1, "length": length}}
        )
    groups = summarise(stats.games())
    assert [(g["mode"], g["words"], g["length"], g["level"], g["games"]) for g in groups] == [
        ("race", "sgb", 5, "hard", 1),
        ("guess", "enable", 5, "easy", 2),
        ("guess", "enable", 5, "hard", 1),
        ("guess", "enable", 3, "easy", 1),
    ]
    assert groups[1]["outcomes"] == {"gave up": 1, "won": 1}
    assert groups[1]["guesses"]["mean"] == 4
    text = subprocess.run(
        [sys.executable, "-m", "jotto", "stats"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert "Race games, sgb, 5 letters, hard: 1 (0 won, 0 lost, 1 drawn, 0 given up)" in text
    assert (
        "Games where you guessed my word, enable, 5 letters, easy: 2 (1 found, 1 given up)" in text
    )
    assert (
        "Games where you guessed my word, enable, 3 letters, easy: 1 (1 found, 0 given up)" in text
    )


def test_the_tally_and_stats_say_outcomes_alike(tmp_path, words, solution):
    secret = secret_of(words, solution.hider(), 1)
    proc = piped(["play", "--you", "guess", "--seed", 1, "--save"], f"{secret}\n", tmp_path)
    tally = proc.stdout.splitlines()[-1]
    stats = subprocess.run(
        [sys.executable, "-m", "jotto", "stats"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[0]
    assert tally.startswith(
        "Your guess games so far (enable, 5 letters, hard): 1 (1 found, 0 given up)."
    )
    assert (
        stats == "Games where you guessed my word, enable, 5 letters, hard: 1 (1 found, 0 given up)"
    )


def test_piped_games_are_not_saved_unless_asked(tmp_path, words, solution, private_data_dir):
    secret = secret_of(words, solution.hider(), 1)
    piped(["play", "--you", "guess", "--seed", 1], f"{secret}\n", tmp_path)
    assert not (private_data_dir / "games.json").exists()
    piped(["play", "--you", "guess", "--seed", 1, "--save-stats"], f"{secret}\n", tmp_path)
    assert len(Stats().games()) == 1


def test_a_word_that_cannot_be_a_secret_has_its_answers_checked_too(words):
    """A person may think of crane, which the paper's rules keep from being a secret: the
    computer could not find it, says why, and still names the answer that was wrong."""
    from jotto.play.sessions import YouHide

    session = YouHide(words, jotto.players.make_guesser("gbr:exact", words), "g")
    session.start()
    first = words[session.current]
    true = jotto.reply(first, "crane")
    session.handle(str((true + 1) % 5))  # untrue
    lines = session.check_answers("crane")
    assert lines[0].startswith(
        "'crane' could not be found: it can't be a secret under these "
        "rules: another word has the same letters"
    )
    assert lines[1] == (
        f"Your answer to {first} was {(true + 1) % 5}, but {first} and crane "
        f"share {true} letter{'s' if true != 1 else ''}: that answer ruled "
        f"crane out."
    )
