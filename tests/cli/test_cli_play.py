"""``jotto play`` and ``jotto assist`` as a person uses them: real sessions in a pseudo-terminal
(pexpect), and through a pipe.

Expected output is derived, never guessed: the computer's secret word and guesses come from
replaying the same session in-process (same word list, strategy and seed), and every count
(replies, words that still fit, candidates) is recomputed here from the rules with
``jotto.reply``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pexpect
import pytest

import jotto
from jotto.play.sessions import Assist, YouGuess, YouHide, bundled_solution
from jotto.play.vocabulary import Vocabulary
from jotto.players.specs import make_guesser

JOTTO = [sys.executable, "-m", "jotto"]
GUESS_PROMPT, HIDE_PROMPT, ASSIST_PROMPT = "Your guess: ", "Your answer: ", "> "
#: The prompt after "give up", where the person says their word (issue 33, part 5).
WORD_PROMPT = "Your word: "
AGAIN_PROMPT = "Play again? [y/N, or review] "
GBR_NAME = "GuesserGBR (exact rule; no strategy file given)"
EQ_NAME = "the equilibrium guesser"
NO_WORD_FITS = (
    "No word in my list fits all your answers. Type 'undo' to take back the last "
    "one, 'fix N R' to correct your answer to guess N, or 'give up' and tell me your "
    "word to see which answer ruled it out."
)
#: The sessions as they were before the sheet and the race (checked line by line below; the
#: sheet and the race have their own tests in test_cli_race.py).
PLAIN = ["--no-sheet", "--no-save"]
GUESS = [*PLAIN, "--you", "guess"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("JOTTO_DEBUG", None)  # errors must be reported as users see them
    env["NO_COLOR"] = "1"
    return env


# ---- fixtures and oracles ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def words():
    return jotto.load_words()


@pytest.fixture(scope="module")
def solution(words):
    sol = bundled_solution(words)
    assert sol is not None
    return sol


@pytest.fixture(scope="module")
def strategy3(tmp_path_factory):
    """A strategy file for the 3-letter ENABLE list, and that list."""
    path = tmp_path_factory.mktemp("strategy") / "three.jotto"
    w3 = jotto.load_words("enable", length=3)
    jotto.solve(3, w3, iterations=5, progress=False, out=path)
    return path, w3


@pytest.fixture(scope="module")
def sgb():
    return jotto.load_words("sgb", anagrams="norvig")


@pytest.fixture(scope="module")
def sgb_paper():
    return jotto.load_words("sgb")


def fitting(words, history) -> list[str]:
    """The words of ``words`` consistent with every (guess, reply) of ``history``."""
    return [w for w in words if all(jotto.reply(g, w) == r for g, r in history)]


def secret_of(words, hider_p, seed) -> str:
    return words[YouGuess(words, hider_p, seed).secret]


def reply_line(guess: str, secret: str) -> str:
    n = jotto.reply(guess, secret)
    if n >= len(secret):  # an anagram: L letters in common, code L + 1
        return (
            f"{guess}: all {len(secret)} letters in common, but it is not my word (an anagram of "
            f"it)"
        )
    return f"{guess}: {n}"


def still_fit(n: int) -> str:
    return f"{n} word{'s' if n != 1 else ''} still fit{'' if n != 1 else 's'}."


def of_my_list(n: int) -> str:
    return (
        f"{n} word{'s' if n != 1 else ''} of my list fit{'' if n != 1 else 's'} your "
        f"replies so far."
    )


def hide_oracle(words, guesser, secret: str) -> list[tuple[str, str, list[str], bool]]:
    """A truthful game against ``guesser`` for ``secret``, played in-process: for each guess,
    (the guess, the true answer, what the session says back, whether that ended it)."""
    session = YouHide(words, guesser, "x")
    session.start()
    steps = []
    for _ in range(40):
        guess = words[session.current]
        answer = "yes" if guess == secret else str(jotto.reply(guess, secret))
        out = session.handle(answer)
        steps.append((guess, answer, out.lines, out.done))
        if out.done:
            return steps
    raise AssertionError(f"the oracle game for {secret} did not end")


def pick_hide_secret(words, make, min_guesses: int) -> str:
    """A word of the list that ``make()``'s guesser needs at least ``min_guesses`` for."""
    for w in words.words[::37]:
        if len(hide_oracle(words, make(), w)) >= min_guesses:
            return w
    raise AssertionError("no word needs that many guesses")


