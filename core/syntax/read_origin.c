/* read_origin.c - the reader's side map from values to the text they came
 * from.
 *
 * Stage 1b of the pipeline.  Values carry no positions (value.h), so the
 * reader records here, keyed by value pointer, the span of every cons,
 * vector, string and number it builds and the span of each cons's car.
 * Open addressing with linear probing; the table is only ever looked up,
 * never iterated, so pointer order cannot leak into output.
 */
#include <string.h>

#include "read_int.h"

struct origin_slot {
    const struct value *key; /* NULL = empty */
    struct span span;        /* text of the value */
    struct span car;         /* conses: text of the car */
};

struct read_origin {
    struct arena *a;
    struct origin_slot *slots;
    size_t cap;          /* power of two */
    size_t n;            /* occupied slots */
    const uint8_t *text; /* the source, for read_origin_text */
};

static size_t slot_of(const struct read_origin *o, const struct value *v)
{
    uint64_t h = ((uint64_t)(uintptr_t)v >> 4) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 32) & (o->cap - 1);
}

struct read_origin *read_origin_new(struct arena *a, const uint8_t *text, size_t len)
{
    struct read_origin *o = arena_zalloc(a, sizeof *o);
    o->a = a;
    o->text = text;
    /* Source text has about one value per six bytes. */
    size_t cap = 64;
    while (cap < len / 4)
        cap *= 2;
    o->cap = cap;
    o->slots = arena_zalloc(a, cap * sizeof *o->slots);
    return o;
}

static struct origin_slot *find(const struct read_origin *o, const struct value *v)
{
    size_t j = slot_of(o, v);
    while (o->slots[j].key && o->slots[j].key != v)
        j = (j + 1) & (o->cap - 1);
    return &o->slots[j];
}

static void grow(struct read_origin *o)
{
    struct origin_slot *old = o->slots;
    size_t oldcap = o->cap;
    o->cap *= 2;
    o->slots = arena_zalloc(o->a, o->cap * sizeof *o->slots);
    for (size_t k = 0; k < oldcap; k++)
        if (old[k].key)
            *find(o, old[k].key) = old[k];
}

void read_origin_put(struct read_origin *o, const struct value *v, uint32_t start,
                     uint32_t end, uint32_t car_start, uint32_t car_end)
{
    if (!o) /* reading without an origin map (READ_NO_ORIGIN) */
        return;
    if ((o->n + 1) * 10 > o->cap * 7)
        grow(o);
    struct origin_slot *s = find(o, v);
    if (!s->key)
        o->n++;
    s->key = v;
    s->span.start = start;
    s->span.end = end;
    s->car.start = car_start;
    s->car.end = car_end;
}

void read_origin_copy(struct read_origin *o, const struct value *v,
                      const struct value *from)
{
    if (!o)
        return;
    struct origin_slot *s = find(o, from);
    if (s->key)
        read_origin_put(o, v, s->span.start, s->span.end, s->car.start, s->car.end);
}

static const struct origin_slot *lookup(const struct read_result *r, const struct value *v)
{
    if (!r || !r->origin || !v)
        return NULL;
    const struct origin_slot *s = find(r->origin, v);
    return s->key ? s : NULL;
}

bool read_origin_span(const struct read_result *r, const struct value *v,
                      struct span *out)
{
    const struct origin_slot *s = lookup(r, v);
    if (!s)
        return false;
    *out = s->span;
    return true;
}

bool read_origin_car_span(const struct read_result *r, const struct value *c,
                          struct span *out)
{
    const struct origin_slot *s = lookup(r, c);
    if (!s || c->kind != VK_CONS)
        return false;
    *out = s->car;
    return true;
}

const uint8_t *read_origin_text(const struct read_result *r, const struct value *v,
                                size_t *n)
{
    if (!v || !(v->kind == VK_INT || v->kind == VK_BIGNUM || v->kind == VK_FLOAT ||
                v->kind == VK_STRING))
        return NULL;
    const struct origin_slot *s = lookup(r, v);
    if (!s)
        return NULL;
    *n = s->span.end - s->span.start;
    return r->origin->text + s->span.start;
}
