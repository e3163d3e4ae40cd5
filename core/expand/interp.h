/* interp.h - a small, pure, bounded evaluator for the Lisp of macro bodies.
 *
 * Pattern macros (pcase-defmacro) and definer macros (a defmacro whose
 * expansion is a cl-defstruct or a pcase-defmacro) compute their result
 * with ordinary Lisp: list, cons, backquote, let, if, mapcar, format...
 * This module evaluates that subset (docs/definitions.md lists it) on
 * the run's values, and nothing else: no input or output, no buffers, no
 * state that outlives an evaluation (setcar and put are refused; a setq
 * of a defvar'd variable, and its let-binding, which is dynamic as in
 * Emacs, last until the evaluation ends: each starts from the values of
 * the defvars).  The special forms and built-in functions are rows of
 * sorted tables; a function of neither is asked of the host (the defuns
 * and defmacros of the file and of the files it requires).
 *
 * Bounded: every evaluation counts its steps (forms evaluated, loop
 * turns), the bytes of the values it makes and its nesting, against the
 * limits of one call and against a budget shared by the calls of a run;
 * passing one ends the evaluation with INTERP_LIMIT.  The nesting limit
 * keeps the C stack small (the evaluator recurses, one level per
 * nested evaluation).  Deterministic: make-symbol and gensym ask the host
 * for their symbols, nothing depends on pointers.
 */
#ifndef PCX_INTERP_H
#define PCX_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lisp/intern.h"

/* Limits of one evaluation (interp_apply, interp_eval). */
#define INTERP_MAX_STEPS 1000000u      /* forms evaluated and loop turns */
#define INTERP_MAX_BYTES ((size_t)64 << 20) /* memory of the values made */
#define INTERP_MAX_DEPTH 500u          /* nested evaluations */
/* Budget of all the evaluations of one run (interp_budget_init). */
#define INTERP_RUN_STEPS 20000000u
#define INTERP_RUN_BYTES ((size_t)256 << 20)

/* What is left of a run's budget; the evaluator takes from it. */
struct interp_budget {
    uint64_t steps;
    size_t bytes;
};

/* A run's whole budget. */
void interp_budget_init(struct interp_budget *b);

/* A function or macro definition the evaluator may call. */
struct interp_fn {
    struct value *name;   /* a symbol (for messages) */
    struct value *args;   /* lambda list */
    struct value *body;   /* list of body forms (a docstring, declare and
                             interactive forms evaluate to themselves/nil) */
    struct value *env;    /* lexical environment, an alist (nil: none) */
    struct value *alias;  /* non-NULL: defalias to this function value
                             (a symbol or a closure); args/body unused */
    bool macro;           /* arguments are passed unevaluated, the result
                             evaluated in the caller's environment */
    bool cl;              /* cl-defun/cl-defmacro lambda list: &key,
                             &body, &aux, defaults, destructuring */
};

/* What the evaluator asks of its host. */
struct interp_host {
    /* The definition of function or macro sym, or NULL (then the call is
     * INTERP_UNKNOWN).  May be NULL. */
    const struct interp_fn *(*function)(void *ctx, struct value *sym);
    /* The global value of variable sym: true with *out, or false (then
     * a reference is INTERP_UNKNOWN).  May be NULL. */
    bool (*variable)(void *ctx, struct value *sym, struct value **out);
    /* A fresh uninterned symbol named name (make-symbol, gensym).  NULL:
     * intern_uninterned. */
    struct value *(*make_symbol)(void *ctx, const char *name, size_t len);
    void *ctx;
    struct interp_budget *budget; /* the run's budget; NULL: none */
    /* Is sym a special (defvar'd) variable, bound dynamically by let?
     * NULL: those `variable' gives a value. */
    bool (*special)(void *ctx, struct value *sym);
};

enum interp_status {
    INTERP_OK,
    INTERP_UNKNOWN, /* a function or variable the evaluator does not have */
    INTERP_SIGNAL,  /* the code signalled an error (error, wrong-type-argument...) */
    INTERP_LIMIT,   /* a limit of interp.h was passed */
};

struct interp_result {
    enum interp_status status;
    struct value *value;   /* INTERP_OK: the value */
    struct value *what;    /* INTERP_UNKNOWN: the function or variable */
    bool variable;         /* INTERP_UNKNOWN: what is a variable */
    struct value *signal;  /* INTERP_SIGNAL: (ERROR-SYMBOL . DATA) */
    const char *message;   /* not OK: what went wrong, worded as Emacs's
                              error-message-string words a signal
                              ("Wrong type argument: listp, 3"), or the
                              unknown name or the limit */
    uint64_t steps;        /* steps taken */
};

/* Call fn with args (a proper list: evaluated arguments for a function,
 * the argument forms for a macro, whose expansion is returned, not
 * evaluated).  Values are made in L's arena. */
void interp_apply(struct lisp *L, const struct interp_host *h, const struct interp_fn *fn,
                  struct value *args, struct interp_result *out);

/* Evaluate form in an empty lexical environment. */
void interp_eval(struct lisp *L, const struct interp_host *h, struct value *form,
                 struct interp_result *out);

/* Are the tables of special forms and functions sorted, without
 * duplicates (for tests)? */
bool interp_tables_sorted(void);

/* Is name a special form or a function the evaluator knows itself? */
bool interp_knows(const char *name);

#endif
