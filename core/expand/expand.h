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

#include <stdarg.h>
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
    const struct read_form *top;    /* the top-level form expand_form is given,
                                       as src read it; NULL when unknown */
    struct diag_list *diags;        /* where errors/warnings go */
    bool memo;                      /* computed cache on (results identical when off) */
    uint32_t clean_off;             /* clean-up passes switched off (bit 1 << pass,
                                       match/clean.h) */
    bool keep_going;                /* --keep-going: expand_form returns the form
                                       with its failing forms as written */
    bool carriers;                  /* record which code carries which clause
                                       of pcase (expand_clause_of), for the
                                       printer's comments */
    unsigned heads;                 /* bit set of selected heads (EXPAND_HEAD_*), 0 = all */
    int depth;                      /* shared recursion depth guard */
    int max_depth;                  /* limit; exceeding it is a nesting-too-deep error */
    struct expand_stats stats;
    struct expand_site *sites;      /* replaced sites of the current top-level form */
    size_t n_sites, cap_sites;
    void *priv;                     /* driver-private state (macro tables, memo) */
    struct pcase_macros *macros;    /* pattern macros and struct layouts (pcase_macros.h) */
    struct learn *learn;            /* definitions learned from the forms (learn.h),
                                       made on first use */
    bool verbose;                   /* notes about what is learned (--verbose) */
    bool missed;                    /* a pattern needed a definition the run did not
                                       have (unknown head, struct layout, a function
                                       of an evaluated macro): a part of a large input
                                       that did not read the text before it runs
                                       again in one piece */
    struct pcase_scratch *scratch;  /* the pattern compilations' scratch arena
                                       (pcase_compile.c), made on first use */
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

/* Prepare x for one run (one input text): call after read_source, so
 * that the symbols read count as the input's (temporaries never take
 * their names).  Defaults: every head selected, memo on, max_depth 1000,
 * no pattern-macro table (set x->macros). */
void expand_init(struct expand_ctx *x, struct lisp *L, struct diag_list *diags,
                 const struct read_result *src);

/* Expand every selected form in code positions of the top-level form;
 * x->sites lists the replaced outermost sites.  Returns the new form (the
 * same pointer when nothing changed), or NULL after recording an error
 * (with x->keep_going: the form, each form whose expansion failed kept as
 * written).  A failing form does not stop the walk: the forms after it
 * are expanded too, so that every error of the form is reported.
 * Call it for every top-level form in file order: it also learns what the
 * form defines (learn_form: definitions, requires, definer macros). */
struct value *expand_form(struct expand_ctx *x, struct value *form);

/* For --at: every form with a selected head in a code position of the
 * top-level form, outermost first, including those nested inside others
 * (as they would be met if their enclosing forms were kept).  *out gets
 * an arena array; returns its length.  Stray cond* keywords are not
 * listed. */
size_t expand_list_forms(struct expand_ctx *x, struct value *form,
                         struct value ***out);

/* Restrict expansion to one form (one of expand_list_forms's results):
 * expand_form then replaces only it, with its nested forms, and leaves
 * every other form as written.  NULL lifts the restriction. */
void expand_set_target(struct expand_ctx *x, const struct value *target);

/* Expand nested forms inside a piece of user code (a body form, a guard,
 * an app function) - what front ends call on code they copy into their
 * output.  NULL after an error. */
struct value *expand_code(struct expand_ctx *x, struct value *code);

/* Would expand_code(x, code) return code itself without a diagnostic?
 * True when no cons of code has a head the driver acts on and the depth
 * guard has room: a look through code, cheaper than expand_code, for
 * callers that keep expansions in a table (most code needs no entry). */
bool expand_unchanged(struct expand_ctx *x, struct value *code);

/* Intern every head symbol of the expander in L with its VALUE_ROW_EXPAND
 * row, before a text is read into L: the reader then counts each
 * top-level form's head tokens (read_form.n_heads), and code read from
 * a stretch of text with none needs no look through it. */
void expand_prime_heads(struct lisp *L);

/* expand_code of code for which expand_unchanged has just answered
 * false: the look through code is not made again (code holding a nested
 * form is looked through up to it, then walked). */
struct value *expand_code_touched(struct expand_ctx *x, struct value *code);

