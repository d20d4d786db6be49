"""Ganzfried (2011), Table 1: the published numbers we reproduce, and the SHA-256 of the word
lists they were computed on (TWL06 with the paper's rules; the list itself is not bundled)."""

from __future__ import annotations

__all__ = ["TABLE1", "TWL06_SHA256", "is_paper_list"]

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
