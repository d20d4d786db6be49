"""``jotto evaluate``, ``jotto tree`` and ``jotto analyze`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import jotto

JOTTO = [sys.executable, "-m", "jotto"]
SGB = ["-w", "sgb", "--anagrams", "norvig"]


def run(*args, cwd, code=0):
    proc = subprocess.run(
        JOTTO + [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    if code == 2:
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    return proc


def test_evaluate_norvig_text_and_json(tmp_path):
    out = run("evaluate", *SGB, "-g", "norvig:expectation:inconsistent", cwd=tmp_path).stdout
    assert "mean = 6.84 ± 0.95 guesses; worst = 10" in out
    assert "Against hider uniform: 6.8" in out and "NashConv" in out
    data = json.loads(
        run("evaluate", *SGB, "-g", "norvig:max", "--json", "--worst", 2, cwd=tmp_path).stdout
    )
    ev = data["evaluation"]
    assert round(ev["mean"], 2) == 7.15 and round(ev["std"], 2) == 1.81 and ev["worst"] == 18
    assert [w["word"] for w in ev["worst_targets"]] == ["degas", "ureas"]
    assert data["exploitability"]["hider_best_response_value"] == 18


def test_evaluate_against_hiders_and_sampled_games(tmp_path):
    data = json.loads(
        run(
            "evaluate",
            *SGB,
            "-g",
            "norvig:max",
            "-H",
            "word:degas",
            "--json",
            "--games",
            20,
            cwd=tmp_path,
        ).stdout
    )
    assert data["head_to_head"] == 18 and data["sampled_games"]["mean"] == 18
    data = json.loads(
        run(
            "evaluate", *SGB, "-g", "norvig:max", "-H", "best-response", "--json", cwd=tmp_path
        ).stdout
    )
    assert data["head_to_head"] == 18
    data = json.loads(run("evaluate", *SGB, "-g", "random:seed=3", "--json", cwd=tmp_path).stdout)
    assert data["evaluation"]["exact"] is False and 7.2 < data["evaluation"]["mean"] < 7.5


def test_evaluate_equilibrium_from_a_strategy_file(tmp_path):
    run("solve", "-n", 3, "-i", 40, "-o", tmp_path / "s.jotto", cwd=tmp_path)
    sol = jotto.Solution.load(tmp_path / "s.jotto")
    data = json.loads(
        run(
            "evaluate",
            "-g",
            f"equilibrium:{tmp_path / 's.jotto'}",
            "-H",
            f"equilibrium:{tmp_path / 's.jotto'}",
            "--json",
            cwd=tmp_path,
        ).stdout
    )
    assert data["words"]["size"] == len(sol.words)  # the file's own list
    assert abs(data["exploitability"]["hider_gain"] - sol.history.eps_hider[sol.t_star]) < 1e-9
    run("evaluate", "-n", 4, "-g", f"equilibrium:{tmp_path / 's.jotto'}", cwd=tmp_path, code=2)


def test_tree_export_and_play_back(tmp_path):
    proc = run(
        "tree",
        *SGB,
        "-g",
        "norvig:entropy:inconsistent",
        "-o",
        tmp_path / "t.json",
        "-o",
        tmp_path / "t.dot",
        "-o",
        tmp_path / "t.txt",
        cwd=tmp_path,
    )
    assert "first guess debar, mean 6.8" in proc.stdout
    assert (tmp_path / "t.txt").read_text().startswith("debar (2845)\n")
    assert (tmp_path / "t.dot").read_text().startswith("digraph jotto")
    out = run("evaluate", "-g", f"tree:{tmp_path / 't.json'}", cwd=tmp_path).stdout
    assert "mean = 6.81 ± 1.00 guesses; worst = 10" in out
    outline = run("tree", "-n", 2, "-g", "gbr:exact", cwd=tmp_path).stdout
    assert outline.splitlines()[0].endswith("(50)")
    run("tree", "-g", "random", cwd=tmp_path, code=2)
    run("tree", "-g", "gbr", "-o", tmp_path / "t.xml", cwd=tmp_path, code=2)
    run("evaluate", "-n", 4, "-g", f"tree:{tmp_path / 't.json'}", cwd=tmp_path, code=2)


def test_analyze(tmp_path):
    out = run("analyze", "first-guesses", *SGB, "--metric", "max", "-k", 2, cwd=tmp_path).stdout
    assert out.split()[0] == "wader" and "cadre" in out
    out = run("analyze", "partition", *SGB, "ouija", "coder", cwd=tmp_path).stdout
    assert "[175, 1848, 755, 65, 1, 1]" in out and "[433, 1030, 1014, 327, 40, 1]" in out
    data = json.loads(run("analyze", "neighbours", "-n", 4, "tamp", "--json", cwd=tmp_path).stdout)
    words = jotto.load_words("enable", length=4)
    assert data["neighbours"] == [
        w for w in words if w != "tamp" and len(set(w) & set("tamp")) >= 3
    ]
    run("analyze", "partition", "zzzzz", cwd=tmp_path, code=2)


def test_bad_specs_are_one_line_errors(tmp_path):
    for args in (
        ["-g", "nope"],
        ["-g", "norvig:foo"],
        ["-H", "word:zzzzz"],
        ["-g", "random:seed=-1"],
        ["-g", "tree:/no/such.json"],
        ["-g", "equilibrium:/no/such.jotto"],
        ["-H", "weights:/no/such.txt"],
    ):
        run("evaluate", *args, cwd=tmp_path, code=2)
