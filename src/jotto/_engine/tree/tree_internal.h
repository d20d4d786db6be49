/* tree_internal.h -- what the files of the decision-tree builder share: the tree and its nodes,
 * per-thread scratch, the description of one node being decided, and the functions each file
 * offers the others.
 *
 *   tree_nodes.c      a tree's nodes, scratch, weights, life cycle, memo; reading it out
 *   tree_pool.c       recycled memory for node records and states
 *   node_eval.c       describing a node's state and counting its candidates' replies, every mode
 *   decision_rules.c  choosing a node's guess: GuesserGBR's exact and paper rules, Norvig's
 *   tree.c            building: deciding nodes and growing subtrees in OpenMP tasks
 *   tree_update.c     incremental updates after a change of weights (fictitious play)
 *   tree_alternates.c the subtrees of guesses a node made before, kept for when they come back
 *
 * The algorithm and the exactness arguments are in tree.c's opening comment. */
#ifndef JOTTO_TREE_INTERNAL_H
#define JOTTO_TREE_INTERNAL_H

#include "common/engine_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Nodes of at least jt_t_shared targets split their candidates over threads and keep their
 * values; above jt_t_table targets (-1: the kernel variant's measured rule, jt_kernels.table_above)
 * they count with subset tables (whose cost does not grow with |S|).  Tests move both
 * (jt_set_thresholds) to reach every path on small word lists. */
extern int32_t jt_t_shared, jt_t_table;

typedef struct jt_node {
    int32_t *S;         /* targets consistent here, increasing */
    int32_t m;
    int32_t depth;      /* guesses made before this node */
    int32_t guess;
    int32_t pending;    /* during an update: the guess re-decided here, else -1 */
    uint8_t fixed;      /* the decision holds for all positive weights: never re-decided */
    uint8_t dirty;      /* the weight of some word of S changed since the last decision */
    uint8_t unique;     /* paper rule: no two words of win reply alike to every target of S */
    uint8_t found;      /* the guess is a target of S (found here: its count is depth + 1) */
    int64_t stamp;      /* the update (jt_tree.updates) whose weights the guess was decided for */
    uint64_t key;       /* hash of S for the memo, 0 until computed */
    struct jt_node *parent;
    struct jt_node **child; /* [R] (in the record, after it) or NULL for leaves */
    uint16_t *cnt;      /* big nodes of updatable rules: class sizes of every word ... */
    uint64_t *q;        /* ... and its q, kept for updates */
    int32_t *win;       /* paper rule: words within rounding distance of the best, increasing */
    int32_t nwin;
    struct jt_alt *alt; /* exact rule: subtrees of guesses made here before (tree_alternates.c) */
} jt_node;

struct jt_tree {
    const jt_words *w;
    int rule, candidates;
    int64_t *v;         /* [D] */
    double *h;          /* [D], paper rule only */
    double err_abs, err_rel;
    jt_node *root;
    int32_t *counts;    /* [D] guesses needed per target */
    int32_t nnodes;     /* node records in use: the tree's and its alternates' */
    int64_t decided, evaluated;
    struct jt_scratch *scr; /* per-thread scratch of the build or update under way */
    int nscr;
    int64_t updates;    /* weight updates so far (jt_tree_update) */
    int64_t *changed;   /* [D] the update that last changed each weight (0: none); first update */
    struct jt_memo *memo; /* decisions of small nodes that left the tree; first update */
    int32_t memo_mask;  /* slots - 1 */
    uint8_t updating;   /* an incremental update is under way: windows are made unique */
    jt_node **unodes;   /* an update's lists of nodes, kept between updates (malloc'ing them */
    int32_t *uredo, *uguess; /* each time made glibc consolidate its free lists every time) */
    int32_t ucap;
    jt_node **ugrow;    /* an update's nodes to expand after their alternates were tried */
    int32_t ngrow, growcap;
    struct jt_changes *log; /* every weight change since the tree was built (tree_alternates.c) */
    struct jt_alt *alt_oldest, *alt_newest; /* every alternate, in the order they were kept */
    int64_t alt_cap;    /* node records (in the tree and in alternates) beyond which the oldest
                           alternates are dropped */
    struct jt_pool *pools; /* per thread (tree_pool.c) */
    int npools;
    size_t node_bytes;  /* a node record with room for R children */
    int posted;         /* a growth's first tasks are queued (jt_grow_all's other threads wait
                           for them awake) */
};

/* A decision of a small node that left the tree in an update, kept to be reused when a later
 * update grows a node with the same S: GuesserGBR's decision depends only on S and the weights of
 * S, and for the paper rule the window does (the pick from it also depends on h). */
typedef struct jt_memo {
    int32_t *S;         /* NULL: empty slot */
    int32_t m;
    int32_t guess;
    uint64_t key;       /* hash of S */
    int64_t stamp;      /* the update the decision was made for */
    int32_t *win;       /* paper rule: the window (unique), from which h picks the guess */
    int32_t nwin;
    uint8_t fixed;
} jt_memo;

/* Per-thread scratch (every array sized for all D words): small nodes are evaluated in it, and
 * every node chooses its guess in it. */
typedef struct jt_scratch {
    uint32_t *sm;        /* masks of S */
    uint32_t *spec_mask; /* targets heavier than the lightest ... */
    uint64_t *spec_delta;/* ... and by how much */
    int32_t *spec_id;    /* ... and which words they are */
    int32_t *fam_n;      /* ANAGRAM mode: members of S per anagram family (zero between uses) */
    uint64_t *fam_v;     /* ... their weight */
    uint8_t *in_s;       /* ... membership of S */
    uint64_t *stok;      /* GENERAL mode: tokens ... */
    uint64_t *sspell;    /* ... and spellings of S */
    uint16_t *cnt;       /* class sizes of the candidates */
    uint64_t *q;
    uint16_t *q16;       /* [D + 64] q of small nodes in 16 bits (jt_q16_fits) ... */
    uint64_t qval[JT_RANK_VALUES]; /* ... and at weighted ones the values of its ranks */
    double *hs;          /* paper rule: h over S */
    double *term;        /* paper rule: [m+1] terms of ExpNumElims by class size */
    int32_t *wsel;       /* paper rule: [D + 16] the window as selected */
    uint32_t *wmask;     /* paper rule: masks of the window's words (+16) */
    uint16_t *wcnt;      /* paper rule: their class sizes */
    uint8_t *rep;        /* [D] expand(): the replies to the node's guess */
    uint8_t *own;        /* [2 (D + 64)] jt_own_set (zero between uses) */
} jt_scratch;

/* The arrays a big node allocates for itself while it is decided (tree.c: big_prepare fills
 * them, big_release frees them all); NULL where the node's mode or counting method needs none.
 * Small nodes use the thread's jt_scratch instead.  m = |S|, D words, nc candidates. */
typedef struct {
    uint32_t *sm;          /* [m] masks of S (jt_describe) */
    uint32_t *spec_mask;   /* [m] targets heavier than the lightest ... */
    uint64_t *spec_delta;  /* [m] ... by how much ... */
    int32_t *spec_id;      /* [m] ... and which words they are */
    int32_t *fam_n;        /* [D] ANAGRAM mode: members of S per anagram family ... */
    uint64_t *fam_v;       /* [D] ... their weight ... */
    uint8_t *fam_in_s;     /* [D] ... and membership of S (jt_families_set) */
    uint64_t *stok;        /* [2 m] GENERAL mode: tokens, then spellings, of S (jt_gather_s) */
    uint64_t *q;           /* [nc] q when the candidates are not every word (ev.cid), which the
                              node does not keep; else the node's own q holds it */
    uint8_t *own_n;        /* [D + 64] SLICED method, not counted yet: S's targets (jt_own_set) */
    uint8_t *in_s;         /* [D] TABLE method: membership of S (jt_eval.in_s) */
    uint16_t *table;       /* [table_size] TABLE method below the root: subset counts over S */
    uint32_t *utable;      /* [table_size] TABLE method, PAPER mode, heavier targets: their
                              units' subset sums (jt_unit_table) */
    void *tabs;            /* [JT_TABS_BYTES] sliced PAPER and ANAGRAM nodes: S's chunk tables
                              (jt_eval.tabs) */
} jt_big_arrays;

/* What deciding one node needs besides its evaluation. */
typedef struct {
    jt_node *node;
    jt_eval ev;
    uint64_t V;         /* sum of the (effective) weights over S */
    int hones;          /* paper rule, all h of S zero: every target weighs 1.0 */
    int decided;        /* big nodes: jt_describe decided the node on the spot */
    jt_big_arrays big;  /* big nodes only (zeroed by decide_big) */
} jt_job;

/* The reply code of guess a to target b (jt_code; the popcount itself for PAPER lists). */
static inline int jt_reply(const jt_words *w, int32_t a, int32_t b)
{
    return w->mode == JT_MODE_PAPER ? jt_pc64(w->mask[a] & w->mask[b]) : jt_code(w, a, b);
}

/* Threads to use: the count asked for (<= 0: OpenMP's default), never more than the CPUs,
 * since every thread gets scratch memory the size of the word list. */
static inline int jt_num_threads(int threads)
{
#ifdef _OPENMP
    const int n = threads > 0 ? threads : omp_get_max_threads();
    const int procs = omp_get_num_procs();
    return n < procs ? n : procs > 0 ? procs : 1;
#else
    (void)threads;
    return 1;
#endif
}

static inline int jt_thread_id(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* The greedy rules keep their values on big nodes and can be updated; Norvig's cannot. */
static inline int jt_updatable(const jt_tree *t) { return t->rule <= JT_RULE_EXACT; }

/* tree_pool.c: states of 4 << c words for the classes c < JT_POOL_CLASSES, up to JT_POOL_MAX
 * words; larger states come from the heap.  A state is freed with its size (the n it was made
 * with), which gives its class. */
#define JT_POOL_CLASSES 9
#define JT_POOL_MAX (4 << (JT_POOL_CLASSES - 1))
int jt_pools_ensure(jt_tree *t, int n);
void jt_pools_free(jt_tree *t);
int32_t *jt_state_new(jt_tree *t, int32_t n);
void jt_state_free(jt_tree *t, int32_t *S, int32_t n);
jt_node *jt_node_take(jt_tree *t);
void jt_node_give(jt_tree *t, jt_node *nd);
/* fn on every node record in use (not given back), in no particular order */
void jt_pools_each_node(jt_tree *t, void (*fn)(jt_tree *, jt_node *));

/* tree_nodes.c */
jt_node *jt_node_new(jt_tree *t, int32_t *S, int32_t m, int32_t depth, jt_node *parent);
void jt_node_free(jt_tree *t, jt_node *nd);
void jt_free_children(jt_tree *t, jt_node *nd, int keep);
void jt_scratch_free(jt_scratch *scr, int n);
int jt_ensure_scratch(jt_tree *t, int nt);
int jt_check_weights(const jt_words *w, const jt_weights *wt);
void jt_set_weights(jt_tree *t, const int64_t *v, const double *h);
jt_tree *jt_tree_new(const jt_words *w, const jt_weights *wt, int *status);
void jt_drop_root(jt_tree *t);
int jt_still_valid(const jt_tree *t, const int32_t *S, int32_t m, int64_t stamp);
int jt_memo_init(jt_tree *t);
void jt_memo_clear(jt_tree *t);
void jt_memo_keep(jt_tree *t, jt_node *nd);
uint64_t jt_memo_prefetch(const jt_tree *t, const int32_t *S, int32_t m);
const jt_memo *jt_memo_find(const jt_tree *t, jt_node *nd);

/* node_eval.c */
int jt_describe(const jt_tree *t, jt_job *job, uint32_t *sm, uint32_t *spec_mask,
                uint64_t *spec_delta, int32_t *spec_id);
void jt_families_set(const jt_words *w, jt_eval *ev, const int32_t *S, int32_t m,
                     int32_t *fam_n, uint64_t *fam_v, uint8_t *in_s);
void jt_families_clear(const jt_words *w, const int32_t *S, int32_t m, int32_t *fam_n,
                       uint64_t *fam_v, uint8_t *in_s);
int jt_unit_table(const jt_words *w, jt_eval *ev, uint32_t **out);
void jt_own_set(const jt_words *w, jt_eval *ev, uint8_t *own);
void jt_own_clear(const jt_words *w, const jt_eval *ev, uint8_t *own);
void jt_evaluate_range(const jt_eval *ev, int32_t c0, int32_t c1);
double jt_exp_num_elims_codes(const jt_words *w, int32_t c, const int32_t *S, const double *hs,
                              int32_t m, double total);

/* decision_rules.c */
void jt_decide_tiny(const jt_tree *t, jt_node *nd);
int jt_exact_early_stop(const jt_words *w, jt_node *nd);
int jt_paper_early_stop(const jt_tree *t, jt_node *nd, int hones);
int jt_all_h_zero(const jt_tree *t, const jt_node *nd);
void jt_gather_h(const jt_tree *t, const jt_node *nd, int hones, double *hs);
int32_t jt_paper_pick(const jt_tree *t, const jt_node *nd, const uint32_t *sm, jt_scratch *s,
                      int32_t perfect);
int jt_choose(const jt_tree *t, jt_job *job, jt_scratch *s);
int jt_window_unique(const jt_tree *t, jt_node *nd);
int32_t jt_repick(const jt_tree *t, const jt_node *nd, jt_scratch *s);

/* tree_alternates.c */
int64_t jt_alt_cap(int32_t nodes);
int jt_log_change(jt_tree *t, int32_t b, uint64_t delta);
void jt_log_clear(jt_tree *t);
void jt_add_to_q(const jt_tree *t, jt_node *nd, int32_t b, uint64_t delta);
int jt_switch_guess(jt_tree *t, jt_node *x, int32_t g, int64_t frozen);
void jt_free_alts(jt_tree *t, jt_node *nd, int keep);
void jt_release_alts(jt_node *nd);

/* tree_update.c */
int jt_redecide(jt_tree *t, jt_node *x, jt_scratch *s, int32_t *guess);

/* tree.c */
int jt_decide_small(jt_tree *t, jt_node *nd, jt_scratch *s);
int jt_threads_for(int threads, int64_t pairs);
int jt_grow_all(jt_tree *t, jt_node **nodes, int32_t n, int decided, int threads);
int jt_build_all(jt_tree *t, int threads);

#endif
