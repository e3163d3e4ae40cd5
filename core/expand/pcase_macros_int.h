/* pcase_macros_int.h - internals shared by the pattern-macro files.
 *
 * pcase_macros.c holds the table, the dispatch loop and templates;
 * pcase_macros_lib.c the library macros (seq, map, rx, cl-type, eieio);
 * pcase_structs.c struct layouts and the cl-struct macro.  Nothing outside
 * those files includes this header.
 */
#ifndef PCX_PCASE_MACROS_INT_H
#define PCX_PCASE_MACROS_INT_H

#include <string.h>

#include "expand/interp.h"
#include "expand/pcase_macros.h"

/* A pattern macro of the configuration or of a pcase-defmacro: a
 * template, or (a pcase-defmacro whose body is not one backquote
 * template) a function the evaluator calls. */
struct pm_template {
    struct value *name;
    struct value **req;      /* required parameters */
    size_t n_req;
    struct value **opt;      /* &optional parameters */
    struct value **opt_def;  /* their defaults (constants) */
    size_t n_opt;
    struct value *rest;      /* &rest parameter, or NULL */
    struct value *body;      /* the template: the backquote's argument */
    struct value *def;       /* defining form (for notes), NULL from config */
    bool evaluated;          /* fn, not a template, computes the expansion */
    struct interp_fn fn;     /* evaluated: ARGS and BODY of the pcase-defmacro */
    const char *origin;      /* the required file it came from, NULL: the input */
    bool from_file;          /* learned from the input (dropped per file) */
};

/* A struct layout: entries in cl-defstruct's order, the symbols
 * cl-tag-slot / cl-skip-slot standing for the tag and skipped slots. */
struct pm_struct {
    struct value *name;
    enum pcase_macros_struct_type type;
    struct value **e;        /* entries */
    size_t n;
    bool class_named;        /* cl--struct-class-named (typed :named) */
    struct value *missing;   /* non-NULL: layout unknown, this parent is */
    struct value *def;       /* defining form, NULL from config */
    const char *origin;      /* the required file it came from, NULL: the input */
    bool from_file;
};

struct pcase_macros {
    struct lisp *L;
    unsigned builtins;       /* enabled PCASE_MACROS_* */
    struct pm_template *tpl; /* in definition order; later ones win */
    size_t n_tpl, cap_tpl;
    struct pm_struct *st;
    size_t n_st, cap_st;
    const struct value *cur_orig; /* pattern of the running expand call:
                                     where errors on generated forms point */
    struct rx_env *rx;       /* rx-define / rx-let definitions (rx.h) */
    struct value **rx_names; /* the names rx-define forms learned defined */
    size_t n_rx, cap_rx;
};

/* A built-in macro: expand pattern (whose cdr is the proper list args),
 * or return NULL after a diagnostic. */
typedef struct value *pm_builtin_fn(struct expand_ctx *x, struct value *pattern,
                                    struct value *args);

pm_builtin_fn pcase_macros_seq, pcase_macros_map, pcase_macros_rx,
    pcase_macros_cl_type, pcase_macros_eieio, pcase_macros_cl_struct;

/* ---- building blocks (pcase_macros.c) ---- */
struct value *pm_sym(struct expand_ctx *x, const char *name);
/* Printed representation (prin1) for messages. */
const char *pm_show(struct expand_ctx *x, const struct value *v);
/* A symbol's name as princ shows it (%s in Emacs's messages), else prin1. */
const char *pm_name(struct expand_ctx *x, const struct value *v);
/* v when it has a source position, else fallback. */
const struct value *pm_at(struct expand_ctx *x, const struct value *v,
                          const struct value *fallback);
/* Record an error; always returns NULL. */
struct value *pm_error(struct expand_ctx *x, const struct value *at,
                       const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Error for a missing sub-pattern (Emacs would see `nil'). */
struct value *pm_missing(struct expand_ctx *x, const struct value *at);
/* (app FUN PAT). */
struct value *pm_app(struct expand_ctx *x, struct value *fun, struct value *pat);
/* (quote V). */
struct value *pm_quote(struct expand_ctx *x, struct value *v);
/* (and P...) of a C array (built in order). */
struct value *pm_and(struct expand_ctx *x, struct value *first,
                     struct value **items, size_t n);
/* Elements of a proper list (n gets the count); NULL if not proper. */
struct value **pm_items(struct expand_ctx *x, struct value *list, size_t *n);
/* Is v (may be NULL) the interned symbol NAME?  Inline, lengths compared
 * first (a constant for a literal NAME): it runs for every top-level
 * form. */
static inline bool pm_symbol_named(const struct value *v, const char *name)
{
    size_t n = strlen(name);
    return v && v->kind == VK_SYMBOL && v->u.sym.interned && v->u.sym.len == n &&
           memcmp(v->u.sym.name, name, n) == 0;
}

/* ---- structs (pcase_structs.c) ---- */
const struct pm_struct *pcase_macros_find_struct(struct pcase_macros *m,
                                                 const struct value *name);
bool pcase_macros_learn_defstruct(struct expand_ctx *x, struct value *form,
                                  const char *origin);

#endif
