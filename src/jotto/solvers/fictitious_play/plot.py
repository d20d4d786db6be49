"""Fictitious play's convergence plot (matplotlib, an optional extra: :mod:`jotto.util.plots`)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ...util.plots import decimal_log_ticks, new_figure, save

# ``solution``: a FictitiousPlaySolution (which imports this module when it draws)
__all__ = ["convergence_plot"]


def convergence_plot(solution: Any, path: str | os.PathLike[str] | None = None):
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
    ax.plot(
        t,
        np.where(eg >= 0, eg, np.nan),
        color="tab:blue",
        lw=0.7,
        alpha=0.8,
        label="epsilon guesser",
    )
    ax.plot(
        t,
        np.where(eg < 0, -eg, np.nan),
        color="tab:blue",
        lw=0.7,
        ls="--",
        alpha=0.8,
        label="-(epsilon guesser) where negative",
    )
    ax.axvline(
        solution.t_star,
        color="gray",
        lw=0.8,
        ls=":",
        label=f"t* = {solution.t_star}, epsilon = {solution.epsilon:.4f}",
    )
    ax.set_yscale("log")
    positive = h.epsilon[h.epsilon > 0]
    if len(positive):
        top = max(float(np.nanmax(np.abs(np.r_[h.epsilon, h.eps_hider, eg]))), positive.max())
        ax.set_ylim(positive.min() / 2, top * 1.5)
    ax.set_xlim(0, max(len(t) - 1, 1))
    decimal_log_ticks(ax.yaxis)
    ax.set_xlabel("iteration t")
    ax.set_ylabel("epsilon (guesses)")
    ax.set_title(f"SolveJotto, {solution.words.describe()}, {solution.mode} mode", fontsize=10)
    fig.legend(loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    if path is not None:
        save(fig, path)
    return fig
