/* interp_int.h - internals shared by interp.c (evaluation, special forms,
 * lambda lists) and interp_lib.c (the built-in functions).  Nothing
 * outside those files includes this header.
 */
#ifndef PCX_INTERP_INT_H
#define PCX_INTERP_INT_H

#include "expand/interp.h"

/* Bytes a value is charged for (its header and member). */
#define INTERP_VALUE_BYTES sizeof(struct value)

/* State of one evaluation.  A failure (an error signalled, an unknown
 * function, a limit) is recorded in res and sets failed; every caller
 * returns NULL from then on, so the evaluation unwinds to interp_apply.
 * Allocation never fails early: a value made past the memory limit is
 * still made (structures stay whole) but sets failed, and every loop that
 * allocates checks failed. */
struct interp_st {
    struct lisp *L;
    const struct interp_host *h;
    struct interp_result *res;
    uint64_t steps, max_steps;
    size_t bytes, max_bytes;
    unsigned depth;
    bool failed;
    /* Special variables: the dynamic bindings of let (SYM . VALUE),
     * innermost first, and the global values set by setq during this
     * evaluation (the host's defvars are their initial values). */
    struct value *dyn, *globals;
    struct value *case_fold; /* the symbol case-fold-search */
    /* The match data of the last string-match of this evaluation: the
     * start and end of each group (-1: did not match); NULL before any. */
    long *match;
    size_t n_match;
    /* The expansions of the macro calls of this evaluation, by the call
     * form's identity (an open-addressing table; a power of two). */
    struct value **mx_form, **mx_expansion;
    size_t mx_n, mx_cap;
    /* The regexps compiled in this evaluation (interp_re.c). */
    struct re_cache *re_cache;
    /* symbols the evaluator compares with */
    struct value *closure, *optional, *rest, *body, *key, *aux, *allow, *whole,
        *environment, *error;
};

/* A built-in function: a C array of its n evaluated arguments (min <= n
 * <= max, checked by the caller).  NULL after a failure. */
typedef struct value *interp_builtin(struct interp_st *s, struct value **a, size_t n);

struct interp_row {
    const char *name;
    short min, max; /* max -1: any number */
    interp_builtin *fn;
};

/* The row of the built-in function name, or NULL (interp_lib.c). */
const struct interp_row *interp_lib_find(const char *name);
bool interp_lib_sorted(void);

/* ---- values, charged to the evaluation (interp.c) ---- */
bool interp_charge(struct interp_st *s, size_t bytes);
struct value *interp_cons(struct interp_st *s, struct value *car, struct value *cdr);
struct value *interp_int(struct interp_st *s, int64_t i);
struct value *interp_float(struct interp_st *s, double f);
struct value *interp_string(struct interp_st *s, const void *data, size_t len,
                            bool multibyte);
struct value *interp_list(struct interp_st *s, struct value *const *v, size_t n);
/* t or nil. */
struct value *interp_bool(struct interp_st *s, bool b);
/* A fresh uninterned symbol (the host's, when it makes them). */
struct value *interp_make_symbol(struct interp_st *s, const char *name, size_t len);

/* ---- failures (interp.c); each returns NULL ---- */
/* (signal 'ERRSYM DATA) with DATA a list. */
struct value *interp_signal(struct interp_st *s, struct value *errsym, struct value *data);
/* (signal ERRNAME (list v...)) of n values. */
struct value *interp_signal_n(struct interp_st *s, const char *errname, size_t n, ...);
/* (wrong-type-argument PRED V). */
struct value *interp_wrong_type(struct interp_st *s, const char *pred, struct value *v);
/* (error "MESSAGE"), message formatted in C. */
struct value *interp_error(struct interp_st *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A function (variable: false) or variable the evaluator does not have. */
struct value *interp_unknown(struct interp_st *s, struct value *what, bool variable);
/* A limit passed: message says which. */
struct value *interp_limit(struct interp_st *s, const char *message);
/* One step; false (failed) past the step limit. */
bool interp_tick(struct interp_st *s);

/* ---- calling (interp.c) ---- */
/* (funcall fn a...) of a function value: a symbol, a closure, a lambda. */
struct value *interp_funcall(struct interp_st *s, struct value *fn, struct value **a,
                             size_t n);
/* The elements of a proper list into an array (charged); NULL and a
 * wrong-type-argument listp signal when v is not one. *n gets the count. */
struct value **interp_items(struct interp_st *s, struct value *v, size_t *n);

/* The value of the special variable sym where it is read now: its
 * innermost dynamic binding, else its global value (interp.c). */
struct value *interp_global(struct interp_st *s, struct value *sym);

/* ---- regular expressions (interp_re.c) ---- */
/* The row of the regexp function name, or NULL. */
const struct interp_row *interp_re_find(const char *name);
bool interp_re_sorted(void);
/* save-match-data's body (a special form of interp.c). */
typedef struct value *interp_body_fn(struct interp_st *s, struct value *body,
                                     struct value *env);
struct value *interp_save_match_data(struct interp_st *s, struct value *body,
                                     struct value *env, interp_body_fn *progn);

/* ---- small helpers ---- */
static inline bool interp_nilp(const struct interp_st *s, const struct value *v)
{
    return v == s->L->nil;
}

/* Emacs's eq: identity, but fixnums (characters too) by value. */
bool interp_eq(const struct value *a, const struct value *b);

#endif
