"""The rough edges a new user hit (issue 12), each pinned: entropy shown positive, one default
guesser for play and evaluate, ``-g equilibrium`` naming the bundled solve, ``play --help``
listing only what play takes, Table 1 in one unit, and the solve progress bar's epsilon."""

from __future__ import annotations

import importlib
import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest

import jotto
from jotto.cli.solve import strength_text
from jotto.game.paper import TABLE1
from jotto.play.analysis import METRICS, best_first_guesses, partition_vectors
from jotto.players import make_guesser, make_hider
from jotto.solvers.bundled import bundled_solution
from tests.cli.test_cli_evaluate import SGB, run


def _entropy(counts) -> float:
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def test_first_guesses_show_entropy_positive_in_bits(tmp_path):
    words = jotto.load_words("sgb", anagrams="norvig")
    best = best_first_guesses(words, "entropy", 3)
    rows = partition_vectors(words, [words.index(w) for w, _ in best])
    for (w, value), row in zip(best, rows):
        assert value > 0 and value == pytest.approx(_entropy(row.tolist()), rel=1e-12)
        assert value == -METRICS["entropy"](row.tolist())
    assert [v for _, v in best] == sorted((v for _, v in best), reverse=True)
    out = run("analyze", "first-guesses", *SGB, "-k", 3, cwd=tmp_path).stdout.splitlines()
    assert [line.split()[0] for line in out] == [w for w, _ in best]
    for line, (_, value) in zip(out, best):
        assert f"entropy {value:.6g} bits" in line and "-" not in line.split("partition")[0]
    data = json.loads(run("analyze", "first-guesses", *SGB, "-k", 3, "--json", cwd=tmp_path).stdout)
    assert [d["metric"] for d in data] == [v for _, v in best]


def test_evaluate_defaults_to_plays_guesser(tmp_path):
    """Default list (it has a bundled solve): the equilibrium guesser, as ``-g equilibrium``
    names it; a list without one: gbr:exact, as play falls back to."""
    default = json.loads(run("evaluate", "--json", cwd=tmp_path).stdout)
    named = json.loads(run("evaluate", "-g", "equilibrium", "--json", cwd=tmp_path).stdout)
    assert default == named
    sol = bundled_solution(jotto.load_words())
    expected = sol.guesser(seed=0).expected_guesses()
    assert default["evaluation"]["mean"] == pytest.approx(expected.mean(), rel=1e-12)
    sgb_default = json.loads(run("evaluate", *SGB, "--json", cwd=tmp_path).stdout)
    sgb_exact = json.loads(run("evaluate", *SGB, "-g", "gbr:exact", "--json", cwd=tmp_path).stdout)
    assert sgb_default == sgb_exact


def test_equilibrium_without_a_file_is_the_bundled_solve(tmp_path):
    words = jotto.load_words()
    sol = bundled_solution(words)
    g = make_guesser("equilibrium:seed=4", words)
    assert g.solution.t_star == sol.t_star and g.k == sol.guesser(seed=4).k
    h = make_hider("equilibrium", words)
    assert (h.distribution() == sol.hider()).all()
    proc = run("evaluate", *SGB, "-g", "equilibrium", cwd=tmp_path, code=2)
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "no bundled strategy for sgb" in err[0]


def test_play_and_assist_help_list_only_guessers(tmp_path):
    for command in ("play", "assist"):
        out = run(command, "--help", cwd=tmp_path).stdout
        assert "Guessers:" in out and "gbr[:paper|:exact]" in out
        assert "Hiders:" not in out and "best-response" not in out
    assert "Hiders:" in run("evaluate", "--help", cwd=tmp_path).stdout


