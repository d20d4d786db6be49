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
from pathlib import Path
from typing import Any, Callable

from .files import output_lock, write_atomic

__all__ = ["Stats", "data_dir", "summarise"]

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
    set aside, a directory that cannot be written) are passed to ``warn`` as one line each."""

    def __init__(self, directory: Path | None = None,
                 warn: Callable[[str], None] = lambda message: None):
        self.path = (directory or data_dir()) / FILE
        self.warn = warn

    def games(self) -> list[dict[str, Any]]:
        """Every recorded game, oldest first (none if there is no file yet)."""
        try:
            raw = self.path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return []  # nothing recorded yet (a bad directory is reported when writing)
        except OSError as exc:
            self.warn(f"cannot read the statistics file {self.path}: {exc.strerror or exc}")
            return []
        try:
            data = json.loads(raw.decode("utf-8"))
            games = data["games"]
            if data.get("version") != VERSION or not isinstance(games, list) or \
                    not all(isinstance(g, dict) for g in games):
                raise ValueError("not a jotto statistics file")
            return games
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            self._set_aside(exc)
            return []

    def _set_aside(self, exc: Exception) -> None:
        aside = self.path.with_name(f"{FILE}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, aside)
        except OSError as err:
            self.warn(f"the statistics file {self.path} is unreadable ({_short(exc)}) and could "
                      f"not be set aside ({err.strerror or err})")
            return
        self.warn(f"the statistics file {self.path} was unreadable ({_short(exc)}); set it "
                  f"aside as {aside.name} and started a new one")

    def record(self, game: dict[str, Any]) -> bool:
        """Add one finished game; False (with a warning) if the file cannot be written.  The
        read-modify-write holds the file's lock (:func:`jotto.files.output_lock`, waiting up to
        ``LOCK_WAIT`` seconds for another game's), so that two games ending at the same instant
        both keep their record."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with output_lock(self.path, wait=LOCK_WAIT):
                games = self.games()
                games.append({"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **game})
                data = json.dumps({"version": VERSION, "games": games}, indent=1)
                write_atomic(self.path, data.encode("utf-8") + b"\n")
        except OSError as exc:
            self.warn(f"cannot save the statistics in {self.path}: {exc.strerror or exc}")
            return False
        return True


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__


def summarise(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per mode: games, outcomes (race: won, lost, draw, gave up; guess: won, gave up; hide:
    found, gave up), and the guesses you needed in the games you found my word (mean and
    histogram; race and guess games) or I needed to find yours (hide games)."""
    out: dict[str, dict[str, Any]] = {}
    for mode in ("race", "guess", "hide"):
        mine = [g for g in games if g.get("mode") == mode]
        if not mine:
            continue
        outcomes = Counter(str(g.get("outcome")) for g in mine)
        key = "my_guesses" if mode == "hide" else "your_guesses"
        found = [int(g[key]) for g in mine if isinstance(g.get(key), int) and
                 g.get("outcome") in (("found",) if mode == "hide" else ("won", "draw"))]
        out[mode] = {"games": len(mine), "outcomes": dict(sorted(outcomes.items())),
                     "guesses": {"counted": key, "games": len(found),
                                 "mean": sum(found) / len(found) if found else None,
                                 "histogram": dict(sorted(Counter(found).items()))}}
    return out
