"""The manual: it builds with warnings as errors and nitpicky cross-references, and every code
example in it (and in README.md) runs and prints what the page says (tests/house/doc_examples.py
says how examples are marked)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # CI installs the docs group with the test group: never skip there
    pytest.importorskip(
        "myst_parser",
        reason="the docs dependency group is not installed (pip install --group docs)",
    )

from tests.house import doc_examples  # noqa: E402 (needs the docs group)

ROOT = doc_examples.ROOT

pytestmark = pytest.mark.docs


def test_manual_builds_without_warnings(tmp_path):
    """``sphinx-build -W --keep-going -n`` from scratch, as CI builds the manual: a broken
    cross-reference, an unknown page or bad markup in a page or a public docstring fails."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-E",
            "-W",
            "--keep-going",
            "-n",
            "-q",
            "-b",
            "html",
            "-d",
            str(tmp_path / "doctrees"),
            str(ROOT / "docs"),
            str(tmp_path / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "html" / "reference" / "api.html").exists()
    cli = (tmp_path / "html" / "reference" / "cli.html").read_text(encoding="utf-8")
    assert "--resume" in cli and "\u2013resume" not in cli, "options shown with en dashes"


def test_every_block_says_whether_it_runs():
    """Each page's fences parse: a shell block that is not run, or a ``skip`` without a
    reason, is an error naming its line."""
    found = [block for page in doc_examples.pages() for block in doc_examples.blocks(page)]
    assert sum(block.skip is None for block in found) >= 20, "the manual lost its examples"
    assert all(block.skip.strip() for block in found if block.skip is not None)


def test_the_readme_example_is_run():
    """The README's Python example is one that runs (the front door's code must work), and the
    README is among the pages whose examples run."""
    readme = ROOT / "README.md"
    assert any(
        block.language == "python" and block.skip is None for block in doc_examples.blocks(readme)
    )
    assert readme in RUNNABLE


def test_output_matching():
    """The expected-output rules of console examples."""
    fits = doc_examples.matches
    assert fits(["a", "b"], "a\nb\n")
    assert fits(["a  b"], "a b\n")
    assert not fits(["a", "b"], "a\nc\n")
    assert not fits(["a"], "a\nb\n")
    assert fits(["a", "...", "z"], "a\nb\nc\nz\n") and fits(["a", "...", "z"], "a\nz\n")
    assert fits(["took ... s"], "took 2.5 s\n") and not fits(["took ... s"], "took 2.5\n")
    # a block that no longer matches fails at once: a run of blanks once made the pattern
    # backtrack exponentially (a table's header line of 46 blanks hung the README's example)
    header = " " * 46 + "ours"
    assert fits([header, "Avg ... per iteration ..."], header + "\nAvg ms per iteration 0.25\n")
    assert not fits(
        [header, "Avg seconds per iteration ..."], header + "\nAvg ms per iteration 0.25\n"
    )
    assert doc_examples.commands("$ jotto a \\\n  --b\nout\n$ c\n") == [
        (0, "jotto a \\\n  --b", ["out"]),
        (3, "c", []),
    ]


RUNNABLE = [
    page
    for page in doc_examples.pages()
    if any(block.skip is None for block in doc_examples.blocks(page))
]


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_run(page: Path, tmp_path):
    """Run the page's examples in a fresh interpreter and directory."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.house.doc_examples", str(page)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
