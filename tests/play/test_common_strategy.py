"""The hard level on Norvig's list hides by the bundled equilibrium of the game people play:
secrets from the 200 most common words (issue 45, part 2).  The bundled file is a double-oracle
strategy file that reads back checked (container checksum, the guesser's exact worst case equal
to its stored upper bound); the words it may hide are derived here from the sgb file's order
(jotto.game.hiding), the computer's secret by replaying the command's draw in-process."""

from __future__ import annotations

from fractions import Fraction
from importlib import resources

import numpy as np
import pytest

import jotto
from jotto.game.hiding import hide_from_mask
from jotto.play.commonness import hiding_set
from jotto.play.sessions import bundled_solution, hider_for, level_players
from jotto.solvers.double_oracle.solution import DoubleOracleSolution
from jotto.solvers.solution import Solution
from tests.cli.test_cli_play import piped, secret_of

FILE = resources.files("jotto").joinpath("data", "sgb-norvig-common-200.jotto")


@pytest.fixture(scope="module")
def words():
    return jotto.load_words("sgb", rules="norvig")


@pytest.fixture(scope="module")
def solution(words):
    return hider_for(words, None)


def test_the_bundled_file_is_the_checked_common_game(words, solution):
    """Norvig's list has a bundled solve: the file, read and checked (Solution.load: the
    container's checksum, the trees node by node, the stored upper bound equal to its guesser's
    exact worst case over the secrets), of the game whose secrets are the 200 most common
    words; its hider hides only those, and its bounds are the ones the docs give.  The hard
    level reads it for its hider only (hider_for): the same hider, its trees left unparsed."""
    assert FILE.is_file() and isinstance(solution, DoubleOracleSolution)
    # only for its hider: the computer's guesser, evaluate's default and "equilibrium" stay
    assert bundled_solution(words) is None and not solution.guesses_any_history
    checked = Solution.load(str(FILE), words)
    assert solution._trees is None  # the hard level did not parse them
    assert (checked.hider_int == solution.hider_int).all()
    assert checked.value_bounds == solution.value_bounds
    common = hide_from_mask(words, "sgb:200")
    assert (checked.hidden == common).all()
    hider = np.asarray(checked.hider_int, dtype=np.int64)
    assert hider[~common].sum() == 0 and hider[common].sum() > 0
    lower, upper = checked.value_bounds
    # stronger than the uniform hider over the 200 words, whose best response needs exactly
    # 221/50: the hider bench/uniform_ascent.py proved (docs/common-words.md, "Is the value
    # 221/50?"; its certificate verified by jotto check-proof), put in by with_hider
    assert lower == Fraction(7082705357, 1599996800) > Fraction(221, 50)
    assert round(float(upper), 2) == 4.82
    assert len(checked.trees) == 16


@pytest.mark.parametrize("spec", ["all", "sgb:50"])
def test_hard_hides_only_words_of_the_equilibrium_s_support(words, solution, spec):
    """At hard the computer hides by the bundled hider, restricted to --hide-from: every seed
    draws a word the hider gives weight, among the 200 (or the 50) most common."""
    _, _, p = level_players(words, solution, None, 1, "hard", hiding_set(words, spec))
    allowed = hide_from_mask(words, "sgb:200" if spec == "all" else spec)
    support = np.asarray(solution.hider_int, dtype=np.int64) > 0
    assert p[~(allowed & support)].sum() == 0 and p.sum() > 0
    drawn = {secret_of(words, p, seed) for seed in range(40)}
    assert all(allowed[words.index(w)] and support[words.index(w)] for w in drawn)
    assert len(drawn) > 10


def test_play_hard_on_norvig_s_list_hides_a_common_word(tmp_path, words, solution):
    """jotto play --level hard -w sgb -r norvig hides the word the bundled equilibrium draws
    for the seed (replayed in-process), one of the 200 most common."""
    seed = 5
    args = ["play", "-w", "sgb", "-r", "norvig", "--level", "hard", "--you", "guess"]
    out = piped([*args, "--seed", seed, "--no-save"], "quit\n", tmp_path)
    assert out.returncode == 0, out.stderr
    _, _, p = level_players(words, solution, None, seed, "hard", hiding_set(words, "all"))
    secret = secret_of(words, p, seed)
    assert f"My word was {secret}." in out.stdout
    assert hide_from_mask(words, "sgb:200")[words.index(secret)]
