/* arena.c - page-chained bump allocator (see arena.h).
 *
 * Pages of the malloc backing are recycled: a run's arena (one per input
 * file) and each pattern compilation's scratch arena give theirs back to a
 * process-wide cache, so the next arena reuses memory the kernel has
 * already mapped and zeroed instead of faulting fresh pages in (page
 * faults were a third of the time of a typical run).
 */
#include "arena.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ALIGN ARENA_ALIGN
#define PAGE_MIN (64 * 1024)

struct arena_page {
    struct arena_page *prev;  /* older page */
    size_t size;              /* usable bytes after the header */
    _Alignas(16) char data[]; /* payload */
};

/* Pages this large come 2 MiB-aligned and ask for transparent huge
 * pages: one fault per 2 MiB instead of one per 4 KiB. */
#define HUGE_PAGE (2u * 1024 * 1024)

static void *malloc_alloc(void *ctx, size_t n)
{
    (void)ctx;
    if (n < HUGE_PAGE)
        return malloc(n);
    void *p = aligned_alloc(HUGE_PAGE, (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
#ifdef MADV_HUGEPAGE
    if (p) /* whole huge pages only; advice, so failure is harmless */
        madvise(p, n / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return p;
}

static void malloc_free(void *ctx, void *p) { (void)ctx; free(p); }

const struct arena_backing arena_malloc_backing = {malloc_alloc, malloc_free, NULL};

/* ---- the page cache (malloc backing only) ---- */

/* Page sizes are PAGE_MIN << k (new_page doubles them); one free list per
 * size, at most CACHE_MAX bytes in all.  Other backings (tests counting
 * or failing allocations) never see the cache. */
#define CACHE_SIZES 9
#define PAGE_MAX ((size_t)PAGE_MIN << (CACHE_SIZES - 1))
#define CACHE_MAX ((size_t)64 * 1024 * 1024)

static struct {
    pthread_mutex_t mu;
    struct arena_page *free[CACHE_SIZES];
    size_t bytes;
} cache = {PTHREAD_MUTEX_INITIALIZER, {NULL}, 0};

static bool cached_backing(const struct arena *a)
{
    return a->backing.alloc == malloc_alloc;
}

/* Index of a cacheable page size, or -1. */
static int cache_index(size_t size)
{
    for (int k = 0; k < CACHE_SIZES; k++)
        if (size == (size_t)PAGE_MIN << k)
            return k;
    return -1;
}

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

/* A cached page of exactly `size` bytes, or NULL. */
static struct arena_page *cache_take(size_t size)
{
    int k = cache_index(size);
    if (k < 0)
        return NULL;
    pthread_mutex_lock(&cache.mu);
    struct arena_page *p = cache.free[k];
    if (p) {
        cache.free[k] = p->prev;
        cache.bytes -= size;
    }
    pthread_mutex_unlock(&cache.mu);
    return p;
}

/* Give page p back: to the cache when it fits, else to the backing
 * (an adopted page to neither: it is its owner's). */
static void page_free(struct arena *a, struct arena_page *p)
{
    if (p == a->adopted)
        return;
    int k = cached_backing(a) ? cache_index(p->size) : -1;
    if (k >= 0) {
        pthread_mutex_lock(&cache.mu);
        bool keep = cache.bytes + p->size <= CACHE_MAX;
        if (keep) {
            p->prev = cache.free[k];
            cache.free[k] = p;
            cache.bytes += p->size;
        }
        pthread_mutex_unlock(&cache.mu);
        if (keep)
            return;
    }
    a->backing.free(a->backing.ctx, p);
}

void arena_free(struct arena *a)
{
    if (!a)
        return;
    struct arena_page *p = a->page;
    while (p) {
        struct arena_page *prev = p->prev;
        page_free(a, p);
        p = prev;
    }
    a->backing.free(a->backing.ctx, a);
}

void arena_adopt(struct arena *a, void *mem, size_t size)
{
    struct arena_page *p = mem;
    p->prev = NULL;
    p->size = size - sizeof *p;
    a->page = a->adopted = p;
    a->cur = p->data;
    a->end = p->data + p->size;
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
    if (a->next_page > size && (!a->limit || a->total + a->next_page <= a->limit))
        size = a->next_page;
    a->next_page = 0;
    /* A large request gets a page of a size the cache keeps, unless that
     * is beyond the cache's sizes or would break the memory limit. */
    size_t exact = size < n ? n : size, round = size;
    while (round < n && round < PAGE_MAX)
        round *= 2;
    size = round >= n && !(a->limit && a->total + round > a->limit) ? round : exact;
    if (size > SIZE_MAX - sizeof(struct arena_page) ||
        (a->limit && a->total + size > a->limit))
        oom(a);
    struct arena_page *p = cached_backing(a) ? cache_take(size) : NULL;
    if (!p)
        p = a->backing.alloc(a->backing.ctx, sizeof *p + size);
    if (!p)
        oom(a);
    a->total += size;
    p->prev = a->page;
    p->size = size;
    a->page = p;
    a->cur = p->data;
    a->end = p->data + size;
}

void *arena_alloc_slow(struct arena *a, size_t n)
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
    /* The most recent block shrinks in place, giving its tail back. */
    if (p && (char *)p + old_r == a->cur && new_n && new_n < old_n) {
        a->cur = (char *)p + ((new_n + ALIGN - 1) & ~(size_t)(ALIGN - 1));
        return p;
    }
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

void arena_release_pages(struct arena *a, struct arena_mark m)
{
    while (a->page != m.page) {
        struct arena_page *prev = a->page->prev;
        a->total -= a->page->size;
        page_free(a, a->page);
        a->page = prev;
    }
    a->cur = m.cur;
    a->end = m.end;
}
