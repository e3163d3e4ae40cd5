/* expand.h - the expansion driver: walk code positions, expand heads.
 *
 * Stage "walk + expand" of the pipeline.  expand_form walks one top-level
 * form (code positions only, cli.md section 3), and replaces every selected
 * pcase-family / cond* form by its expansion (nested ones inside it are
 * expanded as part of it).  Front ends (pcase.c, condstar.c) are dispatched
 * from a sorted table of heads.  Temporaries are uninterned symbols made by
 * expand_gensym; they are named at print time (cli.md section 7).
 */
#ifndef PCX_EXPAND_H
#define PCX_EXPAND_H

#include <stdbool.h>

#include "base/diag.h"
#include "lisp/intern.h"
#include "syntax/read.h"

/* One replaced form: the outermost expandable form at its site. */
struct expand_site {
    struct value *orig;      /* the form as read (origin map gives its span) */
    struct value *expansion; /* its replacement */
    const char *head;        /* "pcase", "cond*", ... */
};

struct expand_stats {
    size_t memo_hits;    /* computed-cache hits */
    size_t memo_misses;  /* computed-cache misses */
    size_t temporaries;  /* gensyms made */
    size_t forms;        /* forms expanded */
};

struct expand_ctx {
    struct lisp *L;                 /* values and symbols of the run */
    const struct read_result *src;  /* origin map for diagnostics; may be NULL */
    struct diag_list *diags;        /* where errors/warnings go */
    bool memo;                      /* computed cache on (results identical when off) */
    unsigned heads;                 /* bit set of selected heads (EXPAND_HEAD_*), 0 = all */
    int depth;                      /* shared recursion depth guard */
    int max_depth;                  /* limit; exceeding it is a nesting-too-deep error */
    struct expand_stats stats;
    struct expand_site *sites;      /* replaced sites of the current top-level form */
    size_t n_sites, cap_sites;
    void *priv;                     /* driver-private state (macro tables, memo) */
};

enum expand_head {
    EXPAND_HEAD_PCASE = 1u << 0,
    EXPAND_HEAD_PCASE_EXHAUSTIVE = 1u << 1,
    EXPAND_HEAD_PCASE_LET = 1u << 2,
    EXPAND_HEAD_PCASE_LET_STAR = 1u << 3,
    EXPAND_HEAD_PCASE_DOLIST = 1u << 4,
    EXPAND_HEAD_PCASE_SETQ = 1u << 5,
    EXPAND_HEAD_PCASE_LAMBDA = 1u << 6,
    EXPAND_HEAD_COND_STAR = 1u << 7,
};

void expand_init(struct expand_ctx *x, struct lisp *L, struct diag_list *diags,
                 const struct read_result *src);

/* Expand every selected form in code positions of the top-level form;
 * x->sites lists the replaced outermost sites.  Returns the new form (the
 * same pointer when nothing changed), or NULL after recording an error. */
struct value *expand_form(struct expand_ctx *x, struct value *form);

/* Expand nested forms inside a piece of user code (a body form, a guard,
 * an app function) - what front ends call on code they copy into their
 * output.  NULL after an error. */
struct value *expand_code(struct expand_ctx *x, struct value *code);

/* A fresh temporary with base name base ("x", "val", ...). */
struct value *expand_gensym(struct expand_ctx *x, const char *base);

/* Record a diagnostic at the text of v (or of the car of cons `at` when v
 * is a symbol; either may be NULL). */
void expand_diag(struct expand_ctx *x, enum diag_severity sev,
                 const struct value *at, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
