"""Plots (matplotlib is an optional extra: ``pip install 'jotto[plot]'``, or from a source
checkout ``pip install '.[plot]'``).

Figures are made with :class:`matplotlib.figure.Figure`, not pyplot, so drawing one never
switches the user's backend (a notebook keeps its inline backend) and nothing piles up in
pyplot's list of open figures.  Every label sits where it cannot cover another label or a curve:
the legend below the axes, t* in the legend rather than on the plot.
"""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .files import write_atomic

if TYPE_CHECKING:  # pragma: no cover
    from ..solvers.double_oracle.solution import DoubleOracleSolution
    from ..solvers.solution import Solution

__all__ = ["FORMATS", "check_plot_path", "convergence_plot", "histogram_plot", "new_figure",
           "value_interval_plot"]

#: Plot formats by file suffix.
FORMATS = ("png", "svg", "pdf")


def _figure_class() -> Any:
    """matplotlib's Figure (used outside pyplot, so no backend is switched), or an error saying
    how to get matplotlib."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plots need matplotlib, an optional extra: pip install 'jotto[plot]' "
                          "(from a source checkout: pip install '.[plot]')") from None
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
        raise ValueError(f"{os.fspath(path)}: plots are {', '.join(FORMATS).upper()} files; "
                         f"the suffix says which")
    _figure_class()


def _decimal_log_ticks(axis) -> None:
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


def _save(fig, path: str | os.PathLike[str]) -> None:
    """Write the figure atomically in the format its suffix names."""
    buf = io.BytesIO()
    fig.savefig(buf, dpi=120, format=os.path.splitext(os.fspath(path))[1].lower().lstrip("."))
    write_atomic(path, buf.getvalue())


def convergence_plot(solution: "Solution", path: str | os.PathLike[str] | None = None):
    """Epsilon, epsilon_hider and |epsilon_guesser| against iteration, log scale; t* marked.
    epsilon_guesser can be negative (GuesserGBR is greedy), so its absolute value is drawn, and
    dashed where it is negative.  The y axis spans epsilon's own range (the component curves
    may dip far below it, toward 0, and are cut there rather than squashing epsilon)."""
    fig = new_figure((8, 5))
    ax = fig.add_subplot()
    h = solution.history
    t = np.arange(len(h.epsilon))
    # epsilon is drawn over its components (zorder), which it equals wherever one is larger
    ax.plot(t, h.epsilon, color="black", lw=1.2, label="epsilon", zorder=3)
    ax.plot(t, h.eps_hider, color="tab:red", lw=0.7, alpha=0.8, label="epsilon hider")
    eg = h.eps_guesser
    ax.plot(t, np.where(eg >= 0, eg, np.nan), color="tab:blue", lw=0.7, alpha=0.8,
            label="epsilon guesser")
    ax.plot(t, np.where(eg < 0, -eg, np.nan), color="tab:blue", lw=0.7, ls="--", alpha=0.8,
            label="-(epsilon guesser) where negative")
    ax.axvline(solution.t_star, color="gray", lw=0.8, ls=":",
               label=f"t* = {solution.t_star}, epsilon = {solution.epsilon:.4f}")
    ax.set_yscale("log")
    positive = h.epsilon[h.epsilon > 0]
    if len(positive):
        top = max(float(np.nanmax(np.abs(np.r_[h.epsilon, h.eps_hider, eg]))), positive.max())
        ax.set_ylim(positive.min() / 2, top * 1.5)
    ax.set_xlim(0, max(len(t) - 1, 1))
    _decimal_log_ticks(ax.yaxis)
    ax.set_xlabel("iteration t")
    ax.set_ylabel("epsilon (guesses)")
    ax.set_title(f"SolveJotto, {solution.words.describe()}, {solution.mode} mode",
                 fontsize=10)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    if path is not None:
        _save(fig, path)
    return fig


def value_interval_plot(solution: "DoubleOracleSolution",
                        path: str | os.PathLike[str] | None = None):
    """The double oracle's certified interval for the game's value against round: the lower
    bound (proved: the hider's guarantee) and the upper bound (exact: the guesser's worst case),
    the band between them shaded, and the restricted game's value.  A lower bound proved after
    the rounds (a time budget's last part) is marked at the last round."""
    fig = new_figure((8, 5))
    ax = fig.add_subplot()
    h = solution.history
    rounds = np.arange(1, len(h["upper"]) + 1)
    lower, upper = np.asarray(h["lower"]), np.asarray(h["upper"])
    ax.fill_between(rounds, lower, upper, step="post", color="tab:blue", alpha=0.15, lw=0)
    ax.plot(rounds, upper, color="tab:red", lw=1.2, label="upper bound (guesser's worst case)",
            drawstyle="steps-post")
    ax.plot(rounds, lower, color="tab:blue", lw=1.2, label="lower bound (proved)",
            drawstyle="steps-post")
    if len(h.get("restricted", ())) == len(rounds):
        ax.plot(rounds, h["restricted"], color="gray", lw=0.8, ls=":",
                label="restricted game's value")
    lo, hi = (float(x) for x in solution.value_bounds)
    if len(rounds) and lo > lower[-1]:
        ax.plot([rounds[-1]], [lo], marker="^", color="tab:blue", ls="none",
                label=f"lower bound proved after the rounds: {lo:.4f}")
    ax.set_xlim(1, max(len(rounds), 2))
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds are whole: no tick at 2.5
    ax.set_xlabel("round")
    ax.set_ylabel("expected guesses")
    width = "exact" if lo == hi else f"width {hi - lo:.4f}"
    ax.set_title(f"Double oracle, {solution.words.describe()}: value in [{lo:.4f}, {hi:.4f}] "
                 f"({width})", fontsize=10)
    fig.legend(loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    if path is not None:
        _save(fig, path)
    return fig


def histogram_plot(evaluation, path: str | os.PathLike[str] | None = None):
    """Percent of targets against guesses needed (Norvig's chart), with mean ± sd and worst;
    titled with the guesser (its spec) and the word list."""
    fig = new_figure((7, 4))
    ax = fig.add_subplot()
    hist = evaluation.histogram
    pct = 100 * hist / hist.sum()
    ks = np.arange(len(hist))
    shown = hist > 0
    ax.bar(ks[shown], pct[shown], width=0.9, color="tab:blue")
    ax.set_xticks(ks[shown])
    ax.set_xlabel("Number of guesses to find target")
    ax.set_ylabel("% of targets")
    ax.set_title(f"{evaluation.guesser} on {evaluation.words.describe()}\n"
                 f"{evaluation.summary()}", fontsize=10)
    if path is not None:
        _save(fig, path)
    return fig
