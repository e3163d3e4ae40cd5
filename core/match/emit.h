/* emit.h - decision DAG -> Emacs Lisp code.
 *
 * Fourth stage of the pattern compiler (pcase.md 3.8-3.9, cli.md 9).
 * Prints a decision DAG as plain Lisp: tests become `if`/`cond`, app calls
 * `let*` bindings, leaves the clause code with the pattern variables bound
 * by `let`.  A decision node reached from several places is emitted once as
 * a let-bound `lambda` taking the temporaries it reads, and called with
 * `funcall`; a clause body that would be copied and is not small is emitted
 * once the same way (Emacs's `pcase-N` functions).  Tests whose failure
 * cannot happen ("don't care") are kept for their effects as
 * `(progn (ignore TEST) ...)`.  Only the vocabulary of cli.md section 9 is
 * generated.
 *
 * Functions, in order: emit_test_form, emit_form.
 */
#ifndef PCX_EMIT_H
#define PCX_EMIT_H

#include "match/dtree.h"

/* What a leaf of a clause becomes. */
enum emit_leaf_kind {
    EMIT_BODY, /* (let ((VAR VAL)...) BODY...), or a shared lambda call */
    EMIT_SETQ, /* (setq VAR VAL ...) over every variable (pcase-setq) */
};

struct emit_clause {
    enum emit_leaf_kind kind;
    struct value *body;         /* list of forms */
    bool user;                  /* body is user code (expand via hooks.code) */
    struct value *const *vars;  /* the clause's variables, in pattern order */
    size_t n_vars;
    const bool *used;           /* used[i]: the pattern itself reads vars[i] */
};

/* Facts about each clause in the emitted code. */
struct emit_info {
    size_t leaves;   /* distinct leaves: 0 means the clause is unreachable */
    size_t sites;    /* places its code is reached from */
    bool shared;     /* its body became one shared lambda */
};

/* The Lisp form of test (or app call) t as emit_form writes it; user code
 * is expanded through the hooks only when expand is true.  NULL when a
 * hook failed. */
struct value *emit_test_form(struct memo_ctx *m, const struct dtest *t,
                             bool expand);

/* The code of the DAG root over clauses cl[0..n).  rsubj is the root
 * subject; when it is a temporary, subject (the expanded subject
 * expression) is bound to it first - or just evaluated for effect when
 * nothing reads it.  info (may be NULL) gets n entries.  Returns NULL when
 * a hook failed (the hook recorded the error) or the depth guard tripped
 * (m->too_deep). */
struct value *emit_form(struct memo_ctx *m, const struct dnode *root,
                        const struct subj *rsubj, struct value *subject,
                        const struct emit_clause *cl, size_t n,
                        struct emit_info *info);

#endif