/* expand_code that returns what it made even when a nested form failed
 * (that form kept as written); the caller compares the error count. */
struct value *expand_code_partial(struct expand_ctx *x, struct value *code);

/* Is the driver inside a front end (sites are recorded only outside)? */
bool expand_nested(const struct expand_ctx *x);

/* Record that the input form orig is replaced by expansion, at the
 * outermost level (x->sites; nothing when nested), and that the copy
 * stands for orig (expand_origin). */
void expand_add_site(struct expand_ctx *x, struct value *orig,
                     struct value *expansion, const char *head);
void expand_copied(struct expand_ctx *x, const struct value *copy,
                   const struct value *orig);

/* Record that the emitted code `code` (a list, or the list cell holding
 * an atom) carries the body of clause, a clause (PATTERN BODY...) of a
 * pcase form of the input. */
void expand_carries(struct expand_ctx *x, const struct value *code,
                    const struct value *clause);

/* The clause whose body v carries (expand_carries); for a clause itself,
 * the clause when some code carries it; else NULL. */
const struct value *expand_clause_of(const struct expand_ctx *x, const struct value *v);

/* The code of clause `rider` joined that of `clause` (the clean-up merged
 * their bodies): rider's comments go with clause's. */
void expand_rides(struct expand_ctx *x, const struct value *rider,
                  const struct value *clause);

/* The next clause that rides with clause (expand_rides), or NULL: the
 * riders of a clause, and theirs, are one chain. */
const struct value *expand_rider_of(const struct expand_ctx *x, const struct value *clause);

/* Emacs's error for the error diagnostic just recorded: the list
 * (ERROR-SYMBOL . DATA) that Emacs 30.1 signals when it expands the same
 * form (for ERT, which turns it into a run-time signal); it becomes the
 * diagnostic's detail. */
void expand_set_signal(struct expand_ctx *x, struct value *err);

/* expand_set_signal of (error "PREFIX%S") with v as %S: the error of a
 * macro that calls (error "PREFIX%S" v). */
void expand_set_error_signal(struct expand_ctx *x, const char *prefix,
                             const struct value *v);

/* A fresh temporary with base name base ("x", "val", ...): an uninterned
 * symbol, named when printed (gensym.h).  A base starting with '_'
 * ("_") marks a temporary bound only for its side effects. */
struct value *expand_gensym(struct expand_ctx *x, const char *base);

/* The run's table of temporaries: configure its naming (gensym_configure)
 * and pass it to the printer (gensym_text as pretty_opts.sym_text). */
struct gensym *expand_gensyms(struct expand_ctx *x);

/* The datum of the input that v stands for: v itself, or the reader's
 * form when v is a copy the driver made (a form with a nested expansion
 * replaced inside).  For comment attachment and diagnostics. */
const struct value *expand_origin(const struct expand_ctx *x,
                                  const struct value *v);

/* Is the walk inside cl-macrolet or cl-symbol-macrolet (whose macros may
 * read pattern variables that no scan of the body sees)? */
bool expand_in_local_macros(const struct expand_ctx *x);

/* EXPAND_HEAD_* bit of a head name ("pcase-let*"), 0 if not a head. */
int expand_head_bit(const char *name);

/* EXPAND_HEAD_* bit of a head symbol's name (0 for any other value),
 * from the answer cached on the symbol: for front ends that dispatch on
 * the head of the form they were given. */
unsigned expand_head_of(const struct value *sym);

/* Check the head tables (tests): the index of the first unsorted row of
 * the head table, 100 + the row of a head / 200 + the index of a stray
 * keyword whose first bytes the quick filter would reject, or -1. */
long expand_check_tables(void);

/* Record a diagnostic at the text of v (or of the car of cons `at` when v
 * is a symbol; either may be NULL). */
void expand_diag(struct expand_ctx *x, enum diag_severity sev,
                 const struct value *at, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* expand_diag with the arguments as a va_list (for wrappers that choose
 * the position themselves). */
void expand_diagv(struct expand_ctx *x, enum diag_severity sev,
                  const struct value *at, const char *code, const char *fmt,
                  va_list ap) __attribute__((format(printf, 5, 0)));

#endif
