"""CompNumGuesses under every rule set against the paper's variant on a dictionary of the same
size (issue 11, part 5: every variant within 2x of the distinct-letter speed).

ENABLE (bundled), 5 letters.  The paper's rules keep the fewest words (2780), so every preset is
timed on the first 2780 words of its own list (source order, the rules' own selection: anagram
families, repeated letters and all) and the paper's variant on its whole list: one size for all.
Uniform hider, both rules, 1 thread, every kernel variant.  ``python bench/test_rules_speed.py``
prints the ratio table (minimum of interleaved runs, so a busy machine hurts every column alike,
in CPU time of the one thread, which other programs on a shared machine disturb less than wall
time);
``pytest bench/test_rules_speed.py --benchmark-only`` records each timing.
"""

from __future__ import annotations

import sys
import time

import pytest

import jotto
from same_size import same_size_lists  # (bench/ is on the path: pytest's and a script's)

PRESETS = list(jotto.PRESETS)


@pytest.fixture(scope="session")
def lists():
    return same_size_lists()


@pytest.mark.parametrize("rule", jotto.DECISION_RULES)
@pytest.mark.parametrize("preset", PRESETS)
def test_comp_num_guesses_per_rule_set(benchmark, lists, kernel, preset, rule):
    words = lists[preset]
    benchmark.group = f"CompNumGuesses ENABLE 5 letters, first {len(words)} words, {rule} rule"
    benchmark.extra_info["rules"] = preset
    counts = benchmark(jotto.comp_num_guesses, words, rule=rule, threads=1)
    assert counts.shape == (len(words),)


def main(rounds: int = 5) -> None:
    from jotto.engine import runtime

    lists = same_size_lists()
    n = len(lists["paper"])
    print(
        f"CompNumGuesses, ENABLE 5 letters, first {n} words of each preset's list, uniform "
        f"hider, 1 thread; ms (minimum of {rounds}) and ratio to the paper's variant\n"
    )
    print("| kernel | rule | " + " | ".join(PRESETS) + " |")
    print("|---|---|" + "---:|" * len(PRESETS))
    for variant in runtime.available_kernel_variants():
        runtime.select_kernel_variant(variant)
        for rule in jotto.DECISION_RULES:
            best = {name: float("inf") for name in PRESETS}
            for _ in range(rounds):
                for name in PRESETS:
                    t0 = time.process_time()
                    jotto.comp_num_guesses(lists[name], rule=rule, threads=1)
                    best[name] = min(best[name], time.process_time() - t0)
            cells = [
                f"{best[name] * 1e3:.1f} ({best[name] / best['paper']:.1f}x)" for name in PRESETS
            ]
            print(f"| {variant} | {rule} | " + " | ".join(cells) + " |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
