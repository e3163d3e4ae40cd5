/* bquote.h - Emacs's backquote macro, for backquoted match* patterns.
 *
 * Stage "expand", a helper of the match* pattern compiler (matchstar.c).
 * match* has no backquote support of its own: it macroexpands a
 * backquoted pattern and matches the constructor expression that results
 * (cond-star.md 3.5).  This module computes that expression exactly as
 * Emacs's backquote.el does (its level-0 logic is the same in Emacs 28-31)
 * and expands the `backquote-list*` macro into nested `cons`.
 */
#ifndef PCX_BQUOTE_H
#define PCX_BQUOTE_H

#include "expand/condstar.h"

/* What (macroexpand FORM) gives for FORM = (\` STRUCTURE) or
 * (backquote-list* ARG...): the expansion of the head macro, repeated
 * while the result is again one of these two macros.  Returns NULL after
 * recording an error at `at` (Emacs's expansion-time errors: wrong number
 * of arguments, several arguments to `,' or `,@', improper lists). */
struct value *bquote_expand(struct expand_ctx *x,
                            const struct condstar_syms *S,
                            struct value *form, struct condstar_at at);

#endif
