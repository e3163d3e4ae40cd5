/* walk.h - the code walker: visit the code positions of a form.
 *
 * Stage "walk" of the pipeline (cli.md section 3).  A form is a tree of
 * Lisp values; only some sub-forms are evaluated.  A sorted table of
 * Emacs's special forms and common macros says, per head, which
 * arguments are code and which are data (quoted data, binding names,
 * argument lists, declare/interactive specs ...); backquote templates
 * contribute the operands of `,` and `,@` at nesting level 1.  The walker
 * calls back on every cons in a code position (SQLite-walker style:
 * continue, prune or abort) and can rebuild the form with replacements,
 * copying only the conses on the path to a replaced sub-form.  It uses an
 * explicit stack: deep input cannot overflow the C stack.
 */
#ifndef PCX_WALK_H
#define PCX_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "lisp/intern.h"

enum walk_status {
    WALK_CONTINUE, /* descend into the form's code positions */
    WALK_PRUNE,    /* skip the form's sub-forms (or use w->replacement) */
    WALK_ABORT,    /* stop the whole walk; walk_form returns NULL */
    WALK_SCOPE,    /* descend, then call w->leave on the form: it opens a
                      scope for its sub-forms (rx-let) */
};

struct walker;

/* Called on each cons in a code position, outermost first.  To replace
 * the form, store the new value in w->replacement and return WALK_PRUNE. */
typedef enum walk_status (*walk_visit_fn)(struct walker *w, struct value *form);

/* Called for each cons the walker rebuilt: `copy` stands for `orig` (same
 * source datum, some sub-form replaced).  May be NULL. */
typedef void (*walk_rebuilt_fn)(struct walker *w, struct value *orig,
                                struct value *copy);

/* Called when the walk leaves a form whose visit returned WALK_SCOPE:
 * after its sub-forms, or when the walk stops early (every open scope is
 * left, innermost first, before walk_form returns NULL). */
typedef void (*walk_leave_fn)(struct walker *w, struct value *form);

struct walker {
    struct lisp *L;              /* symbols and the arena for copies */
    walk_visit_fn visit;         /* the callback (required) */
    walk_rebuilt_fn rebuilt;     /* copy notification (optional) */
    walk_leave_fn leave;         /* end of a scope (required with WALK_SCOPE) */
    void *ctx;                   /* for the callbacks */
    struct value *replacement;   /* set by visit together with WALK_PRUNE */
    size_t max_depth;            /* stack frames allowed; 0 = 100000 */
    bool too_deep;               /* set when max_depth stopped the walk, or */
    bool circular;               /* ... a list in a code position loops */
    struct value *deep_at;       /* the form at which it stopped */
    void *spare;                 /* a frame stack kept between walks, so */
    size_t spare_cap;            /* a file of many forms reuses one stack */
};

/* Initialise w for a walk over values of L with callback visit. */
void walk_init(struct walker *w, struct lisp *L, walk_visit_fn visit, void *ctx);

/* Walk form, which is itself in a code position (visit is called on it
 * first when it is a cons).  Returns form with every replacement applied
 * (form itself when nothing was replaced), or NULL when a callback
 * aborted, the nesting exceeded w->max_depth or a list in a code position
 * is circular (w->too_deep is then set, and w->circular for the latter).
 * Copies come from w->L->a; the input is never modified. */
struct value *walk_form(struct walker *w, struct value *form);

/* The same for a body: a list of forms, each in a code position.  The
 * result is a list (body itself when nothing changed), or NULL. */
struct value *walk_body(struct walker *w, struct value *body);

/* Is name (NUL-terminated) a head the walker knows (a special form or one
 * of the macros of its table)?  For tests and diagnostics. */
bool walk_knows(const char *name);

/* Check that the head tables are sorted without duplicates (a unit test
 * calls this); returns the index of the first bad row, or -1. */
long walk_check_tables(void);

#endif
