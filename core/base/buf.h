/* buf.h - growable byte buffer backed by an arena. */
#ifndef PCX_BUF_H
#define PCX_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "arena.h"

struct buf {
    struct arena *a;  /* owner of data */
    char *data;       /* bytes, NUL-terminated after len when cap > 0 */
    size_t len;       /* bytes used */
    size_t cap;       /* bytes allocated */
};

void buf_init(struct buf *b, struct arena *a);
void buf_reserve(struct buf *b, size_t extra);
void buf_put(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* NUL-terminated contents (valid until the next write). */
const char *buf_cstr(struct buf *b);

#endif
