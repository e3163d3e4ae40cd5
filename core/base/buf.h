/* buf.h - growable byte buffer backed by an arena; the appends inline. */
#ifndef PCX_BUF_H
#define PCX_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "arena.h"

struct buf {
    struct arena *a;  /* owner of data */
    char *data;       /* bytes, NUL-terminated after len when cap > 0 */
    size_t len;       /* bytes used */
    size_t cap;       /* bytes allocated */
};

void buf_init(struct buf *b, struct arena *a);
/* An empty buffer with room for exactly `room` bytes and the NUL (no
 * rounding up: a large buffer whose size is known within a few percent
 * takes no more memory than it needs); it grows as any other. */
void buf_init_room(struct buf *b, struct arena *a, size_t room);
/* buf_reserve's slow path: grows b to more than len + extra bytes. */
void buf_grow(struct buf *b, size_t extra);

/* Room for extra more bytes and the NUL.  The appends are inline: the
 * layout engine writes its text a byte or a token at a time, and a call
 * per byte cost more than the byte. */
static inline void buf_reserve(struct buf *b, size_t extra)
{
    if (b->cap - b->len <= extra)
        buf_grow(b, extra);
}

static inline void buf_put(struct buf *b, const void *p, size_t n)
{
    buf_reserve(b, n);
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

static inline void buf_puts(struct buf *b, const char *s) { buf_put(b, s, strlen(s)); }

static inline void buf_putc(struct buf *b, char c)
{
    buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = 0;
}
void buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* NUL-terminated contents (valid until the next write). */
const char *buf_cstr(struct buf *b);

#endif
