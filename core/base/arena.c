/* arena.c - page-chained bump allocator (see arena.h). */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN 16
#define PAGE_MIN (64 * 1024)

struct arena_page {
    struct arena_page *prev;  /* older page */
    size_t size;              /* usable bytes after the header */
    _Alignas(16) char data[]; /* payload */
};

static void *malloc_alloc(void *ctx, size_t n) { (void)ctx; return malloc(n); }
static void malloc_free(void *ctx, void *p) { (void)ctx; free(p); }

const struct arena_backing arena_malloc_backing = {malloc_alloc, malloc_free, NULL};

struct arena *arena_new(const struct arena_backing *backing)
{
    const struct arena_backing *b = backing ? backing : &arena_malloc_backing;
    struct arena *a = b->alloc(b->ctx, sizeof *a);
    if (!a)
        return NULL;
    memset(a, 0, sizeof *a);
    a->backing = *b;
    return a;
}

void arena_free(struct arena *a)
{
    if (!a)
        return;
    struct arena_page *p = a->page;
    while (p) {
        struct arena_page *prev = p->prev;
        a->backing.free(a->backing.ctx, p);
        p = prev;
    }
    a->backing.free(a->backing.ctx, a);
}

void arena_on_oom(struct arena *a, jmp_buf *jb) { a->oom = jb; }

/* Out of memory: jump to the run's handler.  Without one there is no safe
 * way to continue, so abort. */
static void oom(struct arena *a)
{
    if (a->oom)
        longjmp(*a->oom, 1);
    abort();
}

/* Push a new page with room for at least n bytes. */
static void new_page(struct arena *a, size_t n)
{
    size_t size = PAGE_MIN;
    if (a->page && a->page->size < 16 * 1024 * 1024)
        size = a->page->size * 2;
    if (size < n)
        size = n;
    if (size > SIZE_MAX - sizeof(struct arena_page) ||
        (a->limit && a->total + size > a->limit))
        oom(a);
    struct arena_page *p = a->backing.alloc(a->backing.ctx, sizeof *p + size);
    if (!p)
        oom(a);
    a->total += size;
    p->prev = a->page;
    p->size = size;
    a->page = p;
    a->cur = p->data;
    a->end = p->data + size;
}

void *arena_alloc(struct arena *a, size_t n)
{
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX - ALIGN)
        oom(a);
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if ((size_t)(a->end - a->cur) < n)
        new_page(a, n);
    void *r = a->cur;
    a->cur += n;
    return r;
}

void *arena_zalloc(struct arena *a, size_t n)
{
    void *p = arena_alloc(a, n);
    memset(p, 0, n);
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (n)
        memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void *arena_grow(struct arena *a, void *p, size_t old_n, size_t new_n)
{
    size_t old_r = (old_n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    /* The most recent block can grow in place when the page has room. */
    if (p && (char *)p + old_r == a->cur && new_n >= old_n &&
        (size_t)(a->end - (char *)p) >= new_n) {
        size_t new_r = (new_n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
        if ((size_t)(a->end - (char *)p) >= new_r) {
            a->cur = (char *)p + new_r;
            return p;
        }
    }
    void *q = arena_alloc(a, new_n);
    if (p && old_n)
        memcpy(q, p, old_n < new_n ? old_n : new_n);
    return q;
}

struct arena_mark arena_mark(struct arena *a)
{
    struct arena_mark m = {a->page, a->cur, a->end};
    return m;
}

void arena_release(struct arena *a, struct arena_mark m)
{
    while (a->page != m.page) {
        struct arena_page *prev = a->page->prev;
        a->total -= a->page->size;
        a->backing.free(a->backing.ctx, a->page);
        a->page = prev;
    }
    a->cur = m.cur;
    a->end = m.end;
}
