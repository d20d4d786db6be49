"""The proof split over first guesses: the engine behind :func:`jotto.opener_values` and the
best response run on an executor (:func:`jotto.best_response` with ``executor=``).

The best tree starting with word g (an *opener*) needs

    F_g = W + sum_{j != win} F(S_j(g))

guesses in total (W the hider's total weight, S_j(g) the targets giving reply j to g, F the
best-response value of a state, :mod:`jotto.responses.mean_search`), and the best response is
min_g F_g.  Each opener is a whole subtree of the search, which a worker proves apart with a
pass of the compiled search whose first guess is forced (:mod:`jotto.responses.proof.work_units`).  Every word
has a *row*: a proven lower bound on F_g and the value of an explicit tree starting with g (an
upper bound; the tree is kept).  The work on the rows:

- the *survey*: a top-1 and a top-2 tree for every opener (many to a task), the first upper
  bounds; the first lower bounds need no search (the counting bound of each class);
- *lower-bound passes*: a pass over one opener with a beta a step above its bound either finds
  F_g (below beta) or proves F_g >= beta; the step is sized so that the pass takes about
  :data:`TASK_SECONDS` (the states the passes of one opener need grow about geometrically with
  beta, and the growth is measured), and cheap passes of several openers travel together;
- *tree passes*: top-K passes (K = 3, 4, then top-2 passes optimal below a growing state size)
  for the openers with the best trees.

An opener whose next pass is predicted to take over :data:`SPLIT_SECONDS`, or that is among the
focus openers whose trees are improved, is *split*: each of its reply classes becomes a *part*,
a state searched by passes of its own (and trees of its own), in parallel; F_g is W plus the
parts' values, the opener's bound W plus their bounds, its tree the opener followed by theirs.

Two policies choose the work.  ``"table"`` (the value of every opener) gives shares of the time
to raising the lowest lower bounds among the openers that could be best (the *floor*), to
narrowing the ``focus`` openers with the best trees (until each is within ``width``), and to
their trees.  ``"best"`` (the best response) raises the floor only, and every pass is capped at
the best tree so far (the *incumbent*, which finished tasks lower for the tasks submitted
later): an opener whose bound reaches it cannot be best.  Without a budget (``exact``) every
pass runs to its end: the table's passes aim at each opener's tree (the pass finds F_g or
proves the tree optimal), the best response's at the incumbent (ties resolved as the
sequential search resolves them, so that the tree is the same: see :meth:`OpenerSearch.cap`).

This module does no I/O: :meth:`OpenerSearch.plan` gives tasks, :meth:`OpenerSearch.take`
merges their outcomes, :meth:`OpenerSearch.payload` and :meth:`OpenerSearch.restore` save and
load the state; :mod:`jotto.solvers.openers` runs it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...game.bounds import counting_total
from ...game.packed_trees import pack_tree, unpack_tree
from ...game.trees import DecisionTree
from ...game.turns import replies
from ...game.words import WordList
from ...util.strategy_file import StrategyFileError, decode_array
from .work_units import INF, Job, Outcome, Problem, Task

__all__ = ["OpenerSearch", "TASK_SECONDS", "greedy_ranks"]

#: The work a task aims at, in seconds: a distributed executor costs about a millisecond per
#: task, so a task of this size spends 0.05% on it.
TASK_SECONDS = 2.0
#: A row whose next lower-bound pass is predicted to take longer than this is split into its
#: reply classes, which then run in parallel as tasks of their own.
SPLIT_SECONDS = 2 * TASK_SECONDS
#: A class whose next lower-bound pass is predicted to take longer than SPLIT_SECONDS is split
#: into groups of its first guesses in a plan for at least this many slots: its passes are
#: one chain, which on many workers is the makespan.  On fewer, the openers and their classes
#: keep every worker busy, and a group's passes would miss the memo entries the others find.
GROUP_SLOTS = 16
#: The sizes of a class's groups of first guesses, in its search's order (the greedy order,
#: :func:`greedy_ranks`): the first words, the hardest to refute, alone, then doubling; the
#: last group holds the rest.
GROUP_SINGLES = 4
#: A class of fewer targets is not split into groups (its passes are short, and splitting
#: tiny classes over and over makes many tasks of nothing).
MIN_GROUP_TARGETS = 8
#: The most a budgeted task may run: a pass that would take longer stops there with what it
#: proved, and goes on in a later task (on its worker, from the bounds its memo kept).
MAX_TASK_SECONDS = 10.0
#: The same in a plan for GROUP_SLOTS or more: there a unit whose pass runs out of its task's
#: time is split next, and passes that ran ten seconds first were most of the makespan.  In the
#: log of a 30-minute table planned for 256 workers, 131 tasks of ten seconds held 37% of the
#: work, and the last of them ended the replay at 62.8%; with this cap, 74.6% (3 s and openers
#: split at once as well: 72.2%; docs/cluster.md).
MANY_SLOTS_TASK_SECONDS = 2 * TASK_SECONDS
#: The most jobs one task holds.
MAX_BATCH = 256
#: Tree passes of a row, in order: (top_k, full_below).  The first two are the survey.
SURVEY_STEPS = 2
FULL_BELOW_START = 32
FULL_BELOW_GROWTH = 1.5
#: Each lower-bound pass of a row without a measured growth aims this far from its bound to
#: its tree, as a fraction.
BETA_STEPS = 16
#: How many times more states an opener's proof needs per 1/D of a guess more, until the
#: passes measure it: about 9% at 3 letters (TWL06, uniform hider).
GROWTH = 1.09
#: The fewest states of a pass that its growth is fitted to.
MIN_FIT_NODES = 2000
#: Shares of a budget's task time by work (the "table" policy; "best" gives the focus none).
TREE_SHARE = 0.2
FOCUS_SHARE = 0.4


def tree_passes(size: int) -> list[tuple[int, int]]:
    """(top_k, full_below) of a row's tree passes: top-1, 2, 3, 4, then top-2 optimal below
    32, 48, ... targets until the size covers every target (that pass is the exact search)."""
    passes = [(k, 0) for k in range(1, 5)]
    below = FULL_BELOW_START
    while passes[-1][1] < size:
        passes.append((2, below))
        below = math.ceil(below * FULL_BELOW_GROWTH)
    return passes


def greedy_ranks(words: WordList, v: np.ndarray, state: np.ndarray) -> np.ndarray:
    """Each word's position in the order the compiled search tries first guesses at ``state``
    (its targets of positive weight, or in hard mode all of them): least greedy metric
    ``sum_i v_i n_{reply(g, i)}`` (with equal weights, the sum of squared class sizes), then
    words of the state, then the lowest index (search_split.c)."""
    D = len(words)
    w = v[state]
    uniform = len(state) > 0 and bool((w == w[0]).all())
    q = []
    for g in range(D):
        codes = replies(words, g, state)
        n = np.bincount(codes, minlength=words.classes).astype(np.int64)
        if uniform:
            q.append(int((n * n).sum()))
        else:  # sum_r n_r w_r <= D W < 2**63 (the weights' contract)
            per = np.zeros(words.classes, dtype=np.int64)
            np.add.at(per, codes, w)
            q.append(int((n * per).sum()))
    member = np.zeros(D, dtype=bool)
    member[state] = True
    order = sorted(range(D), key=lambda g: (q[g], not member[g], g))
    ranks = np.empty(D, dtype=np.int64)
    ranks[order] = np.arange(D)
    return ranks


@dataclass
class _Unit:
    """A whole subtree that passes work on: an opener (a row) or a reply class of one (a part).
    ``lower`` is proven, ``upper`` the value of ``tree``."""

    lower: int = 0
    upper: int = INF
    tree: tuple | None = None  # (guess, depth, size, children) of the best tree found
    costs: list = field(default_factory=list)  # (bound, lower-bound nodes so far) per pass
    nodes: int = 0  # states its lower-bound passes took
    seconds: float = 0.0  # time its jobs took
    tree_step: int = 0  # next tree pass (tree_passes)
    tree_stuck: bool = False  # a tree pass ran out of time: no more
    busy: bool = False  # a lower-bound pass is in flight
    slow: bool = False  # a lower-bound pass ran out of its task's time: split it (if it can be)
    tree_busy: bool = False  # a tree pass is in flight
    tree_flying: int = 0  # how many (more than one in a plan for GROUP_SLOTS or more)
    tree_sent: int = 0  # the step after the last one sent
    last: int = -1  # the last task of its chain of lower-bound passes
    last_tree: int = -1  # and of tree passes

    @property
    def exact(self) -> bool:
        return self.lower >= self.upper


@dataclass
class _Part(_Unit):
    """A reply class of a row's opener, or of a group's one word (once that is split),
    searched as a state of its own: the row's value is W + the sum of its parts' (a group's,
    the weight of its state + theirs)."""

    row: int = 0  # the opener's word (of the row it is a part of, however deep)
    code: int = 0  # the reply code of the class
    targets: tuple = ()  # its words (of any weight), increasing
    groups: list | None = None  # groups of its first guesses, once split (then its passes)
    parent: Any = field(default=None, repr=False, compare=False)  # the _Row or _Group


@dataclass
class _Group(_Unit):
    """Some of a class's first guesses (once the class is split into groups): a pass of the
    class's state with its first guess forced to one of them.  The class's value is the least
    of its groups' (every tree of the state starts with a word of one group), its bound the
    least of their bounds, its tree the best of theirs.  A group of one word may be split in
    turn into that word's reply classes in the state, as an opener is."""

    first: tuple = ()  # the words, increasing
    weight: int = 0  # the weight of the class's targets (the guess each takes)
    part: Any = field(default=None, repr=False, compare=False)  # the class (a _Part)
    parts: list | None = None  # one word's classes, once split (then all work goes to them)


