"""Players by name: the spec strings the command line takes, in one place.

Guessers::

    random[:seed=N]                    a random consistent word (seed 0 unless given)
    norvig:METRIC[:consistent|:inconsistent]
                                       Norvig's partition guesser; METRIC is max, expectation or
                                       entropy; inconsistent guesses any word while more than 3
                                       targets remain (default: consistent)
    gbr[:paper|:exact][:weights=FILE]  GuesserGBR (default rule paper) against the uniform hider
                                       or the hider in FILE (see hider weights:FILE)
    equilibrium[:FILE][:seed=N][:t=K]  the equilibrium guesser of a strategy file (Algorithm 14;
                                       mixes iterations 0..t*, or 0..K); without FILE the
                                       bundled solve of the word list
    tree:FILE                          a decision tree saved by ``jotto tree`` (JSON)

Hiders::

    uniform                            every word equally likely (the paper's benchmark)
    word:WORD                          always WORD
    weights:FILE                       a probability (or weight) per word: .npy, or a text file
                                       with one number per line in word-list order, or lines
                                       ``word weight``; a strategy file gives its s_{t*}
    equilibrium[:FILE][:t=K]           the equilibrium hider s_{t*} (or s_K) of a strategy file
                                       (without FILE: the bundled solve of the word list)
    best-response                      the best response to the guesser being evaluated: uniform
                                       over the targets it needs the most guesses for
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import numpy as np

from ..bundled import bundled_solution
from ..solution import EquilibriumHider, Solution
from ..trees import DecisionTree
from ..words import WordList
from .guessers import NORVIG_METRICS, GBRGuesser, NorvigGuesser, RandomGuesser, TreeGuesser
from .hiders import BestResponseHider, DistributionHider, FixedHider, UniformHider

__all__ = ["GUESSER_HELP", "GUESSER_KINDS", "HIDER_KINDS", "SPEC_HELP", "hider_weights",
           "default_guesser_spec", "make_guesser", "make_hider", "spec_word_list"]

_GUESSERS, _HIDERS = __doc__.split("Guessers::", 1)[1].split("Hiders::", 1)
#: The guesser specs alone (for commands that take no hider).
GUESSER_HELP = "Guessers:\n" + textwrap.dedent(_GUESSERS).strip("\n")
#: The spec list above as plain text (for --help).
SPEC_HELP = GUESSER_HELP + "\n\nHiders:\n" + textwrap.dedent(_HIDERS).strip("\n")
GUESSER_KINDS = ("random, norvig:METRIC[:inconsistent], gbr[:RULE], equilibrium[:FILE], "
                 "tree:FILE")
HIDER_KINDS = "uniform, word:WORD, weights:FILE, equilibrium[:FILE], best-response"

_OPTION = re.compile(r"^(\w+)=(.*)$")


def _split(spec: str) -> tuple[str, list[str], dict[str, str]]:
    """kind, positional arguments, and trailing key=value options of a spec."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("an empty player spec")
    parts = spec.strip().split(":")
    kind, rest = parts[0].lower(), parts[1:]
    options: dict[str, str] = {}
    while rest and _OPTION.match(rest[-1]):
        key, value = _OPTION.match(rest[-1]).groups()  # type: ignore[union-attr]
        options[key.lower()] = value
        rest.pop()
    return kind, rest, options


def _path(spec: str, kind: str, rest: list[str]) -> str:
    path = ":".join(rest)
    if not path:
        raise ValueError(f"{spec!r}: {kind} needs a file: {kind}:FILE")
    return path


def _int(spec: str, options: dict[str, str], key: str) -> int | None:
    if key not in options:
        return None
    try:
        return int(options[key])
    except ValueError:
        raise ValueError(f"{spec!r}: {key} must be an integer, not {options[key]!r}") from None


def _no_extra(spec: str, options: dict[str, str], allowed: set[str]) -> None:
    extra = set(options) - allowed
    if extra:
        raise ValueError(f"{spec!r}: unknown option {sorted(extra)[0]!r}"
                         + (f" (options: {', '.join(sorted(allowed))})" if allowed else ""))


def spec_word_list(spec: str) -> WordList | None:
    """The word list a file-backed spec carries (strategy or tree file), else None: lets a
    command take its word list from the file when none is given."""
    kind, rest, _ = _split(spec)
    if kind == "equilibrium" and not rest:
        return None  # the bundled solve of whichever list the command uses
    if kind == "equilibrium" or (kind == "weights" and ":".join(rest).endswith(".jotto")):
        return Solution.load(_path(spec, kind, rest)).words
    if kind == "tree":
        return DecisionTree.load(_path(spec, kind, rest)).words
    return None


