# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled core: decision trees of Jotto guessers over 26-bit letter masks.

This module is private: ``jotto.engine.core`` is its one Python caller, and the package
validates input before it calls.
C-level functions for other Cython projects are declared in ``_core.pxd``.
"""
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

import os

import numpy as np

cdef extern from "common/jotto_engine.h" nogil:
    ctypedef struct jt_words:
        pass
    ctypedef struct jt_tree:
        pass
    ctypedef struct jt_weights:
        int rule
        int candidates
        const int64_t *v
        const double *h
        double err_abs
        double err_rel
    int JT_OK, JT_ENOMEM, JT_EINVAL, JT_MAX_WORDS, JT_MAX_LEN
    int JT_RULE_PAPER, JT_RULE_EXACT, JT_RULE_NORVIG_MAX, JT_RULE_NORVIG_EXPECTATION
    int JT_RULE_NORVIG_ENTROPY, JT_CAND_ALL, JT_CAND_CONSISTENT, JT_CAND_NORVIG

    double jt_integer_weights(const double *h, int32_t D, int64_t *v)
    jt_words *jt_words_new(const uint32_t *masks, int32_t D, int32_t L)
    jt_words *jt_words_new_rules(const uint64_t *tokens, const uint64_t *spell, int32_t D,
                                 int32_t L, int flags)
    int32_t jt_words_classes(const jt_words *w)
    int32_t jt_words_win(const jt_words *w)
    int32_t jt_words_branches(const jt_words *w)
    int JT_KEEP_ALL, JT_POSITIONAL, JT_HARD
    void jt_words_free(jt_words *w)
    jt_tree *jt_tree_build(const jt_words *w, const jt_weights *wt, int threads, int *status)
    int jt_tree_update(jt_tree *t, const int64_t *v, const double *h, int threads)
    void jt_tree_free(jt_tree *t)
    void jt_tree_guess_counts(const jt_tree *t, int32_t *out)
    int32_t jt_tree_node_count(const jt_tree *t)
    void jt_tree_export(const jt_tree *t, int32_t *guess, int32_t *depth, int32_t *size,
                        int32_t *children)
    void jt_tree_stats(const jt_tree *t, int64_t *decided, int64_t *evaluated)
    int32_t jt_decide(const jt_words *w, const jt_weights *wt, const int32_t *S, int32_t m,
                      int *status)
    int jt_class_sizes(const jt_words *w, const int32_t *S, int32_t m, const int32_t *cand,
                       int32_t nc, uint16_t *out)
    void jt_set_thresholds(int32_t shared, int32_t table)
    void jt_set_parallel_threshold(int64_t pairs)
    int jt_openmp_enabled()
    int jt_max_threads()
    const char *jt_isa_name()
    const char *jt_isa_available()
    int jt_isa_select(const char *name)

cdef extern from *:
    int __builtin_popcount(unsigned int x) nogil

RULE_PAPER = JT_RULE_PAPER
RULE_EXACT = JT_RULE_EXACT
RULE_NORVIG_MAX = JT_RULE_NORVIG_MAX
RULE_NORVIG_EXPECTATION = JT_RULE_NORVIG_EXPECTATION
RULE_NORVIG_ENTROPY = JT_RULE_NORVIG_ENTROPY
CAND_ALL = JT_CAND_ALL
CAND_CONSISTENT = JT_CAND_CONSISTENT
CAND_NORVIG = JT_CAND_NORVIG
MAX_WORDS = JT_MAX_WORDS
MAX_LENGTH = JT_MAX_LEN


cdef _check(int status):
    if status == JT_ENOMEM:
        raise MemoryError("jotto core: out of memory")
    if status != JT_OK:
        raise ValueError("jotto core: invalid arguments")


cdef class Words:
    """A word list as the core sees it, with its rules: every entry point that takes it (trees,
    decisions, the searches) reads them from here.

    ``Words(masks, length)``: distinct ``uint32`` letter masks of ``length`` letters each (the
    paper's lists).  ``Words(tokens, length, spell=None, keep_all=False, hard=False)``:
    ``uint64`` token masks and, for positional replies, spellings, as
    :meth:`jotto.game.rules.Rules.tokens` and :meth:`~jotto.game.rules.Rules.spellings` give
    them; ``keep_all`` is the anagram rule ``keep-all``, ``hard`` hard mode (see
    jt_words_new_rules in jotto_engine.h).  ``classes`` is the number of reply codes R, ``win``
    the win's code, ``branches`` the most non-winning replies one guess can get, ``hard``
    whether every guess must be consistent.  :attr:`jotto.game.words.WordList.core` is the one
    place that makes it from a rule set."""

    cdef jt_words *ptr
    cdef readonly int size
    cdef readonly int length
    cdef readonly int classes
    cdef readonly int win
    cdef readonly int branches
    cdef readonly bint hard
    cdef readonly bint keep_all
    cdef readonly object tokens
    cdef readonly object spell

    def __cinit__(self, masks not None, int length, spell=None, bint keep_all=False,
                  bint hard=False):
        cdef const uint32_t[::1] m32
        cdef const uint64_t[::1] tok
        cdef const uint64_t[::1] sp
        cdef int flags = ((JT_KEEP_ALL if keep_all else 0) |
                          (JT_POSITIONAL if spell is not None else 0) | (JT_HARD if hard else 0))
        self.tokens, self.spell, self.keep_all = masks, spell, keep_all
        n = len(masks)
        if n < 1 or n > JT_MAX_WORDS:
            raise ValueError(f"the core takes 1 to {JT_MAX_WORDS} words, not {n}")
        if getattr(masks, "dtype", None) == np.uint32 and not flags:
            m32 = masks
            self.ptr = jt_words_new(&m32[0], <int32_t>n, length)
            if self.ptr == NULL:
                raise ValueError("the core needs distinct masks of exactly `length` letters")
        else:
            tok = np.ascontiguousarray(masks, dtype=np.uint64)
            if spell is not None:
                sp = _vector(spell, np.uint64, n, "spellings")
            with nogil:
                self.ptr = jt_words_new_rules(&tok[0], &sp[0] if flags & JT_POSITIONAL else NULL,
                                              <int32_t>n, length, flags)
            if self.ptr == NULL:
                raise ValueError("the core needs token sets of at most `length` tokens, no two "
                                 "equal full sets unless keep_all, and distinct spellings of "
                                 "`length` letters (up to 8) for positional replies")
        self.size = <int>n
        self.length = length
        self.classes = jt_words_classes(self.ptr)
        self.win = jt_words_win(self.ptr)
        self.branches = jt_words_branches(self.ptr)
        self.hard = hard

    def __reduce__(self):
        # a list travels to worker processes as what makes it (the proof's work units)
        return Words, (self.tokens, self.length, self.spell, self.keep_all, self.hard)

    def __dealloc__(self):
        jt_words_free(self.ptr)


cdef class _Weights:
    """Owns the arrays behind a jt_weights for the duration of a call."""

    cdef jt_weights wt
    cdef object v_arr
    cdef object h_arr

    def __cinit__(self, int32_t D, int rule, int candidates, v, h, double err_abs,
                  double err_rel):
        cdef const int64_t[::1] vv
        cdef const double[::1] hh
        self.wt.rule = rule
        self.wt.candidates = candidates
        self.wt.err_abs = err_abs
        self.wt.err_rel = err_rel
        self.wt.v = NULL
        self.wt.h = NULL
        if v is not None:
            self.v_arr = _vector(v, np.int64, D, "integer weights v")
            vv = self.v_arr
            self.wt.v = &vv[0]
        if h is not None:
            self.h_arr = _vector(h, np.float64, D, "float weights h")
            hh = self.h_arr
            self.wt.h = &hh[0]


def _vector(x, dtype, Py_ssize_t n, str what):
    """x as a contiguous vector of n entries of dtype; ValueError naming it otherwise (the C
    core reads exactly n entries)."""
    arr = np.ascontiguousarray(x, dtype=dtype)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{what} must be a vector of {n} entries (one per word), not shape "
                         f"{arr.shape}")
    return arr


cdef class Tree:
    """A decision tree built by the core; ``words`` keeps its word list alive."""

    cdef jt_tree *ptr
    cdef readonly Words words

    def __dealloc__(self):
        if self.ptr != NULL:
            jt_tree_free(self.ptr)

    cdef jt_tree *_tree(self) except NULL:
        if self.ptr == NULL:
            raise ValueError("this Tree was not built by build_tree")
        return self.ptr

    def guess_counts(self):
        """Guesses needed for each target (int32 array)."""
        out = np.empty(self.words.size, dtype=np.int32)
        cdef int32_t[::1] o = out
        jt_tree_guess_counts(self._tree(), &o[0])
        return out

    def node_count(self):
        return jt_tree_node_count(self._tree())

    def stats(self):
        """(nodes decided, candidate evaluations) in the last build or update."""
        cdef int64_t decided = 0, evaluated = 0
        jt_tree_stats(self._tree(), &decided, &evaluated)
        return int(decided), int(evaluated)

    def export(self):
        """(guess, depth, size, children) arrays, nodes depth-first, root first."""
        cdef int32_t n = jt_tree_node_count(self._tree())
        guess = np.empty(n, dtype=np.int32)
        depth = np.empty(n, dtype=np.int32)
        size = np.empty(n, dtype=np.int32)
        children = np.empty((n, self.words.classes), dtype=np.int32)
        cdef int32_t[::1] g = guess, d = depth, s = size
        cdef int32_t[:, ::1] c = children
        jt_tree_export(self.ptr, &g[0], &d[0], &s[0], &c[0, 0])
        return guess, depth, size, children

    def update(self, v, h, int threads):
        """Re-weight the tree (same rule); it becomes exactly the tree a fresh build gives."""
        cdef _Weights w = _Weights(self.words.size, 0, 0, v, h, 0.0, 0.0)
        cdef int status
        cdef jt_tree *t = self._tree()
        with nogil:
            status = jt_tree_update(t, w.wt.v, w.wt.h, threads)
        _check(status)


def build_tree(Words words not None, int rule, int candidates, v, h, double err_abs,
               double err_rel, int threads):
    """Build the decision tree of a guesser over every target of ``words``."""
    cdef _Weights w = _Weights(words.size, rule, candidates, v, h, err_abs, err_rel)
    cdef int status = JT_OK
    cdef jt_tree *ptr
    with nogil:
        ptr = jt_tree_build(words.ptr, &w.wt, threads, &status)
    _check(status)
    cdef Tree t = Tree.__new__(Tree)
    t.ptr = ptr
    t.words = words
    return t


def class_sizes(Words words not None, const int32_t[::1] targets not None, candidates=None):
    """(R, nc) uint16: targets giving each reply code to each candidate (all words if None)."""
    cdef const int32_t[::1] cand
    cdef const int32_t *cp = NULL
    cdef int32_t nc = words.size
    if candidates is not None:
        cand = candidates
        cp = &cand[0] if cand.shape[0] else NULL
        nc = <int32_t>cand.shape[0]
    if targets.shape[0] == 0 or nc == 0:
        raise ValueError("class sizes need targets and candidates")
    out = np.empty((words.classes, nc), dtype=np.uint16)
    cdef uint16_t[:, ::1] o = out
    cdef int status
    with nogil:
        status = jt_class_sizes(words.ptr, &targets[0], <int32_t>targets.shape[0], cp, nc,
                                &o[0, 0])
    _check(status)
    return out


def decide(Words words not None, int rule, int candidates, v, h, double err_abs,
           double err_rel, const int32_t[::1] state not None):
    """The word guessed at ``state`` (increasing word indices)."""
    cdef _Weights w = _Weights(words.size, rule, candidates, v, h, err_abs, err_rel)
    cdef int status = JT_OK
    cdef int32_t g
    if state.shape[0] == 0:
        raise ValueError("the state holds no word")
    with nogil:
        g = jt_decide(words.ptr, &w.wt, &state[0], <int32_t>state.shape[0], &status)
    _check(status)
    return int(g)


def seq_dot(const double[::1] a not None, const double[::1] b not None):
    """sum_i a_i b_i added left to right in double, each product rounded (the paper's loops in
    Algorithms 10 and 11 taken literally; compiled without contraction into FMA)."""
    if a.shape[0] != b.shape[0]:
        raise ValueError("seq_dot needs vectors of one length")
    cdef double acc = 0.0
    cdef Py_ssize_t i
    for i in range(a.shape[0]):
        acc = acc + a[i] * b[i]
    return acc


def integer_weights(const double[::1] h not None):
    """(v, err): the exact rule's integer weights for float weights h; see jotto_engine.h."""
    if h.shape[0] < 1 or h.shape[0] > JT_MAX_WORDS:
        raise ValueError(f"integer weights need 1 to {JT_MAX_WORDS} float weights, not "
                         f"{h.shape[0]}")
    v = np.empty(h.shape[0], dtype=np.int64)
    cdef int64_t[::1] vv = v
    cdef double err = jt_integer_weights(&h[0], <int32_t>h.shape[0], &vv[0])
    if err < 0:
        raise ValueError("weights must be finite and non-negative")
    return v, err


def set_thresholds(int shared=128, int table=-1, int64_t parallel=-1):
    """Move the size thresholds of the evaluation methods and of parallel work (tests only;
    results never change).  ``table=-1``: each kernel variant's measured rule."""
    jt_set_thresholds(shared, table)
    jt_set_parallel_threshold(parallel)


def openmp_enabled():
    return bool(jt_openmp_enabled())


def max_threads():
    return jt_max_threads()


def isa():
    return jt_isa_name().decode()


def isa_available():
    return jt_isa_available().decode().split(",")


def select_isa(str name):
    if jt_isa_select(name.encode()) != 0:
        raise ValueError(f"kernel variant {name!r} is not available on this CPU "
                         f"(available: {', '.join(isa_available())})")


# ---- C-level API (see _core.pxd) ----------------------------------------------------------------

cdef int reply(uint32_t a, uint32_t b) noexcept nogil:
    return __builtin_popcount(a & b)


cdef int _weights_for(int32_t D, const double *h, int rule, jt_weights *wt,
                      int64_t **vbuf) noexcept nogil:
    wt.rule = rule
    wt.candidates = JT_CAND_ALL
    wt.h = h
    wt.v = NULL
    wt.err_abs = 0.0
    wt.err_rel = 0.0
    vbuf[0] = NULL
    if rule != JT_RULE_PAPER and rule != JT_RULE_EXACT:
        return JT_EINVAL
    if h == NULL:
        return JT_OK
    vbuf[0] = <int64_t *>malloc(sizeof(int64_t) * D)
    if vbuf[0] == NULL:
        return JT_ENOMEM
    wt.err_abs = jt_integer_weights(h, D, vbuf[0])
    if wt.err_abs < 0:
        return JT_EINVAL
    wt.v = vbuf[0]
    if rule == JT_RULE_EXACT:
        wt.h = NULL
        wt.err_abs = 0.0
    return JT_OK


cdef int comp_num_guesses(const uint32_t *masks, int32_t D, int32_t L, const double *h,
                          int rule, int threads, int32_t *out) noexcept nogil:
    cdef jt_weights wt
    cdef int64_t *vbuf
    cdef int status = _weights_for(D, h, rule, &wt, &vbuf)
    cdef jt_words *w = NULL
    cdef jt_tree *t = NULL
    if status == JT_OK:
        w = jt_words_new(masks, D, L)
        if w == NULL:
            status = JT_EINVAL
    if status == JT_OK:
        t = jt_tree_build(w, &wt, threads, &status)
    if t != NULL:
        jt_tree_guess_counts(t, out)
        jt_tree_free(t)
    jt_words_free(w)
    free(vbuf)
    return status


cdef int32_t guesser_gbr(const uint32_t *masks, int32_t D, int32_t L, const double *h,
                         int rule, const int32_t *S, int32_t m) noexcept nogil:
    cdef jt_weights wt
    cdef int64_t *vbuf
    cdef int status = _weights_for(D, h, rule, &wt, &vbuf)
    cdef jt_words *w = NULL
    cdef int32_t g = -1
    if status == JT_OK:
        w = jt_words_new(masks, D, L)
        if w == NULL:
            status = JT_EINVAL
    if status == JT_OK:
        g = jt_decide(w, &wt, S, m, &status)
    jt_words_free(w)
    free(vbuf)
    return g if status == JT_OK else status


# ==== Best responses (search.c, jotto_search.h): the guesser's true best response ===============

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint64_t

cdef extern from "search/jotto_search.h" nogil:
    ctypedef struct jt_bsearch:
        pass
    ctypedef struct jt_bs_pass:
        int32_t top_k
        int32_t full_below
        uint64_t beta
        double seconds
        int64_t max_nodes
        int32_t by_size
        int (*interrupted)(void *ctx) noexcept nogil
        void *ctx
        int32_t threads
        int32_t parallel_from
        const int32_t *targets
        int32_t ntargets
        const int32_t *first_guesses
        int32_t nfirst
    ctypedef struct jt_bs_outcome:
        uint64_t value
        int exact
        int stopped
        uint64_t best
        int32_t best_guess
        int64_t nodes
    uint64_t JT_BS_INF
    int JT_BS_SUBSETS, JT_BS_WEIGHTED_FAMILIES, JT_BS_HARD_FAMILIES, JT_BS_ALL_BOUNDS
    int JT_BS_DEFAULT_BOUNDS
    jt_bsearch *jt_bs_new(const jt_words *words, const int64_t *v, size_t memo_bytes, int *status)
    int32_t jt_bs_classes(const jt_bsearch *s)
    void jt_bs_free(jt_bsearch *s)
    int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_bs_outcome *out)
    uint64_t jt_bs_root_bound(jt_bsearch *s)
    uint64_t jt_bs_lookahead_bound(jt_bsearch *s, const int32_t *S, int32_t m)
    void jt_bs_forget_top_k(jt_bsearch *s)
    int32_t jt_bs_tree_build(jt_bsearch *s, int32_t top_k, int32_t root_guess, uint64_t *total)
    int32_t jt_bs_tree_build_state(jt_bsearch *s, int32_t top_k, const int32_t *T, int32_t mt,
                                   int32_t root_guess, uint64_t *total)
    void jt_bs_tree_export(const jt_bsearch *s, int32_t *guess, int32_t *depth, int32_t *size,
                           int32_t *children)
    void jt_bs_memo_stats(const jt_bsearch *s, int64_t *states, int64_t *bytes)
    void jt_bs_set_bounds(jt_bsearch *s, int32_t bounds)
    int64_t jt_bs_subset_raised(const jt_bsearch *s)
    int jt_bs_cert_open(jt_bsearch *s, const char *path)
    int jt_bs_cert_close(jt_bsearch *s, int64_t *records)