class Terminal:
    """One ``jotto`` command in a pseudo-terminal, talked to a line at a time."""

    def __init__(self, args, cwd, prompt):
        self.prompt = prompt
        self.log: list[str] = []
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "jotto", *map(str, args)],
            encoding="utf-8",
            timeout=30,
            cwd=str(cwd),
            dimensions=(40, 200),
            env=_env(),
        )

    def _take(self) -> str:
        text = self.child.before
        self.log.append(text)
        return text

    @staticmethod
    def _lines(text: str) -> list[str]:
        lines = text.split("\r\n")
        assert lines[-1] == "", repr(text)
        return lines[:-1]

    def start(self) -> list[str]:
        """The lines printed before the first prompt."""
        self.child.expect_exact(self.prompt)
        return self._lines(self._take())

    def send(self, line: str) -> list[str]:
        """Type ``line``; the lines printed before the next prompt (the echo checked and
        dropped)."""
        self.child.sendline(line)
        self.child.expect_exact(self.prompt)
        lines = self._lines(self._take())
        assert lines[0] == line, lines
        return lines[1:]

    def finish(self, line: str | None = None) -> tuple[list[str], int]:
        """Type ``line`` (if any) and read to the end: the lines printed and the exit status."""
        if line is not None:
            self.child.sendline(line)
        if self.child.expect_exact([pexpect.EOF, AGAIN_PROMPT]) == 1:
            text = self._take()  # the game's last lines; then decline another game
            self.child.sendline("n")
            self.child.expect(pexpect.EOF)
            assert self.child.before.split("\r\n")[:2] == ["n", "Bye."], self.child.before
        else:
            text = self._take()
        self.child.close()
        lines = [x for x in text.replace("\r\n", "\n").split("\n")]
        if line is not None:
            assert lines[0] == line, lines
            lines = lines[1:]
        return [x for x in lines if x], self.child.exitstatus

    def output(self) -> str:
        return "".join(self.log)


@pytest.fixture
def term(tmp_path):
    """Start ``jotto`` sessions in a pseudo-terminal; every one is closed at the end."""
    started: list[Terminal] = []

    def start(args, prompt, cwd=None):
        t = Terminal(args, cwd or tmp_path, prompt)
        started.append(t)
        return t

    yield start
    for t in started:
        if not t.child.closed:
            t.child.close(force=True)


def piped(args, text, cwd):
    return subprocess.run(
        JOTTO + [str(a) for a in args],
        input=text,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env=_env(),
        check=False,
    )


def guess_intro(words) -> str:
    return (
        f"I am thinking of a {words.length}-letter word from {words.source} ({len(words)} "
        f"words). Type 'help' for commands."
    )


def secrets_intro(words) -> list[str]:
    """The start-of-game lines on the secrets (their text is checked in test_play_rules.py)."""
    return Vocabulary(words).intro()


def hide_intro(words, name) -> str:
    return (
        f"Think of a {words.length}-letter word from {words.source} ({len(words)} words); I "
        f"will guess it with {name}. Type 'help' for commands."
    )


def expected_line(solution, seed, secret, words) -> str:
    exp = solution.guesser(seed=seed).expected_guesses()[words.index(secret)]
    return f"The equilibrium guesser would expect to need {exp:.2f} guesses for {secret}."


