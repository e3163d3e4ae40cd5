/* memo.c - unique tables and computed cache of the match layer (see memo.h).
 *
 * Open addressing with linear probing; tables grow at 50% load.  Hashes are
 * built only from object headers (structural hashes), so probe sequences
 * and results never depend on addresses.
 */
#include "memo.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

void memo_ctx_init(struct memo_ctx *m, struct lisp *L,
                   const struct memo_hooks *hooks, bool use_cache,
                   int max_depth)
{
    memset(m, 0, sizeof *m);
    m->L = L;
    m->a = L->a;
    m->hooks = *hooks;
    m->use_cache = use_cache;
    m->max_depth = max_depth > 0 ? max_depth : 10000;
    memo_table_init(&m->unique);
    memo_table_init(&m->cache);
    memo_table_init(&m->vals);
}

/* The one slot of every empty table set up by memo_table_init: it stays
 * empty (an insert into an empty table grows it first). */
static uint32_t no_slots[1];

void memo_table_init(struct memo_table *t)
{
    *t = (struct memo_table){.hashes = no_slots};
}

/* Which of the four slots from h on are full (bit i: slot i): the slots
 * of a table that grows are at most half full, so most of the scan of
 * the old slots is over empty ones, four at a time. */
static inline unsigned full_of_four(const uint32_t *h)
{
#ifdef __SSE2__
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)h);
    return ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, _mm_setzero_si128()))) & 15u;
#else
    return (unsigned)(h[0] != 0) | (unsigned)(h[1] != 0) << 1 |
           (unsigned)(h[2] != 0) << 2 | (unsigned)(h[3] != 0) << 3;
#endif
}

/* Give t cap slots (a power of two), rehashed from the old slots: the
 * hashes are kept there. */
static void resize_slots(struct memo_ctx *m, struct memo_table *t, size_t cap)
{
    struct memo_table old = *t;
    t->cap = cap;
    t->mask = cap - 1;
    t->max = cap / 2; /* at most half full: short probes */
    t->hashes = arena_zalloc(m->a, cap * sizeof *t->hashes);
    t->ptrs = ARENA_NEWN(m->a, void *, cap);
    for (size_t k = 0; k < old.cap; k += 4) /* cap is 0 or a multiple of 4 */
        for (unsigned full = full_of_four(old.hashes + k); full; full &= full - 1) {
            size_t i = k + (size_t)__builtin_ctz(full);
            size_t j = memo_free_slot(t, old.hashes[i]);
            t->hashes[j] = old.hashes[i];
            t->ptrs[j] = old.ptrs[i];
        }
}

void memo_reserve(struct memo_ctx *m, struct memo_table *t, size_t n)
{
    size_t cap = t->cap ? t->cap : t->first ? t->first : 64;
    while (n * 2 > cap)
        cap *= 2;
    if (cap > t->cap)
        resize_slots(m, t, cap);
}

void memo_table_grow(struct memo_ctx *m, struct memo_table *t)
{
    resize_slots(m, t, t->cap ? t->cap * 2 : t->first ? t->first : 64);
}

void *memo_obj_room(struct memo_ctx *m, struct memo_table *t, uint32_t h, size_t size,
                    size_t *hole)
{
    void *p = arena_alloc(m->a, size);
    if (t->n == t->max) {
        memo_table_grow(m, t); /* the slots moved: probe anew */
        *hole = memo_free_slot(t, h);
    }
    return p;
}

void *memo_cache_get(struct memo_ctx *m, const struct memo_key *k, uint32_t h)
{
    if (!m->use_cache)
        return NULL;
    void *n = memo_find(&m->cache, k, h);
    if (n)
        m->hits++;
    else
        m->misses++;
    return n;
}

/* States are recorded even when the cache is off, so that the number of
 * distinct states (the compile budget) is the same in both modes. */
void memo_cache_put(struct memo_ctx *m, const struct memo_key *k, uint32_t h,
                    void *node)
{
    size_t hole;
    if (!memo_lookup(&m->cache, k, h, &hole))
        memo_add(m, &m->cache, k, h, node, hole);
}

/* The hash of a list cell: the most frequent object of all, so it mixes
 * its two words only. */
static uint32_t list_hash(const struct memo_obj *car, const struct memo_list *cdr)
{
    const uint64_t m = 0x9e3779b97f4a7c15u;
    return memo_kind_hash(MEMO_KIND_LIST,
                          ((uint64_t)car->h.hash << 32 | (cdr ? cdr->o.h.hash : 0x51u)) * m);
}

/* The cell probed for: (car . cdr). */
struct cell_key {
    const struct memo_obj *car;
    const struct memo_list *cdr;
};

static bool same_cell(const void *obj, const void *arg)
{
    const struct memo_list *l = obj;
    const struct cell_key *k = arg;
    return l->car == k->car && l->cdr == k->cdr;
}