def test_table_row_has_one_unit(twl06_path, tmp_path):
    proc = run(
        "solve",
        "-w",
        twl06_path,
        "-n",
        2,
        "--mode",
        "paper",
        "-i",
        30,
        "-o",
        tmp_path / "p.jotto",
        cwd=tmp_path,
    )
    (row,) = [x for x in proc.stdout.splitlines() if x.startswith("Avg")]
    assert row.startswith("Avg ms per iteration") and "min" not in row and "e-" not in row
    paper, ours = row.split()[-2:]
    assert float(paper) == pytest.approx(TABLE1["avg_minutes_per_iteration"][2] * 60e3, rel=1e-3)
    sol = jotto.Solution.load(tmp_path / "p.jotto")
    assert float(ours) == pytest.approx(sol.table()["avg_seconds_per_iteration"] * 1e3, rel=1e-3)


class _Bar:
    """Stands in for tqdm: records every postfix."""

    def __init__(self):
        self.postfixes: list[dict] = []

    def update(self, n):
        pass

    def set_postfix(self, refresh=True, **kw):
        self.postfixes.append(kw)

    def close(self):
        pass


@pytest.mark.parametrize("stop", ["iterations", "target"])
def test_progress_bar_epsilon_follows_the_run(monkeypatch, stop):
    """Each step is made to take 1 s (a fake monotonic clock), so every step refreshes the
    epsilon shown: ``now`` the step's, ``eps`` the result's (at t*, the least so far), so that
    the last line on the terminal agrees with the result (issue 42), however the run stopped.
    (The bug of issue 36: the clock was compared with tqdm's wall-clock time, so the epsilon
    never updated.)"""
    module = importlib.import_module("jotto.solvers.driver")
    bar = _Bar()
    clock = iter(range(10**6))
    monkeypatch.setattr(module.time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(module, "progress_bar", lambda *a, **k: bar)
    kwargs = (
        {"iterations": 40} if stop == "iterations" else {"iterations": 400, "target_epsilon": 1.0}
    )
    sol = jotto.solve(2, progress=True, **kwargs)
    eps = sol.history.epsilon
    shown = [p["now"] for p in bar.postfixes]
    assert shown[:-1] == [f"{e:.4f}" for e in eps[1:]]
    assert shown[-1] == f"{eps[-1]:.4f}"
    least = [f"{min(eps[: k + 2]):.4f}" for k in range(len(eps) - 1)]
    assert [p["eps"] for p in bar.postfixes][:-1] == least
    assert bar.postfixes[-1]["eps"] == f"{sol.epsilon:.4f}"
    assert bar.postfixes[-1]["t*"] == str(sol.t_star)
    if stop == "target":
        assert sol.iterations < 400 and eps[-1] <= 1.0


# ---- issue 36's smaller things -------------------------------------------------------------------

COMMANDS = [
    ("solve",),
    ("evaluate",),
    ("tree",),
    ("play",),
    ("assist",),
    ("stats",),
    ("serve",),
    ("analyze", "first-guesses"),
    ("analyze", "partition"),
    ("analyze", "neighbours"),
]


def _help(args):
    from click.testing import CliRunner

    from jotto.cli import main

    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=100)
    assert result.exit_code == 0
    return result.output


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_help_is_plain_text_and_every_option_says_what_it_does(args):
    """No reST quoting (``...``) in --help, and every option has a help text."""
    import click

    from jotto.cli import main

    text = _help(args)
    assert "``" not in text and ":class:" not in text and ":func:" not in text
    command = main
    for name in args:
        command = command.get_command(click.Context(command), name)
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, (args, param.name)


def test_tree_help_lists_only_guessers():
    text = _help(("tree",))
    assert "Guessers:" in text and "Hiders:" not in text and "best-response" not in text


def test_gbr_alone_says_it_is_the_papers_rule():
    text = _help(("evaluate",))
    assert "gbr alone is the paper's rule" in text
    assert make_guesser("gbr", jotto.load_words(length=2)).rule == "paper"


