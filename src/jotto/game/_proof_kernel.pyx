# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The certificate checker's compiled twin (proof_kernel.c): the records' keys, the table of
verified bounds and the check of one state, in C.  Private: jotto.game.proof_check is its one
caller, and gives it the arrays of its ``_Game`` (the word list's replies, the weights, the
tables of the definitions).  It shares no code with the search (src/jotto/_engine)."""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

cdef extern from "proof_kernel.h" nogil:
    int CK_OK, CK_SHORT, CK_NO_GUESS, CK_SMALL_SHORT, CK_NOMEM
    ctypedef struct ck_game:
        int32_t D, L, R, win, B, hard, families
        const uint8_t *reply
        const int64_t *v
        const int64_t *masks
        const int64_t *letter_bits
        const uint64_t *z0
        const uint64_t *z1
        const int64_t *N
        int32_t NK
        const int64_t *cb
        const int64_t *depth
        const int64_t *phi
        const int64_t *psi
        const int64_t *alone
        int32_t K, S
        int track
        int64_t *used
        int64_t nused
    ctypedef struct ck_failure:
        int32_t guess
        int64_t total
        int64_t cnt[256]
        int64_t bound[256]
        int8_t how[256]
    int ck_init(ck_game *G)
    void ck_free(ck_game *G)
    void ck_key(const ck_game *G, const int32_t *idx, int32_t m, uint64_t *a, uint64_t *b)
    int64_t ck_get(const ck_game *G, uint64_t a, uint64_t b, int64_t *rec)
    int ck_put(ck_game *G, uint64_t a, uint64_t b, int64_t v, int64_t rec)
    int64_t ck_used_unique(ck_game *G)
    int ck_verify(ck_game *G, const int32_t *idx, int32_t m, int64_t claim, int32_t only,
                  ck_failure *out)


cdef class Kernel:
    """The compiled checker of one check: ``record`` enters (and with ``check`` verifies) each
    record in the file's order, ``known`` and ``verify`` serve the root."""

    cdef ck_game g
    cdef ck_failure f
    cdef int32_t *buf
    cdef list keep

    def __cinit__(self, game, tables, bint track=False):
        """``game``: a proof_check._Game; ``tables``: its (N, phi, psi, alone) as int64 arrays,
        the last rows of phi and psi finding every member; ``track``: keep the numbers of the
        records each check uses (:meth:`used`)."""
        N, phi, psi, alone = tables
        arrays = [np.ascontiguousarray(a) for a in (
            game.reply, game.v, game.masks, game.letter_bits, game.z0, game.z1, N,
            game.cb_array, game.depth, phi, psi, alone)]
        self.keep = arrays
        cdef const uint8_t[:, ::1] reply = arrays[0]
        cdef const int64_t[::1] v = arrays[1]
        cdef const int64_t[::1] masks = arrays[2]
        cdef const int64_t[:, ::1] bits = arrays[3]
        cdef const uint64_t[::1] z0 = arrays[4]
        cdef const uint64_t[::1] z1 = arrays[5]
        cdef const int64_t[::1] n_k = arrays[6]
        cdef const int64_t[::1] cb = arrays[7]
        cdef const int64_t[::1] depth = arrays[8]
        cdef const int64_t[:, ::1] ph = arrays[9]
        cdef const int64_t[:, ::1] ps = arrays[10]
        cdef const int64_t[::1] al = arrays[11]
        self.g.D, self.g.L, self.g.R, self.g.win = game.D, game.L, game.R, game.win
        self.g.B, self.g.hard, self.g.families = game.B, game.hard, game.families
        self.g.reply, self.g.v, self.g.masks = &reply[0, 0], &v[0], &masks[0]
        self.g.letter_bits, self.g.z0, self.g.z1 = &bits[0, 0], &z0[0], &z1[0]
        self.g.N, self.g.NK = &n_k[0], n_k.shape[0]
        self.g.cb, self.g.depth = &cb[0], &depth[0]
        self.g.phi, self.g.psi, self.g.alone = &ph[0, 0], &ps[0, 0], &al[0]
        self.g.K, self.g.S = ph.shape[0], ph.shape[1]
        self.g.track = track
        self.buf = <int32_t *>malloc(max(game.D, 1) * sizeof(int32_t))
        if self.buf == NULL or ck_init(&self.g):
            raise MemoryError("the checker's tables")

    def __dealloc__(self):
        ck_free(&self.g)
        free(self.buf)

    cdef int32_t _load(self, const int64_t[::1] idx):
        cdef Py_ssize_t t
        for t in range(idx.shape[0]):
            self.buf[t] = <int32_t>idx[t]
        return <int32_t>idx.shape[0]

    def record(self, const int64_t[::1] idx, int64_t bound, bint check, int64_t number=0):
        """Enter the record ``number`` (idx, bound) unless a bound as high is known for its
        set (then False); with ``check``, verify it first.  True if entered, else ``verify``'s
        failure."""
        cdef uint64_t a, b
        cdef int32_t m = self._load(idx)
        cdef int code
        ck_key(&self.g, self.buf, m, &a, &b)
        if ck_get(&self.g, a, b, NULL) >= bound:
            return False
        if check:
            with nogil:
                code = ck_verify(&self.g, self.buf, m, bound, -1, &self.f)
            if code != CK_OK:
                return self._failure(code)
        if ck_put(&self.g, a, b, bound, number):
            raise MemoryError("the checker's table of bounds")
        return True

    def known(self, const int64_t[::1] idx):
        """The bound known for the set idx (-1: none) and the number of its record."""
        cdef uint64_t a, b
        cdef int64_t rec = -1
        cdef int32_t m = self._load(idx)
        ck_key(&self.g, self.buf, m, &a, &b)
        return ck_get(&self.g, a, b, &rec), rec

    def used(self):
        """The numbers of the records the last check used (with ``track``), increasing."""
        cdef int64_t n = ck_used_unique(&self.g)
        return [self.g.used[i] for i in range(n)]

    def verify(self, const int64_t[::1] idx, int64_t claim, only):
        """None if F(idx) >= claim (with ``only``, a word: of the trees opening with it), else
        the failure: ``(code, guess, total, cnt, bound, how)``."""
        cdef int32_t m = self._load(idx)
        cdef int32_t o = -1 if only is None else only
        cdef int code
        with nogil:
            code = ck_verify(&self.g, self.buf, m, claim, o, &self.f)
        return None if code == CK_OK else self._failure(code)

    cdef tuple _failure(self, int code):
        cdef int V = self.g.win
        if code == CK_NOMEM:
            raise MemoryError("the checker's list of the records used")
        name = {CK_SHORT: "short", CK_NO_GUESS: "no guess", CK_SMALL_SHORT: "small"}[code]
        return (name, self.f.guess, self.f.total, [self.f.cnt[r] for r in range(V)],
                [self.f.bound[r] for r in range(V)], [self.f.how[r] for r in range(V)])


def encode_record(const int64_t[::1] idx, int64_t bound, bytearray out):
    """Append the record (idx, bound) to ``out`` as the format writes it (docs/certificates.md:
    varints of m, the bound, the indices' gaps), for certificates the checker rewrites."""
    cdef Py_ssize_t t
    cdef int64_t last = -1
    _varint(out, idx.shape[0])
    _varint(out, bound)
    for t in range(idx.shape[0]):
        _varint(out, idx[t] - last - 1)
        last = idx[t]


cdef inline void _varint(bytearray out, uint64_t x):
    while x >= 0x80:
        out.append(<uint8_t>(x | 0x80))
        x >>= 7
    out.append(<uint8_t>x)
