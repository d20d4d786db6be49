"""Resolving the word list and players of a command from its options and specs."""

from __future__ import annotations

from ..game.words import WordList
from ..players.specs import spec_word_list
from .options import word_list


def resolve_words(words, letters, rules, skip_invalid, *specs: str | None) -> WordList:
    """The word list: from --words/--letters if either is given, else from the first spec that
    carries a file with its own list (a strategy or tree file), else the default list."""
    if words is None and letters is None:
        for spec in specs:
            if spec:
                wl = spec_word_list(spec)
                if wl is not None:
                    return wl
    return word_list(words, letters, rules, skip_invalid)