def hider_weights(path: str, words: WordList) -> np.ndarray:
    """Weights per word from a file: a strategy file (its s_{t*}), ``.npy``, or text."""
    if path.endswith(".jotto"):
        return Solution.load(path, words).hider()
    if path.endswith(".npy"):
        try:
            arr = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: cannot read a NumPy array ({exc})") from None
        return _check_weights(path, arr, words)
    try:
        with open(path, encoding="utf-8") as fh:
            lines = [ln.split() for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read ({exc})") from None
    values = np.zeros(len(words))
    if lines and all(len(ln) == 2 for ln in lines):
        for n, (word, x) in enumerate(lines, 1):
            if word.lower() not in words:
                raise ValueError(f"{path}, line {n}: {word!r} is not in the word list")
            values[words.index(word)] = _number(path, n, x)
    elif all(len(ln) == 1 for ln in lines):
        if len(lines) != len(words):
            raise ValueError(f"{path}: {len(lines)} weights for {len(words)} words")
        values = np.array([_number(path, n, ln[0]) for n, ln in enumerate(lines, 1)])
    else:
        raise ValueError(f"{path}: expected one number per line, or lines 'word weight'")
    return _check_weights(path, values, words)


def _number(path: str, line: int, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{path}, line {line}: {text!r} is not a number") from None


def _check_weights(path: str, arr: Any, words: WordList) -> np.ndarray:
    arr = np.asarray(arr, dtype=np.float64)
    if arr.shape != (len(words),):
        raise ValueError(f"{path}: {arr.size} weights for {len(words)} words")
    if not np.isfinite(arr).all() or (arr < 0).any() or arr.sum() <= 0:
        raise ValueError(f"{path}: weights must be finite, non-negative and not all zero")
    return arr


def _solution_for(spec: str, rest: list[str], words: WordList) -> Solution:
    """The strategy an ``equilibrium`` spec names: its FILE, else the bundled solve of
    ``words``."""
    if rest:
        return Solution.load(":".join(rest), words)
    solution = bundled_solution(words)
    if solution is None:
        raise ValueError(f"{spec!r}: no bundled strategy for {words.source} ({len(words)} words "
                         f"of {words.length} letters); name a file made by jotto solve: "
                         f"equilibrium:FILE")
    return solution


def default_guesser_spec(words: WordList) -> str:
    """The strongest guesser the package has for ``words`` without being told more: the
    equilibrium guesser of its bundled solve, else GuesserGBR under the exact rule.  ``play``,
    ``assist`` and ``evaluate`` all default to it."""
    return "equilibrium" if bundled_solution(words) is not None else "gbr:exact"


def make_guesser(spec: str, words: WordList, threads: int | None = None):
    """The guesser a spec names, over ``words``."""
    kind, rest, options = _split(spec)
    if kind == "random":
        _no_extra(spec, options, {"seed"})
        if rest:
            raise ValueError(f"{spec!r}: random takes no argument but seed=N")
        seed = _int(spec, options, "seed")
        return RandomGuesser(words, 0 if seed is None else seed)
    if kind == "norvig":
        _no_extra(spec, options, set())
        if not rest or rest[0] not in NORVIG_METRICS or len(rest) > 2 or \
                (len(rest) == 2 and rest[1] not in ("consistent", "inconsistent")):
            raise ValueError(f"{spec!r}: use norvig:METRIC[:consistent|:inconsistent] with "
                             f"METRIC one of {', '.join(NORVIG_METRICS)}")
        return NorvigGuesser(words, rest[0], len(rest) == 2 and rest[1] == "inconsistent",
                             threads)
    if kind == "gbr":
        _no_extra(spec, options, {"weights"})
        if len(rest) > 1 or (rest and rest[0] not in ("paper", "exact")):
            raise ValueError(f"{spec!r}: use gbr[:paper|:exact][:weights=FILE]")
        rule = rest[0] if rest else "paper"
        weights = hider_weights(options["weights"], words) if "weights" in options else None
        return GBRGuesser(words, weights, rule, threads, name=spec)
    if kind == "equilibrium":
        _no_extra(spec, options, {"seed", "t"})
        solution = _solution_for(spec, rest, words)
        return solution.guesser(seed=_int(spec, options, "seed") or 0,
                                t_star=_int(spec, options, "t"))
    if kind == "tree":
        _no_extra(spec, options, set())
        return TreeGuesser(DecisionTree.load(_path(spec, kind, rest), words), name=spec)
    raise ValueError(f"unknown guesser {spec!r}; guessers: {GUESSER_KINDS}")


def make_hider(spec: str, words: WordList, expected_guesses: np.ndarray | None = None,
               guesser_name: str = ""):
    """The hider a spec names, over ``words``.  ``best-response`` needs the expected guesses per
    target of the guesser it answers."""
    kind, rest, options = _split(spec)
    if kind == "uniform":
        _no_extra(spec, options, set())
        return UniformHider(words)
    if kind == "word":
        _no_extra(spec, options, set())
        if len(rest) != 1:
            raise ValueError(f"{spec!r}: use word:WORD")
        return FixedHider(words, rest[0])
    if kind == "weights":
        _no_extra(spec, options, set())
        path = _path(spec, kind, rest)
        return DistributionHider(words, hider_weights(path, words), f"weights:{path}")
    if kind == "equilibrium":
        _no_extra(spec, options, {"t"})
        solution = _solution_for(spec, rest, words)
        return EquilibriumHider(words, solution.hider(_int(spec, options, "t")), spec)
    if kind in ("best-response", "best_response", "br"):
        _no_extra(spec, options, set())
        if expected_guesses is None:
            raise ValueError("best-response needs a guesser to answer")
        return BestResponseHider(words, expected_guesses, guesser_name)
    raise ValueError(f"unknown hider {spec!r}; hiders: {HIDER_KINDS}")
