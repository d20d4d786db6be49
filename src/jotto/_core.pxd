# cython: language_level=3
"""C-level kernels of jotto for other Cython projects: ``from jotto._core cimport ...``.

Every function is ``nogil`` and takes plain C arrays.  Masks are 26-bit letter sets (bit k is the
letter ``'a' + k``), all of popcount ``L``, distinct.  ``rule`` is 0 (paper) or 1 (exact).
``v`` and ``h`` may be NULL: the uniform hider.  ``h`` (float weights) are converted with the
exact rule's documented conversion (``jotto.integer_weights``).  The functions return a negative
status on bad input or lack of memory (-2: invalid, -1: out of memory); ``jotto`` must be importable
at run time, since the functions live in its extension module.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t

cdef int reply(uint32_t a, uint32_t b) noexcept nogil
cdef int comp_num_guesses(const uint32_t *masks, int32_t D, int32_t L, const double *h,
                          int rule, int threads, int32_t *out) noexcept nogil
cdef int32_t guesser_gbr(const uint32_t *masks, int32_t D, int32_t L, const double *h,
                         int rule, const int32_t *S, int32_t m) noexcept nogil
