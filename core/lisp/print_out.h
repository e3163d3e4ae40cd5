/* print_out.h - inline appends to a struct buf for the printer's hot paths
 * (private to print.c, print_atom.c): tokens are short, so an out-of-line
 * buf_put per token would dominate.  They leave the NUL after the data to
 * out_end, which every public print_* function calls before returning.
 */
#ifndef PCX_PRINT_OUT_H
#define PCX_PRINT_OUT_H

#include <stdint.h>
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

/* out_put for a symbol's name, the most frequent token: a few bytes,
 * copied as two overlapping words (both inside the n bytes), no call. */
static inline void out_name(struct buf *b, const char *s, size_t n)
{
    if (n < 4 || n > 16) {
        out_put(b, s, n);
        return;
    }
    char *d = out_room(b, n);
    if (n >= 8) {
        uint64_t x, y;
        memcpy(&x, s, 8);
        memcpy(&y, s + n - 8, 8);
        memcpy(d, &x, 8);
        memcpy(d + n - 8, &y, 8);
    } else {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4);
        memcpy(d + n - 4, &y, 4);
    }
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
