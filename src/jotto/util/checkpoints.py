"""When a long run saves its work: every so many seconds, but never so often that saving takes
more than a tenth of the run (a double-oracle file of 200 trees over Norvig's 2,845 words takes
3.4 s to write, which every 10 s was a quarter of the run)."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["SAVE_SHARE", "Checkpoints"]

#: The most of a run's time its checkpoints may take.
SAVE_SHARE = 0.1


class Checkpoints:
    """Calls ``save`` from :meth:`tick` once ``seconds`` have passed since the last save, or,
    when saving took long, once the time since is at least ``(1 - SAVE_SHARE) / SAVE_SHARE``
    times what the last save took."""

    def __init__(self, save: Callable[[], None], seconds: float):
        self.save = save
        self.seconds = seconds
        self.last = time.monotonic()
        self.gap = seconds

    def tick(self) -> None:
        """Save if a checkpoint is due."""
        now = time.monotonic()
        if now - self.last >= self.gap:
            self.save()
            self.last = time.monotonic()
            took = self.last - now
            self.gap = max(self.seconds, took * (1 - SAVE_SHARE) / SAVE_SHARE)
