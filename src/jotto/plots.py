"""Plots (matplotlib is an optional extra: ``pip install 'jotto[plot]'``)."""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING

import numpy as np

from .files import write_atomic

if TYPE_CHECKING:  # pragma: no cover
    from .solution import Solution

__all__ = ["FORMATS", "check_plot_path", "convergence_plot", "require_matplotlib"]

#: Plot formats by file suffix.
FORMATS = ("png", "svg", "pdf")


def require_matplotlib():
    """matplotlib's pyplot with a non-interactive backend, or an error saying how to get it."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'jotto[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plot_path(path: str | os.PathLike[str]) -> None:
    """:class:`ValueError` unless ``path`` names a plot format (and :class:`ImportError` unless
    matplotlib is there): called before long work, so a plot that cannot be made is known at
    once, not after a solve."""
    suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{os.fspath(path)}: plots are {', '.join(FORMATS).upper()} files; "
                         f"the suffix says which")
    require_matplotlib()


def _save(fig, path: str | os.PathLike[str]) -> None:
    """Write the figure atomically in the format its suffix names."""
    buf = io.BytesIO()
    fig.savefig(buf, dpi=120, format=os.path.splitext(os.fspath(path))[1].lower().lstrip("."))
    write_atomic(path, buf.getvalue())


def convergence_plot(solution: "Solution", path: str | os.PathLike[str] | None = None):
    """Epsilon, epsilon_hider and |epsilon_guesser| against iteration, log scale; t* marked.
    epsilon_guesser can be negative (GuesserGBR is greedy), so its absolute value is drawn, and
    dashed where it is negative."""
    plt = require_matplotlib()
    h = solution.history
    t = np.arange(len(h.epsilon))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(t, h.epsilon, color="black", lw=1.2, label="epsilon")
    ax.plot(t, h.eps_hider, color="tab:red", lw=0.7, alpha=0.8, label="epsilon hider")
    eg = h.eps_guesser
    ax.plot(t, np.where(eg >= 0, eg, np.nan), color="tab:blue", lw=0.7, alpha=0.8,
            label="epsilon guesser")
    ax.plot(t, np.where(eg < 0, -eg, np.nan), color="tab:blue", lw=0.7, ls="--", alpha=0.8,
            label="-(epsilon guesser) where negative")
    ax.axvline(solution.t_star, color="gray", lw=0.8, ls=":")
    ax.annotate(f"t* = {solution.t_star}\nepsilon = {solution.epsilon:.4f}",
                (solution.t_star, solution.epsilon), textcoords="offset points", xytext=(-90, 20))
    ax.set_yscale("log")
    ax.set_xlabel("iteration t")
    ax.set_ylabel("epsilon (guesses)")
    ax.set_title(f"SolveJotto, {len(solution.words)} words of {solution.words.length} letters, "
                 f"{solution.mode} mode")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    if path is not None:
        _save(fig, path)
    return fig


def histogram_plot(evaluation, path: str | os.PathLike[str] | None = None):
    """Percent of targets against guesses needed (Norvig's chart), with mean ± sd and worst."""
    plt = require_matplotlib()
    hist = evaluation.histogram
    pct = 100 * hist / hist.sum()
    ks = np.arange(len(hist))
    shown = hist > 0
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(ks[shown], pct[shown], width=0.9, color="tab:blue")
    ax.set_xticks(ks[shown])
    ax.set_xlabel("Number of guesses to find target")
    ax.set_ylabel("% of targets")
    ax.set_title(f"{evaluation.guesser}: {evaluation.summary()}")
    fig.tight_layout()
    if path is not None:
        _save(fig, path)
    return fig