/* The cell (car . cdr), found or made, or NULL (nothing done) when a new
 * cell would need a new arena page or a larger table.  Inline and without
 * calls: memo_cons and the loops below keep everything in registers that
 * no call clobbers, and save none on entry. */
static inline __attribute__((always_inline))
struct memo_list *cons_quick(struct memo_ctx *m, struct memo_obj *car,
                             struct memo_list *cdr)
{
    struct cell_key k = {car, cdr};
    uint32_t h = list_hash(car, cdr);
    size_t hole;
    struct memo_list *l = memo_probe_obj(&m->unique, h, same_cell, &k, &hole);
    if (l)
        return l;
    struct arena *a = m->a;
    struct memo_table *t = &m->unique;
    if ((size_t)(a->end - a->cur) < sizeof *l || t->n == t->max)
        return NULL;
    l = (struct memo_list *)(void *)a->cur;
    a->cur += sizeof *l; /* a multiple of ARENA_ALIGN */
    *l = (struct memo_list){.car = car, .cdr = cdr, .len = cdr ? cdr->len + 1 : 1};
    memo_stamp(m, &l->o.h, h);
    t->n++;
    t->hashes[hole] = h;
    t->ptrs[hole] = l;
    return l;
}

/* The cell (car . cdr) when cons_quick could not make it: the arena and
 * the table grow as needed (a probe again, once per page or doubling). */
__attribute__((noinline))
static struct memo_list *cons_slow(struct memo_ctx *m, struct memo_obj *car,
                                   struct memo_list *cdr)
{
    struct cell_key k = {car, cdr};
    uint32_t h = list_hash(car, cdr);
    size_t hole;
    struct memo_list *l = memo_probe_obj(&m->unique, h, same_cell, &k, &hole);
    if (l)
        return l;
    l = ARENA_NEWN(m->a, struct memo_list, 1);
    *l = (struct memo_list){.car = car, .cdr = cdr, .len = cdr ? cdr->len + 1 : 1};
    memo_stamp(m, &l->o.h, h);
    memo_add_obj(m, &m->unique, h, l, hole);
    return l;
}

struct memo_list *memo_cons(struct memo_ctx *m, struct memo_obj *car,
                            struct memo_list *cdr)
{
    struct memo_list *l = cons_quick(m, car, cdr);
    return l ? l : cons_slow(m, car, cdr);
}

/* items[0..n) consed onto l, the slow way (once cons_quick had no room):
 * out of line, so that the loops' common paths make no call. */
__attribute__((noinline))
static struct memo_list *cons_all_slow(struct memo_ctx *m, struct memo_obj *const *items,
                                       size_t n, struct memo_list *l)
{
    while (n > 0)
        l = cons_slow(m, items[--n], l);
    return l;
}

struct memo_list *memo_list_of(struct memo_ctx *m, struct memo_obj *const *items,
                               size_t n)
{
    struct memo_list *l = NULL;
    for (; n > 0; n--) {
        struct memo_list *c = cons_quick(m, items[n - 1], l);
        if (!c)
            return cons_all_slow(m, items, n, l);
        l = c;
    }
    return l;
}

struct memo_obj *memo_nth(const struct memo_list *l, size_t i)
{
    while (i-- > 0)
        l = l->cdr;
    return l->car;
}

struct memo_list *memo_reverse(struct memo_ctx *m, const struct memo_list *l)
{
    struct memo_list *r = NULL;
    for (; l; l = l->cdr)
        r = memo_cons(m, l->car, r);
    return r;
}

/* Copy the elements into an arena array first, so that no recursion on
 * the list length is needed. */
struct memo_list *memo_append(struct memo_ctx *m, const struct memo_list *l,
                              struct memo_list *tail)
{
    if (!l)
        return tail;
    if (!tail)
        return (struct memo_list *)l;
    struct memo_obj **items = ARENA_NEWN(m->a, struct memo_obj *, l->len);
    size_t n = 0;
    for (; l; l = l->cdr)
        items[n++] = l->car;
    for (; n > 0; n--) {
        struct memo_list *c = cons_quick(m, items[n - 1], tail);
        if (!c)
            return cons_all_slow(m, items, n, tail);
        tail = c;
    }
    return tail;
}

/* memo_find_by's test and its argument, for memo_probe. */
struct by {
    bool (*eq)(const void *obj, const void *arg);
    const void *arg;
};

static bool by_eq(const struct memo_entry *e, const void *arg)
{
    const struct by *b = arg;
    return b->eq(e->obj, b->arg);
}

void *memo_find_by(const struct memo_table *t, uint32_t h,
                   bool (*eq)(const void *obj, const void *arg), const void *arg,
                   size_t *hole)
{
    struct by b = {eq, arg};
    return memo_probe(t, h, by_eq, &b, hole);
}
