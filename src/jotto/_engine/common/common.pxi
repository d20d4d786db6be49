# The engine's common/ folder (words.c, dispatch.c) as _core.pyx wraps it: word lists with their
# rules (Words, the one object every entry point reads them from), the kernel variants, and the
# C-level reply() of _core.pxd.  Included by _core.pyx, so that the engine stays one module.

cdef extern from "common/jotto_engine.h" nogil:
    ctypedef struct jt_words:
        pass
    int JT_OK, JT_ENOMEM, JT_EINVAL, JT_MAX_WORDS, JT_MAX_LEN
    int JT_KEEP_ALL, JT_POSITIONAL, JT_HARD

    double jt_integer_weights(const double *h, int32_t D, int64_t *v)
    jt_words *jt_words_new(const uint32_t *masks, int32_t D, int32_t L)
    jt_words *jt_words_new_rules(const uint64_t *tokens, const uint64_t *spell, int32_t D,
                                 int32_t L, int flags)
    int32_t jt_words_classes(const jt_words *w)
    int32_t jt_words_win(const jt_words *w)
    int32_t jt_words_branches(const jt_words *w)
    void jt_words_free(jt_words *w)
    int jt_openmp_enabled()
    int jt_max_threads()
    const char *jt_isa_name()
    const char *jt_isa_available()
    int jt_isa_select(const char *name)

cdef extern from *:
    int __builtin_popcount(unsigned int x) nogil

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


def _vector(x, dtype, Py_ssize_t n, str what):
    """x as a contiguous vector of n entries of dtype; ValueError naming it otherwise (the C
    core reads exactly n entries)."""
    arr = np.ascontiguousarray(x, dtype=dtype)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{what} must be a vector of {n} entries (one per word), not shape "
                         f"{arr.shape}")
    return arr


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


# ---- C-level API (see _core.pxd; the tree's part is in tree/tree.pxi) ----

cdef int reply(uint32_t a, uint32_t b) noexcept nogil:
    return __builtin_popcount(a & b)
