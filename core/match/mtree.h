/* mtree.h - match trees: and/or trees of (subject, pattern) leaves.
 *
 * Second stage of the pattern compiler (pcase.md 3.1-3.2).  A clause
 * pattern applied to a subject becomes a MATCH tree whose pattern-level
 * `and`/`or` are hoisted into tree nodes; the decision-tree builder
 * (match/dtree) consumes them.  Subjects are hash-consed: the root (the
 * subject expression or its temporary) and values computed by `app`, each
 * with the temporary that holds it.  Knowledge propagation rewrites match
 * trees with a splitter (mtree_split); `app` sharing rewrites them with
 * mtree_app_subst.  Branches bundle a match tree, a clause and the
 * variables bound so far.
 *
 * Functions, in order: mtree_root, mtree_temp, mtree_succeed, mtree_fail,
 * mtree_make, mtree_alone, mtree_and, mtree_or, mtree_split, mtree_app_subst,
 * mtree_simplify, mtree_mentions_subj, mtree_vbind, mtree_branch.
 */
#ifndef PCX_MTREE_H
#define PCX_MTREE_H

#include "match/pat.h"

/* A value the generated code can refer to. */
struct subj {
    struct memo_obj o;
    const struct subj *parent;  /* NULL for the root */
    const struct pat_val *fun;  /* the app FUN that computed it (not root) */
    const struct pat_val *root; /* root: its expression, canonical */
    uint32_t gen;               /* tells repeated applications apart */
    struct value *expr;         /* root: the subject expression or its
                                   temporary; others: their temporary */
    bool temp;                  /* expr is a temporary made here */
    uint32_t tnum;              /* temporaries: their number in creation
                                   order (so also in id order), an index
                                   of memo_ctx.temps */
    uint64_t bit;               /* Bloom bit of this subject */
};

enum mt_kind {
    MT_SUCCEED, /* known to match */
    MT_FAIL,    /* known not to match */
    MT_LEAF,    /* subject s matched against a non-and/or pattern p */
    MT_AND,     /* all items, in order */
    MT_OR,      /* first matching item, in order, with backtracking */
};

struct mtree {
    struct memo_obj o;
    enum mt_kind kind;
    const struct subj *s;      /* LEAF */
    const struct pat *p;       /* LEAF */
    struct memo_list *items;   /* AND/OR: struct mtree elements */
    uint64_t subjects;         /* Bloom set of the subjects of the leaves */
    bool degenerate;           /* an `and` or `or` of fewer than two items
                                  is below (an `or`'s pattern is p):
                                  rebuilt at the next test (mtree_simplify) */
    bool rebuilt_same;         /* AND/OR of two items or more, none of them
                                  SUCCEED or FAIL: rebuilding it from the
                                  same items gives it back */
    struct memo_list *alone;   /* the list of it alone, once made
                                  (mtree_alone) */
};

/* A variable bound on the current path: NAME's value is subject s. */
struct vbind {
    struct memo_obj o;
    const struct pat_val *name; /* the user's symbol */
    const struct subj *s;       /* where its value lives */
};

/* A clause still to try: its match tree, clause number and bindings. */
struct branch {
    struct memo_obj o;
    const struct mtree *match;
    uint32_t clause;           /* index into the caller's clause table */
    struct memo_list *vars;    /* struct vbind elements, newest first */
};

/* Outcome of a test for a leaf: unknown, or known to succeed / fail. */
enum mt_know { MT_UNKNOWN, MT_KNOWN_SUCCEED, MT_KNOWN_FAIL };

/* What a test implies for a leaf pattern on the tested subject. */
struct mt_split {
    enum mt_know then_k; /* when the test succeeded */
    enum mt_know else_k; /* when it failed */
};

/* Which leaves on the tested subject a split asks its splitter about. */
enum mt_ask {
    MT_ASK_ALL,     /* every one */
    MT_ASK_TESTS,   /* those whose pattern is a test (pred, guard, quote,
                       member): the splitter answers unknown for the
                       others (no test's outcome tells about them) */
    MT_ASK_GUARDED, /* as MT_ASK_TESTS, but every one once the depth guard
                       is at its limit: the splitter enters the guard for
                       each leaf, and trips it there */
};

/* What a test tells about leaf patterns on its subject: ask(arg, leaf),
 * for the leaves that which says. */
struct mt_splitter {
    struct mt_split (*ask)(void *arg, const struct pat *leaf);
    void *arg;
    enum mt_ask which;
};

/* The root subject for expression expr (temp: expr is a temporary). */
const struct subj *mtree_root(struct memo_ctx *m, struct value *expr, bool temp);

/* The subject holding (FUN parent), generation gen; its temporary (base
 * name "x") is made on first use through the gensym hook. */
const struct subj *mtree_temp(struct memo_ctx *m, const struct subj *parent,
                              const struct pat_val *fun, uint32_t gen);

/* SUCCEED and FAIL, made once per compilation (kept in m): every known
 * leaf of a split is one of them.  Inline: a split asks for them at every
 * leaf it learns about; mtree_make_known makes them. */
const struct mtree *mtree_make_known(struct memo_ctx *m, enum mt_kind kind);