def test_certified_intervals_read_between(tmp_path):
    # Whether a one-second best response finishes depends on the machine, so the CLI's line is
    # checked against the strength it reports, and an open interval is built by hand.
    out = run(
        "solve",
        "-n",
        3,
        "-i",
        20,
        "-o",
        tmp_path / "s.jotto",
        "--certify",
        "1",
        "--json",
        cwd=tmp_path,
    ).stdout
    strength = json.loads(out)["strength"]
    lo, hi = map(Fraction, strength["hider_guarantee_exact"])
    text = strength_text(
        jotto.Strength(
            lo, hi, Fraction(strength["guesser_worst_case_exact"]), strength["best_response_exact"]
        )
    )
    assert (f"to between {float(lo):.4f} and " in text) == (lo != hi)
    wide = strength_text(jotto.Strength(Fraction(13, 2), Fraction(7), Fraction(8), False))
    assert (
        "holds any guesser to between 6.5000 and 7.0000 expected guesses (true best "
        "response, bounds)"
        in wide
        and " in [" not in wide
        and "to in" not in wide
    )


def test_a_mixed_guessers_worst_case_is_explained(tmp_path):
    run("solve", "-n", 3, "-i", 20, "-o", tmp_path / "s.jotto", cwd=tmp_path)
    out = run("evaluate", "-g", f"equilibrium:{tmp_path / 's.jotto'}", cwd=tmp_path).stdout
    sol = jotto.Solution.load(tmp_path / "s.jotto")
    ev = jotto.evaluate(sol.words, sol.guesser())
    assert ev.mixed and ev.worst_expected == pytest.approx(float(sol.guesser_worst_case()))
    assert (
        f"  (worst = {ev.worst} is the longest game of any tree in the mix; against its "
        f"hardest target the mix expects {ev.worst_expected:.2f} guesses)"
    ) in out.splitlines()
    assert not jotto.evaluate(sol.words, "gbr:exact").mixed
    plain = run("evaluate", "-n", 3, "-g", "gbr:exact", cwd=tmp_path).stdout
    assert "in the mix" not in plain


def test_the_commands_are_the_rows_of_one_table():
    """The group's subcommands are exactly jotto.cli.commands.COMMANDS, each under its name (the
    eleven ``jotto --help`` listed before the table), and no module under jotto.cli adds itself
    to the group: a command is a row of the table, not a side effect of an import (issue 34).
    Each row names the click command it loads."""
    import importlib
    from pathlib import Path

    import click

    import jotto.cli
    from jotto.cli import main
    from jotto.cli.commands import COMMANDS

    ctx = click.Context(main)
    assert main.commands == {} and main.list_commands(ctx) == sorted(COMMANDS)
    for name, row in COMMANDS.items():
        module, attribute = row.split(":")
        command = main.get_command(ctx, name)
        assert command is getattr(importlib.import_module(f"jotto.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
    assert main.get_command(ctx, "nope") is None
    assert sorted(COMMANDS) == [
        "analyze",
        "assist",
        "check-proof",
        "evaluate",
        "openers",
        "play",
        "race",
        "review",
        "serve",
        "solve",
        "stats",
        "tree",
    ]
    listed = _help(()).split("Commands:")[1].split("\n")
    assert sorted(line.split()[0] for line in listed if line.strip()) == sorted(COMMANDS)
    for module in Path(jotto.cli.__file__).parent.glob("*.py"):
        assert "@main." not in module.read_text(encoding="utf-8"), module.name


def test_a_command_loads_only_its_own_modules():
    """``jotto stats`` (a fresh process) loads its own module and what it needs, not the other
    commands' (the solvers, the proof search, the web server): the group imports a command when
    it is asked for."""
    probe = (
        "import sys\n"
        "from jotto.cli import main\n"
        "main.main(['stats', '--help'], standalone_mode=False)\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('jotto.'))))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "jotto.cli.stats" in loaded
    for other in ("jotto.cli.solve", "jotto.cli.serve", "jotto.cli.openers", "jotto.cli.play"):
        assert other not in loaded, other
