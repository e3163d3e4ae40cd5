/* memo.c - unique tables and computed cache of the match layer (see memo.h).
 *
 * Open addressing with linear probing; tables grow at 75% load.  Hashes are
 * built only from object headers (structural hashes), so probe sequences
 * and results never depend on addresses.
 */
#include "memo.h"

#include <string.h>

struct memo_entry {
    struct memo_key key; /* identity */
    uint32_t hash;       /* hash of key */
    void *obj;           /* NULL = empty slot */
};

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
}

uint32_t memo_mix(uint32_t h, uint32_t w)
{
    h ^= w + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h * 0x85ebca6bu;
}

uint32_t memo_key_hash(const struct memo_key *k)
{
    uint32_t h = memo_mix(k->tag, k->small);
    for (int i = 0; i < 4; i++) {
        const struct memo_hdr *o = k->w[i];
        h = memo_mix(h, o ? o->hash ^ (uint32_t)i : 0x51u);
    }
    return h;
}

static bool key_eq(const struct memo_key *a, const struct memo_key *b)
{
    return a->tag == b->tag && a->small == b->small && a->w[0] == b->w[0] &&
           a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3];
}

void *memo_find(struct memo_table *t, const struct memo_key *k, uint32_t h)
{
    if (!t->cap)
        return NULL;
    size_t j = h & (t->cap - 1);
    for (;;) {
        struct memo_entry *e = &t->slots[j];
        if (!e->obj)
            return NULL;
        if (e->hash == h && key_eq(&e->key, k))
            return e->obj;
        j = (j + 1) & (t->cap - 1);
    }
}

static void place(struct memo_entry *slots, size_t cap, const struct memo_entry *e)
{
    size_t j = e->hash & (cap - 1);
    while (slots[j].obj)
        j = (j + 1) & (cap - 1);
    slots[j] = *e;
}

static void grow(struct memo_ctx *m, struct memo_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 16;
    struct memo_entry *slots = arena_zalloc(m->a, cap * sizeof *slots);
    for (size_t k = 0; k < t->cap; k++)
        if (t->slots[k].obj)
            place(slots, cap, &t->slots[k]);
    t->slots = slots;
    t->cap = cap;
}

void memo_insert(struct memo_ctx *m, struct memo_table *t,
                 const struct memo_key *k, uint32_t h, void *obj)
{
    if ((t->n + 1) * 4 > t->cap * 3)
        grow(m, t);
    struct memo_entry e = {*k, h, obj};
    place(t->slots, t->cap, &e);
    t->n++;
}

void memo_stamp(struct memo_ctx *m, struct memo_hdr *hdr, uint32_t h)
{
    hdr->id = m->next_id++;
    hdr->hash = h;
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
    if (!memo_find(&m->cache, k, h))
        memo_insert(m, &m->cache, k, h, node);
}

bool memo_enter(struct memo_ctx *m)
{
    if (m->depth >= m->max_depth) {
        m->too_deep = true;
        return false;
    }
    m->depth++;
    return true;
}

void memo_leave(struct memo_ctx *m)
{
    m->depth--;
}

enum { TAG_LIST = 1 };

struct memo_list *memo_cons(struct memo_ctx *m, struct memo_obj *car,
                            struct memo_list *cdr)
{
    struct memo_key k = {TAG_LIST, 0, {car, cdr, NULL, NULL}};
    uint32_t h = memo_key_hash(&k);
    struct memo_list *l = memo_find(&m->unique, &k, h);
    if (l)
        return l;
    l = ARENA_NEW(m->a, struct memo_list);
    memo_stamp(m, &l->o.h, h);
    l->car = car;
    l->cdr = cdr;
    l->len = cdr ? cdr->len + 1 : 1;
    memo_insert(m, &m->unique, &k, h, l);
    return l;
}

struct memo_list *memo_list_of(struct memo_ctx *m, struct memo_obj *const *items,
                               size_t n)
{
    struct memo_list *l = NULL;
    while (n > 0)
        l = memo_cons(m, items[--n], l);
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
    while (n > 0)
        tail = memo_cons(m, items[--n], tail);
    return tail;
}

void *memo_find_by(struct memo_table *t, uint32_t h,
                   bool (*eq)(const void *obj, const void *arg), const void *arg)
{
    if (!t->cap)
        return NULL;
    size_t j = h & (t->cap - 1);
    for (;;) {
        struct memo_entry *e = &t->slots[j];
        if (!e->obj)
            return NULL;
        if (e->hash == h && eq(e->obj, arg))
            return e->obj;
        j = (j + 1) & (t->cap - 1);
    }
}
