"""The word lists of bench/test_rules_speed.py: every rule set's ENABLE list cut to one size.

Only names every layout of the package has (``jotto.load_words``, ``jotto.PRESETS``,
``jotto.WordList``), and no pytest: bench/compare_builds.py runs it in a build from before the
package's wings as well."""

from __future__ import annotations

import jotto


def same_size_lists(length: int = 5) -> dict[str, jotto.WordList]:
    """Every preset's ENABLE list cut to the size of the smallest (the paper's)."""
    full = {name: jotto.load_words("enable", length=length, rules=name) for name in jotto.PRESETS}
    n = min(len(w) for w in full.values())
    return {
        name: jotto.WordList.from_words(w.words[:n], source=f"{w.source}[:{n}]", rules=w.rules)
        for name, w in full.items()
    }
