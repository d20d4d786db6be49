"""jotto.opener_values and the best response on executors: every opener's value against the
exhaustive twin (tests/twins/reference_game.py), bounds that hold the twin's value when a budget stops
the run, the same results whatever runs the tasks (this process, threads, a process pool, a
Dask cluster), lost workers costing only their tasks, and runs resumed from their file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jotto
from jotto.game.rules import PRESETS
from jotto.responses.proof.distributed import local_pool
from jotto.solvers.openers import OpenerTable, opener_values
from jotto.util import strategy_file
from jotto.util.strategy_file import StrategyFileError
from tests.twins import reference_game
from tests.twins.strategies import ANY_RULES, rule_cases


def twin_values(rules, words, v):
    """Each word's opener value by the twin: W + sum_j F(S_j(g))."""
    F, classes = reference_game.state_values(words, v, rules)
    everything = frozenset(range(len(words)))
    return [
        Fraction(sum(v) + sum(F(c) for c in classes(g, everything)), sum(v))
        for g in range(len(words))
    ]


def rows_of(table):
    return [(r.word, r.lower, r.upper) for r in table.rows]


def same_trees(a, b):
    """Two tables keep the same tree for every opener, array for array."""
    for r in a.rows:
        if r.upper is not None:
            x, y = a.tree(r.word), b.tree(r.word)
            for name in ("guess", "depth", "size", "children"):
                assert np.array_equal(getattr(x, name), getattr(y, name)), (r.word, name)


def check_trees(table, v):
    """Every row's tree starts with its word and is worth its upper end."""
    for r in table.rows:
        if r.upper is not None:
            tree = table.tree(r.word)
            assert table.words[int(tree.guess[0])] == r.word
            assert jotto.expected_guesses(tree, v) == r.upper


@settings(max_examples=40, deadline=None)
@given(case=rule_cases())
def test_every_opener_value_is_the_twins(case):
    """Without a budget every opener's value is exact and the twin's, its tree worth it, and
    the best openers are those of least value."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    v = np.array(v, dtype=np.int64)
    table = opener_values(wl, v)
    expected = twin_values(rules, words, v.tolist())
    assert table.complete and table.stopped is None
    for r in table.rows:
        assert r.exact and r.lower == expected[words.index(r.word)], r.word
    check_trees(table, v)
    least = min(expected)
    assert set(table.best) == {w for w, x in zip(words, expected) if x == least}
    assert table.lower == table.upper == least


@settings(max_examples=25, deadline=None)
@given(case=rule_cases(max_size=8), budget=st.sampled_from([1e-4, 1e-3, 1e-2]))
def test_budgeted_intervals_hold_the_twins_values(case, budget):
    """A budget that stops the run leaves intervals, each holding the opener's true value."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    v = np.array(v, dtype=np.int64)
    table = opener_values(wl, v, budget=budget)
    expected = twin_values(rules, words, v.tolist())
    for r in table.rows:
        x = expected[words.index(r.word)]
        assert r.lower <= x and (r.upper is None or x <= r.upper), r.word
    check_trees(table, v)


