"""The game: rule sets, word lists, replies, decision trees and their files, the counting bound,
the paper's numbers, objectives and the race's rules.

``jotto.game`` was the module of replies before the package grew wings (0.2): its names
(``from jotto.game import reply``) still work for one release, with a DeprecationWarning that
points at ``jotto.game.turns``."""

from __future__ import annotations

_REPLIES = ("Guesser", "Hider", "History", "consistent", "play", "player_repr", "popcount",
            "replies", "reply")


def __getattr__(name: str) -> object:
    """An old name of ``jotto.game``, now in :mod:`jotto.game.turns`."""
    if name not in _REPLIES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    import warnings

    warnings.warn(f"jotto.game.{name} moved to jotto.game.turns.{name}; the old name goes in "
                  "the next release", DeprecationWarning, stacklevel=2)
    value = getattr(importlib.import_module(".turns", __name__), name)
    globals()[name] = value  # warned once: ``from jotto.game import reply`` asks twice
    return value
