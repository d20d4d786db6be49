"""The compiled search's work-unit passes (a state given by its targets, first guesses forced)
against the exhaustive twin of tests/twins/reference_game.py, under every rule set: exact values equal
the twin's, budgeted ones are bounds below it, trees are trees of the state worth their value,
and a forced pass leaves the memo as true as it was; on one thread and on three (tiny lists
forced onto threads with ``parallel_from=1``, as tests/responses/test_proof_threads.py does), with the
same values, first guesses and trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jotto import _core
from jotto.game.words import WordList
from jotto.responses.proof.work_units import INF, Job, Problem, Task, run_task
from tests.twins import reference_game
from tests.twins.strategies import rule_cases


def core_search(rules, words, v):
    return _core.BestResponseSearch(
        WordList.from_words(words, rules=rules).core, np.array(v, dtype=np.int64), 2**24
    )


def narrows(rules, words, v, g, state):
    """Whether word g tells the state's targets of positive weight (in hard mode all of them)
    apart, as the search requires of a first guess."""
    S = [t for t in state if v[t] or rules.hard]
    if rules.hard and g not in S:
        return False
    return g in S or len({rules.reply(words[g], words[t]) for t in S}) > 1


def state_tree_total(rules, words, v, state, tree):
    """Walk every target of ``state`` down a tree of that state (root = node 0): the total
    sum v_i guesses_i (AssertionError if a walk leaves the tree, or a hard-mode guess is not
    consistent)."""
    _, guess, _, size, children = tree
    assert size[0] == len(state)
    total = 0
    for t in state:
        node, n, S = 0, 0, set(state)
        while True:
            n += 1
            g = int(guess[node])
            assert not rules.hard or g in S
            if g == t:
                break
            r = rules.reply(words[g], words[t])
            S = {w for w in S if w != g and rules.reply(words[g], words[w]) == r}
            node = int(children[node][r])
            assert node >= 0
        total += v[t] * n
    return total


#: Keyword arguments of a pass on one thread, and on three sharing even the smallest states.
THREADS = [{}, {"threads": 3, "parallel_from": 1}]


@pytest.mark.parametrize("on", THREADS, ids=["1 thread", "3 threads"])
@settings(max_examples=60, deadline=None)
@given(case=rule_cases())
def test_forced_first_guess_is_the_opener_value(on, case):
    """A pass whose first guess is forced to g finds W + sum_j F(S_j(g)) (the twin's), its tree
    starts with g and is worth it; a set of first guesses finds the least of theirs; a word that
    does not narrow the targets down gives no tree (infinity)."""
    rules, words, v = case
    F, classes = reference_game.state_values(words, v, rules)
    everything = frozenset(range(len(words)))
    search = core_search(rules, words, v)
    values = {}
    for g in range(len(words)):
        value, exact, stop, best, guess, _ = search.run(0, INF, 0.0, 0, first_guesses=[g], **on)
        if not narrows(rules, words, v, g, range(len(words))):
            assert value == INF and not exact
            continue
        true = sum(v) + sum(F(c) for c in classes(g, everything))
        assert exact and value == true and guess == g
        tree = search.tree(0, g)
        assert tree[0] == value and tree[1][0] == g
        assert state_tree_total(rules, words, v, list(range(len(words))), tree) == value
        values[g] = value
    some = list(range(0, len(words), 2))
    value, exact, *_ = search.run(0, INF, 0.0, 0, first_guesses=some, **on)
    expected = min((values[g] for g in some if g in values), default=INF)
    assert value == expected and exact == (expected < INF)
    # the memo still holds only true values: the free search finds the twin's optimum
    value, exact, *_ = search.run(0, INF, 0.0, 0, **on)
    assert exact and value == F(everything)


@pytest.mark.parametrize("on", THREADS, ids=["1 thread", "3 threads"])
@settings(max_examples=60, deadline=None)
@given(case=rule_cases(), data=st.data())
def test_pass_over_a_state_is_its_value(on, case, data):
    """A pass over any set of targets finds the twin's F of that state (its tree is a tree of
    the state worth F), and with a first guess forced there, that guess's value; a node budget
    gives a bound below them."""
    rules, words, v = case
    F, classes = reference_game.state_values(words, v, rules)
    state = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    search = core_search(rules, words, v)
    nodes = data.draw(st.integers(1, 20))
    value, exact, stop, *_ = search.run(0, INF, 0.0, nodes, targets=state, **on)
    true = F(frozenset(state))
    assert value == true if exact else value <= true
    value, exact, *_ = search.run(0, INF, 0.0, 0, targets=state, **on)
    assert exact and value == true
    tree = search.tree(0, -1, targets=state)
    assert tree[0] == true == state_tree_total(rules, words, v, state, tree)
    g = data.draw(st.sampled_from(range(len(words))))
    value, exact, *_ = search.run(0, INF, 0.0, 0, targets=state, first_guesses=[g], **on)
    W = sum(v[t] for t in state)
    if W == 0:  # no target of positive weight: any tree costs nothing
        assert value == 0
    elif narrows(rules, words, v, g, state):
        assert exact and value == W + sum(F(c) for c in classes(g, frozenset(state)))
    else:
        assert value == INF


def test_bad_states_and_guesses_are_refused():
    rules_words = WordList.from_words(["ab", "cd", "ef"])
    search = _core.BestResponseSearch(rules_words.core, np.ones(3, dtype=np.int64), 2**20)
    for bad in ([2, 1], [0, 3], [-1], []):
        with pytest.raises(ValueError, match="at least one increasing word index"):
            search.run(0, INF, 0.0, 0, targets=bad)
    with pytest.raises(ValueError, match="first_guesses"):
        search.run(0, INF, 0.0, 0, first_guesses=[])
    with pytest.raises(ValueError, match="first_guesses"):
        search.run(0, INF, 0.0, 0, first_guesses=[3])
    with pytest.raises(ValueError, match="at least one increasing word index"):
        search.tree(0, -1, targets=[])


def test_a_task_runs_its_jobs_on_the_process_search():
    """run_task: one result per job in order, a tree where asked for and exact, and the same
    search (its memo) for the next task of the same problem."""
    wl = WordList.from_words(["ab", "cd", "ef", "ac", "bd", "ce", "df"])
    v = np.ones(len(wl), dtype=np.int64)
    problem = Problem.of(wl, v, 2**22)
    jobs = (Job(first=(0,), tree=True), Job(targets=(1, 2, 3), beta=1), Job(top_k=1, tree=True))
    out = run_task(Task(problem, jobs, ident=7))
    assert out.ident == 7 and len(out.results) == 3
    opener, refuted, greedy = out.results
    assert opener.exact and opener.tree[0] == opener.value and opener.tree[1][0] == 0
    assert not refuted.exact and refuted.value >= 1 and refuted.tree is None
    assert greedy.exact and greedy.tree[0] == greedy.value
    again = run_task(Task(problem, (Job(first=(0,)),)))
    assert again.results[0].value == opener.value and again.memo_states >= out.memo_states > 0


@settings(max_examples=40, deadline=None)
@given(case=rule_cases(), data=st.data())
def test_threads_give_the_forced_passes_of_one_thread(case, data):
    """The value, first guess and whole tree of a forced pass over a state are those of one
    thread, on three threads (tie-breaks included: the first guess of least value in the fixed
    order, whichever thread found it)."""
    rules, words, v = case
    state = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    some = sorted(data.draw(st.sets(st.sampled_from(range(len(words))), min_size=1)))
    runs = []
    for on in THREADS:
        search = core_search(rules, words, v)
        value, exact, _, _, guess, _ = search.run(
            0, INF, 0.0, 0, targets=state, first_guesses=some, **on
        )
        tree = search.tree(0, guess, targets=state) if exact else None
        runs.append(
            (
                value,
                exact,
                guess,
                None if tree is None else (tree[0], *(a.tolist() for a in tree[1:])),
            )
        )
    assert runs[0] == runs[1]
