"""``jotto play`` as issue 12 made it: the race (the default), the Jotto sheet, levels, play
again, statistics, line editing and colour, driven through a pseudo-terminal.

Expected output comes from the same session replayed in-process (same list, level, seed), and
is checked independently where it can be: replies with ``jotto.reply``, words that fit by
filtering the list, the sheet's letters by the brute-force twin of tests/play/test_sheet.py, the
computer's words by drawing them as the command does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pexpect
import pytest

import jotto
from jotto.play.commonness import hiding_set
from jotto.play.history import Stats, summarise
from jotto.play.sessions import HIDE_FROM, Race, hider_for, level_players
from jotto.play.sheet import Style, deduce_letters
from jotto.play.vocabulary import Vocabulary
from jotto.solvers.bundled import bundled_solution
from tests.cli.test_cli_play import (
    AGAIN_PROMPT,
    GUESS_PROMPT,
    HIDE_PROMPT,
    NO_WORD_FITS,
    _contradiction,
    _env,
    fitting,
    hide_oracle,
    pick_hide_secret,
    piped,
    reply_line,
    secret_of,
    still_fit,
    term,
)
from tests.play.test_sheet import brute_force

__all__ = ["term"]  # the fixture, imported for these tests


@pytest.fixture(scope="module")
def words():
    return jotto.load_words()


@pytest.fixture(scope="module")
def solution(words):
    return bundled_solution(words)


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


def hiding(words, level):
    """The words the command hides at ``level`` (its default --hide-from)."""
    return hiding_set(words, HIDE_FROM[level])


def race_oracle(words, solution, level, seed, spec=None, hider=None):
    hides = hiding(words, level)
    guesser, name, p = level_players(
        words, solution, spec, seed, level, hides, race=True, hider=hider
    )
    race = Race(words, p, guesser, name, seed, style=Style(False), sheet=True, hides=hides.about)
    race.start()
    return race


def expected_sheet(title, guesses, replies, length):
    """The sheet as the brute-force twin deduces it."""
    sheet = brute_force(guesses, replies, length)
    present = " ".join(sorted(c.upper() for c in sheet.present)) or "none"
    absent = " ".join(sorted(sheet.absent)) or "none"
    return [
        title,
        *[f"  {n:>2}  {g}  {r}" for n, (g, r) in enumerate(zip(guesses, replies), 1)],
        f"      in: {present}  out: {absent}",
    ]


def _play_round(t, oracle, guess, answer):
    """One round through the terminal and the oracle: the lines after the guess and after
    the answer (equal to the oracle's)."""
    t.prompt = HIDE_PROMPT
    after_guess = t.send(guess)
    assert after_guess == oracle.handle(guess).lines
    if answer is None:
        return after_guess, None
    t.prompt = GUESS_PROMPT
    expect_done = oracle.handle(answer)
    if expect_done.done:
        return after_guess, expect_done.lines
    after_answer = t.send(answer)
    assert after_answer == expect_done.lines
    return after_guess, after_answer


def test_race_the_computer_wins(term, words, solution):
    seed = 3
    oracle = race_oracle(words, solution, "hard", seed)
    mine = words[oracle.mine.secret]
    assert mine == secret_of(words, solution.hider(), seed)  # the equilibrium hider's draw
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    t = term(["play", "--seed", seed], GUESS_PROMPT)  # race and hard are the defaults
    intro = t.start()
    assert intro[0].startswith("Race: think of a 5-letter word from enable (2780 words)")
    # the race guesser's guesses follow yours: each is the one the oracle's session makes
    my_guesses = [w for w in words.words[::97] if w != mine]
    history, theirs, steps = [], [], 0
    for k, g in enumerate(my_guesses):
        t.prompt = HIDE_PROMPT
        after_guess = t.send(g)
        assert after_guess == oracle.handle(g).lines
        history.append((g, jotto.reply(g, mine)))
        assert after_guess[0] == reply_line(g, mine)
        assert after_guess[1:-1] == expected_sheet("Your sheet:", *zip(*history), 5)
        their_guess = after_guess[-1].removeprefix(f"My guess {k + 1}: ")
        assert their_guess in words
        steps += 1
        if their_guess == secret:
            break
        answer = str(jotto.reply(their_guess, secret))
        t.prompt = GUESS_PROMPT
        lines = t.send(answer)
        assert lines == oracle.handle(answer).lines
        theirs.append((their_guess, int(answer)))
        assert lines == [still_fit(len(fitting(words, theirs)))]
    lines, status = t.finish("yes")
    assert lines[:3] == [
        f"Got it: {secret} in {steps} guesses.",
        "I found your word first: I win.",
        f"My word was {mine}.",
    ]
    assert lines[3:-1] == expected_sheet("My sheet (my guesses, your answers):", *zip(*theirs), 5)
    assert lines[-1] == (
        "Your race games so far (enable, 5 letters, hard): 1 (0 won, 1 lost, 0 "
        "drawn, 0 given up). 'jotto stats' "
        "shows more."
    )
    assert status == 0 and "Traceback" not in t.output()


@pytest.mark.parametrize("outcome", ["won", "draw"])
def test_race_you_win_or_draw(term, sgb, outcome):
    """Easy level on sgb: the computer hides uniformly and guesses random fitting words.  You
    find its word in round 2; it takes its round-2 guess: a win, or, if that guess is your
    word, a draw."""
    seed = 8
    oracle = race_oracle(sgb, None, "easy", seed)
    mine = sgb[oracle.mine.secret]
    assert mine == secret_of(sgb, hiding(sgb, "easy").mask.astype(float), seed)
    first = [w for w in sgb.words if w != mine][0]
    # replay the first round to learn the computer's guesses: your word is its second guess
    # (draw) or a word it does not reach by then (win)
    probe = race_oracle(sgb, None, "easy", seed)
    g1 = probe.handle(first).lines[-1].split()[-1]
    candidates = [w for w in sgb.words if w != g1]
    yours = candidates[len(candidates) // 3]
    probe.handle(str(jotto.reply(g1, yours)))
    g2 = probe.handle(mine).lines[-1].split()[-1]
    if outcome == "draw":
        # g2 fits the answer given to g1 (easy guesses only fitting words), so with g2 as your
        # word that answer, and so the computer's second guess, stay the same
        assert jotto.reply(g1, g2) == jotto.reply(g1, yours)
        yours = g2
    t = term(
        ["play", "-w", "sgb", "--anagrams", "norvig", "--level", "easy", "--seed", seed],
        GUESS_PROMPT,
    )
    t.start()
    _play_round(t, oracle, first, str(jotto.reply(g1, yours)))
    t.prompt = HIDE_PROMPT
    lines = t.send(mine)
    assert lines == oracle.handle(mine).lines
    assert lines[:3] == [
        f"Yes! {mine} is my word. You found it in 2 guesses.",
        "I still take my guess of this round: if it finds your word, we draw.",
        f"My guess 2: {g2}",
    ]
    answer = "yes" if g2 == yours else str(jotto.reply(g2, yours))
    if outcome == "won":  # I did not find your word: I ask for it and check your answers
        t.prompt = "Your word: "
        lines = t.send(answer)
        assert lines == oracle.handle(answer).lines
        assert lines[-1] == "What was your word? I will check your answers (Enter to skip)."
        end, status = t.finish(yours)
        assert end[:-1] == oracle.handle(yours).lines  # then the tally
        assert end[0].startswith(f"{yours} fits all your answers; I had ")
        lines += end
    else:
        lines, status = t.finish(answer)
    verdict = (
        "We both found the other's word in this round: a draw."
        if outcome == "draw"
        else "You found my word first, in 2 guesses: you win."
    )
    assert verdict in lines and status == 0
    games = Stats().games()
    assert [g["outcome"] for g in games] == [outcome]
    assert games[0]["level"] == "easy" and games[0]["your_guesses"] == 2


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_levels_guess_as_documented(term, words, solution, level):
    seed = 5
    secret = words[700]
    if level == "easy":
        make = lambda: jotto.players.RandomGuesser(words, seed)  # noqa: E731
    elif level == "medium":
        make = lambda: jotto.players.make_guesser("gbr:exact", words)  # noqa: E731
    else:
        make = lambda: solution.guesser(seed=seed)  # noqa: E731
    steps = hide_oracle(words, make(), secret)
    t = term(
        ["play", "--no-sheet", "--no-save", "--you", "hide", "--level", level, "--seed", seed],
        HIDE_PROMPT,
    )
    assert t.start()[-1] == f"Guess 1: {steps[0][0]}"
    history = []
    for guess, answer, oracle_lines, _ in steps[:-1]:
        if level == "easy":  # the Perl player guesses only words that still fit
            assert guess in fitting(words, history)
        history.append((guess, int(answer)))
        assert t.send(answer) == oracle_lines
    lines, status = t.finish("yes")
    assert lines == [f"Got it: {secret} in {len(steps)} guess{'es' if len(steps) > 1 else ''}."]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_levels_hide_as_documented(tmp_path, words, solution, level):
    seed = 12
    p = solution.hider() if level == "hard" else hiding(words, level).mask.astype(float)
    proc = piped(["play", "--level", level, "--seed", seed, "--no-save"], "give up\n", tmp_path)
    assert proc.returncode == 0
    assert f"My word was {secret_of(words, p, seed)}." in proc.stdout.splitlines()
    assert "My sheet" not in proc.stdout  # given up before the computer guessed: no sheet
    guess = piped(
        ["play", "--you", "guess", "--level", level, "--seed", seed, "--no-save"],
        "give up\n",
        tmp_path,
    ).stdout.splitlines()
    assert guess[1 + len(Vocabulary(words).intro())] == f"My word was {secret_of(words, p, seed)}."
    # an expectation only from a guesser that has one (the random guesser's would be one game)
    assert ("would expect to need" in guess[-1]) is (level == "hard")


def test_sheet_in_a_guess_game_shows_proved_letters_and_hints(term, words, solution):
    seed = 1
    secret = secret_of(words, solution.hider(), seed)
    # guesses from the list until the replies prove a letter present (no reply of 5 needed)
    guesses = []
    for w in words.words[::53]:
        if w != secret:
            guesses.append(w)
            got = deduce_letters(guesses, [jotto.reply(g, secret) for g in guesses], 5)
            if got.present or len(guesses) == 8:
                break
    t = term(["play", "--you", "guess", "--hints", "--no-save", "--seed", seed], GUESS_PROMPT)
    t.start()
    history = []
    for g in guesses:
        lines = t.send(g)
        history.append((g, jotto.reply(g, secret)))
        sheet = expected_sheet("Your sheet:", *zip(*history), 5)
        n = len(fitting(words, history))
        assert lines == [
            reply_line(g, secret),
            *sheet,
            f"      {n} word{'s' if n != 1 else ''} fit{'' if n != 1 else 's'}",
        ]
    assert brute_force(*zip(*history), 5).present  # the twin agrees a letter is proved in
    assert t.send(guesses[0]) == [
        f"You already guessed {guesses[0]} (reply {history[0][1]}); not counted."
    ]
    t.finish("quit")


def test_fix_corrects_an_earlier_answer_and_the_game_goes_on(term, words, solution):
    seed = 3
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps, i, bad = _contradiction(words, solution, seed, secret)
    t = term(["play", "--no-sheet", "--no-save", "--you", "hide", "--seed", seed], HIDE_PROMPT)
    t.start()
    for _, answer, oracle_lines, _ in steps[:i]:
        assert t.send(answer) == oracle_lines
    assert t.send(str(bad)) == [NO_WORD_FITS]
    assert t.send(f"fix {i + 5} 1") == [
        f"There is no answered guess {i + 5} (answered so far: {i + 1})."
    ]
    guess, true = steps[i][0], steps[i][1]
    lines = t.send(f"fix {i + 1} {true}")
    history = [(g, int(a)) for g, a, _, _ in steps[: i + 1]]
    assert lines == [
        f"Changed your answer to guess {i + 1} ({guess}) from {bad} to {true}.",
        still_fit(len(fitting(words, history))),
        f"Guess {i + 2}: {steps[i + 1][0]}",
    ]
    for _, answer, oracle_lines, _ in steps[i + 1 : -1]:
        assert t.send(answer) == oracle_lines
    lines, status = t.finish("yes")
    assert lines == [f"Got it: {secret} in {len(steps)} guesses."] and status == 0


def test_play_again_uses_the_next_seed_and_records_both(term, words, solution):
    seed = 20
    first, second = (secret_of(words, solution.hider(), s) for s in (seed, seed + 1))
    t = term(["play", "--you", "guess", "--seed", seed], GUESS_PROMPT)
    opening = Vocabulary(words).intro()
    assert t.start()[1:] == opening
    t.child.sendline(first)
    t.child.expect_exact(AGAIN_PROMPT)
    assert f"Yes! {first} is my word. You found it in 1 guess." in t.child.before
    t.child.sendline("y")
    t.child.expect_exact(GUESS_PROMPT)
    again = t.child.before.split("\r\n")
    assert again[1].startswith("I am thinking of a 5-letter word")
    assert not set(opening) & set(again)  # the opening is said once per session
    lines, status = t.finish(second)
    assert lines[0] == f"Yes! {second} is my word. You found it in 1 guess." and status == 0
    assert lines[-1].startswith(
        "Your guess games so far (enable, 5 letters, hard): 2 (2 found, 0 given up)"
    )
    games = Stats().games()
    assert [(g["mode"], g["outcome"], g["your_guesses"]) for g in games] == [
        ("guess", "won", 1)
    ] * 2
    assert games[0]["words"] == {"source": "enable", "size": 2780, "length": 5}


def _guess_game(tmp_path, words, solution, seed, extra=("--save",)):
    secret = secret_of(words, solution.hider(), seed)
    other = next(w for w in words.words if w != secret)
    return piped(
        ["play", "--you", "guess", "--seed", seed, *extra], f"{other}\n{secret}\n", tmp_path
    )


def test_statistics_file_and_jotto_stats(tmp_path, words, solution, private_data_dir):
    for seed in (1, 2, 3):
        assert _guess_game(tmp_path, words, solution, seed).returncode == 0  # --save
    # a script's games (standard input not a terminal) are kept out unless asked
    assert _guess_game(tmp_path, words, solution, 4, []).returncode == 0
    assert _guess_game(tmp_path, words, solution, 4, ["--no-save"]).returncode == 0
    data = json.loads((private_data_dir / "games.json").read_text())
    assert data["version"] == 1 and len(data["games"]) == 3
    # no leftovers (the game log beside the statistics: issue 33)
    assert not [p for p in os.listdir(private_data_dir) if p not in ("games.json", "game-log.json")]
    out = subprocess.run(
        [sys.executable, "-m", "jotto", "stats", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (s,) = json.loads(out)["groups"]
    assert (s["mode"], s["words"], s["length"], s["level"]) == ("guess", "enable", 5, "hard")
    assert s["games"] == 3 and s["outcomes"] == {"won": 3}
    assert s["guesses"]["mean"] == 2 and s["guesses"]["histogram"] == {"2": 3}
    text = subprocess.run(
        [sys.executable, "-m", "jotto", "stats"], capture_output=True, text=True, check=True
    ).stdout
    assert (
        "Games where you guessed my word, enable, 5 letters, hard: 3 (3 found, 0 given up)" in text
    )
    assert "mean 2.00 over 3 games" in text and "    2 " + "#" * 30 + " 3" in text
    hide = piped(["play", "--you", "hide", "--seed", 1, "--save-stats"], "1\nyes\n", tmp_path)
    assert hide.stdout.splitlines()[-1] == (
        "Your hide games so far (enable, 5 letters, hard): 1 "
        "(1 found, 0 given up). 'jotto stats' shows more."
    )
    assert Stats().games()[-1]["outcome"] == "found" and Stats().games()[-1]["my_guesses"] == 2
    text = subprocess.run(
        [sys.executable, "-m", "jotto", "stats"], capture_output=True, text=True, check=True
    ).stdout
    assert (
        "Games where I guessed your word, enable, 5 letters, hard: 1 (1 found, 0 given up)" in text
    )
    assert "guesses I needed when the word was found: mean 2.00 over 1 game\n" in text


@pytest.mark.parametrize(
    "content", [b"{not json", b"[1, 2]", b'{"version": 1, "games": 3}', b"\xff\xfe"]
)
def test_broken_statistics_file_is_set_aside(tmp_path, words, solution, private_data_dir, content):
    (private_data_dir / "games.json").write_bytes(content)
    proc = _guess_game(tmp_path, words, solution, 1)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "was unreadable" in err[0] and "set it aside as" in err[0]
    (aside,) = [p for p in private_data_dir.iterdir() if p.name.startswith("games.json.broken-")]
    assert aside.read_bytes() == content
    assert len(Stats().games()) == 1
    assert "You found it in 2 guesses." in proc.stdout


def test_statistics_survive_a_failed_write(private_data_dir, monkeypatch):
    stats = Stats(warn=warnings.append) if (warnings := []) == [] else None
    assert stats.record({"mode": "guess", "outcome": "won", "your_guesses": 3})
    before = (private_data_dir / "games.json").read_bytes()

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(jotto.util.files.os, "replace", fail)
    assert not stats.record({"mode": "guess", "outcome": "won", "your_guesses": 4})
    assert (private_data_dir / "games.json").read_bytes() == before  # the old file, whole
    assert os.listdir(private_data_dir) == ["games.json"]  # no temporary file left
    assert len(warnings) == 1 and "No space left on device" in warnings[0]
    assert [s["games"] for s in summarise(stats.games())] == [1]


def test_unwritable_data_directory_does_not_stop_the_game(tmp_path, words, solution, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("JOTTO_DATA_DIR", str(blocker / "sub"))
    proc = _guess_game(tmp_path, words, solution, 1)
    assert proc.returncode == 0 and "You found it in 2 guesses." in proc.stdout
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("jotto: cannot save the statistics in")


def test_arrow_keys_edit_the_line_and_recall_history(term, words, solution):
    seed = 1
    secret = secret_of(words, solution.hider(), seed)
    word = next(w for w in ("stare", "crane", "plumb") if w != secret)
    t = term(["play", "--you", "guess", "--no-sheet", "--no-save", "--seed", seed], GUESS_PROMPT)
    t.start()
    t.child.send(word[1:] + "\x1b[D" * (len(word) - 1) + word[0] + "\r")  # type, go left, fix
    t.child.expect_exact(GUESS_PROMPT)
    assert reply_line(word, secret) in t.child.before.split("\r\n")
    t.child.send("\x1b[A\r")  # up arrow: the same guess again
    t.child.expect_exact(GUESS_PROMPT)
    assert f"You already guessed {word}" in t.child.before
    assert "^[[" not in t.output() + t.child.before
    t.finish("quit")


@pytest.mark.parametrize("no_color", [None, "1"])
def test_colour_only_on_a_terminal_without_no_color(tmp_path, words, solution, no_color):
    secret = secret_of(words, solution.hider(), 1)
    zero = next(w for w in words.words if jotto.reply(w, secret) == 0)  # crosses out letters
    env = _env()
    env["TERM"] = "xterm-256color"
    env.pop("NO_COLOR")
    if no_color:
        env["NO_COLOR"] = no_color
    child = pexpect.spawn(
        sys.executable,
        ["-m", "jotto", "play", "--you", "guess", "--seed", "1", "--no-save"],
        encoding="utf-8",
        timeout=30,
        env=env,
        cwd=str(tmp_path),
    )
    child.expect_exact(GUESS_PROMPT)
    child.sendline(zero)
    child.expect_exact(GUESS_PROMPT)
    assert ("\x1b[2;9m" in child.before) is (no_color is None)
    if no_color:  # plain text: the letters proved absent listed
        assert f"out: {' '.join(sorted(zero))}" in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    proc = subprocess.run(
        [sys.executable, "-m", "jotto", "play", "--you", "guess", "--seed", "1", "--no-save"],
        input=zero + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=str(tmp_path),
    )
    assert "\x1b" not in proc.stdout and "Your sheet:" in proc.stdout
    assert f"      in: none  out: {' '.join(sorted(zero))}" in proc.stdout.splitlines()


@pytest.mark.parametrize("repair", ["undo", "fix"])
def test_race_wrong_answer_is_repaired_and_the_race_goes_on(term, words, solution, repair):
    seed = 3
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps, i, bad = _contradiction(words, solution, seed, secret)
    # the equilibrium guesser, whose answers _contradiction replays (hard's race guesser
    # watches the race: its guesses depend on yours)
    spec = f"equilibrium:seed={seed}"
    oracle = race_oracle(words, solution, "hard", seed, spec)
    mine = words[oracle.mine.secret]
    my_guesses = [w for w in words.words[::89] if w != mine]
    t = term(["play", "--no-save", "--seed", seed, "-g", spec], GUESS_PROMPT)
    t.start()
    for k, (_, answer, _, _) in enumerate(steps[:i]):
        _play_round(t, oracle, my_guesses[k], answer)
    guess = steps[i][0]
    after_guess, lines = _play_round(t, oracle, my_guesses[i], None)[0], None
    assert after_guess[-1] == f"My guess {i + 1}: {guess}"
    t.prompt = HIDE_PROMPT  # a contradiction keeps it my turn: your answer is awaited
    lines = t.send(str(bad))
    assert lines == oracle.handle(str(bad)).lines == [NO_WORD_FITS]
    assert (
        t.send(my_guesses[i + 1])
        == oracle.handle(my_guesses[i + 1]).lines
        == ["Please answer with a number from 0 to 5, 'yes' if I guessed your word, or 'undo'."]
    )
    true = steps[i][1]
    if repair == "undo":
        lines = t.send("undo")
        assert (
            lines
            == oracle.handle("undo").lines
            == [f"Took back your answer {bad} to {guess}.", f"My guess {i + 1}: {guess}"]
        )
        t.prompt = GUESS_PROMPT
        lines = t.send(true)
        assert lines == oracle.handle(true).lines
    else:
        t.prompt = GUESS_PROMPT
        lines = t.send(f"fix {i + 1} {true}")
        assert lines == oracle.handle(f"fix {i + 1} {true}").lines
        assert lines[0] == f"Changed your answer to guess {i + 1} ({guess}) from {bad} to {true}."
    history = [(g, int(a)) for g, a, _, _ in steps[: i + 1]]
    assert lines[-1] == still_fit(len(fitting(words, history)))
    # your turn again, and my next guess is the one truthful answers lead to
    t.prompt = HIDE_PROMPT
    lines = t.send(my_guesses[i + 1])
    assert lines == oracle.handle(my_guesses[i + 1]).lines
    assert lines[-1] == f"My guess {i + 2}: {steps[i + 1][0]}"
    lines, status = t.finish("quit")
    assert lines == [f"My word was {mine}."] and status == 0


def test_piped_race_is_plain_text(tmp_path, sgb):
    """On Norvig's list the hard level hides by the bundled hider of its common words
    (tests/play/test_common_strategy.py) and guesses with the race guesser."""
    seed = 4
    oracle = race_oracle(sgb, None, "hard", seed, hider=hider_for(sgb, None))
    script = ["stare", "2", "clonk", "give up"]
    expected = [*oracle.start().lines]
    for line in script:
        expected += oracle.handle(line).lines
    proc = piped(
        ["play", "-w", "sgb", "--anagrams", "norvig", "--seed", seed, "--save"],
        "\n".join(script) + "\n",
        tmp_path,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout.splitlines()
    assert out[: len(expected)] == expected and "\x1b" not in proc.stdout
    assert expected[0].endswith(
        "then I do; I guess with the race guesser (it watches your "
        "progress). Type 'help' for commands."
    )  # hard: issue 33
    assert expected[-1] == "What was your word? I will check your answers (Enter to skip)."
    assert out[len(expected) :] == [
        "Bye.",  # the input ended instead
        "Your race games so far (sgb, 5 letters, hard): 1 (0 won, 0 "
        "lost, 0 drawn, 1 given up). 'jotto stats' shows more.",
    ]
    assert "Your guess" not in proc.stdout and "Play again" not in proc.stdout


def test_a_won_guess_game_ends_with_the_whole_sheet(term, words, solution):
    seed = 6
    secret = secret_of(words, solution.hider(), seed)
    first = next(w for w in words.words if jotto.reply(w, secret) == 0)
    t = term(["play", "--you", "guess", "--no-save", "--seed", seed], GUESS_PROMPT)
    t.start()
    t.send(first)
    lines, status = t.finish(secret)
    assert lines[0] == f"Yes! {secret} is my word. You found it in 2 guesses."
    assert lines[2:] == expected_sheet("Your sheet:", [first, secret], [0, 5], 5)
    assert status == 0


def test_hide_game_shows_my_sheet_after_each_answer(term, words, solution):
    seed = 3
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps = hide_oracle(words, solution.guesser(seed=seed), secret)
    t = term(["play", "--you", "hide", "--no-save", "--seed", seed], HIDE_PROMPT)
    t.start()
    history = []
    for k, (guess, answer, _, _) in enumerate(steps[:-1]):
        history.append((guess, int(answer)))
        assert t.send(answer) == [
            still_fit(len(fitting(words, history))),
            *expected_sheet("My sheet:", *zip(*history), 5),
            f"Guess {k + 2}: {steps[k + 1][0]}",
        ]
    lines, status = t.finish("yes")
    assert lines == [f"Got it: {secret} in {len(steps)} guesses."] and status == 0