@pytest.mark.parametrize("name", ["paper", "eckler", "positional", "hard", "any"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_threads_executor_gives_the_same_results(name, data):
    """Any executor serves: with threads sharing this process's searches, the opener values and
    the best response (its bounds and its tree) are the ones found here."""
    rules = ANY_RULES if name == "any" else st.just(PRESETS[name])
    rules, words, v = data.draw(rule_cases(rules=rules))
    wl = jotto.WordList.from_words(words, rules=rules)
    v = np.array(v, dtype=np.int64)
    here = jotto.best_response(wl, v)
    with ThreadPoolExecutor(2) as pool:
        there = jotto.best_response(wl, v, executor=pool)
        table = opener_values(wl, v, executor=pool)
    assert (there.lower, there.upper) == (here.lower, here.upper)
    for a in ("guess", "depth", "size", "children"):
        assert np.array_equal(getattr(there.tree, a), getattr(here.tree, a))
    assert rows_of(table) == rows_of(opener_values(wl, v))


@settings(max_examples=30, deadline=None)
@given(case=rule_cases(), data=st.data())
def test_executor_bounds_hold_the_twins_value(case, data):
    """On an executor, node budgets, top-K and upper_bound give bounds around the optimum."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    v = np.array(v, dtype=np.int64)
    true = Fraction(reference_game.best_response_total(words, v.tolist(), rules), int(v.sum()))
    bound = true + Fraction(data.draw(st.integers(-20, 20)), 10)
    nodes = data.draw(st.integers(1, 30))
    top_k = data.draw(st.one_of(st.none(), st.integers(1, 3)))
    with ThreadPoolExecutor(2) as pool:
        res = jotto.best_response(wl, v, nodes=nodes, top_k=top_k, upper_bound=bound, executor=pool)
    assert res.lower <= true <= res.upper
    assert jotto.expected_guesses(res.tree, v) == res.upper
    if res.stopped == "upper_bound":
        assert res.lower >= bound


# ---- processes and clusters -----------------------------------------------------------------


@pytest.fixture(scope="module")
def three(twl06):
    """The first 100 words of TWL06's 3-letter list: an exact table in about 2 s."""
    return jotto.WordList.from_words(list(twl06[3])[:100])


def kill_a_worker_soon(pids, delay=0.3):
    """SIGKILL one of ``pids`` after ``delay`` seconds, on a thread; its ``killed`` is the
    :func:`time.monotonic` time of the kill (once joined)."""

    def kill():
        time.sleep(delay)
        os.kill(pids[0], signal.SIGKILL)
        t.killed = time.monotonic()

    t = threading.Thread(target=kill, daemon=True)
    t.start()
    return t


def test_process_pool_same_results_and_lost_worker(three):
    """A process pool gives the table and the best response found here; a worker killed
    mid-run breaks the pool, which is made anew, and only the tasks in flight run again."""
    here = opener_values(three)
    best = jotto.best_response(three)
    with local_pool(2) as pool:
        there = jotto.best_response(three, executor=pool)
        assert (there.lower, there.upper) == (best.lower, best.upper)
        assert np.array_equal(there.tree.guess, best.tree.guess)
        assert np.array_equal(there.tree.children, best.tree.children)
        pids = list(pool._processes)
        killer = kill_a_worker_soon(pids, 0.2)
        table = opener_values(three, executor=pool)
        ended = time.monotonic()
        killer.join()
    assert killer.killed < ended  # mid-run
    assert rows_of(table) == rows_of(here) and table.complete
    assert table.lost > 0  # the kill hit tasks in flight
    assert not any(p.is_alive() for p in pool._processes.values()) if pool._processes else True


def test_dask_cluster_same_results_and_lost_worker(three):
    """A real Dask cluster (2 worker processes): the same table and best response as here;
    a worker killed mid-run costs only its tasks (Dask runs them again)."""
    distributed = pytest.importorskip("distributed")
    here = opener_values(three)
    best = jotto.best_response(three)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        there = jotto.best_response(three, executor=executor)
        assert (there.lower, there.upper) == (best.lower, best.upper)
        assert np.array_equal(there.tree.children, best.tree.children)
        pids = list(client.run(os.getpid).values())
        killer = kill_a_worker_soon(pids, 0.2)
        table = opener_values(three, executor=executor)
        ended = time.monotonic()
        killer.join()
    assert killer.killed < ended  # mid-run
    assert rows_of(table) == rows_of(here) and table.complete


def test_dask_cluster_split_plan_same_table(three, tmp_path):
    """The plan of a large cluster (openers split into classes, classes into groups of their
    first guesses and those of one word into its classes, 16 slots) run on a real Dask
    cluster of 2 workers: the exact table is the one found here unsplit (the first 30 words of
    the 3-letter list: seconds, so split)."""
    distributed = pytest.importorskip("distributed")
    few = jotto.WordList.from_words(list(three)[:30])
    here = opener_values(few, threads=1)
    with (
        pytest.MonkeyPatch.context() as mp,
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        split_everything(mp, min_targets=8)
        out = tmp_path / "t.jotto"
        table = opener_values(few, executor=client.get_executor(), slots=16, out=out)
    assert table.complete and rows_of(table) == rows_of(here)
    saved = strategy_file.read(out)["search"]["rows"]
    groups = [g for r in saved for q in r["parts"] or () for g in q["groups"] or ()]
    assert len(groups) > 50  # the plan split: classes into groups, proven as such
    assert any(g["parts"] for g in groups)  # and groups of one word into its classes


def each_unit(rows):
    """Every unit a table's file keeps: rows, their classes, the classes' groups and theirs."""
    for u in rows:
        yield u
        for q in u.get("parts") or ():
            yield from each_unit([q])
            yield from each_unit(q.get("groups") or ())


@pytest.fixture(scope="module")
def split_table(three, tmp_path_factory):
    """The first 30 words of the 3-letter list, a half-second table of them split into classes
    and groups, and its file (read only)."""
    few = jotto.WordList.from_words(list(three)[:30])
    out = tmp_path_factory.mktemp("split") / "t.jotto"
    with pytest.MonkeyPatch.context() as mp:
        split_everything(mp, min_targets=8)
        table = opener_values(few, budget=0.5, out=out)
    return few, table, out


def test_tables_of_version_1_are_still_read(split_table, tmp_path):
    """Tables written before trees were packed (version 1: four arrays a tree) read as the same
    table; a packed tree that is not a tree of the list is named with its row."""
    from jotto.game.packed_trees import unpack_tree

    few, table, out = split_table
    payload = strategy_file.read(out)
    assert payload["table_version"] == 2
    units = [u for u in each_unit(payload["search"]["rows"]) if u["tree"] is not None]
    assert any("code" in u for u in units)  # classes' trees too
    old = tmp_path / "v1.jotto"
    for u in units:
        u["tree"] = [strategy_file.encode_array(a) for a in unpack_tree(u["tree"], few)]
    strategy_file.write(old, {**payload, "table_version": 1})
    loaded = OpenerTable.load(old)
    assert rows_of(loaded) == rows_of(table)
    same_trees(loaded, table)
    empty = [np.zeros(0, np.int32)] * 3 + [np.zeros((0, few.classes), np.int32)]
    units[0]["tree"] = [strategy_file.encode_array(a) for a in empty]
    strategy_file.write(old, {**payload, "table_version": 1})
    with pytest.raises(StrategyFileError, match="not a tree of the list"):
        OpenerTable.load(old)

    payload = strategy_file.read(out)
    first = payload["search"]["rows"][0]
    found = strategy_file.decode_array(first["tree"]["found"]).copy()
    found[0] = 2
    first["tree"]["found"] = strategy_file.encode_array(found, deflate=True)
    strategy_file.write(old, payload)
    problem = f"the row of '{few[0]}': a packed tree's found column"
    with pytest.raises(StrategyFileError, match=problem):
        OpenerTable.load(old)


def test_a_table_claiming_less_than_its_trees_need_is_refused(split_table, tmp_path):
    """Every tree of a table is walked as it is read: a row (or a class) whose upper end is
    not what its tree needs, or a row whose tree starts with another word, is named."""
    _, _, out = split_table

    def classes(rows):
        return [q for q in each_unit(rows) if "code" in q and q["tree"] is not None]

    def row_claims_less(rows):
        rows[0]["upper"] -= 1

    def row_has_another_tree(rows):
        rows[0]["tree"] = rows[1]["tree"]

    def class_claims_more(rows):
        classes(rows)[0]["upper"] += 1

    assert classes(strategy_file.read(out)["search"]["rows"])
    damaged = tmp_path / "d.jotto"
    for damage, problem in [
        (row_claims_less, "a tree is worth"),
        (row_has_another_tree, "its tree starts with another word"),
        (class_claims_more, "a tree is worth"),
    ]:
        payload = strategy_file.read(out)
        damage(payload["search"]["rows"])
        strategy_file.write(damaged, payload)
        with pytest.raises(StrategyFileError, match=problem):
            OpenerTable.load(damaged)


@pytest.fixture(scope="module")
def longer(twl06):
    """The first 150 words of TWL06's 3-letter list: an exact table in several seconds (long
    enough to be killed mid-run), and that table."""
    wl = jotto.WordList.from_words(list(twl06[3])[:150])
    return wl, opener_values(wl)


@pytest.mark.slow
def test_resume_after_a_killed_run_gives_the_same_table(longer, tmp_path):
    """``jotto openers`` killed by SIGKILL mid-run (at its first checkpoint) leaves that
    checkpoint; --resume finishes the table, and it is the table of an uninterrupted run."""
    wl, whole = longer
    words = tmp_path / "words.txt"
    words.write_text("\n".join(wl) + "\n")
    out = tmp_path / "t.jotto"
    cmd = [
        sys.executable,
        "-m",
        "jotto",
        "openers",
        "-w",
        str(words),
        "-n",
        "3",
        "-o",
        str(out),
        "--checkpoint-every",
        "0.1",
        "--no-progress",
        "--json",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    partial = OpenerTable.load(out)
    assert not partial.complete  # killed mid-run
    done = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    table = OpenerTable.load(out)
    assert table.complete and rows_of(table) == rows_of(whole)
    assert len(table.log) >= len(partial.log)


def split_everything(mp, groups=True, min_targets=1):
    """Split every opener into its reply classes at its first lower-bound pass, and (``groups``)
    every class of ``min_targets`` or more into groups of its first guesses at its first, and
    every group of one word into that word's classes, whatever the plan's slots."""
    import jotto.responses.proof.opener_search as engine

    mp.setattr(engine, "SPLIT_SECONDS", -1.0)
    if groups:
        mp.setattr(engine, "GROUP_SLOTS", 1)
        mp.setattr(engine, "MIN_GROUP_TARGETS", min_targets)


def test_a_many_worker_plan_caps_its_tasks_shorter():
    """A budgeted task runs at most MAX_TASK_SECONDS in a plan for fewer than GROUP_SLOTS
    workers and MANY_SLOTS_TASK_SECONDS (less) in one for more, whatever the budget leaves;
    the budget's end still caps both."""
    from jotto.responses.proof import opener_search as engine

    wl = jotto.load_words(length=3)
    v = np.ones(len(wl), dtype=np.int64)
    assert engine.MANY_SLOTS_TASK_SECONDS < engine.MAX_TASK_SECONDS
    for slots, cap in [
        (1, engine.MAX_TASK_SECONDS),
        (engine.GROUP_SLOTS - 1, engine.MAX_TASK_SECONDS),
        (engine.GROUP_SLOTS, engine.MANY_SLOTS_TASK_SECONDS),
        (256, engine.MANY_SLOTS_TASK_SECONDS),
    ]:
        search = engine.OpenerSearch(wl, v, 1 << 20, slots=slots)
        tasks = search.plan(3, seconds_left=3600.0)
        assert tasks and {t.seconds for t in tasks} == {cap}, slots
        search = engine.OpenerSearch(wl, v, 1 << 20, slots=slots)
        assert {t.seconds for t in search.plan(3, seconds_left=1.5)} == {1.5}, slots


@pytest.mark.parametrize("groups", [False, True], ids=["classes", "groups"])
@settings(max_examples=30, deadline=None)
@given(case=rule_cases(), budget=st.sampled_from([2e-3, 2e-2, 0.2]))
def test_openers_split_into_classes_keep_their_values(groups, case, budget, tmp_path_factory):
    """Openers split into their reply classes (forced here for every opener at its first
    lower-bound pass), and the classes into groups of their first guesses: bounds W + the
    classes' bounds (each the least of its groups') and trees put together from the classes'
    hold the twin's values, exactly once every class is exact; the file keeps the classes and
    their groups."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    v = np.array(v, dtype=np.int64)
    out = tmp_path_factory.mktemp("split") / "t.jotto"
    with pytest.MonkeyPatch.context() as mp:
        split_everything(mp, groups)
        table = opener_values(wl, v, budget=budget, out=out)
    expected = twin_values(rules, words, v.tolist())
    for r in table.rows:
        x = expected[words.index(r.word)]
        assert r.lower <= x and (r.upper is None or x <= r.upper), r.word
    check_trees(table, v)
    loaded = OpenerTable.load(out)
    assert rows_of(loaded) == rows_of(table)
    same_trees(loaded, table)


@settings(max_examples=25, deadline=None)
@given(case=rule_cases())
def test_split_exact_tables_do_not_depend_on_what_runs_them(case):
    """Without a budget, every opener split into classes and every class into groups of its
    first guesses: each opener's value is the twin's, and the rows are the same in this
    process on one thread and on two, on a thread pool, and planned for 1 or 256 workers."""
    rules, words, v = case
    wl = jotto.WordList.from_words(words, rules=rules)
    v = np.array(v, dtype=np.int64)
    expected = twin_values(rules, words, v.tolist())
    with pytest.MonkeyPatch.context() as mp:
        split_everything(mp)
        tables = [opener_values(wl, v, threads=1), opener_values(wl, v, threads=2)]
        with ThreadPoolExecutor(3) as pool:
            tables.append(opener_values(wl, v, executor=pool, slots=256))
            tables.append(opener_values(wl, v, executor=pool, slots=1))
    for table in tables:
        assert table.complete
        for r in table.rows:
            assert r.exact and r.lower == expected[words.index(r.word)], r.word
        check_trees(table, v)
        assert rows_of(table) == rows_of(tables[0])


_HALF_A_RESULT = """
import struct, sys, time
from jotto.responses.proof.distributed import close_pool, local_pool

def send_half_a_result():
    # On the worker: begin a result's message on the pool's result pipe (a header promising
    # a megabyte, then ten bytes), as a worker killed while it sends a result leaves it.
    frame = sys._getframe()
    while frame.f_code.co_name != "_process_worker":
        frame = frame.f_back
    frame.f_locals["result_queue"]._writer._send(struct.pack("!i", 1 << 20) + b"x" * 10)
    time.sleep(120)

if __name__ == "__main__":
    pool = local_pool(1)
    pool.submit(int).result()
    pool.submit(send_half_a_result)
    time.sleep(1.0)  # the pool's thread is waiting for the rest of the message
    close_pool(pool)
    print("closed")
"""


def test_closing_a_pool_whose_worker_died_mid_result_does_not_hang(tmp_path):
    """A stopped run closes its process pool although a worker ended half-way through sending
    a result (CPython's pool then waits for the rest for ever: CI once hung there after
    Ctrl-C): the pool's workers end and the close returns."""
    script = tmp_path / "half_a_result.py"
    script.write_text(_HALF_A_RESULT)
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert proc.returncode == 0 and proc.stdout.split() == ["closed"], proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("on", [["--workers", "2"], ["--threads", "2"]], ids=["workers", "threads"])
def test_ctrl_c_saves_the_table_and_ends_the_workers(on, longer, tmp_path):
    """Ctrl-C during ``jotto openers --workers 2`` (the terminal's SIGINT to the whole process
    group), or in this process on two threads, saves what was proven and exits 130 with the
    command that resumes it; every bound saved holds the value of the uninterrupted table."""
    wl, whole = longer
    words = tmp_path / "words.txt"
    words.write_text("\n".join(wl) + "\n")
    out = tmp_path / "t.jotto"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jotto",
            "openers",
            "-w",
            str(words),
            "-n",
            "3",
            "-o",
            str(out),
            "--checkpoint-every",
            "0.1",
            "--no-progress",
            *on,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    finally:  # a run that hangs is a failure, not a process left behind
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "--resume" in err and str(out) in err, err
    partial = OpenerTable.load(out)
    assert partial.stopped == "interrupted" and not partial.complete
    exact = {r.word: r.lower for r in whole.rows}
    for r in partial.rows:
        assert r.lower <= exact[r.word] and (r.upper is None or exact[r.word] <= r.upper)
