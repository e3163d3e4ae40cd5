/* print_circle.c - the printer's object-identity bookkeeping (see print.c).
 *
 * print-circle's first pass numbers every object reached twice in Emacs
 * 30's order (explicit stack); the path set gives the `#N` that keeps
 * printing circular data finite without print-circle.
 */
#include "print_walk.h"

#include <string.h>

/* ---- pointer map ---- */

static size_t ptr_hash(const void *k)
{
    uint64_t x = (uint64_t)(uintptr_t)k;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

static void ptrmap_grow(struct arena *a, struct ptrmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    const void **keys = arena_zalloc(a, cap * sizeof *keys);
    int32_t *vals = arena_alloc(a, cap * sizeof *vals);
    for (size_t k = 0; k < m->cap; k++) {
        if (!m->keys[k])
            continue;
        size_t j = ptr_hash(m->keys[k]) & (cap - 1);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[k];
        vals[j] = m->vals[k];
    }
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
}

/* Slot index of k, or of the empty slot where it would go (cap > 0). */
static size_t ptrmap_probe(const struct ptrmap *m, const void *k)
{
    size_t mask = m->cap - 1, i = ptr_hash(k) & mask;
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & mask;
    return i;
}

static int32_t *ptrmap_find(const struct ptrmap *m, const void *k)
{
    if (!m->cap)
        return NULL;
    size_t i = ptrmap_probe(m, k);
    return m->keys[i] ? &m->vals[i] : NULL;
}

/* The value slot of k, inserted with value 0 if absent. */
static int32_t *ptrmap_insert(struct arena *a, struct ptrmap *m, const void *k)
{
    if ((m->n + 1) * 2 > m->cap)
        ptrmap_grow(a, m);
    size_t i = ptrmap_probe(m, k);
    if (!m->keys[i]) {
        m->keys[i] = k;
        m->vals[i] = 0;
        m->n++;
    }
    return &m->vals[i];
}

/* Linear-probing delete by backward shift: later entries of the same
 * probe run move into the hole, so lookups never need tombstones. */
static void ptrmap_remove(struct ptrmap *m, const void *k)
{
    if (!m->cap)
        return;
    size_t mask = m->cap - 1, i = ptrmap_probe(m, k), j = i;
    if (!m->keys[i])
        return;
    for (;;) {
        j = (j + 1) & mask;
        if (!m->keys[j])
            break;
        size_t h = ptr_hash(m->keys[j]) & mask;
        bool home_between = i < j ? (h > i && h <= j) : (h > i || h <= j);
        if (!home_between) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->keys[i] = NULL;
    m->n--;
}

/* ---- candidates, labels, path ---- */

bool print_candidate(const struct pstate *s, const struct value *v)
{
    switch (v->kind) {
    case VK_STRING:
        return true;
    case VK_SYMBOL:
        return s->o->gensym && !v->u.sym.interned;
    case VK_CONS:
    case VK_VECTOR:
    case VK_RECORD:
    case VK_BYTECODE:
    case VK_CHARTABLE:
    case VK_SUBCHARTABLE:
    case VK_HASHTABLE:
        return true;
    default:
        return false;
    }
}

/* Emacs allocates no empty strings or vectors: every "" is one of two
 * shared objects (unibyte, multibyte) and every [] is one, so print-circle
 * labels repeated ones.  Our values may be distinct; they are keyed as
 * those shared objects. */
static const char empty_unibyte, empty_multibyte, empty_vector;

static const void *identity(const struct value *v)
{
    if (v->kind == VK_STRING && v->u.str.len == 0)
        return v->u.str.multibyte ? &empty_multibyte : &empty_unibyte;
    if (v->kind == VK_VECTOR && v->u.vec.n == 0)
        return &empty_vector;
    return v;
}

int32_t print_label_get(struct pstate *s, const struct value *v)
{
    int32_t *e = ptrmap_find(&s->labels, identity(v));
    return e ? *e : 0;
}

void print_label_set_printed(struct pstate *s, const struct value *v)
{
    int32_t *e = ptrmap_find(&s->labels, identity(v));
    if (e && *e < 0)
        *e = -*e;
}

long print_path_find(struct pstate *s, const struct value *v)
{
    size_t lim = s->depth < PRINT_PATH_SCAN ? s->depth : PRINT_PATH_SCAN;
    for (size_t k = 0; k < lim; k++)
        if (s->path[k] == v)
            return (long)k;
    if (s->deep.n) {
        int32_t *e = ptrmap_find(&s->deep, v);
        if (e)
            return *e;
    }
    return -1;
}

void print_path_add(struct pstate *s, const struct value *v, size_t d)
{
    if (d < PRINT_PATH_SCAN)
        s->path[d] = v;
    else if (d % PRINT_PATH_STRIDE == 0)
        *ptrmap_insert(s->L->a, &s->deep, v) = (int32_t)d;
}

void print_path_remove(struct pstate *s, const struct value *v, size_t d)
{
    if (d >= PRINT_PATH_SCAN && d % PRINT_PATH_STRIDE == 0)
        ptrmap_remove(&s->deep, v);
}

/* ---- print-circle's first pass ---- */

struct scan_item {
    const struct value *v;
};

struct scan {
    struct pstate *s;
    struct scan_item *it;
    size_t n, cap;
};

/* Queue v for the scan; objects that can never get a label are dropped
 * here, so long chains of nil cdrs do not pile up. */
static void scan_push(struct scan *sc, const struct value *v)
{
    if (!print_candidate(sc->s, v))
        return;
    if (sc->n == sc->cap) {
        size_t cap = sc->cap * 2;
        struct scan_item *it = arena_alloc(sc->s->L->a, cap * sizeof *it);
        memcpy(it, sc->it, sc->n * sizeof *it);
        sc->it = it;
        sc->cap = cap;
    }
    sc->it[sc->n].v = v;
    sc->n++;
}

/* Reverse it[from..n): children are pushed in visiting order, then turned
 * around so the first child is popped first. */
static void scan_reverse(struct scan *sc, size_t from)
{
    for (size_t i = from, j = sc->n; i + 1 < j; i++, j--) {
        struct scan_item t = sc->it[i];
        sc->it[i] = sc->it[j - 1];
        sc->it[j - 1] = t;
    }
}

/* The objects Emacs 30's preprocessing visits inside v: a hash table's
 * keys and values (a table read has no free slots to visit). */
static void scan_children(struct scan *sc, const struct value *v)
{
    switch (v->kind) {
    case VK_CONS:
        scan_push(sc, v->u.cons.car);
        scan_push(sc, v->u.cons.cdr);
        break;
    case VK_VECTOR:
    case VK_RECORD:
    case VK_BYTECODE:
    case VK_CHARTABLE:
    case VK_SUBCHARTABLE:
        for (size_t k = v->kind == VK_SUBCHARTABLE ? 2 : 0; k < v->u.vec.n; k++)
            scan_push(sc, v->u.vec.items[k]);
        break;
    case VK_HASHTABLE:
        for (const struct value *d = v->u.hash.data; d->kind == VK_CONS; d = d->u.cons.cdr)
            scan_push(sc, d->u.cons.car);
        break;
    case VK_STRING: /* the plists of the property intervals */
        for (const struct value *p = v->u.str.props; p && p->kind == VK_CONS;) {
            const struct value *e = p->u.cons.cdr;
            if (e->kind != VK_CONS || e->u.cons.cdr->kind != VK_CONS)
                break;
            scan_push(sc, e->u.cons.cdr->u.cons.car);
            p = e->u.cons.cdr->u.cons.cdr;
        }
        break;
    default:
        break;
    }
}

void print_circle_scan(struct pstate *s, const struct value *root)
{
    struct scan_item small[64];
    struct scan sc = {s, small, 0, 64};
    scan_push(&sc, root);
    while (sc.n) {
        struct scan_item it = sc.it[--sc.n];
        int32_t *e = ptrmap_insert(s->L->a, &s->labels, identity(it.v));
        if (*e) {
            if (*e == PRINT_SEEN)
                *e = -++s->nlabels;
            continue;
        }
        *e = PRINT_SEEN;
        size_t from = sc.n;
        scan_children(&sc, it.v);
        scan_reverse(&sc, from);
    }
}
