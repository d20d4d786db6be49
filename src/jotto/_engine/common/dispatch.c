/* dispatch.c -- choose the kernel variant for this CPU (like NumPy's and RapidFuzz's dispatch):
 * the wheel stays portable, the hot loops still get POPCNT, AVX2, AVX-512 or NEON where present.
 * The environment variable JOTTO_KERNEL=<name> picks a variant by name (for tests and
 * benchmarks) when the CPU runs it. */
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#endif

#include "engine_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
    const char *name;
    const jt_kernels *(*get)(void);
    int (*supported)(void);
} jt_variant;

static int always(void) { return 1; }

#if defined(__x86_64__) && defined(__GNUC__)
#if defined(__clang__) || (__GNUC__ < 12)
/* Compilers without the level names in __builtin_cpu_supports: check the defining features. */
static int has_v2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("sse4.2") &&
           __builtin_cpu_supports("ssse3");
}
static int has_v3(void)
{
    return has_v2() && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma");
}
static int has_v4(void)
{
    return has_v3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bitalg");
}
#else
static int has_v2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v2");
}
static int has_v3(void) { return has_v2() && __builtin_cpu_supports("x86-64-v3"); }
static int has_v4(void)
{
    /* x86-64-v4 plus the byte shuffle and byte popcount of the bit-sliced kernel (Ice Lake,
     * Sapphire Rapids, Zen 4 and later; Skylake-X gets v3) */
    return has_v3() && __builtin_cpu_supports("x86-64-v4") &&
           __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vbmi") &&
           __builtin_cpu_supports("avx512bitalg");
}
#endif
#endif

#if defined(__aarch64__)
static int has_neon(void)
{
#if defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
#else
    return 1; /* Advanced SIMD is part of every AArch64 CPU the compilers target */
#endif
}
#endif

/* Worst first. */
static const jt_variant VARIANTS[] = {
    {"base", jt_kernels_base, always},
#if defined(JT_HAVE_v2) && defined(__x86_64__)
    {"v2", jt_kernels_v2, has_v2},
#endif
#if defined(JT_HAVE_v3) && defined(__x86_64__)
    {"v3", jt_kernels_v3, has_v3},
#endif
#if defined(JT_HAVE_v4) && defined(__x86_64__)
    {"v4", jt_kernels_v4, has_v4},
#endif
#if defined(JT_HAVE_neon) && defined(__aarch64__)
    {"neon", jt_kernels_neon, has_neon},
#endif
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof VARIANTS[0]))

static const jt_kernels *current = NULL;
static char available[64];

static int select_variant(const char *name);

static void init(void)
{
    if (current)
        return;
    const jt_kernels *best = NULL;
    available[0] = 0;
    for (int i = 0; i < NVARIANTS; i++) {
        if (!VARIANTS[i].supported())
            continue;
        best = VARIANTS[i].get();
        if (available[0])
            strcat(available, ",");
        strcat(available, VARIANTS[i].name);
    }
    const char *forced = getenv("JOTTO_KERNEL");
    current = best;
    if (forced && *forced)
        select_variant(forced); /* unknown names leave the best; runtime.py warns */
}

const jt_kernels *jt_kernels_current(void)
{
    init();
    return current;
}

const char *jt_isa_name(void) { return jt_kernels_current()->name; }

const char *jt_isa_available(void)
{
    init();
    return available;
}

int jt_isa_select(const char *name)
{
    init();
    return select_variant(name);
}

static int select_variant(const char *name)
{
    for (int i = 0; i < NVARIANTS; i++) {
        if (strcmp(VARIANTS[i].name, name) == 0 && VARIANTS[i].supported()) {
            current = VARIANTS[i].get();
            return 0;
        }
    }
    return -1;
}

int jt_openmp_enabled(void)
{
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

int jt_max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}
