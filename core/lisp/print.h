/* print.h - value -> text, exactly as Emacs 28.2's prin1-to-string.
 *
 * Canonical one-line printing (elisp-syntax.md section 2).  Iterative: deep
 * values do not recurse on the C stack.  The settings mirror Emacs's print
 * variables; print_opts_compact() gives what `--compact` uses (defaults with
 * print-escape-newlines = t).
 */
#ifndef PCX_PRINT_H
#define PCX_PRINT_H

#include <stdbool.h>

#include "../base/buf.h"
#include "intern.h"

struct print_opts {
    bool escape_newlines;      /* print-escape-newlines */
    bool escape_control;       /* print-escape-control-characters */
    bool escape_nonascii;      /* print-escape-nonascii */
    bool escape_multibyte;     /* print-escape-multibyte */
    bool quoted;               /* print-quoted (default true) */
    bool gensym;               /* print-gensym */
    bool circle;               /* print-circle */
    bool integers_as_chars;    /* print-integers-as-characters */
    long length;               /* print-length, -1 = nil */
    long level;                /* print-level, -1 = nil */
    const char *float_format;  /* float-output-format, NULL = nil */
    int charset_props;         /* print-charset-text-property: 0 nil, 1 t, 2 default */
    /* Source text of atoms read from input (NULL = always canonical). */
    const uint8_t *(*atom_text)(void *ctx, const struct value *v, size_t *n);
    void *atom_ctx;
};

/* Emacs's defaults (print-quoted t, everything else off). */
struct print_opts print_opts_default(void);
/* Defaults plus print-escape-newlines: the --compact format. */
struct print_opts print_opts_compact(void);

/* Append the printed representation of v to b. */
void print_value(struct lisp *L, struct buf *b, const struct value *v,
                 const struct print_opts *o);

/* Emacs's float printing (shortest round trip, %g conventions, INF/NaN). */
void print_float(struct buf *b, double f);

#endif
