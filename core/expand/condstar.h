/* condstar.h - the cond* front end (cond-star.md).
 *
 * Stage "expand" of the pipeline, dispatched by the driver (expand.c) for
 * the head `cond*`.  condstar.c compiles the clause structure (exit and
 * non-exit clauses, bind*, bind-and*, match*, pcase*); matchstar.c compiles
 * match* patterns; bquote.c lowers backquoted match* patterns the way
 * Emacs's backquote macro does.  This header also holds what those three
 * files share: the symbols they generate and positioned diagnostics.
 */
#ifndef PCX_CONDSTAR_H
#define PCX_CONDSTAR_H

#include <stdbool.h>

#include "expand/expand.h"

/* Expand one form whose head is `cond*`.  Returns the expansion (generated
 * code plus expanded user code, from x->L->a) in which no cond*, match*,
 * bind*, bind-and*, pcase* or pcase-family head remains in a code
 * position, or NULL after recording an error (malformed-pattern,
 * unknown-pattern, nesting-too-deep) at the offending sub-form.  Emacs's
 * broken behaviours that pcexpand fixes are reported as emacs-divergence
 * warnings (cond-star.md section 5) and do not fail the form. */
struct value *condstar_expand(struct expand_ctx *x, struct value *form);

struct pcase_explain_out;

/* --explain: one section for the cond* form, a clause per clause (its
 * condition in the order Emacs evaluates them, what it binds).  False
 * after recording an error (the errors of condstar_expand). */
bool condstar_explain(struct expand_ctx *x, struct value *form, struct pcase_explain_out *out);

/* Symbols that the cond* modules test for or generate, interned once per
 * expanded form (ORDER: condstar-syms, see condstar.c). */
struct condstar_syms {
    struct value *underscore, *nil, *t, *quote, *function;
    struct value *and_, *or_, *if_, *cond, *progn, *let, *let_star, *setq,
        *prog1, *when;
    struct value *car, *cdr, *nth, *nthcdr, *consp, *null, *eq, *eql,
        *equal, *num_eq, *aref, *vectorp, *length, *memq, *memql, *member;
    struct value *string_match, *match_string, *concat, *rx_to_string;
    struct value *cons, *list, *vector, *apply, *cdr_ignore, *rx, *constrain,
        *append, *vconcat, *bq_list_star, *backquote, *comma, *comma_at;
    struct value *bind_star, *bind_and_star, *match_star, *pcase_star,
        *non_exit;
    struct value *end_anchor; /* the string "\\'" */
};

/* Fill s with the symbols of L. */
void condstar_syms_init(struct condstar_syms *s, struct lisp *L);

/* Where a diagnostic points: the text of v, or, when v has no text of its
 * own (a symbol, a generated value), the car of the cons holder. */
struct condstar_at {
    const struct value *v;      /* the offending sub-form */
    const struct value *holder; /* a cons whose car is v, or NULL */
};

/* The position for child (the car of holder, which may be NULL) if the
 * source text knows it, else parent: sub-forms made by a macro (backquote
 * lowering) are reported at the form they came from. */
struct condstar_at condstar_at_child(const struct expand_ctx *x,
                                     struct condstar_at parent,
                                     const struct value *child,
                                     const struct value *holder);

/* Record a diagnostic at `at` (span 0..0 when the text is unknown). */
void condstar_diag(struct expand_ctx *x, enum diag_severity sev,
                   struct condstar_at at, const char *code, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

/* Enter one level of a recursive pass: false (after recording a
 * nesting-too-deep error at `at`) when x->max_depth is exceeded.  Every
 * successful enter is paired with condstar_leave. */
bool condstar_enter(struct expand_ctx *x, struct condstar_at at);
void condstar_leave(struct expand_ctx *x);

/* A short printed form of v for messages (symbol names as they are,
 * other values as "a list", "a number", ...). */
const char *condstar_describe(struct lisp *L, const struct value *v);

/* Is v a keyword (an interned symbol whose name starts with ':')? */
bool condstar_keywordp(const struct value *v);

#endif
