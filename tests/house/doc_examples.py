"""The code examples of the manual (``docs/**/*.md``) and of README.md, found and run.

A page's fenced blocks are its examples.  By the fence's language:

- ``python``: run, in page order, in one namespace per page (a page reads like a session);
- ``pycon``: ``>>>`` examples checked as doctests in that same namespace (``...`` in an output
  stands for any text, and whitespace differences are ignored);
- ``console``: each ``$ command`` line (a line ending in ``\\`` continues it) runs in bash, in
  the page's working directory, with this Python's ``jotto`` first on ``PATH``; it must exit with
  status 0, and the lines after it, if any, are its expected output (standard output and error
  together; a line ``...`` stands for any lines, ``...`` within a line for any text);
- ``bash``, ``sh`` and ``shell``: not run; each must say why (below), except README's
  ``ci:install`` and ``ci:test`` blocks, which CI itself runs.

Any of them is left out with a reason after the language: ```` ```python skip: takes ten
minutes ````; a ``skip`` without a reason is an error.  Other blocks (``text``, ``json``, MyST
directives) are not examples.

Every page runs in a fresh interpreter (``python -m tests.doc_examples PAGE``) in a fresh
working directory, with ``JOTTO_DATA_DIR`` there, so that no example depends on another page or
on the user's files; and on one thread (``OMP_NUM_THREADS=1``): results never depend on the
thread count, and the suite runs pages side by side, so a search given a time budget costs that
budget in CPU time, not twice it.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
RUN = ("python", "pycon", "console")
NOT_RUN = ("bash", "sh", "shell")
#: README's blocks that .ci/run runs (the line before their fence is this marker).
CI_MARKER = re.compile(r"<!-- ci:\w+ -->")


@dataclass(frozen=True)
class Block:
    """One fenced block: ``line`` is the 1-based line of its first line of code."""

    page: Path
    line: int
    language: str
    code: str
    skip: str | None  # the reason it is not run, if it is not

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """Every page of the manual, and the README."""
    docs = ROOT / "docs"
    found = sorted(p for p in docs.rglob("*.md") if "_build" not in p.relative_to(docs).parts)
    return [ROOT / "README.md", *found]


def blocks(page: Path) -> list[Block]:
    """The page's example blocks (see the module's docstring); ValueError for a bad mark."""
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type != "fence" or token.map is None:
            continue
        language, _, rest = token.info.strip().partition(" ")
        if language not in RUN + NOT_RUN:
            continue
        line = token.map[0] + 2
        where = f"{page.relative_to(ROOT)}:{line}"
        skip = None
        rest = rest.strip()
        if rest:
            mark, colon, reason = rest.partition(":")
            if mark.strip() != "skip" or not colon or not reason.strip():
                raise ValueError(
                    f"{where}: the fence says {rest!r}; only 'skip: REASON' may follow the language"
                )
            skip = reason.strip()
        elif language in NOT_RUN:
            before = lines[token.map[0] - 1].strip() if token.map[0] else ""
            if not (
                page.name == "README.md" and page.parent == ROOT and CI_MARKER.fullmatch(before)
            ):
                raise ValueError(
                    f"{where}: a {language} block is not run: say why "
                    f"('```{language} skip: REASON'), or make it a console block"
                )
            skip = "CI runs it (.ci/run)"
        found.append(Block(page, line, language, token.content, skip))
    return found


# ---- running a page ------------------------------------------------------------------------------


def commands(code: str) -> list[tuple[int, str, list[str]]]:
    """A console block's commands: (line offset, command, expected output lines)."""
    out: list[tuple[int, str, list[str]]] = []
    pending = None
    for k, line in enumerate(code.splitlines()):
        if pending is not None:
            pending[1].append(line)
            if not line.endswith("\\"):
                out.append((pending[0], "\n".join(pending[1]), []))
                pending = None
            continue
        if line.startswith("$ "):
            if line.endswith("\\"):
                pending = (k, [line[2:]])
            else:
                out.append((k, line[2:], []))
        elif out:
            out[-1][2].append(line)
        elif line.strip():
            raise ValueError(f"output before the first '$ ' command: {line!r}")
    if pending is not None:
        raise ValueError("the last command ends with a '\\'")
    return out


def matches(expected: list[str], output: str) -> bool:
    """Whether ``output`` fits ``expected`` (``...`` lines and ``...`` within lines)."""
    pattern = ""
    for line in expected:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            # one [ \t]* per run of blanks: a run of them in a row backtracks exponentially
            # when a line does not match
            pattern += r"[ \t]*".join(
                re.escape(part).replace(re.escape("..."), r"[^\n]*")
                for part in re.split(r"[ \t]+", line.rstrip())
            )
            pattern += r"[ \t]*\n"
    text = "".join(line.rstrip() + "\n" for line in output.splitlines())
    return re.fullmatch(pattern, text) is not None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(
        NO_COLOR="1",
        TERM="dumb",
        COLUMNS="100",
        OMP_NUM_THREADS="1",
        JOTTO_DATA_DIR=str(Path.cwd() / "data"),
    )
    env.pop("JOTTO_DEBUG", None)
    return env


def run_page(page: Path) -> list[str]:
    """Run the page's examples in the current directory; the failures, each naming its line."""
    failures = []
    namespace: dict[str, object] = {"__name__": "__main__"}
    env = _env()
    os.environ.update(
        {k: env[k] for k in ("NO_COLOR", "TERM", "OMP_NUM_THREADS", "JOTTO_DATA_DIR")}
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for block in blocks(page):
        if block.skip is not None:
            continue
        if block.language == "python":
            try:
                exec(compile(block.code, block.where, "exec"), namespace)  # noqa: S102
            except Exception:  # noqa: BLE001 (reported with its place in the page)
                failures.append(f"{block.where}: the example raised\n{traceback.format_exc()}")
        elif block.language == "pycon":
            test = doctest.DocTestParser().get_doctest(
                block.code, namespace, block.where, str(block.page), block.line - 1
            )
            out: list[str] = []
            result = runner.run(test, out=out.append, clear_globs=False)
            namespace.update(test.globs)  # a doctest runs in a copy of the namespace
            if result.failed:
                failures.append(f"{block.where}: doctest failed\n{''.join(out)}")
        else:
            for offset, command, expected in commands(block.code):
                where = f"{block.page.relative_to(ROOT)}:{block.line + offset}"
                done = subprocess.run(
                    ["bash", "-o", "pipefail", "-c", command],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    timeout=600,
                )
                if done.returncode != 0:
                    failures.append(
                        f"{where}: `{command}` exited with status {done.returncode}:\n{done.stdout}"
                    )
                elif expected and not matches(expected, done.stdout):
                    failures.append(
                        f"{where}: `{command}` printed\n{done.stdout}\n"
                        f"where the page shows\n" + "\n".join(expected)
                    )
    return failures


if __name__ == "__main__":
    problems = run_page(Path(sys.argv[1]).resolve())
    for problem in problems:
        print(problem, end="\n\n")
    sys.exit(1 if problems else 0)
