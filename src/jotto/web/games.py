"""The games a web server holds in memory: each with its session, a lock, what was said in it,
and when it was last played; capped (the game idle longest ends first) and expiring when idle.

A game is known by a random id of 128 bits (:func:`secrets.token_urlsafe`): ids are not guessed,
and nothing else names a game.  Nothing here is written to disk; the finished games go to the
statistics (:class:`jotto.play.history.Stats`) through the app.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..play.sessions import Session

__all__ = ["Game", "Games", "IDLE_SECONDS", "MAX_GAMES", "TRANSCRIPT"]

#: The most games held at once (the one idle longest ends when another starts).
MAX_GAMES = 200
#: A game not played for this long (seconds) ends.
IDLE_SECONDS = 2 * 3600.0
#: The most lines of what was said kept per game (for a page reloaded mid-game).
TRANSCRIPT = 400


@dataclass
class Game:
    """One game: its session, the options it was made with (for the statistics and "play
    again"), the lines said so far, its review once made, and whether it was recorded."""

    session: Session
    options: dict[str, Any]
    lines: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    review: dict[str, Any] | None = None
    recorded: bool = False

    def said(self, lines: list[str]) -> None:
        self.lines.extend(lines)
        del self.lines[:-TRANSCRIPT]


class Games:
    """The games in memory by id, least recently played first."""

    def __init__(
        self,
        cap: int = MAX_GAMES,
        idle: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ):
        if cap < 1:
            raise ValueError("at least one game must fit")
        self.cap = cap
        self.idle = idle
        self.clock = clock
        self._games: OrderedDict[str, tuple[Game, float]] = OrderedDict()

    def __len__(self) -> int:
        self.expire()
        return len(self._games)

    def expire(self) -> None:
        """End the games idle for longer than :attr:`idle`."""
        now = self.clock()
        while self._games:
            gid, (_, last) = next(iter(self._games.items()))
            if now - last <= self.idle:
                break
            del self._games[gid]

    def add(self, game: Game) -> str:
        """Hold ``game``; its id.  At the cap, the game idle longest ends first."""
        self.expire()
        while len(self._games) >= self.cap:
            self._games.popitem(last=False)
        gid = secrets.token_urlsafe(16)
        self._games[gid] = (game, self.clock())
        return gid

    def get(self, gid: str) -> Game | None:
        """The game ``gid`` (None if unknown or ended), now the most recently played."""
        self.expire()
        entry = self._games.get(gid)
        if entry is None:
            return None
        self._games[gid] = (entry[0], self.clock())
        self._games.move_to_end(gid)
        return entry[0]

    def drop(self, gid: str) -> bool:
        """End the game ``gid``; whether there was one."""
        return self._games.pop(gid, None) is not None
