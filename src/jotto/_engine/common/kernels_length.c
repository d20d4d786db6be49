/* kernels_length.c -- the sweeps of one instruction-set level (JT_KERNEL_SUFFIX) for one word
 * length (JT_LEN: one of JT_KERNEL_LENGTHS, the length a constant; 0: any other length), which
 * kernels.c's table calls by the word list's length.  CMake compiles this file once per level and
 * length (kernels.h lays the kernel sources out). */
#ifndef JT_LEN
#error "JT_LEN (the word length, or 0 for any) must be defined"
#endif

#if !JT_LEN && defined(__GNUC__) && !defined(__clang__)
/* The length known only at run time, gcc cannot follow the sweeps' class counters through their
 * loops over 1..L (each written before it is read) and warns that they may not be, in some
 * levels and not others as its inlining goes. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "kernels_sweeps.h"

#if JT_LEN
#define LENGTH JT_LEN
#define NAME JT_LEN
#else
#define LENGTH any_length(ev)
#define NAME 0
/* The list's length, 1 .. JT_MAX_LEN as jt_words_new checks: said so, the compiler knows that
 * the class arrays it indexes by L hold what the loops from 1 to L wrote. */
static inline int any_length(const jt_eval *ev)
{
    const int L = ev->w->L;
    if (L < 1 || L > JT_MAX_LEN)
        __builtin_unreachable();
    return L;
}
#endif

JT_DECLARE_LENGTH(NAME)

void JT_LEN_FN(evaluate, JT_KERNEL_SUFFIX, NAME)(const jt_eval *ev, int32_t c0, int32_t c1)
{
#if !JT_LEN && !JT_VECTOR
    /* The scalar level's sweeps for any length took 2.4x the time of 2-letter ones on a 2-letter
     * tree (45 us against 19, TWL06's 51 words); the vector levels' 1.1-1.25x (14-16 us against
     * 13).  So the scalar level alone keeps a 2-letter copy here: 1.5 s more of its unit's
     * compile, where 2-letter units for every level cost every build 45 s (kernels.h). */
    if (ev->w->L == 2) {
        evaluate_len(ev, c0, c1, 2);
        return;
    }
#endif
    evaluate_len(ev, c0, c1, LENGTH);
}

void JT_LEN_FN(tokens, JT_KERNEL_SUFFIX, NAME)(const jt_eval *ev, int32_t c0, int32_t c1)
{
    tokens_len(ev, c0, c1, LENGTH);
}

void JT_LEN_FN(place, JT_KERNEL_SUFFIX, NAME)(const jt_eval *ev, int32_t c0, int32_t c1)
{
    place_len(ev, c0, c1, LENGTH);
}

#if !JT_LEN
int JT_CAT(jt_letter_tables_, JT_KERNEL_SUFFIX)(const jt_eval *ev, void *buf)
{
    return letter_tables(ev, buf);
}
#endif