@dataclass
class _Row(_Unit):
    """What is known of one opener."""

    word: int = 0
    rank: int = 0  # position in the sequential search's order of first guesses
    narrows: bool = True  # the word narrows the targets down (else F_g = W + F(all))
    parts: list | None = None  # its classes, once split (then all work goes to them)


@dataclass
class _Sent:
    """A task in flight: what each job is for."""

    kind: str  # survey, trees, floor, focus, exact
    jobs: list  # (unit, "lower" or "tree", beta or tree step)
    after: list  # tasks it follows (the chains of its rows)
    submitted: float
    predicted: float  # seconds it was expected to take


class OpenerSearch:
    """The rows of every opener and the work on them (see the module docstring).

    Args:
        words, v: the word list and the hider's integer weights.
        memory: bytes each worker's search may take.
        policy: ``"table"`` or ``"best"``.
        exact: no budget: every pass runs to its end, and the run ends when the values are
            exact (every opener's, or the best one's).
        focus, width: the table's focus (see the module docstring); ``width`` in expected
            guesses (None: narrow them until exact).
        goal: "best" only: the least total not worth proving (``upper_bound``).
        greedy: "best" only: (total, tree arrays) of the greedy tree, the first incumbent.
        slots: tasks that run at once: cheap work is shared out into at least this many tasks
            (a batch takes at most its share of the units that need work), so that no worker
            waits while another runs a batch of many.
    """

    def __init__(
        self,
        words: WordList,
        v: np.ndarray,
        memory: int,
        *,
        policy: str = "table",
        exact: bool = False,
        focus: int = 10,
        width: float | None = None,
        goal: int | None = None,
        greedy: tuple[int, tuple] | None = None,
        slots: int = 1,
    ) -> None:
        if policy not in ("table", "best"):
            raise ValueError(f"unknown policy {policy!r}")
        self.words, self.v = words, np.ascontiguousarray(v, dtype=np.int64)
        self.problem = Problem.of(words, self.v, memory)
        self.policy, self.exact, self.focus, self.goal = policy, exact, focus, goal
        self.slots = max(1, int(slots))
        self.max_task = MAX_TASK_SECONDS if self.slots < GROUP_SLOTS else MANY_SLOTS_TASK_SECONDS
        D = len(words)
        self.total = int(self.v.sum(dtype=object))
        # no tree needs more than D guesses on average: a wider width is D's
        self.width = None if width is None else math.floor(min(width, D) * self.total)
        state = np.arange(D) if words.core.hard else np.flatnonzero(self.v > 0)
        ranks = greedy_ranks(words, self.v, state)
        branches = words.core.branches
        win = words.win_code
        self.rows: list[_Row] = []
        for g in range(D):
            codes = replies(words, g, state)
            lower, classes = self.total, 0
            for r in np.unique(codes).tolist():
                if r == win:
                    continue
                members = state[codes == r]
                classes += 1
                lower += counting_total(self.v[members].tolist(), branches)
            narrows = (codes == win).any() or classes > 1
            self.rows.append(_Row(lower=lower, word=g, rank=int(ranks[g]), narrows=bool(narrows)))
        self.passes = tree_passes(len(state))
        # "best": the best tree so far (its total, arrays and its row's rank; rank -1 for the
        # greedy tree, which wins ties as it does in the sequential search)
        self.incumbent: tuple[int, tuple | None, int] = (INF, None, -1)
        if greedy is not None:
            self.incumbent = (greedy[0], tuple(greedy[1]), -1)
        self.rate: float | None = None  # states per second per worker, measured
        self._rate_nodes = 0
        self._rate_seconds = 0.0
        # seconds and count of finished jobs, by kind: "exact", and "tree:<step>" by tree pass
        self.job_seconds: dict[str, list] = {}
        self.spent = {"floor": 0.0, "focus": 0.0, "trees": 0.0}
        self.sent: dict[int, _Sent] = {}
        self.log: list[dict[str, Any]] = []
        self.next_ident = 0
        self.nodes = 0
        self.jobs = 0
        self.workers_memo: dict[str, int] = {}
        self.unit = self.total / D  # 1/D of a guess, in totals
        self._fitted: dict[int, float] = {}  # log growth per 1/D of a guess, by unit (id)
        # the units needing passes, by kind of work, as found in one plan() (see _batch)
        self._walks: dict[str, list] = {}
        # the trees of the last payload and their packed forms, by id (a checkpoint packs only
        # the trees found since the one before)
        self._packed: dict[int, tuple[tuple, dict[str, Any]]] = {}

    # ---- what is known ---------------------------------------------------------------------

    @property
    def live(self) -> list[_Row]:
        """The rows of openers that narrow the targets down (the others follow from them)."""
        return [r for r in self.rows if r.narrows]

    def best_upper(self) -> int:
        """The least total of a tree found."""
        return min([r.upper for r in self.live] + [self.incumbent[0]], default=INF)

    def floor(self) -> int:
        """A proven lower bound on the best response: the least bound of an opener."""
        return min((r.lower for r in self.live), default=INF)

    def done(self) -> bool:
        """Whether there is nothing left to prove: every opener exact ("table"), or every
        opener's bound at its :meth:`cap` (the best one proven, or the goal out of reach)."""
        if self.policy == "table":
            last = len(self.passes)
            return all(r.exact for r in self.live) and (
                not self.exact
                or all(r.tree_step >= last or r.tree_stuck for r in self.rows if not r.narrows)
            )
        return all(r.exact or r.lower >= self.cap(r) for r in self.live)

    def cap(self, unit: _Unit) -> int:
        """The highest beta worth a lower-bound pass of ``unit``.  A row: in "table", its tree
        (a pass to it finds F_g or proves the tree optimal); in "best", the incumbent (or the
        goal if lower), plus one for an opener earlier than the incumbent's in the sequential
        search's order, which would win a tie (that search keeps the first of equal trees,
        and the greedy tree it starts from over them all).  A part: its tree, or what takes
        its row to the row's cap with the other parts' bounds, if less."""
        if isinstance(unit, _Group):
            return max(unit.lower, min(unit.upper, self.cap(unit.part)))
        if isinstance(unit, _Part):
            parent = unit.parent
            others = sum(p.lower for p in parent.parts if p is not unit)
            return max(
                unit.lower,
                min(unit.upper, self.cap(parent) - self._weight(parent) - others),
            )
        if self.policy == "table":
            return unit.upper
        value, _, rank = self.incumbent
        cap = value + (1 if 0 <= unit.rank < rank else 0)
        if self.goal is not None:
            cap = min(cap, self.goal)
        return min(cap, unit.upper)

    # ---- choosing work -----------------------------------------------------------------------

    def plan(
        self, free: int, seconds_left: float | None = None, nodes_left: int | None = None
    ) -> list[Task]:
        """At most ``free`` tasks to submit now (fewer when every row that needs work has a
        task in flight).  ``seconds_left``, ``nodes_left``: what the budget leaves."""
        tasks: list[Task] = []
        self._walks.clear()
        while len(tasks) < free and not self.done():
            task = self._next(seconds_left, nodes_left)
            if task is None:
                break
            tasks.append(task)
        return tasks

    def _next(self, seconds_left: float | None, nodes_left: int | None) -> Task | None:
        if not (self.exact and self.policy == "best"):
            survey = self._survey()
            if survey:
                return self._task("survey", survey, seconds_left, nodes_left)
        if self.exact:
            rows = [
                r
                for r in sorted(self.live, key=lambda r: r.rank)
                if not r.busy and not r.exact and r.lower < self.cap(r)
            ]
            if self.policy == "table":
                rows = [r for r in rows if r.upper < INF]
                last = len(self.passes) - 1  # the exact search (every state tries every guess)
                dead = [
                    r
                    for r in self.rows
                    if not r.narrows
                    and not r.tree_busy
                    and not r.tree_stuck
                    and SURVEY_STEPS <= r.tree_step <= last
                ]
                for r in dead:
                    r.tree_step = last
                if dead:
                    return self._task("exact", self._tree_batch(dead), None, None)
            jobs = self._batch(rows, "exact")
            return self._task("exact", jobs, None, None) if jobs else None
        order = sorted(("floor", "focus", "trees"), key=self._behind)
        for kind in order:
            jobs = self._work(kind)
            if jobs:
                return self._task(kind, jobs, seconds_left, nodes_left)
        return None

    def _behind(self, kind: str) -> float:
        """How far a kind of work is behind its share of the time (least first)."""
        share = {"trees": TREE_SHARE, "focus": FOCUS_SHARE if self.policy == "table" else 0.0}
        share["floor"] = 1.0 - share["trees"] - share["focus"]
        if share[kind] <= 0:
            return math.inf
        return self.spent[kind] / share[kind]

    def _survey(self) -> list:
        """The next survey batch: the rows lacking the lowest tree pass of the survey (also
        those of openers that tell no target apart: their trees start with the opener and go on
        with the best tree of the pass; the table wants them)."""
        rows = self.rows if self.policy == "table" else self.live
        for step in range(SURVEY_STEPS):
            todo = [r for r in rows if r.tree_step == step and not r.tree_busy]
            if todo:
                todo.sort(key=lambda r: r.rank)
                return self._tree_batch(todo)
            if any(r.tree_step <= step for r in rows):
                return []  # the rest of this step is in flight: the next waits for it
        return []

    def _focus_rows(self) -> list[_Row]:
        """The ``focus`` openers with the best trees (whatever their state)."""
        rows = sorted(self.live, key=lambda r: (r.upper, r.lower, r.rank))
        return rows[: self.focus]

    def _work(self, kind: str) -> list:
        if kind == "trees":
            for r in self._focus_rows():  # their classes' trees are smaller tasks
                if (
                    r.parts is None
                    and not r.busy
                    and not r.tree_busy
                    and r.tree is not None
                    and not r.exact
                    and r.narrows
                ):
                    self._split(r)
                    self._walks.clear()
            # A tree pass does not need the one before it (the next step is predicted from the
            # time the steps took, over all units): on many workers, a unit's next step goes
            # out while the one before runs, or the steps of one unit are a chain.
            ahead = self.slots >= GROUP_SLOTS
            units = [
                u
                for r in self._focus_rows()
                if not r.exact
                for u in (r.parts or [r])
                if (ahead or not u.tree_busy)
                and not u.tree_stuck
                and max(u.tree_step, u.tree_sent) < len(self.passes)
                and not u.exact
            ]
            return self._tree_batch(units)
        if kind == "focus":  # the widest first
            rows = sorted(
                (
                    r
                    for r in self._focus_rows()
                    if not r.exact and (self.width is None or r.upper - r.lower > self.width)
                ),
                key=lambda r: (r.lower - r.upper, r.rank),
            )
        else:
            best = self.best_upper()
            rows = sorted(
                (r for r in self.live if not r.exact and r.lower < best and r.lower < self.cap(r)),
                key=lambda r: (r.lower, r.rank),
            )
        return self._batch(rows, kind)

    def _units(self, rows: list[_Row]) -> list[tuple[_Unit, int]]:
        """The units a lower-bound pass of each row goes to, in order, each with its
        :meth:`cap`: the row, or once it is split its parts, theirs once split into groups, and
        so on (:meth:`_open`)."""
        out: list[tuple[_Unit, int]] = []
        for row in rows:
            cap = self.cap(row)
            if row.lower < cap:
                self._open(row, out, cap)
        return out

    def _open(self, unit: _Unit, out: list, cap: int) -> None:
        """Append to ``out`` the units under ``unit`` that need a lower-bound pass (not in
        flight, below their :meth:`cap`), splitting first a unit whose next pass is predicted
        to take over SPLIT_SECONDS: a row into its classes (then they run in parallel, as tasks
        of their own), and in a plan for GROUP_SLOTS or more a class into groups of its first
        guesses and a group of one word into that word's classes.  ``cap``: the unit's
        :meth:`cap` (its children's follow from it, as :meth:`cap` finds them)."""
        if isinstance(unit, _Part):
            children = unit.groups
        else:
            children = unit.parts
        if children is None and not unit.busy and self._splits(unit, cap):
            if isinstance(unit, _Row):
                self._split(unit)
            elif isinstance(unit, _Part):
                self._split_groups(unit)
            else:
                self._split_classes(unit)
                self._sync(unit)  # a word that leaves no class (a state of one target) is done
                self._sync_up(unit)
            children = unit.groups if isinstance(unit, _Part) else unit.parts
        if children is None:
            if not unit.busy and unit.lower < cap:
                out.append((unit, cap))
            return
        if isinstance(unit, _Part):
            for group in children:
                below = max(group.lower, min(group.upper, cap))
                if group.lower < below:
                    self._open(group, out, below)
            return
        left = cap - self._weight(unit) - sum(p.lower for p in children)
        for part in children:
            below = max(part.lower, min(part.upper, left + part.lower))
            if part.lower < below:
                self._open(part, out, below)

    def _splits(self, unit: _Unit, cap: int) -> bool:
        """Whether to split ``unit`` (see :meth:`_open`): its next pass is predicted to take
        over SPLIT_SECONDS, or one ran out of its task's time.  A row needs its tree (its
        classes start from its subtrees); a class needs MIN_GROUP_TARGETS targets or more, a
        group one word that narrows its state down."""
        if isinstance(unit, _Row):
            if unit.tree is None:
                return False
        elif self.slots < GROUP_SLOTS:
            return False
        elif isinstance(unit, _Part):
            if len(unit.targets) < MIN_GROUP_TARGETS:
                return False
        elif len(unit.first) != 1 or not self._narrows(unit.first[0], unit.part.targets):
            return False
        return unit.lower < cap and (
            unit.slow or self._predict(unit, self._beta(unit, cap)) > SPLIT_SECONDS
        )

    def _state(self, targets) -> np.ndarray:
        """The targets the search sees of a state (of positive weight; in hard mode all)."""
        t = np.asarray(targets, dtype=np.int64)
        return t if self.words.core.hard else t[self.v[t] > 0]

    def _narrows(self, word: int, targets) -> bool:
        """Whether ``word`` may be the first guess of a tree of the state (as the search asks:
        in hard mode a target; a target, or one that splits the state)."""
        state = self._state(targets)
        if word in state:
            return True
        return not self.words.core.hard and len(np.unique(replies(self.words, word, state))) > 1

    def _weight(self, unit: _Unit) -> int:
        """The weight of the state a row's or group's word is guessed at: the guess each of its
        targets takes (W for a row)."""
        return self.total if isinstance(unit, _Row) else unit.weight

    def _classes(self, word: int, targets: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The reply classes of ``word`` among ``targets`` (of any weight): (code, words)."""
        codes = replies(self.words, word, targets)
        keep = targets != word
        return [
            (r, targets[(codes == r) & keep])
            for r in np.unique(codes[keep]).tolist()
            if r != self.words.win_code
        ]

    def _split(self, row: _Row) -> None:
        """Make the row's classes parts: each starts from the counting bound of its targets
        and from the subtree of the row's tree (so the row's tree is the parts' put
        together)."""
        words = self.words
        full = DecisionTree(words, *row.tree).guesses_needed().astype(np.int64)
        root_children = row.tree[3][0]
        branches = words.core.branches
        parts = []
        for r, targets in self._classes(row.word, np.arange(len(words))):
            lower = counting_total(self.v[self._state(targets)].tolist(), branches)
            upper = int((self.v[targets] * (full[targets] - 1)).sum())
            parts.append(
                _Part(
                    lower=min(lower, upper),
                    upper=upper,
                    tree=_subtree(row.tree, int(root_children[r])),
                    tree_step=row.tree_step,
                    tree_stuck=row.tree_stuck,
                    last=row.last,
                    last_tree=row.last_tree,
                    row=row.word,
                    code=r,
                    targets=tuple(targets.tolist()),
                    parent=row,
                )
            )
        row.parts = parts

    def _split_classes(self, group: _Group) -> None:
        """Make the classes of a one-word group's word in its state parts, each from the
        counting bound of its targets (with no tree yet), chained to the group's last pass."""
        branches = self.words.core.branches
        part = group.part
        group.parts = [
            _Part(
                lower=counting_total(self.v[self._state(targets)].tolist(), branches),
                last=group.last,
                row=part.row,
                code=r,
                targets=tuple(targets.tolist()),
                parent=group,
            )
            for r, targets in self._classes(group.first[0], np.array(part.targets))
        ]

    def _split_groups(self, part: _Part, firsts: list | None = None) -> None:
        """Make groups of the class's first guesses (every word, in the greedy order at its
        state: :data:`GROUP_SINGLES` alone, then doubling), or of ``firsts`` (a restored
        table's), each starting from the class's bound and chained to its last pass."""
        if firsts is None:
            state = self._state(part.targets)
            order = np.argsort(greedy_ranks(self.words, self.v, state)).tolist()
            firsts, start = [], 0
            while start < len(order):
                take = 2 ** max(0, len(firsts) - GROUP_SINGLES + 1)
                if start + 2 * take >= len(order):
                    take = len(order) - start  # the rest: less than the next group's size
                firsts.append(order[start : start + take])
                start += take
        weight = int(self.v[list(part.targets)].sum())
        part.groups = [
            _Group(
                lower=part.lower, last=part.last, first=tuple(sorted(f)), weight=weight, part=part
            )
            for f in firsts
        ]

    def _growth(self, unit: _Unit) -> tuple[float, bool]:
        """How many times more states a unit's proof needs per unit of beta, and whether that
        was measured on the unit: fitted to its last pass and an earlier one that had needed at
        most half as many states, at least MIN_FIT_NODES (fewer say little of the growth), else
        the median of the units fitted so far, else :data:`GROWTH` (per 1/D of a guess)."""
        pts = [p for p in unit.costs if p[1] >= MIN_FIT_NODES]
        if len(pts) >= 2:
            v1, n1 = pts[-1]
            v0, n0 = next((p for p in reversed(pts[:-1]) if 2 * p[1] <= n1), pts[0])
            if v1 > v0 and n1 > n0:
                g = math.log(n1 / n0) / (v1 - v0)
                self._fitted[id(unit)] = g * self.unit
                return math.exp(g), True
        known = sorted(self._fitted.values())
        per = known[len(known) // 2] if known else math.log(GROWTH)
        return math.exp(per / self.unit), False

    def _predict(self, unit: _Unit, beta: int) -> float:
        """Seconds a lower-bound pass of ``unit`` to ``beta`` is expected to take: the states
        its passes so far needed, grown geometrically per unit of beta (:meth:`_growth`); a
        pass of a unit whose growth is not measured yet counts as a sixteenth of a task."""
        if not unit.costs or self.rate is None:
            return TASK_SECONDS / 16
        v1, n1 = unit.costs[-1]
        growth, measured = self._growth(unit)
        guess = max(n1, 1) * (growth ** max(0, beta - v1) - 1) / self.rate
        return guess if measured else max(guess, TASK_SECONDS / 16)

    def _beta(self, unit: _Unit, cap: int | None = None) -> int:
        """The beta of ``unit``'s next lower-bound pass: its first pass aims one above its
        bound (the bounds it proves without searching deeper come out at once), each later
        one as far as a pass of about TASK_SECONDS is predicted to prove, but no further than
        1/BETA_STEPS of the way to its tree until its growth is measured; at most
        :meth:`cap` (``cap`` if the caller has it)."""
        cap = self.cap(unit) if cap is None else cap
        if not unit.costs or self.rate is None:
            return min(cap, unit.lower + 1)
        v1, n1 = unit.costs[-1]
        growth, measured = self._growth(unit)
        step = int(math.log1p(self.rate * TASK_SECONDS / max(n1, 1)) / math.log(growth))
        if not measured:
            step = min(step, (min(cap, unit.upper) - unit.lower) // BETA_STEPS)
        return min(cap, unit.lower + max(1, step))

    def _share(self, n: int) -> int:
        """The most jobs of ``n`` waiting that one task takes: its share of the slots."""
        return min(MAX_BATCH, max(1, -(-n // self.slots)))

    def _batch(self, rows: list[_Row], kind: str) -> list:
        """Lower-bound jobs for the first rows' units, as many as fill a task of TASK_SECONDS
        (and its share, :meth:`_share`)."""
        jobs, seconds = [], 0.0
        if self.exact and self.policy == "best":  # whole openers: ties resolved as in one process
            units = [(r, self.cap(r)) for r in rows if not r.busy]
        else:
            # Bounds change only when outcomes are taken, between plan() calls: the units of
            # one walk serve every task a plan makes (less those the tasks before took).
            if kind not in self._walks:
                self._walks[kind] = self._units(rows)
            units = [(u, cap) for u, cap in self._walks[kind] if not u.busy]
        most = self._share(len(units))
        for unit, cap in units:
            beta = cap if self.exact else self._beta(unit, cap)
            if beta <= unit.lower:
                continue
            guess = self._mean("exact", 0) if self.exact else self._predict(unit, beta)
            if jobs and (seconds + guess > TASK_SECONDS or len(jobs) >= most):
                break
            jobs.append((unit, "lower", beta))
            seconds += guess
            measured = "exact" in self.job_seconds if self.exact else self.rate is not None
            if not measured:
                # the first passes measure the cost alone: a batch sized by a guess at it held
                # 64 openers, 25 s of a 60 s table of 150 words, which one worker ran alone
                break
        return jobs

    def _mean(self, kind: str, step: int) -> float:
        """The mean seconds of the finished jobs of a kind ("exact", or tree pass ``step``);
        for a tree pass not run yet, twice the one before's."""
        total, n = self.job_seconds.get(kind if kind == "exact" else f"tree:{step}", (0.0, 0))
        if n:
            return total / n
        if kind != "exact" and step > 0:
            return 2 * self._mean(kind, step - 1)
        return TASK_SECONDS / 64

    def _tree_batch(self, units: list[_Unit]) -> list:
        jobs, seconds = [], 0.0
        most = self._share(len(units))
        for unit in units:
            step = max(unit.tree_step, unit.tree_sent)
            per = self._mean("tree", step)
            if jobs and (seconds + per > TASK_SECONDS or len(jobs) >= most):
                break
            jobs.append((unit, "tree", step))
            seconds += per
            if not self.job_seconds and len(jobs) >= 4:
                break  # the first batch measures the cost of a tree
        return jobs

    def _job(self, unit: _Unit, what: str, arg: int) -> Job:
        """The pass of a job: a row's is its opener forced at the top, a part's its class, a
        group's its class with the group's words forced."""
        if what == "tree":
            top_k, full_below = self.passes[arg]
            if isinstance(unit, _Part):
                return Job(targets=unit.targets, top_k=top_k, full_below=full_below, tree=True)
            if not unit.narrows:
                return Job(top_k=top_k, full_below=full_below, tree=True, root=unit.word)
            return Job(first=(unit.word,), top_k=top_k, full_below=full_below, tree=True)
        by_size = not self.exact
        if isinstance(unit, _Group):
            targets = unit.part.targets
            return Job(targets=targets, first=unit.first, beta=int(arg), by_size=by_size, tree=True)
        if isinstance(unit, _Part):
            return Job(targets=unit.targets, beta=int(arg), by_size=by_size, tree=True)
        return Job(first=(unit.word,), beta=int(arg), by_size=by_size, tree=True)

    def _task(
        self, kind: str, jobs: list, seconds_left: float | None, nodes_left: int | None
    ) -> Task:
        out, after = [], set()
        for unit, what, arg in jobs:
            out.append(self._job(unit, what, arg))
            # A task follows the unit's previous pass of the same kind: a lower-bound pass
            # starts from its bound and sizes its beta by its nodes, and a tree pass is the
            # step after the last one finished (the replay of the log keeps both orders).
            if what == "tree":
                unit.tree_busy = True
                unit.tree_flying += 1
                unit.tree_sent = arg + 1
                if unit.last_tree >= 0:
                    after.add(unit.last_tree)
            else:
                unit.busy = True
                if unit.last >= 0:
                    after.add(unit.last)
        seconds = 0.0
        if not self.exact:
            seconds = (
                self.max_task
                if seconds_left is None
                else max(0.01, min(self.max_task, seconds_left))
            )
        predicted = min(
            self.max_task,
            sum(
                self._mean("tree", arg)
                if what == "tree"
                else self._mean("exact", 0)
                if self.exact
                else self._predict(unit, arg)
                for unit, what, arg in jobs
            ),
        )
        if kind in self.spent:  # counted now, so that the next choice sees it in flight
            self.spent[kind] += predicted
        ident = self.next_ident
        self.next_ident += 1
        self.sent[ident] = _Sent(kind, jobs, sorted(after), time.time(), predicted)
        return Task(self.problem, tuple(out), seconds, int(nodes_left or 0), ident)

    # ---- taking results ----------------------------------------------------------------------

    def take(self, outcome: Outcome) -> None:
        """Merge a finished task's results."""
        sent = self.sent.pop(outcome.ident)
        nodes = 0
        for k, (unit, what, arg) in enumerate(sent.jobs):
            res = outcome.results[k] if k < len(outcome.results) else None
            if what == "tree":
                unit.tree_flying -= 1
                unit.tree_busy = unit.tree_flying > 0
                unit.last_tree = outcome.ident
            else:
                unit.busy = False
                unit.last = outcome.ident
            if res is None:
                if what == "tree":  # not run: the step goes out again
                    unit.tree_sent = min(unit.tree_sent, arg)
                continue
            nodes += res.nodes
            unit.seconds += res.seconds
            if what == "tree":
                if res.stopped != "done":
                    unit.tree_stuck = True
                else:
                    unit.tree_step = max(unit.tree_step, arg + 1)
                    self._offer(unit, res.tree[0] if res.tree is not None else INF, res.tree)
                    bucket = self.job_seconds.setdefault(f"tree:{arg}", [0.0, 0])
                    bucket[0] += res.seconds
                    bucket[1] += 1
            else:
                unit.nodes += res.nodes
                if res.exact:
                    self._offer(unit, res.value, res.tree)
                    if sent.kind == "exact":
                        bucket = self.job_seconds.setdefault("exact", [0.0, 0])
                        bucket[0] += res.seconds
                        bucket[1] += 1
                unit.lower = max(unit.lower, res.value)
                if not res.exact and res.stopped == "done":
                    unit.costs.append((unit.lower, unit.nodes))
                # a pass stopped by its task's time says more of the unit's cost than the
                # prediction that sent it (which a busy machine can make wrong by far)
                unit.slow |= res.stopped == "time"
            self._sync_up(unit)
        self.nodes += nodes
        self.jobs += len(outcome.results)
        self.workers_memo[outcome.worker] = outcome.memo_states
        if sent.kind in self.spent:  # the prediction counted at submission, made actual
            self.spent[sent.kind] += outcome.seconds - sent.predicted
        if nodes and outcome.seconds > 0:
            self._rate_nodes += nodes
            self._rate_seconds += outcome.seconds
            self.rate = self._rate_nodes / self._rate_seconds
        self.log.append(
            {
                "task": outcome.ident,
                "kind": sent.kind,
                "after": sent.after,
                "jobs": len(sent.jobs),
                "classes": sum(type(u) is _Part for u, _, _ in sent.jobs),
                "groups": sum(type(u) is _Group for u, _, _ in sent.jobs),
                "done": len(outcome.results),
                "nodes": nodes,
                "seconds": round(outcome.seconds, 6),
                "worker": outcome.worker,
                "submitted": round(sent.submitted, 3),
                "started": round(outcome.started, 3),
            }
        )

    def forget(self, ident: int) -> None:
        """A task that will not come back (the run stopped): its units are free again."""
        sent = self.sent.pop(ident, None)
        if sent is None:
            return
        if sent.kind in self.spent:
            self.spent[sent.kind] -= sent.predicted
        for unit, what, arg in sent.jobs:
            if what == "tree":
                unit.tree_flying -= 1
                unit.tree_busy = unit.tree_flying > 0
                unit.tree_sent = min(unit.tree_sent, arg)
            else:
                unit.busy = False

    def _offer(self, unit: _Unit, value: int, tree: tuple | None) -> None:
        """A tree of ``value`` for the unit: kept if it is the unit's best; a row's is made the
        incumbent if it beats it (or ties it from earlier in the order)."""
        if tree is None or value >= unit.upper:
            return
        unit.upper = value
        unit.tree = tuple(np.asarray(a, dtype=np.int32) for a in tree[1:])
        if isinstance(unit, _Row):
            best, _, rank = self.incumbent
            if value < best or (value == best and 0 <= unit.rank < rank):
                self.incumbent = (value, unit.tree, unit.rank)

    def _sync_groups(self, part: _Part) -> None:
        """A class's bounds from its groups': the least of their lower bounds, and the best of
        their trees (the first group's of equal ones)."""
        part.lower = max(part.lower, min(g.lower for g in part.groups))
        best = min(part.groups, key=lambda g: g.upper)
        if best.upper < part.upper:
            self._offer(part, best.upper, (best.upper, *best.tree))

    def _sync(self, unit: _Row | _Group) -> None:
        """A row's (or one-word group's) bounds from its parts': the weight of its state plus
        their lower bounds summed, and the tree starting with its word that goes on with their
        trees (once every part has one)."""
        parts, weight = unit.parts, self._weight(unit)
        unit.lower = max(unit.lower, weight + sum(p.lower for p in parts))
        if any(p.tree is None for p in parts):
            return
        upper = weight + sum(p.upper for p in parts)
        if upper < unit.upper:
            word = unit.word if isinstance(unit, _Row) else unit.first[0]
            size = len(self.words) if isinstance(unit, _Row) else len(unit.part.targets)
            self._offer(unit, upper, (upper, *_compose(self.words, word, parts, size)))

    def _sync_up(self, unit: _Unit) -> None:
        """After a unit's bounds rose or its tree improved: those of the units it is part of,
        up to its row."""
        while not isinstance(unit, _Row):
            if isinstance(unit, _Group):
                unit = unit.part
                self._sync_groups(unit)
            else:
                unit = unit.parent
                self._sync(unit)

    # ---- saving ------------------------------------------------------------------------------

    def payload(self) -> dict[str, Any]:
        """The state of the search as a JSON object (trees packed)."""
        packed: dict[int, tuple[tuple, dict[str, Any]]] = {}

        def pack(tree: tuple | None) -> dict[str, Any] | None:
            if tree is None:
                return None
            hit = self._packed.get(id(tree))
            if hit is None or hit[0] is not tree:
                hit = (tree, pack_tree(*tree))
            packed[id(tree)] = hit
            return hit[1]

        def unit(u: _Unit) -> dict[str, Any]:
            return {
                "lower": u.lower,
                "upper": u.upper,
                "tree": pack(u.tree),
                "costs": u.costs,
                "nodes": u.nodes,
                "seconds": round(u.seconds, 6),
                "tree_step": u.tree_step,
                "tree_stuck": u.tree_stuck,
            }

        def parts(u: _Row | _Group) -> list | None:
            return None if u.parts is None else [part(q) for q in u.parts]

        def part(q: _Part) -> dict[str, Any]:
            groups = None if q.groups is None else [group(g) for g in q.groups]
            return {"code": q.code, **unit(q), "groups": groups}

        def group(g: _Group) -> dict[str, Any]:
            return {"first": list(g.first), **unit(g), "parts": parts(g)}

        rows = [{"word": r.word, **unit(r), "parts": parts(r)} for r in self.rows]
        self._packed = packed
        return {
            "rows": rows,
            "spent": self.spent,
            "job_seconds": self.job_seconds,
            "rate": [self._rate_nodes, self._rate_seconds],
            "log": self.log,
            "next_task": self.next_ident,
            "nodes": self.nodes,
            "jobs": self.jobs,
        }

    def restore(self, p: dict[str, Any]) -> None:
        """Continue from :meth:`payload` (of the same words, weights and policy); a
        :class:`~jotto.util.strategy_file.StrategyFileError` if it does not fit."""
        rows = p.get("rows")
        if not isinstance(rows, list) or len(rows) != len(self.rows):
            raise StrategyFileError(
                f"the table has {len(rows) if isinstance(rows, list) else 0}"
                f" rows, not one per word ({len(self.rows)})"
            )
        for row, d in zip(self.rows, rows):
            if not isinstance(d, dict) or d.get("word") != row.word:
                raise StrategyFileError("the table's rows are not in word order")
            where = f"the row of {self.words[row.word]!r}"
            self._restore_unit(row, d, where)
            if d.get("parts") is not None:
                self._split(row)
                self._restore_parts(row, d["parts"], where)
        self.spent.update(p.get("spent", {}))
        self.job_seconds.update({k: list(x) for k, x in p.get("job_seconds", {}).items()})
        self._rate_nodes, self._rate_seconds = p.get("rate", [0, 0.0])
        self.rate = self._rate_nodes / self._rate_seconds if self._rate_seconds else None
        self.log = list(p.get("log", []))
        self.next_ident = int(p.get("next_task", len(self.log)))
        self.nodes = int(p.get("nodes", 0))
        self.jobs = int(p.get("jobs", 0))

    def _restore_parts(self, unit: _Row | _Group, stored: Any, where: str) -> None:
        """The parts of a row or group (split already) as a table saved them, and theirs."""
        stored = (
            {q.get("code"): q for q in stored if isinstance(q, dict)}
            if isinstance(stored, list)
            else {}
        )
        if set(stored) != {q.code for q in unit.parts}:
            raise StrategyFileError(f"{where}: its parts are not its classes")
        for part in unit.parts:
            q = stored[part.code]
            self._restore_unit(part, q, where)
            if q.get("groups") is not None:
                self._restore_groups(part, q["groups"], where)

    def _restore_groups(self, part: _Part, groups: Any, where: str) -> None:
        """A class's groups as a table saved them: lists of words that together are every word
        once (the class's value is the least of theirs only then)."""
        D = len(self.words)
        if not isinstance(groups, list):
            raise StrategyFileError(f"{where}: a class's groups are not its first guesses")
        firsts = [g.get("first") if isinstance(g, dict) else None for g in groups]
        words = [w for f in firsts if isinstance(f, list) and f for w in f]
        if (
            len(words) != D
            or any(not (isinstance(f, list) and f) for f in firsts)
            or sorted(w if type(w) is int else -1 for w in words) != list(range(D))
        ):
            raise StrategyFileError(f"{where}: a class's groups are not its first guesses")
        self._split_groups(part, firsts)
        for group, d in zip(part.groups, groups):
            self._restore_unit(group, d, where)
            if d.get("parts") is not None:
                if len(group.first) != 1:
                    raise StrategyFileError(f"{where}: a group of several words has parts")
                self._split_classes(group)
                self._restore_parts(group, d["parts"], where)

    def _restore_unit(self, unit: _Unit, d: dict[str, Any], where: str) -> None:
        """A unit's bounds, tree and history from the file; its tree is walked and must be
        worth the unit's upper end (a file cannot claim more than its trees give)."""
        lower, upper = d.get("lower"), d.get("upper")
        if not all(type(x) is int and x >= 0 for x in (lower, upper)) or (
            upper < INF and d.get("tree") is None
        ):
            raise StrategyFileError(f"{where}: malformed bounds")
        unit.lower = max(unit.lower, lower)
        unit.upper = upper
        unit.tree = None if d["tree"] is None else _restore_tree(d["tree"], where, self.words)
        if unit.tree is not None and upper < INF:
            self._check_worth(unit, where)
        if isinstance(d["tree"], dict):  # packed: the next checkpoint writes it as it was read
            self._packed[id(unit.tree)] = (unit.tree, d["tree"])
        unit.costs = [tuple(c) for c in d.get("costs", [])]
        unit.nodes = int(d.get("nodes", 0))
        unit.seconds = float(d.get("seconds", 0.0))
        unit.tree_step = int(d.get("tree_step", 0))
        unit.tree_stuck = bool(d.get("tree_stuck", False))

    def _check_worth(self, unit: _Unit, where: str) -> None:
        """:class:`StrategyFileError` unless the unit's tree needs, over the unit's targets of
        positive weight, exactly the unit's upper end, and a row's starts with its opener.  (A
        class of weight 0 may give all its groups one tree, worth 0 whatever it starts with.)"""
        if isinstance(unit, _Row):
            targets = np.arange(len(self.words))
        else:
            part = unit.part if isinstance(unit, _Group) else unit
            targets = np.asarray(part.targets, np.intp)
        targets = targets[self.v[targets] > 0]
        tree = DecisionTree(self.words, *unit.tree)
        try:
            first = int(tree.guess[0])
            needed = tree.guesses_needed(targets)[targets]
        except (IndexError, ValueError) as exc:  # (version 1's trees are not checked as read)
            raise StrategyFileError(f"{where}: not a tree of the list ({exc})") from None
        if isinstance(unit, _Row) and first != unit.word:
            raise StrategyFileError(f"{where}: its tree starts with another word")
        worth = int(np.dot(self.v[targets].astype(object), needed.astype(object)))
        if worth != unit.upper:
            raise StrategyFileError(
                f"{where}: a tree is worth {worth}, not the {unit.upper} the table says"
                f" (in the hider's weights)"
            )


def _restore_tree(stored: Any, where: str, words: WordList) -> tuple:
    """A unit's tree as :meth:`OpenerSearch.payload` stored it: packed
    (:func:`~jotto.game.packed_trees.pack_tree`), or, in tables of version 1, as its four
    arrays."""
    if isinstance(stored, list):
        return tuple(decode_array(a, "tree") for a in stored)
    try:
        return unpack_tree(stored, words)
    except ValueError as exc:
        raise StrategyFileError(f"{where}: {exc}") from None


def _subtree(tree: tuple, start: int) -> tuple:
    """The subtree of a tree's node ``start`` (a child of the root): its nodes are a block in
    depth-first order, up to the root's next child."""
    guess, depth, size, children = tree
    later = [c for c in children[0].tolist() if c > start]
    end = min(later) if later else len(guess)
    kids = children[start:end]
    return (
        guess[start:end].copy(),
        depth[start:end] - 1,
        size[start:end].copy(),
        np.where(kids >= 0, kids - start, -1).astype(np.int32),
    )


def _compose(words: WordList, word: int, parts: list[_Part], targets: int) -> tuple:
    """The tree of a state of ``targets`` words guessing ``word`` first and then each part's
    tree in its class."""
    R = words.classes
    guess, depth, size = (
        [np.array([word], np.int32)],
        [np.zeros(1, np.int32)],
        [np.array([targets], np.int32)],
    )
    root = np.full((1, R), -1, dtype=np.int32)
    children = [root]
    n = 1
    for p in sorted(parts, key=lambda p: p.code):
        g, d, s, c = p.tree
        root[0, p.code] = n
        guess.append(g)
        depth.append(d + 1)
        size.append(s)
        children.append(np.where(c >= 0, c + n, -1).astype(np.int32))
        n += len(g)
    return (
        np.concatenate(guess),
        np.concatenate(depth),
        np.concatenate(size),
        np.concatenate(children),
    )
