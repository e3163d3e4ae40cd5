/* pcase.h - the pcase family: surface forms -> pattern IR -> decision DAG -> Lisp.
 *
 * Stage "expand" of the pipeline for the heads pcase, pcase-exhaustive,
 * pcase-let, pcase-let*, pcase-dolist, pcase-setq and pcase-lambda
 * (pcase.md sections 1-3).  The front end normalises each clause pattern
 * (backquote, `let`, self-quoting atoms; other heads through
 * pcase_macros_expand) into match/pat IR, builds the decision DAG with
 * match/dtree and prints it back to Lisp with match/emit.  Nested forms in
 * copied user code (bodies, guards, pred/app functions, subjects) are
 * expanded with expand_code; temporaries come from expand_gensym.
 */
#ifndef PCX_PCASE_H
#define PCX_PCASE_H

#include <stdbool.h>

#include "base/buf.h"
#include "expand/expand.h"
#include "match/explain.h"

/* Expand one form whose head is pcase, pcase-exhaustive, pcase-let,
 * pcase-let*, pcase-dolist, pcase-setq or pcase-lambda.  Returns the
 * expansion (generated code plus expanded user code, allocated from
 * x->L->a), or NULL after recording an error diagnostic (malformed-pattern,
 * unknown-pattern, nesting-too-deep, ...) at the offending sub-form.
 * Warnings (unreachable-clause, exhaustive-*, unused-variable, ...) are
 * recorded through expand_diag and do not fail the form. */
struct value *pcase_expand(struct expand_ctx *x, struct value *form);

/* The `pcase*` exit clause of cond* (cond-star.md 6.5): behaves like
 *   (pcase SUBJECT CLAUSE... (_ ON-NOMATCH))
 * subject: user code (expanded here, evaluated once unless copyable);
 * clauses: a list of (PATTERN BODY...) from the input (bodies expanded here);
 * on_nomatch: an already expanded form evaluated when no clause matches, in
 * the scope of the pcase form (no pattern variable bound); NULL means nil.
 * The implicit fallback clause is never reported as unreachable.
 * Returns the expansion, or NULL after recording an error. */
struct value *pcase_compile_clauses(struct expand_ctx *x, struct value *subject,
                                    struct value *clauses,
                                    struct value *on_nomatch);

/* Unchecked destructuring, exactly as (pcase-let ((PATTERN VALUE)) BODY...)
 * (pcase.md 1.3): tests are evaluated but their failure is ignored.
 * pattern: a pcase pattern from the input; value_expr: user code (expanded
 * here); body: a list of already expanded forms, run with the pattern's
 * variables bound (nil body gives nil).  Returns the expansion, or NULL
 * after recording an error. */
struct value *pcase_destructure(struct expand_ctx *x, struct value *pattern,
                                struct value *value_expr, struct value *body);

/* Index of the first unsorted row of the front end's head tables (the
 * seven heads, also a row whose bit is not its name's; then, offset by
 * 100, the core pattern heads), or -1. */
long pcase_check_tables(void);

/* Intermediate stages for --dump (cli.md 4.6). */
enum pcase_dump_kind {
    PCASE_DUMP_PAT,   /* normalised pattern IR of each clause */
    PCASE_DUMP_DTREE, /* the decision DAG */
    PCASE_DUMP_DOT,   /* the decision DAG as Graphviz DOT */
    PCASE_DUMP_CLEAN, /* the code as emitted and after each clean-up pass */
};

/* Append the dump of one pcase-family form to out (no ";;;" header line:
 * the caller knows the file position).  Forms whose head is pcase-let,
 * pcase-let*, pcase-setq, pcase-dolist or pcase-lambda dump one section per
 * destructured pattern.  Returns false after recording an error (same
 * errors as pcase_expand). */
bool pcase_dump(struct expand_ctx *x, struct value *form,
                enum pcase_dump_kind kind, struct buf *out);

/* The --explain sections of one form (one per compilation, in the order
 * they are compiled). */
struct pcase_explain_out {
    struct explain_section *secs;
    size_t n, cap;
};

/* Explain one pcase-family form into out.  Returns false after recording
 * an error (same errors as pcase_expand). */
bool pcase_explain(struct expand_ctx *x, struct value *form, struct pcase_explain_out *out);

#endif