def three_guesses(words, secret) -> list[str]:
    picks = [w for w in (words[0], words[len(words) // 2], words[-1], words[1]) if w != secret]
    return picks[:3]


# ---- you guess --------------------------------------------------------------------------------


def test_you_guess_full_game_with_hint(term, words, solution):
    seed = 1
    secret = secret_of(words, solution.hider(), seed)
    t = term(["play", *GUESS, "--seed", seed], GUESS_PROMPT)
    assert t.start() == [guess_intro(words), *secrets_intro(words)]
    history = []
    for g in three_guesses(words, secret):
        assert t.send(g) == [reply_line(g, secret)]
        history.append((g, jotto.reply(g, secret)))
    left = fitting(words, history)
    assert secret in left and 1 < len(left) < len(words)
    assert t.send("hint") == [of_my_list(len(left))]
    lines, status = t.finish(secret)
    assert lines == [
        f"Yes! {secret} is my word. You found it in 4 guesses.",
        expected_line(solution, seed, secret, words),
    ]
    assert status == 0
    assert "Traceback" not in t.output()


def test_you_guess_bad_input_is_explained_and_not_counted(term, words, solution):
    seed = 5
    secret = secret_of(words, solution.hider(), seed)
    assert "qzxvw" not in words and "qzxvw" not in words.dropped_words("anagram")
    assert "apple" not in words
    t = term(["play", *GUESS, "--seed", seed], GUESS_PROMPT)
    t.start()
    assert t.send("ab1de") == ["'ab1de' is not a word (letters only, please) (not counted)"]
    assert t.send("abc") == ["'abc' has 3 letters; this game uses 5-letter words (not counted)"]
    assert t.send("apple") == [
        (
            "'apple' repeats a letter, and under these rules words have 5 "
            "different letters (play with --rules paper,repeats to allow "
            "repeated letters) (not counted)"
        )
    ]
    assert t.send("qzxvw") == ["'qzxvw' is not in my word list (enable) (not counted)"]
    assert t.send("") == []
    help_lines = t.send("help")
    assert help_lines[0] == "Type a guess to hear how many letters it shares with my word."
    assert any(x.strip().startswith("hint") for x in help_lines)
    assert any(x.strip().startswith("give up") for x in help_lines)
    # a hint before any guess: every word still fits
    assert t.send("hint") == [of_my_list(len(words))]
    g = three_guesses(words, secret)[0]
    assert t.send("  " + g.upper() + " ") == [reply_line(g, secret)]  # case and spaces ignored
    # a word dropped under the anagram rule may still be guessed (and is counted)
    dropped = next(
        w for w in words.dropped_words("anagram") if len(set(w)) == 5 and jotto.reply(w, secret) < 5
    )
    assert t.send(dropped) == [reply_line(dropped, secret)]
    lines, status = t.finish(secret)
    assert lines[0] == f"Yes! {secret} is my word. You found it in 3 guesses."
    assert status == 0


@pytest.mark.parametrize("command", ["give up", "reveal", "quit"])
def test_you_guess_give_up_reveals_the_word(term, words, solution, command):
    seed = 11
    secret = secret_of(words, solution.hider(), seed)
    t = term(["play", *GUESS, "--seed", seed], GUESS_PROMPT)
    t.start()
    g = three_guesses(words, secret)[1]
    assert t.send(g) == [reply_line(g, secret)]
    lines, status = t.finish(command)
    expected = [f"My word was {secret}."]
    if command != "quit":
        expected.append(expected_line(solution, seed, secret, words))
    assert lines == expected and status == 0


def test_you_guess_with_hints(term, words, solution):
    seed = 2
    secret = secret_of(words, solution.hider(), seed)
    t = term(["play", *GUESS, "--seed", seed, "--hints"], GUESS_PROMPT)
    t.start()
    history = []
    for g in three_guesses(words, secret):
        history.append((g, jotto.reply(g, secret)))
        assert t.send(g) == [reply_line(g, secret), of_my_list(len(fitting(words, history)))]
    lines, status = t.finish(secret)
    assert lines[0] == f"Yes! {secret} is my word. You found it in 4 guesses."
    assert status == 0


def test_you_guess_anagram_of_the_secret(term, sgb):
    """Guessing a dropped anagram of the secret: all letters in common, but not the word.  (Under
    the paper rule every word of an anagram group is dropped, so this needs --anagrams norvig,
    which keeps one; at medium with --hide-from all the secret is drawn uniformly.)"""
    dropped = {}
    for w in sgb.dropped_words("anagram"):
        if len(set(w)) == 5:
            dropped.setdefault(frozenset(w), w)
    uniform = [1.0] * len(sgb)
    seed = next(s for s in range(200) if frozenset(secret_of(sgb, uniform, s)) in dropped)
    secret = secret_of(sgb, uniform, seed)
    other = dropped[frozenset(secret)]
    assert other != secret and other not in sgb
    args = ["-w", "sgb", "--anagrams", "norvig", "--level", "medium", "--hide-from", "all"]
    t = term(["play", *GUESS, *args, "--seed", seed], GUESS_PROMPT)
    assert t.start() == [guess_intro(sgb), *secrets_intro(sgb)]
    assert t.send(other) == [reply_line(other, secret)]
    assert reply_line(other, secret) == (
        f"{other}: all 5 letters in common, but it is not my word (an anagram of it)"
    )
    assert t.send("hint") == [of_my_list(1)]
    lines, status = t.finish(secret)
    assert lines[0] == f"Yes! {secret} is my word. You found it in 2 guesses." and status == 0


# ---- you hide ---------------------------------------------------------------------------------


def test_you_hide_full_game(term, words, solution):
    seed = 3
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 4)
    steps = hide_oracle(words, solution.guesser(seed=seed), secret)
    t = term(["play", *PLAIN, "--you", "hide", "--seed", seed], HIDE_PROMPT)
    assert t.start() == [
        hide_intro(words, EQ_NAME),
        *secrets_intro(words),
        f"Guess 1: {steps[0][0]}",
    ]
    history = []
    for k, (guess, answer, oracle_lines, done) in enumerate(steps[:-1]):
        assert not done
        history.append((guess, int(answer)))
        lines = t.send(answer)
        assert lines == oracle_lines
        assert lines == [
            still_fit(len(fitting(words, history))),
            f"Guess {k + 2}: {steps[k + 1][0]}",
        ]
        assert secret in fitting(words, history)
    assert steps[-1][0] == secret and steps[-1][1] == "yes"
    lines, status = t.finish("yes")
    assert lines == [f"Got it: {secret} in {len(steps)} guesses."] == steps[-1][2]
    assert status == 0 and "Traceback" not in t.output()


def test_you_hide_answer_5_means_got_it(term, words, solution):
    seed = 4
    first = hide_oracle(words, solution.guesser(seed=seed), words[0])[0][0]
    t = term(["play", *PLAIN, "--you", "hide", "--seed", seed], HIDE_PROMPT)
    assert t.start()[-1] == f"Guess 1: {first}"
    lines, status = t.finish("5")
    assert lines == [f"Got it: {first} in 1 guess."] and status == 0


def _contradiction(words, solution, seed, secret):
    """Truthful answers for ``secret`` until some guess has an answer in 0..L-1 that no
    remaining word gives: (the truthful steps before it, that guess, the impossible answer)."""
    steps = hide_oracle(words, solution.guesser(seed=seed), secret)
    history = []
    for i, (guess, answer, _, done) in enumerate(steps):
        left = fitting(words, history)
        counts = {jotto.reply(guess, w) for w in left}
        impossible = [r for r in range(words.length) if r not in counts]
        if impossible and not done:
            return steps, i, impossible[0]
        history.append((guess, int(answer)))
    raise AssertionError("no contradictory answer found")


def _play_into_a_contradiction(term, words, solution, seed=3):
    """Start a hide game, answer truthfully for a secret up to step i, then give the answer
    no remaining word has: (terminal, secret, steps, i, bad answer)."""
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps, i, bad = _contradiction(words, solution, seed, secret)
    t = term(["play", *PLAIN, "--you", "hide", "--seed", seed], HIDE_PROMPT)
    t.start()
    for _, answer, oracle_lines, _ in steps[:i]:
        assert t.send(answer) == oracle_lines
    assert t.send(str(bad)) == [NO_WORD_FITS]
    return t, secret, steps, i, bad


def test_you_hide_contradiction_then_undo(term, words, solution):
    t, secret, steps, i, bad = _play_into_a_contradiction(term, words, solution)
    history = [(g, int(a)) for g, a, _, _ in steps[:i]]
    assert t.send("undo") == [
        f"Took back your answer {bad} to {steps[i][0]}.",
        f"Guess {i + 1}: {steps[i][0]}",
    ]
    for guess, answer, oracle_lines, _ in steps[i:-1]:
        history.append((guess, int(answer)))
        lines = t.send(answer)
        assert lines == oracle_lines and lines[0] == still_fit(len(fitting(words, history)))
    lines, status = t.finish(steps[-1][1])
    assert lines == [f"Got it: {secret} in {len(steps)} guesses."] and status == 0


def test_you_hide_undo_with_nothing_to_undo_and_help(term, words, solution):
    t = term(["play", *PLAIN, "--you", "hide", "--seed", 3], HIDE_PROMPT)
    t.start()
    assert t.send("undo") == ["Nothing to undo."]
    help_lines = t.send("help")
    assert "0..5" in help_lines[1] and any(x.strip().startswith("undo") for x in help_lines)
    lines, status = t.finish("quit")
    assert lines == ["Bye."] and status == 0


def test_you_hide_diagnoses_the_untrue_answer(term, words, solution):
    t, secret, steps, i, bad = _play_into_a_contradiction(term, words, solution)
    t.prompt = WORD_PROMPT
    assert t.send("give up") == ["What was your word? (Enter to skip)"]
    guess = steps[i][0]
    actual = jotto.reply(guess, secret)
    assert actual != bad
    lines, status = t.finish(secret.upper())
    assert lines == [
        (
            f"Your answer to {guess} was {bad}, but {guess} and {secret} share "
            f"{actual} letter{'s' if actual != 1 else ''}: that answer ruled "
            f"{secret} out."
        )
    ]
    assert status == 0 and "Traceback" not in t.output()


@pytest.mark.parametrize(
    "word, why",
    [
        ("qzxvw", "'qzxvw' is not in my word list (enable)"),
        ("ab1de", "'ab1de' is not a word (letters only, please)"),
        (
            None,
            "it can't be a secret under these rules: another word has the same letters (play "
            "with --rules eckler to keep anagrams)",
        ),
    ],
)
def test_you_hide_give_up_with_a_word_not_in_the_list(term, words, word, why):
    if word is None:
        word = next(w for w in words.dropped_words("anagram") if len(set(w)) == 5)
    t = term(["play", *PLAIN, "--you", "hide", "--seed", 3], HIDE_PROMPT)
    t.start()
    t.prompt = WORD_PROMPT
    assert t.send("give up") == ["What was your word? (Enter to skip)"]
    lines, status = t.finish(word)
    assert lines == [f"{word!r} could not be found: {why}."] and status == 0


def test_you_hide_give_up_with_a_word_that_fits(term, words, solution):
    seed = 3
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps = hide_oracle(words, solution.guesser(seed=seed), secret)
    t = term(["play", *PLAIN, "--you", "hide", "--seed", seed], HIDE_PROMPT)
    t.start()
    guess, answer = steps[0][0], steps[0][1]
    t.send(answer)
    t.prompt = WORD_PROMPT
    t.send("give up")
    lines, status = t.finish(secret)
    n = len(fitting(words, [(guess, int(answer))]))
    assert lines == [f"{secret} fits all your answers; I had {n} candidates left."]
    assert status == 0


def test_you_hide_bad_answers_change_nothing(term, words, solution):
    seed = 6
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps = hide_oracle(words, solution.guesser(seed=seed), secret)
    t = term(["play", *PLAIN, "--you", "hide", "--seed", seed], HIDE_PROMPT)
    assert t.start()[-1] == f"Guess 1: {steps[0][0]}"
    msg = ["Please answer with a number from 0 to 5, 'yes' if I guessed your word, or 'undo'."]
    for bad in ("7", "lots", "-1", "2.5", "6"):
        assert t.send(bad) == msg
    assert t.send("") == []
    # the game goes on exactly as if the bad answers had not been typed
    history = []
    for k, (guess, answer, oracle_lines, _) in enumerate(steps[:2]):
        history.append((guess, int(answer)))
        assert t.send(answer) == oracle_lines
        assert oracle_lines == [
            still_fit(len(fitting(words, history))),
            f"Guess {k + 2}: {steps[k + 1][0]}",
        ]
        assert t.send("lots") == msg
    lines, status = t.finish("quit")
    assert lines == ["Bye."] and status == 0


# ---- assist -----------------------------------------------------------------------------------


def _status_lines(words, history, suggestion):
    left = fitting(words, history)
    n = len(left)
    first = f"{n} candidate{'s' if n != 1 else ''} left" + (
        ": " + " ".join(left) if n <= 12 else "."
    )
    return [first, f"Suggested guess: {suggestion}"]


def test_assist_session(term, words, solution):
    seed = 7
    oracle = Assist(words, solution.guesser(seed=seed), EQ_NAME)
    start = oracle.start().lines
    # the secret: one the first suggestion does not nearly find
    secret = next(w for w in words.words[5::41] if jotto.reply(start[-1].split()[-1], w) < 4)
    t = term(["assist", "--no-sheet", "--seed", seed], ASSIST_PROMPT)
    assert t.start() == start
    assert start == [
        (
            f"Assisting with 5-letter words from enable ({len(words)} words); "
            f"suggestions by {EQ_NAME}. Type 'help' for commands."
        ),
        *secrets_intro(words),
        *_status_lines(words, [], start[-1].split()[-1]),
    ]
    # bad lines first: nothing counted
    assert t.send("stare") == ["Enter a guess and its reply, e.g. 'stare 2' (or 'help')."]
    assert t.send("stare 9") == [
        "'9' is not a reply: letters in common go from 0 to 5, e.g. 'stare 2' (not counted)"
    ]
    assert t.send("stare two") == [
        "'two' is not a reply: type a number from 0 to 5, e.g. 'stare 2' (not counted)"
    ]
    assert t.send("qzxvw 1") == ["'qzxvw' is not in my word list (enable) (not counted)"]
    assert t.send("undo") == ["Nothing to undo."]
    assert t.send("") == []
    assert t.send("help")[0] == ("Enter each guess you made and the reply you got, e.g. 'stare 2'.")
    # the game: make the suggested guesses, give the true replies
    history = []
    suggestion = start[-1].split()[-1]
    listed = False
    for _ in range(15):
        r = jotto.reply(suggestion, secret)
        history.append((suggestion, r))
        expected = oracle.handle(f"{suggestion} {r}").lines
        lines = t.send(f"{suggestion} {r}")
        suggestion = expected[-1].split()[-1]
        assert lines == expected == _status_lines(words, history, suggestion)
        left = fitting(words, history)
        if len(left) <= 12:
            listed = True
            assert secret in lines[0].split(": ", 1)[1].split()
        if len(left) == 1:
            break
    assert listed and len(history) >= 2
    assert lines[0] == f"1 candidate left: {secret}"
    # list, undo, list
    assert t.send("list") == [secret]
    history.pop()
    undone = t.send("undo")
    assert undone == oracle.handle("undo").lines
    assert undone[0] == _status_lines(words, history, "")[0]
    assert t.send("list") == [" ".join(fitting(words, history))]
    # a contradictory line: no word fits
    assert t.send(f"{secret} 0") == [
        ("No word fits all these replies: check them ('undo' takes back the last).")
    ]
    oracle.handle(f"{secret} 0")
    assert t.send("list") == ["(none)"]
    new = t.send("new")
    assert new == oracle.handle("new").lines
    assert new[:2] == ["New game.", f"{len(words)} candidates left."]
    lines, status = t.finish("quit")
    assert lines == ["Bye."] and status == 0
    assert "Traceback" not in t.output()


def test_assist_counts_guesses_outside_the_list(term, words, sgb):
    """A guess dropped by the anagram rule narrows the candidates like any other guess."""
    dropped = next(w for w in words.dropped_words("anagram") if len(set(w)) == 5)
    t = term(["assist", "--no-sheet", "--seed", 1], ASSIST_PROMPT)
    t.start()
    lines = t.send(f"{dropped} 2")
    n = len(fitting(words, [(dropped, 2)]))
    assert lines[0] == f"{n} candidates left." and lines[1].startswith("Suggested guess: ")
    assert t.send("undo")[0] == f"{len(words)} candidates left."
    # the paper rule drops every word of an anagram group: nothing has all of its letters
    assert fitting(words, [(dropped, 5)]) == []
    assert t.send(f"{dropped} 5")[0].startswith("No word fits all these replies")
    t.finish("quit")
    # the norvig rule keeps one word of each group: it is the one candidate left
    other = next(w for w in sgb.dropped_words("anagram") if len(set(w)) == 5)
    (kept,) = fitting(sgb, [(other, 5)])
    assert kept != other
    t = term(
        ["assist", "--no-sheet", "-w", "sgb", "--anagrams", "norvig", "--seed", 1], ASSIST_PROMPT
    )
    t.start()
    lines = t.send(f"{other} 5")
    assert lines[0] == f"1 candidate left: {kept}" and lines[1] == f"Suggested guess: {kept}"
    lines, status = t.finish("quit")
    assert lines == ["Bye."] and status == 0


# ---- end of input and Ctrl-C --------------------------------------------------------------------

MODES = [
    (["play", *GUESS, "--seed", 1], GUESS_PROMPT),
    (["play", *PLAIN, "--you", "hide", "--seed", 1], HIDE_PROMPT),
    (["assist", "--seed", 1], ASSIST_PROMPT),
]


@pytest.mark.parametrize("args, prompt", MODES, ids=["guess", "hide", "assist"])
def test_end_of_input_says_bye(term, args, prompt):
    t = term(args, prompt)
    t.start()
    t.child.sendeof()
    lines, status = t.finish()
    assert lines == ["Bye."] and status == 0
    assert "Traceback" not in t.output()


@pytest.mark.parametrize("args, prompt", MODES, ids=["guess", "hide", "assist"])
def test_ctrl_c_says_bye(term, args, prompt):
    t = term(args, prompt)
    t.start()
    t.child.sendintr()
    lines, status = t.finish()
    assert lines[-1] == "Bye." and status == 130
    assert "Traceback" not in t.output() and "KeyboardInterrupt" not in t.output()


def test_end_of_input_and_ctrl_c_while_asked_for_the_word(term):
    for send, code in (("sendeof", 0), ("sendintr", 130)):
        t = term(["play", *PLAIN, "--you", "hide", "--seed", 1], HIDE_PROMPT)
        t.start()
        t.prompt = WORD_PROMPT
        t.send("give up")
        getattr(t.child, send)()
        lines, status = t.finish()
        assert lines[-1] == "Bye." and status == code and "Traceback" not in t.output()


# ---- through a pipe -----------------------------------------------------------------------------


def test_piped_you_guess_game(tmp_path, words, solution):
    seed = 9
    secret = secret_of(words, solution.hider(), seed)
    guesses = three_guesses(words, secret)[:2]
    proc = piped(
        ["play", *GUESS, "--seed", seed], "\n".join(guesses + ["hint", secret]) + "\n", tmp_path
    )
    history = [(g, jotto.reply(g, secret)) for g in guesses]
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines() == [
        guess_intro(words),
        *secrets_intro(words),
        *[reply_line(g, secret) for g in guesses],
        of_my_list(len(fitting(words, history))),
        f"Yes! {secret} is my word. You found it in 3 guesses.",
        expected_line(solution, seed, secret, words),
    ]
    assert GUESS_PROMPT not in proc.stdout


def test_piped_you_hide_game(tmp_path, words, solution):
    seed = 3
    secret = pick_hide_secret(words, lambda: solution.guesser(seed=seed), 3)
    steps = hide_oracle(words, solution.guesser(seed=seed), secret)
    proc = piped(
        ["play", *PLAIN, "--you", "hide", "--seed", seed],
        "".join(a + "\n" for _, a, _, _ in steps),
        tmp_path,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    expected = [hide_intro(words, EQ_NAME), *secrets_intro(words), f"Guess 1: {steps[0][0]}"]
    for _, _, lines, _ in steps:
        expected += lines
    assert proc.stdout.splitlines() == expected
    assert "Your answer" not in proc.stdout


def test_piped_assist_session(tmp_path, words, solution):
    seed = 8
    oracle = Assist(words, solution.guesser(seed=seed), EQ_NAME)
    expected = oracle.start().lines
    secret = words[123]
    script = []
    history = []
    for _ in range(15):
        suggestion = expected[-1].split()[-1]
        line = f"{suggestion} {jotto.reply(suggestion, secret)}"
        script.append(line)
        history.append((suggestion, jotto.reply(suggestion, secret)))
        expected += oracle.handle(line).lines
        if len(fitting(words, history)) == 1:
            break
    assert expected[-2] == f"1 candidate left: {secret}"
    script += ["list", "quit"]
    expected += [secret, "Bye."]
    proc = piped(["assist", "--no-sheet", "--seed", seed], "\n".join(script) + "\n", tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines() == expected
    assert not any(x.startswith(">") for x in proc.stdout.splitlines())


def test_piped_input_ending_early_says_bye(tmp_path):
    proc = piped(["assist", "--seed", 1], "", tmp_path)
    assert proc.returncode == 0 and proc.stdout.rstrip("\n").endswith("\nBye.")
    assert proc.stderr == ""


# ---- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["play", *GUESS, "-n", "5"],
        ["play", *PLAIN, "-w", "sgb", "--you", "hide"],
        ["assist", "-n", "4"],
    ],
)
def test_strategy_for_another_list_is_a_one_line_error(tmp_path, strategy3, args):
    path, _ = strategy3
    proc = piped([*args, "--strategy", path, "--seed", 1], "", tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in proc.stderr
    assert err[0].startswith("Error: ") and "made for another word list" in err[0]


@pytest.mark.parametrize("letters", [["-n", "3"], []], ids=["n3", "from-file"])
def test_strategy_file_plays_its_own_list(term, strategy3, letters):
    path, w3 = strategy3
    sol = jotto.Solution.load(str(path), w3)
    seed = 4
    secret = secret_of(w3, sol.hider(), seed)
    t = term(["play", *GUESS, *letters, "--strategy", path, "--seed", seed], GUESS_PROMPT)
    # from the file, the list knows no dropped words: it says nothing about them
    played = w3 if letters else jotto.Solution.load(str(path)).words
    assert t.start() == [guess_intro(w3), *secrets_intro(played)]
    assert w3.length == 3 and len(w3) < 1000
    g = next(w for w in w3 if w != secret)
    assert t.send(g) == [reply_line(g, secret)]
    lines, status = t.finish(secret)
    exp = sol.guesser(seed=seed).expected_guesses()[w3.index(secret)]
    assert lines == [
        f"Yes! {secret} is my word. You found it in 2 guesses.",
        (f"The equilibrium guesser would expect to need {exp:.2f} guesses for {secret}."),
    ]
    assert status == 0


def test_hide_without_a_strategy_uses_gbr(term, sgb_paper):
    """The sgb words under the paper's rules have no bundled solve (Norvig's rules have one,
    tests/play/test_common_strategy.py): the hard level guesses with GuesserGBR."""
    sgb = sgb_paper
    seed = 2
    secret = pick_hide_secret(sgb, lambda: make_guesser("gbr:exact", sgb), 4)
    steps = hide_oracle(sgb, make_guesser("gbr:exact", sgb), secret)
    t = term(["play", *PLAIN, "-w", "sgb", "--you", "hide", "--seed", seed], HIDE_PROMPT)
    assert t.start() == [hide_intro(sgb, GBR_NAME), *secrets_intro(sgb), f"Guess 1: {steps[0][0]}"]
    history = []
    for guess, answer, oracle_lines, _ in steps[:-1]:
        history.append((guess, int(answer)))
        lines = t.send(answer)
        assert lines == oracle_lines and lines[0] == still_fit(len(fitting(sgb, history)))
    lines, status = t.finish("yes")
    assert lines == [f"Got it: {secret} in {len(steps)} guesses."] and status == 0


def test_hide_with_a_guesser_spec(term, words):
    seed = 1
    secret = words[200]
    steps = hide_oracle(words, make_guesser("norvig:max", words), secret)
    t = term(["play", *PLAIN, "--you", "hide", "-g", "norvig:max", "--seed", seed], HIDE_PROMPT)
    assert t.start() == [
        hide_intro(words, "norvig:max"),
        *secrets_intro(words),
        f"Guess 1: {steps[0][0]}",
    ]
    for _, answer, oracle_lines, _ in steps[:-1]:
        assert t.send(answer) == oracle_lines
    lines, status = t.finish(steps[-1][1])
    assert lines == steps[-1][2] and status == 0


# ---- edge cases ----------------------------------------------------------------------------


def test_enter_skips_the_word_question(term):
    t = term(["play", *PLAIN, "--you", "hide", "--seed", 1], HIDE_PROMPT)
    t.start()
    t.prompt = WORD_PROMPT  # the question is answered at its own prompt, not "Your answer: "
    t.send("give up")
    t.child.sendline("")
    index = t.child.expect_exact([pexpect.EOF, HIDE_PROMPT, AGAIN_PROMPT], timeout=10)
    assert index != 1 and "Bye." in t.child.before


@pytest.mark.parametrize(
    "args, prompt, line",
    [
        (["play", *PLAIN, "--you", "hide", "--seed", 1], HIDE_PROMPT, "\u00b2"),
        (["assist", "--seed", 1], ASSIST_PROMPT, "about \u00b2"),
    ],
    ids=["hide", "assist"],
)
def test_superscript_digit_is_a_bad_answer_not_a_crash(term, args, prompt, line):
    t = term(args, prompt)
    t.start()
    t.child.sendline(line)
    index = t.child.expect([prompt, pexpect.EOF], timeout=10)
    assert index == 0 and "Error" not in t.child.before


def test_expected_guesses_line_keeps_the_guesser_name(tmp_path):
    proc = piped(["play", *GUESS, "-w", "sgb", "--seed", 2], "give up\n", tmp_path)
    assert proc.returncode == 0
    assert f"{GBR_NAME} would expect to need" in proc.stdout


def test_answers_after_a_contradiction_wait_for_undo(term):
    """Once no word fits, further answers are refused (not piled onto the same guess) until
    the contradiction is taken back; a zero-padded 5 still means "got it"."""
    t = term(["play", *PLAIN, "--you", "hide", "--seed", 3], HIDE_PROMPT)
    t.start()
    answers, lines = ["0", "0", "0", "0"], []
    for a in answers:
        lines = t.send(a)
        if any("No word in my list fits" in ln for ln in lines):
            break
    assert any("No word in my list fits" in ln for ln in lines)
    assert any("'undo' the last one or 'fix' a wrong one first" in ln for ln in t.send("2"))
    assert any("Took back your answer" in ln for ln in t.send("undo"))
    lines, status = t.finish("05")
    assert status == 0 and any(ln.startswith("Got it: ") for ln in lines)


def test_give_up_asks_for_the_word_at_its_own_prompt(sgb):
    """Issue 33, part 5: "What was your word?" is answered at "Your word: ", not at the prompt
    for answers to guesses; in a race too, while I guess."""
    session = YouHide(sgb, make_guesser("gbr:exact", sgb), "gbr")
    session.start()
    assert session.prompt == HIDE_PROMPT
    assert session.handle("give up").lines == ["What was your word? (Enter to skip)"]
    assert session.prompt == WORD_PROMPT
    session.handle("")
    # answered: the game is over and asks nothing more (its structured state says so)
    assert session.gave_up and session.asks() == "none" and session.view().over
