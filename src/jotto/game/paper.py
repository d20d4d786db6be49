"""Ganzfried (2011), Table 1: the published numbers we reproduce, the SHA-256 of the word
lists they were computed on (TWL06 with the paper's rules; the list itself is not bundled), and
a run's rows as a table beside the paper's (:class:`Table1`)."""

from __future__ import annotations

import html
from typing import Any

import numpy as np

__all__ = ["ROWS", "TABLE1", "TWL06_SHA256", "Table1", "is_paper_list"]

#: Table 1 by row and word length (minutes per iteration on 16 cores).
TABLE1: dict[str, dict[int, float]] = {
    "dictionary_size": {2: 51, 3: 421, 4: 1373, 5: 2833},
    "our_hider_payoff_vs_benchmark": {2: 7.652, 3: 7.912, 4: 7.507, 5: 7.221},
    "our_guesser_payoff_vs_benchmark": {2: -6.619, 3: -7.635, 4: -7.415, 5: -7.216},
    "our_overall_payoff_vs_benchmark": {2: 0.517, 3: 0.139, 4: 0.046, 5: 0.003},
    "benchmark_self_play_hider_payoff": {2: 6.627, 3: 7.601, 4: 7.365, 5: 7.079},
    "our_self_play_hider_payoff": {2: 7.438, 3: 7.658, 4: 7.390, 5: 7.162},
    "benchmark_epsilon": {2: 5.373, 3: 3.399, 4: 1.635, 5: 1.921},
    "our_final_epsilon": {2: 0.038, 3: 0.334, 4: 0.336, 5: 0.335},
    "number_of_iterations": {2: 22212, 3: 10694, 4: 3568, 5: 3906},
    "avg_minutes_per_iteration": {2: 3.635e-4, 3: 0.028, 4: 1.160, 5: 12.576},
}

#: SHA-256 (as :attr:`jotto.WordList.sha256`) of TWL06 with the paper's rules, by length.
TWL06_SHA256 = {
    2: "3b86000b5b6b0cff789f76da83e48de3fbd7dd7817029d07ab7365d761c5caee",
    3: "4fab1e8b49b29f605117280b508266c55ce1e247555e1f20aee00a56227242c0",
    4: "68c4a65d2296bc3507aff8176ba5f5191f69448b0f5351b63bc232df3367178c",
    5: "4957ad105827139810129dc21492557c39f1ca5d8bb7910c028a56872939f428",
}


def is_paper_list(sha256: str, length: int) -> bool:
    """Whether a word list is the paper's dictionary for that length."""
    return TWL06_SHA256.get(length) == sha256


#: Table 1's rows as printed: key, label, format.  Times are one row in one unit (below).
ROWS = [
    ("dictionary_size", "Dictionary size", "{:d}"),
    ("our_hider_payoff_vs_benchmark", "Our hider payoff vs. benchmark", "{:.3f}"),
    ("our_guesser_payoff_vs_benchmark", "Our guesser payoff vs. benchmark", "{:.3f}"),
    ("our_overall_payoff_vs_benchmark", "Our overall payoff vs. benchmark", "{:.3f}"),
    ("benchmark_self_play_hider_payoff", "Benchmark self-play hider payoff", "{:.3f}"),
    ("our_self_play_hider_payoff", "Our algorithm self-play hider payoff", "{:.3f}"),
    ("benchmark_epsilon", "Benchmark epsilon", "{:.3f}"),
    ("our_final_epsilon", "Our final epsilon", "{:.3f}"),
    ("number_of_iterations", "Number of iterations", "{:d}"),
]
TIME_LABEL = "Avg ms per iteration"


def milliseconds(ms: float) -> str:
    """A time in ms as plain decimals with 4 significant digits, never an exponent: the
    paper's 21.81 beside our 0.05643."""
    return np.format_float_positional(ms, precision=4, unique=False, fractional=False, trim="-")


class Table1(dict):
    """Table 1's rows for a run (:meth:`jotto.FictitiousPlaySolution.table`): a dict keyed as in
    ``paper-table1.json`` (``avg_seconds_per_iteration`` and ``t_star`` too), which prints as
    ``jotto solve`` prints it, beside the paper's column when the run's list is the paper's
    dictionary, and shows as an HTML table in a notebook.

    ``length``, ``paper`` (whether the paper's column is shown) and ``note`` (the line under the
    table) say how to print it."""

    def __init__(self, rows: dict[str, Any], length: int, paper: bool, note: str = ""):
        super().__init__(rows)
        self.length = length
        self.paper = paper and length in TABLE1["dictionary_size"]
        self.note = note

    def _rows(self) -> list[tuple[str, str, str | None]]:
        """(label, ours, paper's or None) as text, row by row."""
        L = self.length
        out = []
        for key, label, fmt in ROWS:
            out.append(
                (label, fmt.format(self[key]), fmt.format(TABLE1[key][L]) if self.paper else None)
            )
        # one unit in both columns: the paper's minutes and our seconds as milliseconds
        out.append(
            (
                TIME_LABEL,
                milliseconds(self["avg_seconds_per_iteration"] * 1e3),
                milliseconds(TABLE1["avg_minutes_per_iteration"][L] * 6e4) if self.paper else None,
            )
        )
        return out

    def __str__(self) -> str:
        head = f"{'':38}{'paper':>12}{'ours':>12}" if self.paper else f"{'':38}{'ours':>12}"
        lines = [head]
        for label, ours, paper in self._rows():
            lines.append(
                f"{label:38}" + (f"{paper:>12}" if paper is not None else "") + f"{ours:>12}"
            )
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        cells = "<th>paper</th><th>ours</th>" if self.paper else "<th>ours</th>"
        rows = [f"<tr><th></th>{cells}</tr>"]
        for label, ours, paper in self._rows():
            theirs = f"<td>{paper}</td>" if paper is not None else ""
            rows.append(
                f"<tr><th style='text-align:left'>{html.escape(label)}</th>{theirs}"
                f"<td>{ours}</td></tr>"
            )
        caption = f"<caption>{html.escape(self.note)}</caption>" if self.note else ""
        return f"<table>{caption}{''.join(rows)}</table>"
