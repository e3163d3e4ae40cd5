/* explain.h - what a compiled pattern form does, in words (--explain).
 *
 * A pass over the normalised patterns (match/pat) and the decision DAG
 * (match/dtree) of one compilation.  Per clause it says, in terms of the
 * subject ("the car of x is the symbol `quote'"), what the value must be
 * for the clause to match and what each variable is bound to; for the
 * whole form, the functions and guards the code may call, how often and
 * in which order, and (with match/witness) a value no clause matches.
 * The expander adds what only it knows (the clauses as written, which
 * clauses shadow which); explain_render prints a section as text, whose
 * wording docs/guide.md documents, and the program's records give the
 * same fields as YAML or JSON.
 *
 * Functions, in order: explain_subject, explain_clause, explain_example,
 * explain_calls, explain_no_match, explain_render, explain_check_table,
 * explain_spell, explain_show.
 */
#ifndef PCX_EXPLAIN_H
#define PCX_EXPLAIN_H

#include "base/buf.h"
#include "match/witness.h"

/* What one clause needs and binds. */
struct explain_clause {
    uint32_t index;              /* 0-based; printed 1-based */
    struct value *pattern;       /* as written, or NULL for an implicit one */
    const struct value *at;      /* where it is written (positions), or NULL */
    uint32_t line, col;          /* filled from `at' by the caller, 0 = none */
    const char **when;           /* conditions, all of which must hold */
    size_t n_when;
    const char **binds;          /* "k = the car of x" */
    size_t n_binds;
    const char *example;         /* a value its pattern alone matches
                                    (checked), readable, or NULL */
    bool unreachable;            /* no value can choose it */
    bool nonexit;                /* cond*: the clauses after it run anyway */
    uint32_t *shadow;            /* unreachable: the clauses that take its values */
    size_t n_shadow;
};

/* One function or guard the code may call. */
struct explain_call {
    const char *form;            /* the call as text, subject named */
    const char *kind;            /* "pred", "app" or "guard" */
    uint32_t at_most;            /* calls on one evaluation, at most */
    const char **after;          /* calls that always come before it */
    size_t n_after;
    bool order_varies;           /* some other call comes before or after it,
                                    depending on the value */
};

enum explain_kind {
    EXPLAIN_MATCH,       /* pcase, pcase-exhaustive, cond*'s pcase* */
    EXPLAIN_DESTRUCTURE, /* pcase-let and friends: no test is checked */
    EXPLAIN_COND_STAR,   /* cond*: its clauses in order */
};

/* One section: a compilation (or a cond* form). */
struct explain_section {
    enum explain_kind kind;
    const char *head;            /* pcase, pcase-exhaustive, pcase-let, ... */
    const char *subject;         /* the subject as written */
    const char *subject_note;    /* how it is evaluated */
    const char *name;            /* how the text below names its value */
    struct explain_clause *clauses;
    size_t n_clauses;
    /* EXPLAIN_MATCH: values no clause matches */
    const char *no_match;        /* "none", "some", "unknown", or NULL (not asked) */
    const char *witness;         /* a value no clause matches, readable */
    const char **depends;        /* no witness: what the answer depends on */
    size_t n_depends;
    struct explain_call *calls;
    size_t n_calls;
};

/* How the text names the root subject: a variable by its name, anything
 * else as VAL. */
void explain_subject(struct memo_ctx *m, struct explain_section *sec, const struct subj *root,
                     struct value *written);

/* Fill cl->when and cl->binds from pattern p on root. */
void explain_clause(struct memo_ctx *m, const struct explain_section *sec,
                    const struct subj *root, const struct pat *p,
                    struct explain_clause *cl);

/* cl->example: a value pattern p alone matches on root (a DAG of p as
 * the only clause is built for it), when one can be checked. */
void explain_example(struct memo_ctx *m, const struct subj *root, const struct pat *p,
                     struct explain_clause *cl);

/* The calls of the DAG's functions and guards (sec->calls). */
void explain_calls(struct memo_ctx *m, struct explain_section *sec, const struct subj *root,
                   const struct dnode *dag);

/* Values that reach target (WITNESS_NO_MATCH, or the implicit error
 * clause of pcase-exhaustive): sec->no_match, witness, depends. */
void explain_no_match(struct memo_ctx *m, struct explain_section *sec,
                      const struct subj *root, const struct dnode *dag, long target);

/* The text of a section (after its header line). */
void explain_render(struct lisp *L, struct buf *out, const struct explain_section *sec);

/* Index of the first row of the predicate nouns not sorted after its
 * predecessor, or -1 (tests). */
long explain_check_table(void);

/* form (a test or call of dag) with each temporary replaced by the call
 * that computed it: (big-p (1+ x)), not (big-p x1). */
struct value *explain_spell(struct memo_ctx *m, const struct dnode *dag, struct value *form);

/* v printed readably on one line (arena string), for messages and records. */
const char *explain_show(struct lisp *L, const struct value *v);

#endif
