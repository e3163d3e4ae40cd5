/* gensym.h - temporaries: made during expansion, named at print time.
 *
 * Stage "expand" (making) and "print" (naming), cli.md section 7.  The
 * front ends get fresh uninterned symbols from gensym_make (through
 * expand_gensym); the table remembers their base names.  When a
 * top-level form is printed, gensym_text gives the text of each
 * occurrence in print order, so numbers follow first appearance in the
 * printed output:
 *   rename  PREFIX BASE N (`pcx--x0`), side-effect-only ones `_` PREFIX N;
 *           names of symbols of the input file are skipped;
 *   hash    `#:x0` (for viewing; not readable as the same program);
 *   circle  `#K=#:x0` at the first occurrence, `#K#` after it.
 * N counts per top-level form and per base; K per top-level form, above
 * the labels its input text uses.
 */
#ifndef PCX_GENSYM_H
#define PCX_GENSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lisp/intern.h"

enum gensym_mode {
    GENSYM_RENAME, /* default */
    GENSYM_HASH,
    GENSYM_CIRCLE,
};

struct gensym; /* the run's table of temporaries (arena-owned) */

/* A table for the run of L: rename mode, prefix "pcx--".  Every symbol
 * interned in L so far counts as a symbol of the input (see
 * gensym_set_input_limit). */
struct gensym *gensym_new(struct lisp *L);

/* Naming mode and prefix (NULL keeps "pcx--"); prefix is copied. */
void gensym_configure(struct gensym *g, enum gensym_mode mode,
                      const char *prefix);

/* Interned symbols created before symbol id `limit` are the input's:
 * renamed temporaries never take their names.  gensym_new sets it to the
 * next id of L at that moment, so create the table after reading. */
void gensym_set_input_limit(struct gensym *g, uint32_t limit);
uint32_t gensym_input_limit(const struct gensym *g);

/* The names of known's table count as symbols of the input too (a
 * stretch of standard input: the symbols named like temporaries that
 * earlier stretches read).  NULL: none. */
void gensym_set_known(struct gensym *g, const struct lisp *known);

/* A fresh temporary with base name base ("x", "val", ...).  A base
 * starting with '_' marks a temporary held only for its side effects
 * (named `_` PREFIX REST N).  Never NULL. */
struct value *gensym_make(struct gensym *g, const char *base);

/* Is sym a temporary of this table? */
bool gensym_is_temp(const struct gensym *g, const struct value *sym);

/* Number of temporaries made so far. */
size_t gensym_count(const struct gensym *g);

/* Start printing a new top-level form: numbers and labels restart.
 * label_floor: the highest #N= label the form's input text uses (0 for
 * none; see splice_label_floor). */
void gensym_begin_form(struct gensym *g, unsigned label_floor);

/* Text of one occurrence of sym, in print order (a pretty_sym_fn: ctx is
 * the struct gensym).  NULL when sym is not a temporary.  The text lives
 * in the run's arena. */
const char *gensym_text(void *ctx, const struct value *sym, size_t *n);

/* gensym_begin_form for callbacks that pass the table as void *
 * (splice_in.begin_form). */
void gensym_begin_form_cb(void *g, unsigned label_floor);

#endif