BS_INF = JT_BS_INF
BS_SUBSETS = JT_BS_SUBSETS
BS_WEIGHTED_FAMILIES = JT_BS_WEIGHTED_FAMILIES
BS_HARD_FAMILIES = JT_BS_HARD_FAMILIES
BS_ALL_BOUNDS = JT_BS_ALL_BOUNDS
BS_DEFAULT_BOUNDS = JT_BS_DEFAULT_BOUNDS
BS_STOPS = ("done", "time", "nodes", "interrupted")


cdef int _signalled(void *ctx) noexcept nogil:
    """Poll for Ctrl-C or a cancel: ``ctx`` is (signals, cancel), two lists; the exception a
    pending signal's handler raises (only on the main thread: KeyboardInterrupt for Ctrl-C)
    stops the pass and is kept in ``signals``, for the caller to raise afterwards; anything in
    ``cancel`` (another thread's request) stops it too.  (PyErr_CheckSignals is declared
    ``except -1``: its exception is caught here, or this noexcept function would print and
    drop it, and the pass would go on.)"""
    with gil:
        flags = <tuple>ctx
        if flags[1]:
            return 1
        try:
            PyErr_CheckSignals()
        except BaseException as exc:
            flags[0].append(exc)
            return 1
    return 0


def _state_vector(targets, int size):
    """Increasing word indices below ``size`` as a contiguous int32 vector; ValueError otherwise."""
    idx = np.asarray(targets, dtype=np.int64)
    if idx.ndim != 1 or idx.shape[0] < 1 or idx.min() < 0 or idx.max() >= size or \
            np.any(np.diff(idx) <= 0):
        raise ValueError("a state is at least one increasing word index")
    return np.ascontiguousarray(idx, dtype=np.int32)


