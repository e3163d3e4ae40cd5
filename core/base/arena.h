/* arena.h - page-chained bump allocator: one arena per run.
 *
 * Every object of the pipeline (tokens, values, IR, output text) lives in
 * the run's arena and is released in one call.  Pages come from a pluggable
 * backing allocator so tests can count or fail allocations.  Out of memory
 * is the only non-local exit: arena_alloc longjmps to the handler installed
 * with arena_on_oom, or aborts when none is installed.
 */
#ifndef PCX_ARENA_H
#define PCX_ARENA_H

#include <setjmp.h>
#include <stddef.h>
#include <string.h>

/* Where pages come from.  alloc may return NULL (handled as OOM). */
struct arena_backing {
    void *(*alloc)(void *ctx, size_t n);
    void (*free)(void *ctx, void *p);
    void *ctx;
};

struct arena_page;

struct arena {
    struct arena_page *page;          /* current page, head of the chain */
    char *cur;                        /* next free byte in page */
    char *end;                        /* end of page */
    struct arena_backing backing;     /* page source */
    jmp_buf *oom;                     /* where OOM jumps; NULL = abort */
    size_t total;                     /* bytes taken from the backing */
    size_t limit;                     /* 0 = none; else OOM past this */
    size_t next_page;                 /* 0: pages start small and double;
                                         else the size of the next new
                                         page (doubling goes on from it) */
    struct arena_page *adopted;       /* arena_adopt's page: not ours */
};

/* Position to roll back to with arena_release. */
struct arena_mark {
    struct arena_page *page;
    char *cur;
    char *end;
};

/* The malloc/free backing used by production code. */
extern const struct arena_backing arena_malloc_backing;

/* New empty arena; backing NULL means malloc.  Returns NULL if the arena
 * header itself cannot be allocated. */
struct arena *arena_new(const struct arena_backing *backing);

/* Release every page and the arena itself.  NULL is ignored. */
void arena_free(struct arena *a);

/* Make the size bytes at mem (ARENA_ALIGN-aligned, taken from another
 * arena that outlives a) a's first page; a must be new.  a never frees
 * them, nor counts them against its limit: their owner did.  Two arenas
 * that each need a little fresh memory then share one huge page, which
 * the kernel faults in and zeroes once. */
void arena_adopt(struct arena *a, void *mem, size_t size);

/* Install (or clear, with NULL) the out-of-memory jump target. */
void arena_on_oom(struct arena *a, jmp_buf *jb);

/* Alignment of every block. */
#define ARENA_ALIGN 16

/* arena_alloc when the current page has no room (or n is 0 or huge). */
void *arena_alloc_slow(struct arena *a, size_t n);

/* n bytes aligned for any object; never returns NULL (see header).
 * Inline: the pipeline allocates hundreds of thousands of small blocks,
 * and the call cost more than the bump. */
static inline void *arena_alloc(struct arena *a, size_t n)
{
    size_t r = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    /* n - 1 < 1 MiB: neither 0 nor near SIZE_MAX, so r did not wrap */
    if (n - 1 < ((size_t)1 << 20) && r <= (size_t)(a->end - a->cur)) {
        void *p = a->cur;
        a->cur += r;
        return p;
    }
    return arena_alloc_slow(a, n);
}

/* Same, zero-filled.  Inline, so that the zeroing of a small object of
 * constant size (ARENA_NEW) becomes a few stores. */
static inline void *arena_zalloc(struct arena *a, size_t n)
{
    void *p = arena_alloc(a, n);
    memset(p, 0, n);
    return p;
}

/* Copy of n bytes plus a terminating NUL. */
char *arena_strndup(struct arena *a, const char *s, size_t n);

/* Grow a block obtained from this arena from old_n to new_n bytes (copying;
 * the old block is abandoned unless it is the most recent allocation).
 * The most recent block also shrinks in place (0 < new_n < old_n),
 * giving its tail back to the arena. */
void *arena_grow(struct arena *a, void *p, size_t old_n, size_t new_n);

/* Inline, as is the usual release (no page to give back): a search that
 * backs up releases at every step. */
static inline struct arena_mark arena_mark(struct arena *a)
{
    struct arena_mark m = {a->page, a->cur, a->end};
    return m;
}

/* arena_release when pages were added since the mark. */
void arena_release_pages(struct arena *a, struct arena_mark m);

/* Forget everything allocated since m (pages are freed). */
static inline void arena_release(struct arena *a, struct arena_mark m)
{
    if (a->page != m.page) {
        arena_release_pages(a, m);
        return;
    }
    a->cur = m.cur;
    a->end = m.end;
}

#define ARENA_NEW(a, type) ((type *)arena_zalloc((a), sizeof(type)))
#define ARENA_NEWN(a, type, n) ((type *)arena_alloc((a), sizeof(type) * (n)))

#endif
