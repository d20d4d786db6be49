"""Statistics of the games played with ``jotto play``, kept between sessions.

One JSON file, ``games.json``, in the user's data directory (``platformdirs``; the
``JOTTO_DATA_DIR`` environment variable overrides it, as tests do), holding every finished game:
when, which mode and level, the word list, the outcome and the guesses each side made.  It is
written atomically (a crash leaves the old file or the new one) under a lock (two games ending
at once both keep their record), and a file that cannot be read
is reported, renamed aside (``games.json.broken-<time>``) and started afresh: statistics never
stop a game.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..util.files import output_lock, write_atomic

__all__ = [
    "OUTCOME_WORDS",
    "GameLog",
    "Stats",
    "data_dir",
    "group_of",
    "outcome_text",
    "summarise",
    "summary_of",
]

FILE = "games.json"
VERSION = 1
#: Seconds a game waits for another one's record to be written (that takes milliseconds).
LOCK_WAIT = 10.0


def data_dir() -> Path:
    """Where jotto keeps its data: ``$JOTTO_DATA_DIR``, else the platform's user data
    directory."""
    override = os.environ.get("JOTTO_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("jotto", appauthor=False))


class Stats:
    """The games file: read on demand, appended to game by game.  Problems (an unreadable file
    set aside, a directory that cannot be written) are passed to ``warn`` as one line each.
    ``path``: another file than the one in ``directory`` (or the data directory), read as it is:
    unreadable, it is a one-line :class:`ValueError`, never set aside."""

    #: The file's name in the data directory, and what it is called in messages.
    NAME, WHAT = FILE, "statistics file"
    #: The most games kept (None: all), the oldest dropped first.
    KEEP: int | None = None

    def __init__(
        self,
        directory: Path | None = None,
        warn: Callable[[str], None] = lambda message: None,
        path: Path | None = None,
    ):
        self.path = Path(path) if path is not None else (directory or data_dir()) / self.NAME
        self.warn = warn
        self.given = path is not None

    def games(self) -> list[dict[str, Any]]:
        """Every recorded game, oldest first (none if there is no file yet)."""
        try:
            raw = self.path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return []  # nothing recorded yet (a bad directory is reported when writing)
        except OSError as exc:
            if self.given:
                raise ValueError(f"{self.path}: {exc.strerror or exc}") from None
            self.warn(f"cannot read the {self.WHAT} {self.path}: {exc.strerror or exc}")
            return []
        try:
            data = json.loads(raw.decode("utf-8"))
            games = data["games"]
            if (
                data.get("version") != VERSION
                or not isinstance(games, list)
                or not all(isinstance(g, dict) for g in games)
            ):
                raise ValueError(f"not a jotto {self.WHAT}")
            return games
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            if self.given:
                raise ValueError(f"{self.path}: not a jotto {self.WHAT} ({_short(exc)})") from None
            self._set_aside(exc)
            return []

    def _set_aside(self, exc: Exception) -> None:
        aside = self.path.with_name(f"{self.path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, aside)
        except OSError as err:
            self.warn(
                f"the {self.WHAT} {self.path} is unreadable ({_short(exc)}) and could "
                f"not be set aside ({err.strerror or err})"
            )
            return
        self.warn(
            f"the {self.WHAT} {self.path} was unreadable ({_short(exc)}); set it "
            f"aside as {aside.name} and started a new one"
        )

    def record(self, game: dict[str, Any]) -> bool:
        """Add one finished game; False (with a warning) if the file cannot be written.  The
        read-modify-write holds the file's lock (:func:`jotto.util.files.output_lock`, waiting up to
        ``LOCK_WAIT`` seconds for another game's), so that two games ending at the same instant
        both keep their record."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with output_lock(self.path, wait=LOCK_WAIT):
                games = self.games()
                games.append({"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **game})
                if self.KEEP is not None:
                    games = games[-self.KEEP :]
                data = json.dumps({"version": VERSION, "games": games}, indent=1)
                write_atomic(self.path, data.encode("utf-8") + b"\n")
        except OSError as exc:
            self.warn(
                f"cannot save the {'statistics' if self.NAME == FILE else self.WHAT} in "
                f"{self.path}: {exc.strerror or exc}"
            )
            return False
        return True


class GameLog(Stats):
    """The game log beside the statistics, ``game-log.json``: the last :attr:`KEEP` finished
    games with every guess and reply, the rules and the word list (by name and SHA-256 when
    bundled, else the words themselves), so that ``jotto review`` can redo a game's review.
    Written and set aside as the statistics file is."""

    NAME, WHAT = "game-log.json", "game log"
    KEEP = 200


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__


#: How outcomes are said, in the tally after a game and in ``jotto stats`` alike: per mode, the
#: outcome as recorded and its word, in the order shown.  (Guess games record "won" when you
#: found my word; they are said as found, as hide games are.)
OUTCOME_WORDS: dict[str, dict[str, str]] = {
    "race": {"won": "won", "lost": "lost", "draw": "drawn", "gave up": "given up"},
    "guess": {"won": "found", "gave up": "given up"},
    "hide": {"found": "found", "gave up": "given up"},
}
MODES = tuple(OUTCOME_WORDS)


def outcome_text(mode: str, outcomes: dict[str, int]) -> str:
    """The outcomes of a mode's games in words: ``2 won, 1 lost, 0 drawn, 1 given up``
    (outcomes a newer jotto recorded are added as they are)."""
    words = OUTCOME_WORDS.get(mode, {})
    parts = [f"{outcomes.get(key, 0)} {word}" for key, word in words.items()]
    parts += [f"{n} {key}" for key, n in outcomes.items() if key not in words]
    return ", ".join(parts)


def group_of(game: dict[str, Any]) -> tuple[str, str, int | None, str]:
    """What a game's statistics are kept apart by: mode, word list, word length, level."""
    words = game.get("words") if isinstance(game.get("words"), dict) else {}
    length = words.get("length")
    return (
        str(game.get("mode")),
        str(words.get("source", "an unknown list")),
        length if isinstance(length, int) else None,
        str(game.get("level", "unknown")),
    )


def summarise(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per mode, word list, word length and level (modes in the order race, guess, hide; the
    rest in the order first played): games, outcomes (race: won, lost, draw, gave up; guess:
    won, gave up; hide: found, gave up), and the guesses you needed in the games you found my
    word (mean and histogram; race and guess games) or I needed to find yours (hide games)."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for g in games:
        if g.get("mode") in OUTCOME_WORDS:
            groups.setdefault(group_of(g), []).append(g)
    out = []
    for key in sorted(groups, key=lambda k: MODES.index(k[0])):  # stable: first played first
        mode, source, length, level = key
        mine = groups[key]
        outcomes = Counter(str(g.get("outcome")) for g in mine)
        counted = "my_guesses" if mode == "hide" else "your_guesses"
        found = [
            int(g[counted])
            for g in mine
            if isinstance(g.get(counted), int)
            and g.get("outcome") in (("found",) if mode == "hide" else ("won", "draw"))
        ]
        out.append(
            {
                "mode": mode,
                "words": source,
                "length": length,
                "level": level,
                "games": len(mine),
                "outcomes": dict(sorted(outcomes.items())),
                "guesses": {
                    "counted": counted,
                    "games": len(found),
                    "mean": sum(found) / len(found) if found else None,
                    "histogram": dict(sorted(Counter(found).items())),
                },
            }
        )
    return out


def summary_of(games: list[dict[str, Any]], game: dict[str, Any]) -> dict[str, Any]:
    """The summary of the group ``game`` belongs to (:func:`group_of`)."""
    key = group_of(game)
    return next(
        s for s in summarise(games) if (s["mode"], s["words"], s["length"], s["level"]) == key
    )
