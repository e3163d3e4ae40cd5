/* matchstar.h - the match* pattern compiler (cond-star.md section 3).
 *
 * Stage "expand", called by the cond* front end (condstar.c) for each
 * (match* PATTERN DATUM) condition.  A pattern is compiled against an
 * accessor of the datum temporary into one test expression plus a list of
 * variable bindings, with the dispatch order of Emacs's cond-star.el
 * (table 3.1, heads classified per 3.6), except where pcexpand fixes
 * Emacs's bugs Q1-Q4 and Q7 (with emacs-divergence warnings).
 */
#ifndef PCX_MATCHSTAR_H
#define PCX_MATCHSTAR_H

#include <stdbool.h>

#include "expand/condstar.h"

/* One pattern binding; lists are persistent (shared tails), most recent
 * first, as Emacs keeps them. */
struct matchstar_binding {
    struct value *var;                    /* the pattern variable */
    struct value *val;                    /* accessor of the datum, or an alias temporary */
    const struct matchstar_binding *next; /* bindings made before this one */
};

/* The alias temporary of a variable bound inside `or' or by `rx'. */
struct matchstar_alias {
    struct value *var;                  /* the pattern variable */
    struct value *temp;                 /* temporary (base "ba"), let-bound to nil */
    const struct matchstar_alias *next; /* aliases made before this one */
};

struct matchstar_result {
    struct value *test;                       /* the test; t when there is none */
    const struct matchstar_binding *bindings; /* for the body, most recent first */
    const struct matchstar_alias *aliases;    /* to bind to nil around the clause */
    bool opaque; /* the test calls user code (a predicate or constrain
                    expression not made of inert built-ins on constants
                    and variables) or runs code before it reads the
                    datum: the datum must be copied once, as Emacs does */
    bool effects; /* the test may signal or assign (a predicate, a regexp,
                     an alias); without, it only compares and may be left
                     out where its value is not needed */
};

/* Compile pattern against the datum temporary `datum`.  User code in the
 * pattern (predicate arguments, constrain expressions) is expanded with
 * expand_code.  When !value_used only the truth of the test counts (it
 * is a condition, not the value of the cond*), which allows a shorter
 * test.  Diagnostics point into the pattern (at = its position).
 * Returns false after recording an error. */
bool matchstar_compile(struct expand_ctx *x, const struct condstar_syms *S,
                       struct value *pattern, struct condstar_at at,
                       struct value *datum, bool value_used,
                       struct matchstar_result *out);

/* The binding list ((VAR VAL) ...) of b, oldest first (the order of the
 * pattern).  The values are accessors of the datum or alias temporaries,
 * never pattern variables, so they may be bound with let. */
struct value *matchstar_let_list(struct lisp *L,
                                 const struct matchstar_binding *b);

/* Is the table of pattern heads sorted by name without duplicates? */
bool matchstar_heads_sorted(void);

#endif
