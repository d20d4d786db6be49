"""Values outside the domain: infinite or NaN bounds, too many games or iterations, bad seeds
and specs naming the option and field, warnings as one line, weight files."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

import jotto
import jotto.engine.runtime
from tests.bad_input import cli, jotto_run, one_line_error

# ---- 3. values outside the domain -------------------------------------------------------------


@pytest.mark.parametrize(
    "option, value",
    [
        ("--time-budget", "inf"),
        ("--target-epsilon", "inf"),
        ("--time-budget", "nan"),
        ("--target-epsilon", "-1"),
        ("--checkpoint-every", "inf"),
        ("--time-budget", "1e999"),
    ],
)
def test_infinite_or_nan_bounds_are_refused_before_the_work(tmp_path, option, value):
    start = time.perf_counter()
    one_line_error(
        cli("solve", "-n", 3, "-o", tmp_path / "s.jotto", option, value),
        "is not a positive finite number",
    )
    assert time.perf_counter() - start < 5 and not list(tmp_path.iterdir())


def test_too_many_sampled_games_are_refused():
    one_line_error(cli("evaluate", "-n", 3, "--games", 10**12), "is not in the range 1<=x<=1000000")


def test_too_many_iterations_are_refused(tmp_path):
    one_line_error(
        cli("solve", "-n", 3, "-o", tmp_path / "s.jotto", "-i", 2**31),
        "2147483648 is not in the range",
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time_budget": float("inf")},
        {"target_epsilon": float("nan")},
        {"checkpoint_seconds": float("inf")},
        {"iterations": 2**40},
    ],
)
def test_the_api_refuses_them_too(kwargs):
    with pytest.raises(ValueError, match="must be"):
        jotto.solve(3, progress=False, **kwargs)


@pytest.mark.parametrize(
    "args, fragments",
    [
        (
            ("evaluate", "-g", "random:seed=-1"),
            (
                "'-g' / '--guesser'",
                "'random:seed=-1': seed must be a non-negative integer, not '-1'",
            ),
        ),
        (
            ("evaluate", "-H", "equilibrium:t=-1"),
            ("'-H' / '--hider'", "t must be a non-negative integer"),
        ),
        (("tree", "-g", "equilibrium:seed=x"), ("'-g' / '--guesser'", "seed must be")),
        (("assist", "-g", "random:seed=-2"), ("'-g' / '--guesser'", "seed must be")),
        (("play", "-g", "norvig:most"), ("'-g' / '--guesser'", "use norvig:METRIC")),
        (
            ("evaluate", "-g", "random", "--games", 5, "--seed", -1),
            ("'--seed'", "-1 is not in the range x>=0"),
        ),
        (("play", "--seed", -1), ("'--seed'", "-1 is not in the range x>=0")),
    ],
    ids=["guesser-seed", "hider-t", "tree", "assist", "play-spec", "evaluate-seed", "play-seed"],
)
def test_bad_seeds_and_specs_name_the_option_and_field(tmp_path, args, fragments):
    """Refused when the option is read, before the word list or any strategy file is loaded
    (the statistics directory stays empty: no game was played)."""
    one_line_error(
        cli(*args, env={"JOTTO_DATA_DIR": str(tmp_path)}, input="quit\n"),
        "Invalid value for",
        *fragments,
    )
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


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"OMP_NUM_THREADS": "1000000"}, [_threads_warning()]),
        (
            {"JOTTO_KERNEL": "v9"},
            [
                "Warning: JOTTO_KERNEL='v9' is not a kernel variant this CPU runs "
                f"(available: {', '.join(jotto.engine.runtime.available_kernel_variants())}"
                f"); using {jotto.engine.runtime.kernel_variant()!r}"
            ],
        ),
    ],
    ids=["threads", "kernel-while-loading"],
)
def test_warnings_of_the_installed_command_are_one_line(env, expected):
    """Also a warning given while the commands load, before the command group runs."""
    proc = jotto_run(
        ["evaluate", "-n", 3, "-g", "norvig:max"],
        stdin=subprocess.DEVNULL,
        env={**os.environ, **env},
    )
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
    assert json.loads(huge.stdout)["head_to_head"] == pytest.approx(
        json.loads(uniform.stdout)["head_to_head"], rel=1e-12
    )
    assert json.loads(uniform.stdout)["head_to_head"] > 6


@pytest.mark.parametrize(
    "text, fragment",
    [
        (
            "about 1\nwhite 2\nabout 3\n",
            "w.txt, line 3: 'about' was already given a weight on line 1",
        ),
        ("about -1\n", "must be finite, non-negative"),
        ("about nan\n", "must be finite"),
        ("about inf\n", "must be finite"),
        ("about 0\n", "not all zero"),
        ("1\n2\n", "2 weights for 2177 words"),
        ("about 1\n2\n", "w.txt, line 2: expected one number per line"),
        ("about one\n", "w.txt, line 1: 'one' is not a number"),
        ("zzzzz 1\n", "'zzzzz' is not in the word list"),
        (
            "# comment\n\nabout 1\nabout 2\n",
            "w.txt, line 4: 'about' was already given a weight on line 3",
        ),
    ],
    ids=[
        "duplicate",
        "negative",
        "nan",
        "inf",
        "zero",
        "count",
        "mixed",
        "word",
        "unknown",
        "line-numbers",
    ],
)
def test_bad_weight_files(tmp_path, text, fragment):
    one_line_error(cli("evaluate", *SGB, "-H", _weights(tmp_path, text)), fragment)


def test_weights_not_utf8(tmp_path):
    path = tmp_path / "w.txt"
    path.write_bytes(b"about 1\n\xff\xfe 2\n")
    one_line_error(
        cli("evaluate", *SGB, "-H", f"weights:{path}"), "w.txt, line 2: bytes that are not UTF-8"
    )


def test_huge_weights_for_the_paper_rule_are_one_line(tmp_path):
    words = jotto.load_words("sgb")
    spec = _weights(tmp_path, "".join(f"{w} 1e308\n" for w in words))
    one_line_error(
        cli("evaluate", *SGB, "-g", f"gbr:paper:{spec.replace('weights:', 'weights=')}"),
        "weights too large",
    )
