/* print_fast.h - print_tree's fast path for plain trees (print_fast.c);
 * private to the print module. */
#ifndef PCX_PRINT_FAST_H
#define PCX_PRINT_FAST_H

#include <stdbool.h>

#include "print.h"

/* Do options o leave the fast path's output equal to the general one's
 * (no print-circle, print-length, print-level or kept source text)? */
bool print_fast_usable(const struct print_opts *o);

/* print_tree for values of conses, plain vectors and atoms nested at
 * most PRINT_FAST_DEPTH deep; false (b as before) for anything else.
 * o must be usable (print_fast_usable). */
bool print_fast(struct lisp *L, struct buf *b, const struct value *v,
                const struct print_opts *o);

#endif
