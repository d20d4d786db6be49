"""The house's rules: the wings import downward only, the solvers are independent, only the
engine's face imports the compiled core, and no wing imports the package top."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import jotto

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(jotto.__file__).parent
LINT = (
    "import sys; from importlinter.cli import lint_imports; "
    "sys.exit(lint_imports(config_filename='pyproject.toml'))"
)


def lint(cwd: Path, path: Path | None = None) -> subprocess.CompletedProcess:
    """``lint-imports`` with the contracts of ``cwd/pyproject.toml``, on the packages found
    first on ``path`` (else the installed ones)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-c", LINT], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_the_import_contracts_are_kept():
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "4 kept, 0 broken" in run.stdout


@pytest.mark.parametrize(
    "module, line, broken",
    [
        ("game/bounds.py", "from ..cli import main", "Wings import downward only"),
        (
            "solvers/double_oracle/algorithm.py",
            "from ..fictitious_play import codec",
            "Solvers are independent of each other",
        ),
    ],
)
def test_a_wrong_import_breaks_a_contract(tmp_path, module, line, broken):
    # a copy under another name: an editable install's finder would answer for "jotto" first
    shutil.copytree(
        PACKAGE, tmp_path / "jotto_copy", ignore=shutil.ignore_patterns("*.so", "*.pyd")
    )
    config = (ROOT / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(config.replace('"jotto', '"jotto_copy'))
    target = tmp_path / "jotto_copy" / module
    target.write_text(target.read_text() + f"\n{line}\n")
    run = lint(tmp_path, tmp_path)
    assert run.returncode == 1, run.stdout[-3000:]
    assert f"{broken} BROKEN" in run.stdout


def core_importers(root: Path) -> list[str]:
    """The modules under ``root`` (a copy of the package) that import ``jotto._core``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        package = ("jotto",) + parts[:-1]  # a module's package, or an __init__'s own
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else ()
                stem = ".".join(base + tuple(filter(None, [node.module])))
                names = [stem] + [f"{stem}.{a.name}" for a in node.names]
            else:
                continue
            if "jotto._core" in names:
                found.append("/".join(parts))
    return sorted(set(found))


def test_only_the_engine_face_imports_the_core():
    assert core_importers(PACKAGE) == ["engine/core"]


def test_the_core_check_sees_every_spelling(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "a.py").write_text("from .. import _core\n")
    (tmp_path / "game" / "b.py").write_text("from jotto._core import Words\n")
    (tmp_path / "c.py").write_text("import jotto._core\n")
    (tmp_path / "d.py").write_text("from . import core\nfrom .engine import core as _core\n")
    assert core_importers(tmp_path) == ["c", "game/a", "game/b"]


def wing_cycles(package: str = "jotto") -> dict[str, list[list[str]]]:
    """The import cycles among the Python modules of each wing of ``package`` (its top-level
    subpackages), imports under ``TYPE_CHECKING`` and inside functions included: the sets of
    modules that reach each other (strongly connected components of more than one module)."""
    import grimp

    graph = grimp.build_graph(package, exclude_type_checking_imports=False)
    found: dict[str, list[list[str]]] = {}
    for wing in sorted({m.split(".")[1] for m in graph.modules if m.count(".") >= 1}):
        inside = {
            m
            for m in graph.modules
            if m == f"{package}.{wing}" or m.startswith(f"{package}.{wing}.")
        }
        edges = {
            m: sorted(
                t for t in graph.find_modules_directly_imported_by(m) if t in inside and t != m
            )
            for m in sorted(inside)
        }
        circles = strongly_connected(edges)
        if circles:
            found[wing] = circles
    return found


def strongly_connected(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node of a directed graph (Tarjan's
    algorithm, iterative), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def test_no_wing_has_an_import_cycle():
    """Imports inside a wing run one way too (``responses``: ``result`` below the searches,
    the dispatcher on top), counting the imports the layer contracts do not see."""
    assert wing_cycles() == {}


def test_the_cycle_check_sees_a_cycle():
    edges = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a", "e"], "e": ["d"], "f": []}
    assert strongly_connected(edges) == [["a", "b", "c"], ["d", "e"]]


def top_importers(root: Path) -> list[str]:
    """The modules in the wings under ``root`` (a copy of the package) that import the package
    top ``jotto`` itself (its ``__init__``), not one of its modules: a wing that does runs an
    arrow up to every wing, since the top names them all."""
    modules = {p.stem for p in root.glob("*.py")} | {p.name for p in root.iterdir() if p.is_dir()}
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if len(parts) == 1:  # the top's own modules: __init__, __main__, _version
            continue
        package = ("jotto",) + parts[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                top = any(a.name == "jotto" for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else ()
                stem = ".".join(base + tuple(filter(None, [node.module])))
                top = stem == "jotto" and any(a.name not in modules for a in node.names)
            else:
                continue
            if top:
                found.append("/".join(parts))
    return sorted(set(found))


def test_no_wing_imports_the_package_top():
    assert top_importers(PACKAGE) == []


def test_the_top_check_sees_every_spelling(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "_version.py").write_text("")
    (tmp_path / "game" / "a.py").write_text("from .. import __version__\n")
    (tmp_path / "game" / "b.py").write_text("import jotto\n")
    (tmp_path / "game" / "c.py").write_text("from jotto import solve\n")
    (tmp_path / "game" / "d.py").write_text("from .. import _version\nfrom .._version import x\n")
    assert top_importers(tmp_path) == ["game/a", "game/b", "game/c"]


def rule_readers(root: Path) -> dict[str, list[str]]:
    """Where the modules under ``root`` (a copy of the package) turn rules into engine flags
    themselves: in the searches (``responses/``) and the engine's face, a read of ``.rules`` or
    a candidate rule other than "all"; anywhere but ``game/words.py``, a core word list
    (``core.Words(...)``) made."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        name = "/".join(path.relative_to(root).with_suffix("").parts)
        searches = name.startswith(("responses/", "engine/"))
        for node in ast.walk(ast.parse(path.read_text())):
            what = None
            if isinstance(node, ast.Attribute):
                if searches and node.attr in ("rules", "CAND_CONSISTENT", "CAND_NORVIG"):
                    what = node.attr
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "Words"
                and name != "game/words"
            ):
                what = "Words()"
            if what:
                found.setdefault(name, []).append(what)
    return found


def test_only_the_word_list_turns_rules_into_engine_flags():
    """The one boundary between rules and the engine: :attr:`WordList.core` makes the core's
    list with its rules, and the searches read hard mode, reply codes and branching from it."""
    assert rule_readers(PACKAGE) == {}


def test_the_rule_check_sees_a_search_building_flags(tmp_path):
    (tmp_path / "responses").mkdir()
    (tmp_path / "game").mkdir()
    (tmp_path / "responses" / "a.py").write_text("hard = words.rules.hard\n")
    (tmp_path / "responses" / "b.py").write_text("c = core.CAND_CONSISTENT\n")
    (tmp_path / "play").mkdir()
    (tmp_path / "play" / "c.py").write_text("w = core.Words(tokens, 5, keep_all=True)\n")
    (tmp_path / "game" / "words.py").write_text("w = core.Words(tokens, 5, hard=True)\n")
    assert rule_readers(tmp_path) == {
        "play/c": ["Words()"],
        "responses/a": ["rules"],
        "responses/b": ["CAND_CONSISTENT"],
    }
