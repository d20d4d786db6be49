# The engine's tree/ folder (tree*.c, node_eval.c, decision_rules.c) as _core.pyx wraps it: the
# decision trees of GuesserGBR and the other decision rules, one decision, class sizes, and the
# C-level comp_num_guesses() and guesser_gbr() of _core.pxd.  Included by _core.pyx after
# common/common.pxi, whose Words it takes.

cdef extern from "common/jotto_engine.h" nogil:
    ctypedef struct jt_tree:
        pass
    ctypedef struct jt_weights:
        int rule
        int candidates
        const int64_t *v
        const double *h
        double err_abs
        double err_rel
    int JT_RULE_PAPER, JT_RULE_EXACT, JT_RULE_NORVIG_MAX, JT_RULE_NORVIG_EXPECTATION
    int JT_RULE_NORVIG_ENTROPY, JT_CAND_ALL, JT_CAND_CONSISTENT, JT_CAND_NORVIG

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
    void jt_set_alternates(int64_t room, int64_t stale)

RULE_PAPER = JT_RULE_PAPER
RULE_EXACT = JT_RULE_EXACT
RULE_NORVIG_MAX = JT_RULE_NORVIG_MAX
RULE_NORVIG_EXPECTATION = JT_RULE_NORVIG_EXPECTATION
RULE_NORVIG_ENTROPY = JT_RULE_NORVIG_ENTROPY
CAND_ALL = JT_CAND_ALL
CAND_CONSISTENT = JT_CAND_CONSISTENT
CAND_NORVIG = JT_CAND_NORVIG
MAX_WORDS = JT_MAX_WORDS


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


def set_thresholds(int shared=128, int table=-1, int64_t parallel=-1, int64_t alt_room=-1,
                   int64_t alt_stale=-1):
    """Move the size thresholds of the evaluation methods, of parallel work and of the subtrees
    updates keep for guesses that come back (tests only; results never change).  ``table=-1``:
    each kernel variant's measured rule; ``-1`` elsewhere: the defaults."""
    jt_set_thresholds(shared, table)
    jt_set_parallel_threshold(parallel)
    jt_set_alternates(alt_room, alt_stale)


# ---- C-level API (see _core.pxd) ----

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
