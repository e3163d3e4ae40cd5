/* pcase_int.h - shared internals of the pcase front end (pcase*.c only).
 *
 * pcase_norm.c turns surface patterns into match/pat IR and records each
 * clause's variables; pcase_compile.c runs one compilation (subject +
 * clauses -> decision DAG -> Lisp) with its diagnostics; pcase.c holds the
 * entry points of the seven heads, the cond* interface and the dumps.
 */
#ifndef PCX_PCASE_INT_H
#define PCX_PCASE_INT_H

#include <stdarg.h>
#include <stdbool.h>

#include "base/buf.h"
#include "expand/expand.h"
#include "expand/pcase.h"
#include "match/emit.h"
#include "match/explain.h"
#include "match/witness.h"

/* One clause of a compilation. */
struct pcase_clause {
    struct value *form;         /* the clause as written (warnings), or NULL */
    struct value *pattern;      /* surface pattern (unless dontcare) */
    bool dontcare;              /* the unchecked catch-all of pcase-let */
    struct value *cell;         /* cons whose car is pattern (positions) */
    const struct pat *pat;      /* normalised pattern */
    struct value *body;         /* list of forms */
    bool user;                  /* body is user code (expanded when emitted) */
    enum emit_leaf_kind kind;   /* what its leaves become */
    bool dontwarn;              /* implicit clause: never "unreachable" */
    struct value *scope;        /* where its variables may be used (a list
                                   of forms), NULL = no unused check */
    /* Variables in order of first occurrence (filled by pcase_norm). */
    struct value **vars;
    struct value **var_cells;   /* cons whose car is the occurrence, or NULL */
    bool *used;                 /* read by the pattern itself */
    size_t n_vars;
};

/* A pattern Emacs rejects only when its compiler reaches it (PAT_BAD, or
 * an `or` of fewer than two alternatives). */
struct pcase_bad {
    const struct pat *pat;      /* the pattern */
    const struct value *v;      /* the pattern as written */
    const struct value *cell;   /* cons whose car it is, or NULL */
    struct pcase_bad *next;
};

/* Which clauses take the values of an unreachable one (--explain). */
struct pcase_shadow {
    bool unreachable;
    uint32_t *by;               /* clause indexes */
    size_t n;
};

/* The state of one top-level pcase-family expansion. */
struct pcase_run {
    struct expand_ctx *x;
    struct lisp *L;
    struct value *site;         /* the form being expanded (fallback position) */
    struct memo_table code;     /* user form -> its expansion (once each) */
    struct memo_ctx *m;         /* the current compilation's context, or &base */
    struct buf *dump;           /* --dump output, or NULL */
    int dump_kind;              /* enum pcase_dump_kind */
    unsigned n_dumps;           /* sections written */
    struct pcase_bad *bad;         /* where each PAT_BAD pattern was written */
    long describe;              /* clause whose values pcase_compile looks
                                   for in no_match (-1: none) */
    struct witness_result no_match; /* a value reaching clause `describe'
                                   (WITNESS_NONE when it has no leaf) */
    struct pcase_explain_out *explain; /* --explain: sections go there */
    struct value *written;      /* --explain: the value a temporary subject
                                   holds, as written (pcase-let, -dolist) */
    const char *written_note;   /* how that is evaluated */
    bool failed;                /* an error was recorded */
    const struct pcase_clause *carried; /* the clauses whose code the
                                           compilation reports to the
                                           expander (x->carriers), or NULL */
    size_t n_carried;
    bool base_ready;            /* base is initialised */
    /* Context outside compilations (the code table's growth): initialised
     * when first needed, which most forms never are; last, so that
     * pcase_init clears only the members above. */
    struct memo_ctx base;
};

/* Start the expansion of one pcase-family form (site). */
void pcase_init(struct pcase_run *c, struct expand_ctx *x, struct value *site);

/* Record a diagnostic at v (when it was read from the input), else at the
 * car of cell, else at the form being expanded.  fmt may use %s only with
 * strings made by pcase_show. */
void pcase_diag(struct pcase_run *c, enum diag_severity sev, const struct value *v,
             const struct value *cell, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* prin1 text of v (arena string), for messages. */
const char *pcase_show(struct pcase_run *c, const struct value *v);

/* Normalise cl->pattern into cl->pat and fill cl's variable tables.
 * False after recording an error (the pattern's position). */
bool pcase_norm(struct pcase_run *c, struct pcase_clause *cl);

/* Index of the first unsorted row of the core pattern heads, or -1. */
long pcase_norm_check_table(void);

/* Is expr copyable (evaluated again instead of bound, pcase.md 1.1)? */
bool pcase_copyable(struct pcase_run *c, const struct value *expr);

/* Compile clauses cl[0..n) against subject in a fresh match context
 * (patterns are normalised here, all of them before anything else).
 * subject_user: subject is user code to expand (else generated).  info (may be NULL) receives per-clause facts.  Returns the
 * code, or NULL after an error. */
struct value *pcase_compile(struct pcase_run *c, struct value *subject, bool subject_user,
                         struct pcase_clause *cl, size_t n, struct emit_info *info);

/* Add the --explain section of one compilation to c->explain: subject
 * as written, clauses cl[0..n) and their DAG; sh: unreachable clauses. */
void pcase_explain_section(struct pcase_run *c, struct memo_ctx *m, const struct subj *root,
                           struct value *subject, const struct pcase_clause *cl, size_t n,
                           const struct dnode *dag, const struct pcase_shadow *sh);

/* Expansion of a piece of user code, once per form. */
struct value *pcase_code(struct pcase_run *c, struct value *form);

#endif
