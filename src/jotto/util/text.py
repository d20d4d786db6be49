"""Text that several commands print alike: the bars of text histograms."""

from __future__ import annotations

__all__ = ["BAR", "bar"]

#: The character text histograms are drawn with, everywhere (``jotto evaluate``, ``jotto
#: stats``): ASCII, so that a histogram reads the same in a pipe, a log and any terminal font.
BAR = "#"


def bar(share: float, width: int) -> str:
    """A bar of ``share`` (0 to 1) of ``width`` characters, at least one for a positive share
    (a rare outcome still shows)."""
    if share <= 0:
        return ""
    return BAR * max(1, round(width * share))
