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

/* print_string_text under the default escapes (print-escape-control-
 * characters and print-escape-multibyte off; nl: print-escape-newlines)
 * into d, which has room for 4 * len + 2 bytes; returns the end.  In
 * print_atom.c, with the general string printer it agrees with. */
char *print_string_short(char *d, const struct value *v, bool nl);

#endif
