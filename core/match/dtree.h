/* dtree.h - the decision DAG: Emacs's pcase algorithm, memoized.
 *
 * Third stage of the pattern compiler (pcase.md 3.3-3.7).  dtree_build
 * runs the reference algorithm on the clauses' match trees: tests are taken
 * in the order the reference evaluates them, knowledge of each outcome is
 * propagated into the remaining branches (identical preds/guards merged,
 * Emacs 30.1's exclusive type predicates, equal-constant rules, membership
 * sets), `or` alternatives backtrack, constants inside an `or` become one
 * memq/memql/member test, `app` results are shared and later constants on
 * an `app`'s subject are refined through its result (match/fold).  Nodes are
 * hash-consed (a unique table), so identical continuations are one node and
 * the output of an `and` of k `or`s grows linearly; a computed cache keyed
 * by the compiler state (optional, memo.h) avoids rebuilding them.
 * Backtracking branches that provably cannot run are dropped early, which
 * keeps such states identical.
 *
 * Functions, in order: dtree_build, dtree_free_has, dtree_uses,
 * dtree_free_count, dtree_free_next, dtree_visit, dtree_visit_order.
 */
#ifndef PCX_DTREE_H
#define PCX_DTREE_H

#include "match/mtree.h"

enum dtest_kind {
    DT_PRED,   /* (pred FUN) on s, env bound around the call */
    DT_GUARD,  /* (guard EXPR), env bound around EXPR */
    DT_QUOTE,  /* equality with a constant (pcase.md 2.4) */
    DT_MEMBER, /* membership in a constant set */
    DT_CALL,   /* the call of an `app` FUN on s (not a test) */
};

/* A test or call: its emitted form is a function of its fields.  Not
 * hash-consed (the node that has it is): two nodes may have equal tests
 * that are not the same object. */
struct dtest {
    struct memo_obj o;
    enum dtest_kind kind;
    const struct pat *p;        /* PRED/GUARD/QUOTE/MEMBER pattern; CALL: the app */
    const struct subj *s;       /* the subject tested / passed */
    struct memo_list *env;      /* struct vbind: pattern variables the code
                                   mentions (bound around it) */
    const struct subj *prev;    /* PRED made from a repeated variable: the
                                   first occurrence's subject, else NULL */
    uint64_t refs;              /* the temporaries its code reads, when all
                                   temporaries fit one word (see dnode.free) */
};

/* A set of temporaries: bit i (of word i / 64) is the temporary numbered
 * i (subj.tnum: creation order, so ascending bits are ascending ids). */
struct tset {
    const uint64_t *w;
    uint32_t n;                   /* words; the last one is not zero, but
                                     for a set of one word (kept in the
                                     node, match/dtree) */
};

/* What the emitter (match/emit) keeps per node during one pass. */
struct dnode_emit {
    uint32_t epoch;               /* the pass the rest belongs to */
    uint32_t indeg;               /* places the node is reached from */
    uint32_t cost;                /* size estimate of its inline code (up
                                     to the sharing threshold), 0 = not yet */
    struct value *k;              /* shared: the variable holding it */
};

enum dnode_kind {
    DN_FAIL,     /* no clause matches */
    DN_DONTCARE, /* unreachable by assumption: test results are ignored */
    DN_LEAF,     /* clause `clause` matched with bindings `vars` */
    DN_TEST,     /* if test then `then` else `els` */
    DN_BIND,     /* temp = call, then `then` */
    DN_USE,      /* `then`, counting temp as used: an app on temp whose own
                    result is never needed still makes temp's call happen
                    (Emacs marks the subject of an app used) */
};

struct dnode {
    struct memo_obj o;
    enum dnode_kind kind;
    const struct dtest *test;     /* TEST: the test; BIND: the call */
    const struct dnode *then;     /* TEST: success; BIND: body */
    const struct dnode *els;      /* TEST: failure */
    const struct subj *temp;      /* BIND: the temporary bound; USE: the one used */
    uint32_t clause;              /* LEAF */
    struct memo_list *vars;       /* LEAF: struct vbind, canonical order (or
                                     binding order, newest first:
                                     memo_ctx.ordered_leaves) */
    struct tset free;             /* temporaries the code below reads but
                                     does not bind */
    struct tset uses;             /* free plus those only marked used (an
                                     app on them): decides which app calls
                                     are made */
    uint64_t free_word, uses_word; /* where one-word sets are kept */
    uint64_t below;               /* clauses (bit i: clause i, for i < 64)
                                     with a leaf at or below the node: a
                                     function of its identity, made with it
                                     (match/witness prunes its walk by it) */
    /* Per-pass caches of the passes over a finished DAG (never part of
     * its identity): valid while their epoch is the pass's memo_epoch. */
    uint32_t mark_epoch;          /* dtree_visit: already listed */
    struct dnode_emit em;         /* match/emit's bookkeeping, kept here so
                                     that a pass allocates nothing per node */
};

/* Build the decision DAG for clauses pats[0..n) (in priority order) on
 * root.  Returns the root node, or NULL when the depth guard tripped or the
 * state budget ran out (m->too_deep is set) or a PAT_BAD pattern was
 * reached (m->bad is set to it). */
const struct dnode *dtree_build(struct memo_ctx *m, const struct subj *root,
                                const struct pat *const *pats, size_t n);

/* Is temporary t among n's free temporaries (read by its code)? */
bool dtree_free_has(const struct dnode *n, const struct subj *t);

/* Is temporary t used below n (read, or the subject of an app)? */
bool dtree_uses(const struct dnode *n, const struct subj *t);

/* How many temporaries n's code reads (its free set). */
uint32_t dtree_free_count(const struct dnode *n);

/* The first of n's free temporaries numbered *i or more (*i becomes its
 * number), or NULL: ascending numbers give them in id order. */
const struct subj *dtree_free_next(const struct memo_ctx *m, const struct dnode *n,
                                   uint32_t *i);

/* Every node reachable from root, each once, in depth-first preorder
 * (then before else): out gets them (arena array), *n their number.
 * Iterative.  Used for reachability and dumps. */
const struct dnode **dtree_visit(struct memo_ctx *m, const struct dnode *root,
                                 size_t *n);

/* dtree_visit, else before then when else_first: the order in which
 * nodes first occur in the decision tree (the DAG unshared) read from its
 * last leaf to its first. */
const struct dnode **dtree_visit_order(struct memo_ctx *m, const struct dnode *root,
                                       size_t *n, bool else_first);

#endif
