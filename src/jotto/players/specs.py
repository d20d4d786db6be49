"""Players by name: the spec strings the command line takes, in one place.

Guessers::

    random[:seed=N]                    a random consistent word (seed 0 unless given)
    norvig:METRIC[:consistent|:inconsistent]
                                       Norvig's partition guesser; METRIC is max, expectation or
                                       entropy; inconsistent guesses any word while more than 3
                                       targets remain (default: consistent)
    gbr[:paper|:exact][:weights=FILE]  GuesserGBR against the uniform hider or the hider in FILE
                                       (see hider weights:FILE); gbr alone is the paper's rule,
                                       as the paper's name says (jotto's own defaults, in solve,
                                       evaluate --rule and play, are the exact rule)
    equilibrium[:FILE][:seed=N][:t=K]  the equilibrium guesser of a strategy file (Algorithm 14;
                                       mixes iterations 0..t*, or 0..K); without FILE the
                                       bundled solve of the word list
    tree:FILE                          a decision tree saved by ``jotto tree`` (JSON)
    greedy-cost[:within=K|:costs=C1,C2,...[:tail=X]][:weights=FILE][:seconds=X]
                                       greedy with lookahead for an objective (default the
                                       mean): within=K maximises the chance of finding the word
                                       within K guesses, costs= minimises the expected cost of
                                       any non-decreasing cost per guess count (then tail per
                                       guess beyond them); seconds=X deepens the lookahead while
                                       X seconds allow (default: two fixed levels)
    race[:weights=FILE][:seconds=X]    plays a race to win: greedy-cost for the race
                                       objective, from the other player's progress (the words
                                       still fitting what it heard) and a model of the guesses
                                       it still needs (GuesserGBR's); outside a race it
                                       plays as greedy-cost does for the mean

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

from ..game.objectives import Objective, parse_objective
from ..game.trees import DecisionTree
from ..game.words import WordList
from ..solvers.bundled import bundled_solution
from ..solvers.solution import EquilibriumHider, Solution
from ..util.files import quote, read_bytes
from .cost_guesser import CostGuesser
from .guessers import NORVIG_METRICS, GBRGuesser, NorvigGuesser, RandomGuesser, TreeGuesser
from .hiders import BestResponseHider, DistributionHider, FixedHider, UniformHider
from .race_guesser import RaceGuesser

__all__ = [
    "GUESSER_HELP",
    "GUESSER_KINDS",
    "HIDER_KINDS",
    "SPEC_HELP",
    "check_guesser_spec",
    "check_hider_spec",
    "default_guesser_spec",
    "hider_weights",
    "make_guesser",
    "make_hider",
    "spec_word_list",
]

# the docstring's reST quoting (``...``) as plain quotes in --help
_GUESSERS, _HIDERS = __doc__.replace("``", "'").split("Guessers::", 1)[1].split("Hiders::", 1)
#: The guesser specs alone (for commands that take no hider).
GUESSER_HELP = "Guessers:\n" + textwrap.dedent(_GUESSERS).strip("\n")
#: The spec list above as plain text (for --help).
SPEC_HELP = GUESSER_HELP + "\n\nHiders:\n" + textwrap.dedent(_HIDERS).strip("\n")
GUESSER_KINDS = (
    "random, norvig:METRIC[:inconsistent], gbr[:RULE], equilibrium[:FILE], "
    "tree:FILE, greedy-cost[:within=K], race"
)
HIDER_KINDS = "uniform, word:WORD, weights:FILE, equilibrium[:FILE], best-response"

_OPTION = re.compile(r"^(\w+)=(.*)$")
#: Most digits of an integer option (Python reads at most 4300 into an int).
_MAX_DIGITS = 1000


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
        raise ValueError(f"{quote(spec)}: {kind} needs a file: {kind}:FILE")
    return path


def _whole(spec: str, options: dict[str, str], key: str) -> int | None:
    """Option ``key`` (a seed or an iteration) as a non-negative integer, None if absent."""
    if key not in options:
        return None
    text = options[key]
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{quote(spec)}: {key} must be a non-negative integer, not {quote(text)}")
    if len(text) > _MAX_DIGITS:
        raise ValueError(f"{quote(spec)}: {key} has {len(text)} digits; at most {_MAX_DIGITS}")
    return int(text)


def _no_extra(spec: str, options: dict[str, str], allowed: set[str]) -> None:
    extra = set(options) - allowed
    if extra:
        raise ValueError(
            f"{quote(spec)}: unknown option {quote(sorted(extra)[0])}"
            + (f" (options: {', '.join(sorted(allowed))})" if allowed else "")
        )


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
    """Weights per word from a file: a strategy file (its s_{t*}), ``.npy``, or text.

    Every failure is a one-line :class:`ValueError` naming the file (and line): unreadable or
    too large (:func:`jotto.util.files.input_limit`), a header or line that is not weights for
    this list, a word given twice, a number that is not finite or negative, all zero."""
    if path.endswith(".jotto"):
        return Solution.load(path, words).hider()
    if path.endswith(".npy"):
        return _check_weights(path, _read_npy(path, len(words)), words)
    raw = read_bytes(path, "file", ValueError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ValueError(f"{path}, line {line}: bytes that are not UTF-8 text") from None
    lines = [
        (n, ln.split())
        for n, ln in enumerate(text.splitlines(), 1)
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    values = np.zeros(len(words))
    if lines and all(len(ln) == 2 for _, ln in lines):
        first: dict[int, int] = {}
        for n, (word, x) in lines:
            if word.lower() not in words:
                raise ValueError(f"{path}, line {n}: {quote(word)} is not in the word list")
            i = words.index(word)
            if i in first:
                raise ValueError(
                    f"{path}, line {n}: {quote(word)} was already given a weight on line {first[i]}"
                )
            first[i] = n
            values[i] = _number(path, n, x)
    elif all(len(ln) == 1 for _, ln in lines):
        if len(lines) != len(words):
            raise ValueError(f"{path}: {len(lines)} weights for {len(words)} words")
        values = np.array([_number(path, n, ln[0]) for n, ln in lines])
    else:
        n = next(n for n, ln in lines if len(ln) != len(lines[0][1]) or len(ln) > 2)
        raise ValueError(f"{path}, line {n}: expected one number per line, or lines 'word weight'")
    return _check_weights(path, values, words)


def _read_npy(path: str, size: int) -> np.ndarray:
    """The vector of ``size`` real numbers in a ``.npy`` file, its header checked before
    anything is allocated (a header may claim any shape)."""
    try:
        with open(path, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            if dtype.hasobject or dtype.kind not in "biuf" or shape != (size,):
                raise ValueError(
                    f"{path}: holds {dtype} of shape {quote(shape)}; weights are "
                    f"{size} real numbers, one per word"
                )
            data = fh.read(size * dtype.itemsize + 1)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, ValueError, TypeError, SyntaxError) as exc:
        if str(exc).startswith(path):
            raise
        raise ValueError(f"{path}: not a NumPy .npy file ({quote(str(exc), 80)})") from None
    if len(data) != size * dtype.itemsize:
        raise ValueError(
            f"{path}: {len(data)} bytes of data where its header promises {size * dtype.itemsize}"
        )
    return np.frombuffer(data, dtype=dtype)


def _number(path: str, line: int, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{path}, line {line}: {quote(text)} is not a number") from None


def _check_weights(path: str, arr: Any, words: WordList) -> np.ndarray:
    arr = np.asarray(arr, dtype=np.float64)
    if arr.shape != (len(words),):
        raise ValueError(f"{path}: {arr.size} weights for {len(words)} words")
    if not np.isfinite(arr).all() or (arr < 0).any() or not (arr > 0).any():
        raise ValueError(f"{path}: weights must be finite, non-negative and not all zero")
    return arr


def _solution_for(spec: str, rest: list[str], words: WordList) -> Solution:
    """The strategy an ``equilibrium`` spec names: its FILE, else the bundled solve of
    ``words``."""
    if rest:
        return Solution.load(":".join(rest), words)
    solution = bundled_solution(words)
    if solution is None:
        raise ValueError(
            f"{spec!r}: no bundled strategy for {words.source} ({len(words)} words "
            f"of {words.length} letters); name a file made by jotto solve: "
            f"equilibrium:FILE"
        )
    return solution


def default_guesser_spec(words: WordList) -> str:
    """The strongest guesser the package has for ``words`` without being told more: the
    equilibrium guesser of its bundled solve, else GuesserGBR under the exact rule.
    ``play``, ``assist`` and ``evaluate`` all default to it."""
    if bundled_solution(words) is not None:
        return "equilibrium"
    return "gbr:exact"


#: Each kind's ``key=value`` options; those holding integers are read into them.
_GUESSER_OPTIONS = {
    "random": {"seed"},
    "norvig": set(),
    "gbr": {"weights"},
    "equilibrium": {"seed", "t"},
    "tree": set(),
    "greedy-cost": {"within", "costs", "tail", "weights", "seconds"},
    "race": {"weights", "seconds"},
}
_HIDER_OPTIONS = {
    "uniform": set(),
    "word": set(),
    "weights": set(),
    "equilibrium": {"t"},
    "best-response": set(),
    "best_response": set(),
    "br": set(),
}
_WHOLE = ("seed", "t")


def _parts(
    spec: str, kinds: dict[str, set[str]], unknown: str
) -> tuple[str, list[str], dict[str, Any]]:
    """A spec's kind, arguments and options (seeds and iterations as integers), its kind and
    options checked; ``unknown`` is the error for a kind not in ``kinds``."""
    kind, rest, options = _split(spec)
    if kind not in kinds:
        raise ValueError(unknown)
    _no_extra(spec, options, kinds[kind])
    whole = {key: _whole(spec, options, key) for key in _WHOLE if key in options}
    return kind, rest, {**options, **whole}


def _guesser_parts(spec: str) -> tuple[str, list[str], dict[str, Any]]:
    """A guesser spec read and checked as far as it can be without a word list or files."""
    kind, rest, options = _parts(
        spec, _GUESSER_OPTIONS, f"unknown guesser {quote(spec)}; guessers: {GUESSER_KINDS}"
    )
    if kind == "random" and rest:
        raise ValueError(f"{quote(spec)}: random takes no argument but seed=N")
    if kind == "norvig" and (
        not rest
        or rest[0] not in NORVIG_METRICS
        or len(rest) > 2
        or (len(rest) == 2 and rest[1] not in ("consistent", "inconsistent"))
    ):
        raise ValueError(
            f"{quote(spec)}: use norvig:METRIC[:consistent|:inconsistent] with "
            f"METRIC one of {', '.join(NORVIG_METRICS)}"
        )
    if kind == "gbr" and (len(rest) > 1 or (rest and rest[0] not in ("paper", "exact"))):
        raise ValueError(f"{quote(spec)}: use gbr[:paper|:exact][:weights=FILE]")
    if kind == "tree":
        _path(spec, kind, rest)
    if kind == "greedy-cost":
        if rest:
            raise ValueError(
                f"{quote(spec)}: greedy-cost takes only options "
                f"(within=K or costs=C1,C2,..., tail=X, weights=FILE, seconds=X)"
            )
        options["objective"] = _objective_option(spec, options)
        if "seconds" in options:
            options["seconds"] = _seconds_option(spec, options["seconds"])
    if kind == "race":
        if rest:
            raise ValueError(f"{quote(spec)}: race takes only options (weights=FILE, seconds=X)")
        if "seconds" in options:
            options["seconds"] = _seconds_option(spec, options["seconds"])
    return kind, rest, options


def _objective_option(spec: str, options: dict[str, Any]) -> Objective:
    """The objective of a greedy-cost spec's within=, costs= and tail= options."""
    if "within" in options and "costs" in options:
        raise ValueError(f"{quote(spec)}: give within=K or costs=..., not both")
    if "tail" in options and "costs" not in options:
        raise ValueError(f"{quote(spec)}: tail=X continues costs=...; it needs them")
    try:
        if "within" in options:
            return parse_objective(f"within:{options['within']}")
        if "costs" in options:
            tail = f":tail={options['tail']}" if "tail" in options else ""
            return parse_objective(f"costs:{options['costs']}{tail}")
    except ValueError as exc:
        raise ValueError(f"{quote(spec)}: {exc}") from None
    return Objective.mean()


