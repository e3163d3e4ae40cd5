/* buf.c - growable byte buffer (see buf.h). */
#include "buf.h"

#include <stdio.h>
#include <string.h>

void buf_init(struct buf *b, struct arena *a)
{
    b->a = a;
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void buf_init_room(struct buf *b, struct arena *a, size_t room)
{
    buf_init(b, a);
    b->cap = room + 1;
    b->data = arena_alloc(a, b->cap);
    b->data[0] = 0;
}

void buf_grow(struct buf *b, size_t extra)
{
    if (b->cap - b->len > extra)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len <= extra)
        cap *= 2;
    b->data = arena_grow(b->a, b->data, b->cap, cap);
    b->cap = cap;
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
    /* Format straight into the free room (at least 64 bytes: most
     * messages fit); only a longer result is formatted a second time. */
    buf_reserve(b, 64);
    size_t room = b->cap - b->len;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(b->data + b->len, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->data[b->len] = 0;
        return;
    }
    if ((size_t)n >= room) {
        buf_reserve(b, (size_t)n + 1);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *buf_cstr(struct buf *b)
{
    if (!b->cap)
        buf_reserve(b, 1), b->data[0] = 0;
    return b->data;
}