static inline const struct mtree *mtree_succeed(struct memo_ctx *m)
{
    return m->succeed ? m->succeed : mtree_make_known(m, MT_SUCCEED);
}

static inline const struct mtree *mtree_fail(struct memo_ctx *m)
{
    return m->fail ? m->fail : mtree_make_known(m, MT_FAIL);
}

/* The match tree of pattern p on subject s, hoisting and/or.  NULL when
 * the depth guard trips. */
const struct mtree *mtree_make(struct memo_ctx *m, const struct subj *s,
                               const struct pat *p);

/* The list (mt), kept in mt: a branch's tree alone is the pending list
 * of every state that starts the branch. */
struct memo_list *mtree_alone(struct memo_ctx *m, const struct mtree *mt);

/* (and ITEMS) / (or ITEMS) of match trees (items a list of mtrees). */
const struct mtree *mtree_and(struct memo_ctx *m, struct memo_list *items);
const struct mtree *mtree_or(struct memo_ctx *m, struct memo_list *items);

/* mtree_split of an and/or tree (its out-of-line part); *then_mt and
 * *else_mt hold mt on entry, and are set only to what changes. */
bool mtree_split_items(struct memo_ctx *m, const struct mtree *mt, const struct subj *s,
                       const struct mt_splitter *sp,
                       const struct mtree **then_mt, const struct mtree **else_mt);

/* The tree of what a leaf is known to be (k), or the leaf itself. */
static inline const struct mtree *mtree_known(struct memo_ctx *m, enum mt_know k,
                                              const struct mtree *leaf)
{
    if (k == MT_KNOWN_SUCCEED)
        return mtree_succeed(m);
    if (k == MT_KNOWN_FAIL)
        return mtree_fail(m);
    return leaf;
}

/* Is the leaf with pattern p one that which asks about? */
static inline bool mtree_asked(const struct memo_ctx *m, enum mt_ask which,
                               const struct pat *p)
{
    if (p->kind == PAT_PRED || p->kind == PAT_QUOTE || p->kind == PAT_GUARD ||
        p->kind == PAT_MEMBER)
        return true;
    return which == MT_ASK_ALL || (which == MT_ASK_GUARDED && m->depth >= m->max_depth);
}

/* Split a tree that is not an and/or: a leaf on s is asked sp (if sp
 * asks about it). */
static inline void mtree_split_leaf(struct memo_ctx *m, const struct mtree *mt,
                                    const struct subj *s, const struct mt_splitter *sp,
                                    const struct mtree **then_mt,
                                    const struct mtree **else_mt)
{
    *then_mt = *else_mt = mt;
    if (mt->kind == MT_LEAF && mt->s == s && mtree_asked(m, sp->which, mt->p)) {
        struct mt_split r = sp->ask(sp->arg, mt->p);
        *then_mt = mtree_known(m, r.then_k, mt);
        *else_mt = mtree_known(m, r.else_k, mt);
    }
}

/* Split mt by a test on subject s: leaves on s are asked sp (those that
 * sp->which says); known leaves become SUCCEED/FAIL in the then/else
 * copies and and/or nodes are simplified.  Returns false when the depth
 * guard trips.  Inline: most trees a split meets are leaves, or hold no
 * leaf on s (their Bloom set says so), and need no call. */
static inline bool mtree_split(struct memo_ctx *m, const struct mtree *mt,
                               const struct subj *s, const struct mt_splitter *sp,
                               const struct mtree **then_mt,
                               const struct mtree **else_mt)
{
    *then_mt = *else_mt = mt;
    if (!(mt->subjects & s->bit))
        return true;
    if (mt->kind == MT_AND || mt->kind == MT_OR)
        return mtree_split_items(m, mt, s, sp, then_mt, else_mt);
    mtree_split_leaf(m, mt, s, sp, then_mt, else_mt);
    return true;
}

/* mt with every leaf (s . (app fun P)) replaced by the match tree of P on
 * n, and every leaf (s . 'C) refined through n as Emacs 30.1 does when
 * the call (fun C) can be made while compiling (match/fold, pcase.md
 * 3.7).  NULL when the depth guard trips. */
const struct mtree *mtree_app_subst(struct memo_ctx *m, const struct mtree *mt,
                                    const struct subj *s,
                                    const struct pat_val *fun,
                                    const struct subj *n);

/* mt with every and/or node rebuilt the way a split rebuilds it (Emacs
 * rebuilds every node of a remaining branch at each test, whatever the
 * subject): an `and` or `or` of one item becomes that item, an empty `or`
 * fails, an empty `and` succeeds (and a succeeding item then absorbs its
 * `or`: (or (and b) (and)) becomes a success that binds nothing).  NULL
 * when the depth guard trips. */
const struct mtree *mtree_simplify(struct memo_ctx *m, const struct mtree *mt);

/* Does mt have a leaf on subject s? */
bool mtree_mentions_subj(const struct mtree *mt, const struct subj *s);

const struct vbind *mtree_vbind(struct memo_ctx *m, const struct pat_val *name,
                                const struct subj *s);
const struct branch *mtree_branch(struct memo_ctx *m, const struct mtree *match,
                                  uint32_t clause, struct memo_list *vars);

#endif