cdef class BestResponseSearch:
    """A branch-and-bound search for the guesser's best response over ``words`` (kept alive
    here; its rules, reply codes and hard mode are the search's) to integer weights ``v``; its
    memo (at most ``memo_bytes``) persists across passes.  See jotto_search.h.  Trees have
    ``classes`` children per node, indexed by the rules' reply codes."""

    cdef jt_bsearch *ptr
    cdef readonly Words words
    cdef readonly int size
    cdef readonly int length
    cdef readonly int classes

    def __cinit__(self, Words words not None, const int64_t[::1] v not None, size_t memo_bytes):
        cdef int status = JT_OK
        if v.shape[0] != words.size:
            raise ValueError("one weight per word is needed")
        self.words = words
        self.ptr = jt_bs_new(words.ptr, &v[0], memo_bytes, &status)
        _check(status)
        self.size = words.size
        self.length = words.length
        self.classes = jt_bs_classes(self.ptr)

    def __dealloc__(self):
        if self.ptr != NULL:
            jt_bs_free(self.ptr)

    def run(self, int top_k, beta, double seconds, long long nodes, bint by_size=False,
            list cancel=None, int full_below=0, int threads=1, int parallel_from=0,
            targets=None, first_guesses=None):
        """One pass: (value, exact, stop reason, best root total or None, its guess, nodes).
        A pass stops ("interrupted") once ``cancel`` is not empty: another thread may ask it.
        Top-K passes search states of at most ``full_below`` targets over every guess.  The
        pass runs on ``threads`` threads if it has at least ``parallel_from`` targets (0: the
        core's default, 128); exact values and trees are the same on any number.
        ``targets`` (increasing word indices, at least one; None: every word) is the state searched, and
        ``first_guesses`` (word indices; None: any) the words its trees may start with: the
        value is then the best such tree's, ``BS_INF`` if none narrows the state down (see
        jt_bs_pass), and the guess returned is one of them."""
        cdef jt_bs_pass p
        cdef jt_bs_outcome o
        cdef int status
        cdef const int32_t[::1] T, G
        memset(&p, 0, sizeof(p))
        if targets is not None:
            T = _state_vector(targets, self.size)
            p.targets = &T[0]
            p.ntargets = <int32_t>T.shape[0]
        if first_guesses is not None:
            gi = np.asarray(first_guesses, dtype=np.int64).reshape(-1)
            if gi.shape[0] == 0 or gi.min() < 0 or gi.max() >= self.size:
                raise ValueError("first_guesses are word indices, at least one")
            G = np.ascontiguousarray(gi, dtype=np.int32)
            p.first_guesses = &G[0]
            p.nfirst = <int32_t>G.shape[0]
        flag = []
        ctx = (flag, [] if cancel is None else cancel)
        p.top_k = top_k
        p.full_below = full_below
        p.beta = <uint64_t>min(int(beta), JT_BS_INF)
        p.seconds = seconds
        p.max_nodes = nodes
        p.by_size = by_size
        p.interrupted = _signalled
        p.ctx = <void *>ctx
        p.threads = threads
        p.parallel_from = parallel_from
        with nogil:
            status = jt_bs_run(self.ptr, &p, &o)
        if flag:
            raise flag[0]
        _check(status)
        best = None if o.best == JT_BS_INF else int(o.best)
        return (int(o.value), bool(o.exact), BS_STOPS[o.stopped], best, int(o.best_guess),
                int(o.nodes))

    def certificate_open(self, path):
        """Append every bound the full search proves from now on to the file ``path`` as a
        certificate's records (search_certificate.c); ValueError if one is open or the file
        cannot be made."""
        cdef bytes p = os.fsencode(path)
        _check(jt_bs_cert_open(self.ptr, p))

    def certificate_close(self):
        """End the record stream; the records written.  ValueError if a write failed."""
        cdef int64_t records = 0
        cdef int status
        with nogil:
            status = jt_bs_cert_close(self.ptr, &records)
        _check(status)
        return int(records)

    def forget_top_k(self):
        """Free the memo of top-K passes."""
        jt_bs_forget_top_k(self.ptr)

    def root_bound(self):
        """The counting bound at the root after one split (no search)."""
        cdef uint64_t b
        with nogil:
            b = jt_bs_root_bound(self.ptr)
        return int(b)

    def lookahead_bound(self, targets):
        """The lookahead bound of the state of ``targets`` (at least 3 increasing word indices of
        positive weight): W + min_g sum_j B(S_j), B the counting bound of each class, or its
        family bound (paper words; see search_families.c); no search."""
        idx = np.asarray(targets, dtype=np.int64)
        if idx.ndim != 1 or idx.shape[0] < 3 or idx.min() < 0 or idx.max() >= self.size or \
                np.any(np.diff(idx) <= 0):
            raise ValueError("lookahead_bound needs at least 3 increasing word indices")
        cdef const int32_t[::1] S = idx.astype(np.int32)
        cdef int32_t m = S.shape[0]
        cdef uint64_t b
        with nogil:
            b = jt_bs_lookahead_bound(self.ptr, &S[0], m)
        return int(b)

    def tree(self, int top_k, int root_guess, targets=None):
        """(total, guess, depth, size, children) of the tree the memo of mode ``top_k`` holds,
        for every word or the state ``targets`` (increasing word indices, at least one), first
        guess ``root_guess`` (-1: the memo's)."""
        cdef uint64_t total = 0
        cdef int32_t n
        cdef const int32_t[::1] T
        if targets is None:
            with nogil:
                n = jt_bs_tree_build(self.ptr, top_k, root_guess, &total)
        else:
            T = _state_vector(targets, self.size)
            with nogil:
                n = jt_bs_tree_build_state(self.ptr, top_k, &T[0], <int32_t>T.shape[0],
                                           root_guess, &total)
        _check(n if n < 0 else JT_OK)
        guess = np.empty(n, dtype=np.int32)
        depth = np.empty(n, dtype=np.int32)
        size = np.empty(n, dtype=np.int32)
        children = np.empty((n, self.classes), dtype=np.int32)
        cdef int32_t[::1] g = guess, d = depth, s = size
        cdef int32_t[:, ::1] c = children
        jt_bs_tree_export(self.ptr, &g[0], &d[0], &s[0], &c[0, 0])
        return int(total), guess, depth, size, children

    def memo_stats(self):
        """(states stored, bytes used) of the memo."""
        cdef int64_t states = 0, used = 0
        jt_bs_memo_stats(self.ptr, &states, &used)
        return int(states), int(used)

    def set_bounds(self, int bounds):
        """Use the optional bounds flagged in ``bounds`` (``BS_SUBSETS``,
        ``BS_WEIGHTED_FAMILIES``, ``BS_HARD_FAMILIES``; ``BS_DEFAULT_BOUNDS`` until set): they
        change the states a proof takes, never a value (jotto_search.h)."""
        jt_bs_set_bounds(self.ptr, bounds)

    def subset_raised(self):
        """States whose bound the subset bound raised, over the search's life."""
        return int(jt_bs_subset_raised(self.ptr))


