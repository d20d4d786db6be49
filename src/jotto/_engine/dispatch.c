/* dispatch.c -- choose the kernel variant for this CPU (like NumPy's and RapidFuzz's dispatch):
 * the wheel stays portable, the hot loops still get POPCNT, AVX2 or AVX-512 where present. */
#include <string.h>

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
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq");
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
    return has_v3() && __builtin_cpu_supports("x86-64-v4") &&
           __builtin_cpu_supports("avx512vpopcntdq");
}
#endif
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
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof VARIANTS[0]))

static const jt_kernels *current = NULL;
static char available[64];

static void init(void)
{
    if (current)
        return;
    available[0] = 0;
    for (int i = 0; i < NVARIANTS; i++) {
        if (!VARIANTS[i].supported())
            continue;
        current = VARIANTS[i].get();
        if (available[0])
            strcat(available, ",");
        strcat(available, VARIANTS[i].name);
    }
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
