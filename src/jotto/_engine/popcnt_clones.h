/* popcnt_clones.h -- POPCNT_CLONES: compile a function twice, for CPUs with the popcnt
 * instruction and without, the loader picking one once (an ifunc).  The engine's files outside
 * the per-level kernels target plain x86-64, where __builtin_popcount is a library call or a
 * multiply-and-shift sequence; the functions that compute replies in loops (the search's splits
 * of a state by every word, class weights and keys, member bounds and memo look-ups; the paper
 * rule's window of distinct replies) carry it.  Always-inline helpers are compiled into each
 * clone.  ifuncs need glibc (musl has none), hence the __GLIBC__ test (features.h defines it,
 * through any standard header).  -DPOPCNT_CLONES= turns them off (ThreadSanitizer's runtime is
 * not up yet when the loader calls an ifunc's resolver: tests/c/tsan_search.c). */
#ifndef JOTTO_POPCNT_CLONES_H
#define JOTTO_POPCNT_CLONES_H

#include <stdint.h>

#if !defined(POPCNT_CLONES) && defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && \
    defined(__has_attribute)
#if __has_attribute(target_clones)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef POPCNT_CLONES
#define POPCNT_CLONES
#endif

#endif
