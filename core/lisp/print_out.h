/* print_out.h - inline appends to a struct buf for the printer's hot paths
 * (private to print.c, print_atom.c): tokens are short, so an out-of-line
 * buf_put per token would dominate.  They leave the NUL after the data to
 * out_end, which every public print_* function calls before returning.
 */
#ifndef PCX_PRINT_OUT_H
#define PCX_PRINT_OUT_H

#include <string.h>

#include "../base/buf.h"

/* Pointer to at least n + 1 free bytes at the end of b. */
static inline char *out_room(struct buf *b, size_t n)
{
    if (b->cap - b->len <= n)
        buf_reserve(b, n);
    return b->data + b->len;
}

static inline void out_put(struct buf *b, const void *p, size_t n)
{
    char *d = out_room(b, n);
    if (n)
        memcpy(d, p, n);
    b->len += n;
}

static inline void out_putc(struct buf *b, char c)
{
    *out_room(b, 1) = c;
    b->len++;
}

/* Literal strings without strlen at run time. */
#define OUT_LIT(b, s) out_put((b), (s), sizeof(s) - 1)

/* Restore buf's NUL terminator (out_room always leaves room for it). */
static inline void out_end(struct buf *b)
{
    *out_room(b, 0) = 0;
}

#endif
