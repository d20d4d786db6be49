"""The double oracle's plot of its certified value interval (matplotlib, an optional extra:
:mod:`jotto.util.plots`)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ...util.plots import new_figure, save

# ``solution``: a DoubleOracleSolution (which imports this module when it draws)
__all__ = ["value_interval_plot"]


def value_interval_plot(solution: Any, path: str | os.PathLike[str] | None = None):
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
    ax.plot(
        rounds,
        upper,
        color="tab:red",
        lw=1.2,
        label="upper bound (guesser's worst case)",
        drawstyle="steps-post",
    )
    ax.plot(
        rounds,
        lower,
        color="tab:blue",
        lw=1.2,
        label="lower bound (proved)",
        drawstyle="steps-post",
    )
    if len(h.get("restricted", ())) == len(rounds):
        ax.plot(
            rounds, h["restricted"], color="gray", lw=0.8, ls=":", label="restricted game's value"
        )
    lo, hi = (float(x) for x in solution.value_bounds)
    if len(rounds) and lo > lower[-1]:
        ax.plot(
            [rounds[-1]],
            [lo],
            marker="^",
            color="tab:blue",
            ls="none",
            label=f"lower bound proved after the rounds: {lo:.4f}",
        )
    ax.set_xlim(1, max(len(rounds), 2))
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds are whole: no tick at 2.5
    ax.set_xlabel("round")
    ax.set_ylabel("expected guesses")
    width = "exact" if lo == hi else f"width {hi - lo:.4f}"
    ax.set_title(
        f"Double oracle, {solution.words.describe()}: value in [{lo:.4f}, {hi:.4f}] ({width})",
        fontsize=10,
    )
    fig.legend(loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    if path is not None:
        save(fig, path)
    return fig
