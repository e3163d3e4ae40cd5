/* pat.h - the pattern IR: normalised pcase patterns, hash-consed.
 *
 * First stage of the pattern compiler.  The front end (expand/pcase.c)
 * turns surface patterns (backquote, `let`, self-quoting atoms, pattern
 * macros) into these core patterns (pcase.md 2.1-2.2); match/mtree and
 * match/dtree consume them.  Equal patterns are the same pointer; Lisp
 * values inside patterns (constants, FUN forms, guard expressions) are
 * compared with Emacs's `equal` through canonical wrappers (struct pat_val),
 * while the value first seen is kept for output.
 *
 * Functions, in order: pat_val, pat_value_hash, pat_any, pat_var,
 * pat_quote, pat_pred, pat_guard, pat_app, pat_app_val, pat_and, pat_or,
 * pat_member, pat_dontcare, pat_bad, pat_mentions, pat_pure_pred,
 * pat_check_table.
 */
#ifndef PCX_PAT_H
#define PCX_PAT_H

#include <stdbool.h>

#include "match/memo.h"

/* A Lisp value compared with `equal`: one wrapper per equivalence class. */
struct pat_val {
    struct memo_obj o;
    struct value *v; /* the first value of its class (kept for output) */
};

enum pat_kind {
    PAT_ANY,      /* `_` (and deprecated `t`): matches, binds nothing */
    PAT_VAR,      /* SYMBOL: binds (a repeat becomes an eql test) */
    PAT_QUOTE,    /* 'VAL: equality per pcase.md 2.4 */
    PAT_PRED,     /* (pred FUN): FUN as written (`not` wrapper included) */
    PAT_GUARD,    /* (guard EXPR) */
    PAT_APP,      /* (app FUN PAT) */
    PAT_AND,      /* (and PAT...) */
    PAT_OR,       /* (or PAT...); fewer than two alternatives is an error
                     when the compiler reaches it unsimplified (Emacs) */
    PAT_MEMBER,   /* set membership made from an `or` of constants (3.6) */
    PAT_DONTCARE, /* the unchecked catch-all of pcase-let and friends */
    PAT_BAD,      /* not a pattern: an error if the compiler reaches it
                     (Emacs rejects `nil', floats, (or X)... only there) */
};

/* Why a PAT_BAD is bad (pat.sub_kind). */
enum pat_bad {
    PAT_BAD_UNKNOWN = 1, /* "Unknown pattern `VAL'" */
};

/* The two int fields sit together after the header: 48 bytes, not 56
 * (64 in the arena), for the ten thousand patterns of a file. */
struct pat {
    struct memo_obj o;          /* header + leaf summary */
    enum pat_kind kind;
    int sub_kind;               /* BAD: enum pat_bad */
    const struct pat_val *val;  /* VAR symbol, QUOTE constant, PRED/APP FUN,
                                   GUARD expr, MEMBER constant list */
    struct value *memfn;        /* MEMBER: memq, memql or member */
    const struct pat *sub;      /* APP: the pattern for the result */
    struct memo_list *items;    /* AND/OR: sub-patterns in order */
};

/* Canonical wrapper of v (equal values give the same wrapper). */
const struct pat_val *pat_val(struct memo_ctx *m, struct value *v);

/* The symbol `not` (FUN wrapper) of m's run. */
struct value *pat_sym_not(struct memo_ctx *m);

/* Structural hash consistent with value_equal (text properties ignored;
 * bounded work on large values). */
uint32_t pat_value_hash(const struct value *v);

/* Constructors: each returns the unique pattern with these fields. */
const struct pat *pat_any(struct memo_ctx *m);
const struct pat *pat_var(struct memo_ctx *m, struct value *sym);
const struct pat *pat_quote(struct memo_ctx *m, struct value *constant);
const struct pat *pat_pred(struct memo_ctx *m, struct value *fun);
const struct pat *pat_guard(struct memo_ctx *m, struct value *expr);
const struct pat *pat_app(struct memo_ctx *m, struct value *fun,
                          const struct pat *sub);
/* pat_app with FUN's wrapper already made (callers that apply one FUN
 * many times, as backquote lists do car-safe and cdr-safe). */
const struct pat *pat_app_val(struct memo_ctx *m, const struct pat_val *fun,
                              const struct pat *sub);
/* (and ITEMS...) / (or ITEMS...); n may be 0. */
const struct pat *pat_and(struct memo_ctx *m, const struct pat *const *items,
                          size_t n);
const struct pat *pat_or(struct memo_ctx *m, const struct pat *const *items,
                         size_t n);
/* Membership of the subject in the constants of list (a Lisp list);
 * memfn is the symbol memq, memql or member. */
const struct pat *pat_member(struct memo_ctx *m, struct value *memfn,
                             struct value *list);
const struct pat *pat_dontcare(struct memo_ctx *m);
/* The bad pattern v (why: enum pat_bad). */
const struct pat *pat_bad(struct memo_ctx *m, struct value *v, int why);

/* Which of the n symbols does form mention (contain at any depth, in
 * conses or vectors - Emacs's syntactic "fgrep")?  Returns how many; when
 * found is not NULL, found[i] tells for syms[i] (all are looked for),
 * otherwise the walk stops at the first one.  Iterative: deep forms are
 * fine. */
size_t pat_mentions(struct memo_ctx *m, const struct value *form,
                    struct value *const *syms, size_t n, bool *found);

/* Is FUN a symbol naming a side-effect-free type predicate (repeating its
 * test is unobservable)? */
bool pat_pure_pred(const struct value *fun);

/* Index of the first row of the predicate table that is not sorted after
 * its predecessor, or -1 (tests). */
long pat_check_table(void);

#endif
