# The engine's search/ folder as _core.pyx wraps it: the guesser's true best response by branch
# and bound (search*.c, jotto_search.h) and the cost search (search_cost*.c, search_cost.h).
# Included by _core.pyx after common/common.pxi and tree/tree.pxi.
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport UINT64_MAX, uint64_t

cdef extern from "search/search_outcome.h" nogil:
    ctypedef struct jt_outcome:
        uint64_t value
        int exact
        int stopped
        uint64_t best
        int32_t best_guess
        int64_t nodes

STOPS = ("done", "time", "nodes", "interrupted")


cdef tuple _outcome(jt_outcome o):
    """A pass's outcome as the searches' ``run`` return it: (value, exact, stop reason, best
    root total or None, its guess, nodes)."""
    best = None if o.best == UINT64_MAX else int(o.best)
    return (int(o.value), bool(o.exact), STOPS[o.stopped], best, int(o.best_guess),
            int(o.nodes))


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
    uint64_t JT_BS_INF
    int JT_BS_SUBSETS, JT_BS_WEIGHTED_FAMILIES, JT_BS_HARD_FAMILIES, JT_BS_ALL_BOUNDS
    int JT_BS_DEFAULT_BOUNDS
    jt_bsearch *jt_bs_new(const jt_words *words, const int64_t *v, size_t memo_bytes, int *status)
    int32_t jt_bs_classes(const jt_bsearch *s)
    void jt_bs_free(jt_bsearch *s)
    int jt_bs_run(jt_bsearch *s, const jt_bs_pass *p, jt_outcome *out)
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
        cdef jt_outcome o
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
        return _outcome(o)

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
                  jt_outcome *out)
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
        cdef jt_outcome o
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
        return _outcome(o)

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
