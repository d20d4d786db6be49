"""Plots (matplotlib is an optional extra: ``pip install 'jotto[plot]'``, or from a source
checkout ``pip install '.[plot]'``).

Figures are made with :class:`matplotlib.figure.Figure`, not pyplot, so drawing one never
switches the user's backend (a notebook keeps its inline backend) and nothing piles up in
pyplot's list of open figures.  Every label sits where it cannot cover another label or a curve:
the legend below the axes, t* in the legend rather than on the plot.  The plots themselves live
beside what they draw: each solver's in its folder (``plot.py``), the evaluation's histogram in
:mod:`jotto.players.evaluation`.
"""

from __future__ import annotations

import io
import os
from typing import Any

from .files import write_atomic

__all__ = ["FORMATS", "check_plot_path", "decimal_log_ticks", "new_figure", "save"]

#: Plot formats by file suffix.
FORMATS = ("png", "svg", "pdf")


def _figure_class() -> Any:
    """matplotlib's Figure (used outside pyplot, so no backend is switched), or an error saying
    how to get matplotlib."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(
            "plots need matplotlib, an optional extra: pip install 'jotto[plot]' "
            "(from a source checkout: pip install '.[plot]')"
        ) from None
    return Figure


def new_figure(figsize: tuple[float, float]) -> Any:
    """A matplotlib figure outside pyplot, laid out so labels do not collide."""
    return _figure_class()(figsize=figsize, layout="constrained")


def check_plot_path(path: str | os.PathLike[str]) -> None:
    """:class:`ValueError` unless ``path`` names a plot format (and :class:`ImportError` unless
    matplotlib is there): called before long work, so a plot that cannot be made is known at
    once, not after a solve."""
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(
            f"{os.fspath(path)}: plots are {', '.join(FORMATS).upper()} files; "
            f"the suffix says which"
        )
    _figure_class()


def decimal_log_ticks(axis) -> None:
    """Tick labels of a log axis as plain decimals (0.01, 0.2, 3), not powers of ten: the
    numbers are guesses, read by people who compare them with the tables."""
    from matplotlib.ticker import FuncFormatter, LogLocator

    plain = FuncFormatter(lambda x, _pos: f"{x:.6g}")
    axis.set_major_locator(LogLocator(base=10))
    axis.set_major_formatter(plain)
    # minor ticks at 2 and 5 per decade are labelled only when the axis spans little
    axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
    low, high = axis.get_view_interval()
    if low > 0 and high / low < 100:
        axis.set_minor_formatter(plain)
    else:
        axis.set_minor_formatter(FuncFormatter(lambda x, _pos: ""))


def save(fig, path: str | os.PathLike[str]) -> None:
    """Write the figure atomically in the format its suffix names."""
    buf = io.BytesIO()
    fig.savefig(buf, dpi=120, format=os.path.splitext(os.fspath(path))[1].lower().lstrip("."))
    write_atomic(path, buf.getvalue())
