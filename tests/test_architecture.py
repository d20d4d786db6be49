"""The house's rules: the wings import downward only, the solvers are independent, only the
engine's face imports the compiled core, and every module that moved is still importable from its
old path for one release (with a DeprecationWarning naming the new one)."""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import jotto
from jotto.util.moved import MOVED

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(jotto.__file__).parent
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename='pyproject.toml'))")


def lint(cwd: Path, path: Path | None = None) -> subprocess.CompletedProcess:
    """``lint-imports`` with the contracts of ``cwd/pyproject.toml``, on the packages found
    first on ``path`` (else the installed ones)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run([sys.executable, "-c", LINT], cwd=cwd, env=env, capture_output=True,
                          text=True)


def test_the_import_contracts_are_kept():
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "3 kept, 0 broken" in run.stdout


@pytest.mark.parametrize("module, line, broken", [
    ("game/bounds.py", "from ..cli import main", "Wings import downward only"),
    ("solvers/double_oracle/algorithm.py", "from ..fictitious_play import codec",
     "Solvers are independent of each other"),
])
def test_a_wrong_import_breaks_a_contract(tmp_path, module, line, broken):
    # a copy under another name: an editable install's finder would answer for "jotto" first
    shutil.copytree(PACKAGE, tmp_path / "jotto_copy",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd"))
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
                base = package[:len(package) - node.level + 1] if node.level else ()
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


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_keeps_its_old_name_for_a_release(old):
    new = importlib.import_module(f"jotto.{MOVED[old]}")
    sys.modules.pop(f"jotto.{old}", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(f"jotto.{old}")
    assert module is new and module.__spec__.name == f"jotto.{MOVED[old]}"
    assert [str(w.message) for w in caught if w.category is DeprecationWarning] == [
        f"jotto.{old} moved to jotto.{MOVED[old]}; the old name goes in the next release"]


def test_the_old_solve_module_leaves_the_function_alone():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module("jotto.solve")
    assert callable(jotto.solve) and jotto.solve.__module__ == "jotto.solvers.solving"


def test_the_old_game_modules_names_are_still_there():
    from jotto.game import turns

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from jotto.game import replies, reply
    assert [str(w.message).split(";")[0] for w in caught] == [
        f"jotto.game.{name} moved to jotto.game.turns.{name}" for name in ("replies", "reply")]
    assert reply is turns.reply and replies is turns.replies and reply("stare", "tears") == 5


def test_a_name_that_never_existed_is_still_missing():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("jotto.best_response")


def test_a_renamed_public_name_keeps_its_old_one_for_a_release():
    with pytest.warns(DeprecationWarning, match="jotto.RULES is now jotto.DECISION_RULES"):
        old = jotto.RULES
    assert old is jotto.DECISION_RULES == ("paper", "exact")
