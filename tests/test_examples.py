"""The examples must run: every Python block of the README and of the manual's pages (docs/*.md)
is run as written, in a fresh namespace, in a scratch directory (they may write files).  Each
block stands alone (it imports what it uses and defines every name), so a reader can paste any
one of them; the examples keep to small games and give every search a budget, so they finish in
seconds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def python_blocks() -> list:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    blocks = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 2  # the block's first line of code
            name = f"{page.relative_to(ROOT)}:{line}"
            blocks.append(pytest.param(name, m.group(1), id=name))
    return blocks


def test_the_readme_has_python_examples():
    assert any(name.startswith("README.md:") for name, _ in (p.values for p in python_blocks()))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "code"), python_blocks())
def test_example_runs(name, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, name, "exec"), {"__name__": "__example__"})  # noqa: S102 (our own docs)
