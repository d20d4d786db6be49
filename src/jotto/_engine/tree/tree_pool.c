/* tree_pool.c -- a tree's recycled memory: node records and state arrays (a node's S, kept by
 * the memo after the node leaves) are carved from slabs and go back to free lists by size, so
 * the thousands of nodes an update of fictitious play drops and grows again never reach malloc.
 * (They did: with glibc every large allocation of a big node then also consolidated the small
 * chunks freed in between, and malloc and free took some 15 % of a solve.)
 *
 * Threads.  Nodes and states are made inside parallel tasks but freed only outside them (an
 * update drops subtrees before it grows any), so each thread allocates from a pool of its own,
 * and a block freed outside an active parallel region goes to the pool with the fewest free
 * blocks of its class; inside one, to the freeing thread's pool, which no other thread touches.
 * A state's class follows from its size, which its owner knows (the node's or the memo entry's
 * m), so freeing one reads nothing of it; states of more than JT_POOL_MAX words come from malloc.
 *
 * Node records and states are carved from slabs of their own, so that a tree's end reads the
 * node records slab by slab (jt_pools_each_node), not down the tree: a block on a free list has
 * FREE set in its class, and each slab's carved end is kept.  Walking the tree's few thousand
 * nodes took 45 us, most of it mispredicted branches, all of it serial: 2-3 % of building a tree
 * on two threads; the scan takes a tenth of that. */
#include <stdlib.h>
#include <string.h>

#include "tree_internal.h"

/* Under AddressSanitizer a free block and a slab's unused end are poisoned, so that a use after
 * a node or state went back to its pool is reported as a use after free would be. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define SLAB_BYTES (64 * 1024)
#define NODE_CLASS JT_POOL_CLASSES        /* the class of node records */

typedef struct block_head {
    struct block_head *next; /* the next free block of its overflow list, while there */
    uint32_t cls;            /* its class, with FREE while free */
    uint32_t pad;            /* (16 bytes keep the blocks aligned) */
} block_head;
#define FREE 0x80000000u

/* Slabs of one kind of block (states, or node records). */
typedef struct {
    char *cur;                        /* the unused end of the newest slab */
    size_t left;
    char **slabs, **ends;             /* each slab and the end of its carved blocks (the
                                         newest's is cur) */
    int32_t nslabs, cap;
} slab_list;

/* Free blocks are kept as pointers in a stack per class, so that taking one reads no cold
 * memory (popping a list that runs through the blocks themselves waited for each block's header:
 * some 8% of a fictitious-play update); the stack grows as blocks are freed, and should that
 * fail, the overflow goes to a list through the blocks. */
typedef struct jt_pool {
    block_head **stack[JT_POOL_CLASSES + 1];
    int32_t nstack[JT_POOL_CLASSES + 1], cap[JT_POOL_CLASSES + 1];
    block_head *free[JT_POOL_CLASSES + 1]; /* the overflow */
    slab_list kind[2];                /* [0] states, [1] node records */
} jt_pool;

_Static_assert(sizeof(block_head) == 16, "a header keeps blocks 16-byte aligned");

/* Bytes of a block of class c, header included: states of 4 << c words, or a node record. */
static size_t class_bytes(const jt_tree *t, int c)
{
    return sizeof(block_head) + (c == NODE_CLASS ? t->node_bytes : sizeof(int32_t) * (4u << c));
}

/* The payload's bytes of a block of class c. */
static size_t payload_bytes(const jt_tree *t, int c)
{
    return class_bytes(t, c) - sizeof(block_head);
}

/* Pools for n threads, keeping the blocks of those already there. */
int jt_pools_ensure(jt_tree *t, int n)
{
    if (t->npools >= n)
        return JT_OK;
    jt_pool *p = realloc(t->pools, sizeof(jt_pool) * (size_t)n);
    if (!p)
        return JT_ENOMEM;
    memset(p + t->npools, 0, sizeof(jt_pool) * (size_t)(n - t->npools));
    t->pools = p;
    t->npools = n;
    return JT_OK;
}

void jt_pools_free(jt_tree *t)
{
    for (int i = 0; i < t->npools; i++)
        for (int kind = 0; kind < 2; kind++) {
            slab_list *l = &t->pools[i].kind[kind];
            for (int32_t k = 0; k < l->nslabs; k++)
                free(l->slabs[k]);
            free(l->slabs);
            free(l->ends);
        }
    for (int i = 0; i < t->npools; i++)
        for (int c = 0; c <= JT_POOL_CLASSES; c++)
            free(t->pools[i].stack[c]);
    free(t->pools);
    t->pools = NULL;
    t->npools = 0;
}