def _seconds_option(spec: str, text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < 1e6:
        raise ValueError(
            f"{quote(spec)}: seconds must be a positive number of seconds, not {quote(text)}"
        )
    return seconds


def _hider_parts(spec: str) -> tuple[str, list[str], dict[str, Any]]:
    """A hider spec read and checked as far as it can be without a word list or files."""
    kind, rest, options = _parts(
        spec, _HIDER_OPTIONS, f"unknown hider {quote(spec)}; hiders: {HIDER_KINDS}"
    )
    if kind == "word" and len(rest) != 1:
        raise ValueError(f"{quote(spec)}: use word:WORD")
    if kind == "weights":
        _path(spec, kind, rest)
    return kind, rest, options


def check_guesser_spec(spec: str) -> None:
    """:class:`ValueError` (one line naming the spec and what is wrong) unless ``spec`` is a
    guesser spec, checked as far as it can be before the word list and its files are read:
    the command line checks it when the option is read."""
    _guesser_parts(spec)


def check_hider_spec(spec: str) -> None:
    """:func:`check_guesser_spec` for a hider spec."""
    _hider_parts(spec)


def make_guesser(spec: str, words: WordList, threads: int | None = None):
    """The guesser a spec names, over ``words``."""
    kind, rest, options = _guesser_parts(spec)
    if kind == "random":
        return RandomGuesser(words, options.get("seed", 0))
    if kind == "norvig":
        return NorvigGuesser(words, rest[0], len(rest) == 2 and rest[1] == "inconsistent", threads)
    if kind == "gbr":
        weights = hider_weights(options["weights"], words) if "weights" in options else None
        return GBRGuesser(words, weights, rest[0] if rest else "paper", threads, name=spec)
    if kind == "equilibrium":
        return _solution_for(spec, rest, words).guesser(
            seed=options.get("seed", 0), t_star=options.get("t")
        )
    if kind == "greedy-cost":
        weights = hider_weights(options["weights"], words) if "weights" in options else None
        return CostGuesser(
            words, options["objective"], weights, seconds=options.get("seconds"), name=spec
        )
    if kind == "race":
        weights = hider_weights(options["weights"], words) if "weights" in options else None
        return RaceGuesser(words, weights, seconds=options.get("seconds"), name=spec)
    return TreeGuesser(DecisionTree.load(_path(spec, kind, rest), words), name=spec)


def make_hider(
    spec: str, words: WordList, expected_guesses: np.ndarray | None = None, guesser_name: str = ""
):
    """The hider a spec names, over ``words``.  ``best-response`` needs the expected guesses per
    target of the guesser it answers."""
    kind, rest, options = _hider_parts(spec)
    if kind == "uniform":
        return UniformHider(words)
    if kind == "word":
        return FixedHider(words, rest[0])
    if kind == "weights":
        path = _path(spec, kind, rest)
        return DistributionHider(words, hider_weights(path, words), f"weights:{path}")
    if kind == "equilibrium":
        solution = _solution_for(spec, rest, words)
        return EquilibriumHider(words, solution.hider(options.get("t")), spec)
    if expected_guesses is None:  # best-response
        raise ValueError("best-response needs a guesser to answer")
    return BestResponseHider(words, expected_guesses, guesser_name)