# ==== Cost searches (search_cost.h): best responses for any non-decreasing cost vector ==========

cdef extern from "search/search_cost.h" nogil:
    ctypedef struct jt_costs:
        const uint64_t *c
        int32_t K
        uint64_t tail
    ctypedef struct jt_csearch:
        pass
    ctypedef struct jt_cs_pass:
        uint64_t beta
        double seconds
        int64_t max_nodes
        int (*interrupted)(void *ctx) noexcept nogil
        void *ctx
    ctypedef struct jt_cs_outcome:
        uint64_t value
        int exact
        int stopped
        uint64_t best
        int32_t best_guess
        int64_t nodes
    ctypedef struct jt_cg_params:
        int32_t levels
        int32_t width
        double seconds
    ctypedef struct jt_cg_info:
        double score
        int complete
        int64_t pairs
    uint64_t JT_CS_INF
    jt_csearch *jt_cs_new(const jt_words *w, const int64_t *v, const jt_costs *costs,
                          size_t memo_bytes, int *status)
    void jt_cs_free(jt_csearch *s)
    int jt_cs_run(jt_csearch *s, const jt_cs_pass *p, const int32_t *S, int32_t m, int32_t t,
                  jt_cs_outcome *out)
    uint64_t jt_cs_root_bound(jt_csearch *s)
    int jt_cs_solve(jt_csearch *s, const int32_t *S, int32_t m, int32_t t, uint64_t *value,
                    int32_t *guess)
    void jt_cs_memo_stats(const jt_csearch *s, int64_t *states, int64_t *bytes)
    int32_t jt_cg_decide(const jt_words *w, const int64_t *v, const double *c,
                         int32_t K, double tail, int32_t t, const int32_t *S, int32_t m,
                         const jt_cg_params *p, jt_cg_info *info)