/* A block of class c from the calling thread's pool: a free one, else carved from a slab. */
static void *take(jt_tree *t, int c)
{
    const uint32_t id = (uint32_t)jt_thread_id();
    jt_pool *p = &t->pools[id];
    block_head *b;
    if (p->nstack[c]) {
        b = p->stack[c][--p->nstack[c]];
        if (p->nstack[c]) /* the next one taken is written soon: fetch it */
            __builtin_prefetch(p->stack[c][p->nstack[c] - 1], 1);
    } else if ((b = p->free[c])) {
        p->free[c] = b->next;
    }
    if (b) {
        b->cls = (uint32_t)c;
        UNPOISON(b + 1, payload_bytes(t, c));
        return b + 1;
    }
    const size_t bytes = class_bytes(t, c);
    slab_list *l = &p->kind[c == NODE_CLASS];
    if (l->left < bytes) {
        if (l->nslabs == l->cap) {
            const int32_t cap = l->cap ? 2 * l->cap : 16;
            char **s = realloc(l->slabs, sizeof(char *) * (size_t)cap);
            if (!s)
                return NULL;
            l->slabs = s;
            char **e = realloc(l->ends, sizeof(char *) * (size_t)cap);
            if (!e)
                return NULL;
            l->ends = e;
            l->cap = cap;
        }
        const size_t slab = bytes > SLAB_BYTES ? bytes : SLAB_BYTES;
        char *mem = malloc(slab); /* (on failure the old slab's end stays as it was) */
        if (!mem)
            return NULL;
        if (l->nslabs)
            l->ends[l->nslabs - 1] = l->cur;
        l->cur = mem;
        l->slabs[l->nslabs++] = l->cur;
        l->left = slab;
        POISON(l->cur, slab);
    }
    b = (block_head *)l->cur;
    UNPOISON(b, bytes);
    l->cur += bytes;
    l->left -= bytes;
    b->cls = (uint32_t)c;
    return b + 1;
}

/* Return a block of class c to the free blocks of the calling thread's pool (inside a parallel
 * region) or of the pool with the fewest (outside one, so that blocks taken by one thread and
 * freed by the serial part do not pile up in one pool while the others carve new slabs).  The
 * class comes from the caller, not the block's header: the blocks freed are cold, and reading
 * each one's header waited for it. */
static void give(jt_tree *t, block_head *b, int c)
{
    int id = 0;
#ifdef _OPENMP
    if (omp_in_parallel())
        id = jt_thread_id();
    else
#endif
        for (int i = 1; i < t->npools; i++)
            if (t->pools[i].nstack[c] < t->pools[id].nstack[c])
                id = i;
    jt_pool *p = &t->pools[id];
    if (p->nstack[c] == p->cap[c]) {
        const int32_t cap = p->cap[c] ? 2 * p->cap[c] : 256;
        block_head **st = realloc(p->stack[c], sizeof(block_head *) * (size_t)cap);
        if (st) {
            p->stack[c] = st;
            p->cap[c] = cap;
        }
    }
    if (p->nstack[c] < p->cap[c]) {
        p->stack[c][p->nstack[c]++] = b;
    } else {
        b->next = p->free[c];
        p->free[c] = b;
    }
    POISON(b + 1, payload_bytes(t, c));
    b->cls = (uint32_t)c | FREE;
}

/* The class of states of n words (n <= JT_POOL_MAX). */
static int state_class(int32_t n)
{
    int c = 0;
    while ((4 << c) < n)
        c++;
    return c;
}

int32_t *jt_state_new(jt_tree *t, int32_t n)
{
    if (n > JT_POOL_MAX)
        return malloc(sizeof(int32_t) * (size_t)n);
    const int c = state_class(n);
    int32_t *S = take(t, c);
    if (S) /* the words past n are as out of bounds as past a malloc'd array */
        POISON(S + n, sizeof(int32_t) * (size_t)((4 << c) - n));
    return S;
}

void jt_state_free(jt_tree *t, int32_t *S, int32_t n)
{
    if (!S)
        return;
    if (n > JT_POOL_MAX)
        free(S);
    else
        give(t, (block_head *)S - 1, state_class(n));
}

jt_node *jt_node_take(jt_tree *t)
{
    jt_node *nd = take(t, NODE_CLASS);
    if (nd)
        memset(nd, 0, t->node_bytes);
    return nd;
}

void jt_node_give(jt_tree *t, jt_node *nd) { give(t, (block_head *)nd - 1, NODE_CLASS); }

void jt_pools_each_node(jt_tree *t, void (*fn)(jt_tree *, jt_node *))
{
    const size_t bytes = class_bytes(t, NODE_CLASS);
    for (int i = 0; i < t->npools; i++) {
        const slab_list *l = &t->pools[i].kind[1];
        for (int32_t k = 0; k < l->nslabs; k++) {
            const char *end = k == l->nslabs - 1 ? l->cur : l->ends[k];
            for (char *at = l->slabs[k]; at < end; at += bytes)
                if (((block_head *)at)->cls == NODE_CLASS) /* not FREE */
                    fn(t, (jt_node *)((block_head *)at + 1));
        }
    }
}