CS_INF = JT_CS_INF


cdef class CostSearch:
    """The exact search for the tree minimising ``sum_i v_i c(depth_i)`` (search_cost.h) over
    ``words`` (kept alive here; its rules and hard mode are the search's) with integer weights
    ``v``, integer costs ``costs`` (c(1..K), non-decreasing) continued by ``tail`` per depth; its
    memo (at most ``memo_bytes``) persists across calls.
    The caller guarantees ``sum(v) * c(D + 1) < 2**63``."""

    cdef jt_csearch *ptr
    cdef readonly Words words

    def __cinit__(self, Words words not None, const int64_t[::1] v not None, costs,
                  uint64_t tail, size_t memo_bytes):
        cdef int status = JT_OK
        cdef const uint64_t[::1] c = np.ascontiguousarray(costs, dtype=np.uint64)
        cdef jt_costs jc
        if v.shape[0] != words.size:
            raise ValueError("one weight per word is needed")
        if c.shape[0] < 1:
            raise ValueError("a cost vector needs at least one entry")
        jc.c = &c[0]
        jc.K = <int32_t>c.shape[0]
        jc.tail = tail
        self.words = words
        self.ptr = jt_cs_new(words.ptr, &v[0], &jc, memo_bytes, &status)
        _check(status)

    def __dealloc__(self):
        if self.ptr != NULL:
            jt_cs_free(self.ptr)

    def run(self, beta, double seconds, long long nodes, list cancel=None, targets=None,
            int depth=0):
        """One pass at the root, or at the state ``targets`` after ``depth`` guesses (as
        :meth:`solve` takes them): (value, exact, stop reason, best total completed there or
        None, its first guess, nodes); it stops ("interrupted") once ``cancel`` is not empty or
        on Ctrl-C."""
        cdef jt_cs_pass p
        cdef jt_cs_outcome o
        cdef int status
        cdef const int32_t[::1] S
        cdef const int32_t *sp = NULL
        cdef int32_t m = 0
        if targets is not None:
            S = _state_vector(targets, self.words.size)
            sp = &S[0]
            m = <int32_t>S.shape[0]
        flag = []
        ctx = (flag, [] if cancel is None else cancel)
        p.beta = <uint64_t>min(int(beta), JT_CS_INF)
        p.seconds = seconds
        p.max_nodes = nodes
        p.interrupted = _signalled
        p.ctx = <void *>ctx
        with nogil:
            status = jt_cs_run(self.ptr, &p, sp, m, depth, &o)
        if flag:
            raise flag[0]
        _check(status)
        best = None if o.best == JT_CS_INF else int(o.best)
        return (int(o.value), bool(o.exact), BS_STOPS[o.stopped], best, int(o.best_guess),
                int(o.nodes))

    def root_bound(self):
        """The counting bound at the root (no search)."""
        cdef uint64_t b
        with nogil:
            b = jt_cs_root_bound(self.ptr)
        return int(b)

    def solve(self, targets, int depth):
        """(exact value, a best first guess) of the state ``targets`` (increasing word indices;
        outside hard mode of positive weight) after ``depth`` guesses (at most D - len(targets):
        each guess leaves fewer targets): from the memo, or solved without budget."""
        cdef const int32_t[::1] S = _state_vector(targets, self.words.size)
        cdef uint64_t value = 0
        cdef int32_t guess = -1
        cdef int status
        if depth < 0:
            raise ValueError("depth must be >= 0")
        with nogil:
            status = jt_cs_solve(self.ptr, &S[0], <int32_t>S.shape[0], depth, &value, &guess)
        _check(status)
        return int(value), int(guess)

    def memo_stats(self):
        """(states stored, bytes used) of the memo."""
        cdef int64_t states = 0, used = 0
        jt_cs_memo_stats(self.ptr, &states, &used)
        return int(states), int(used)


def cost_decide(Words words not None, const int64_t[::1] v not None, costs, double tail,
                int depth, targets, int levels, int width, double seconds):
    """The heuristic guess (greedy_cost.c) at state ``targets`` after ``depth`` guesses, for
    weights ``v`` and costs c(1..K) (floats, non-decreasing) continued by ``tail``:
    (guess, score, every level finished, replies computed)."""
    cdef const int32_t[::1] S = _state_vector(targets, words.size)
    cdef const double[::1] c = np.ascontiguousarray(costs, dtype=np.float64)
    cdef jt_cg_params p
    cdef jt_cg_info info
    cdef int32_t g
    if v.shape[0] != words.size:
        raise ValueError("one weight per word is needed")
    if c.shape[0] < 1:
        raise ValueError("a cost vector needs at least one entry")
    p.levels = levels
    p.width = width
    p.seconds = seconds
    with nogil:
        g = jt_cg_decide(words.ptr, &v[0], &c[0], <int32_t>c.shape[0], tail, depth,
                         &S[0], <int32_t>S.shape[0], &p, &info)
    if g < 0:
        _check(g)
    return int(g), float(info.score), bool(info.complete), int(info.pairs)
