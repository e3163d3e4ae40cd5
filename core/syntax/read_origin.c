/* read_origin.c - the reader's side map from values to the text they came
 * from.
 *
 * Stage 1b of the pipeline.  The reader records here the span of every
 * cons, vector, string and number it builds and the span of each cons's
 * car.  Entries are appended in reading order; a value finds its entry
 * through the index in its `origin` field, checked against the entry's
 * key, so a lookup is one array access and recording is a sequential
 * write (a pointer-keyed hash table made recording a cache miss per
 * value).  Nothing iterates by address, so pointer order cannot leak into
 * output.
 */
#include <string.h>

#include "read_int.h"

struct read_origin *read_origin_new(struct arena *a, const uint8_t *text, size_t len)
{
    struct read_origin *o = arena_zalloc(a, sizeof *o);
    o->a = a;
    o->text = text;
    /* Source text has about one recorded value per five bytes; the
     * estimate is generous, since growing copies the whole table. */
    o->cap = len / 4 + 64;
    o->slots = ARENA_NEWN(a, struct origin_slot, o->cap);
    memset(&o->slots[0], 0, sizeof o->slots[0]); /* index 0: no value's */
    o->n = 1;
    return o;
}

/* v's entry, or NULL when v has none in this map. */
static struct origin_slot *find(const struct read_origin *o, const struct value *v)
{
    uint32_t i = v->origin;
    return i < o->n && o->slots[i].key == v ? &o->slots[i] : NULL;
}

void read_origin_grow(struct read_origin *o, size_t n)
{
    while (o->n + n > o->cap) {
        o->slots = arena_grow(o->a, o->slots, o->cap * sizeof *o->slots,
                              2 * o->cap * sizeof *o->slots);
        o->cap *= 2;
    }
}

/* A fresh entry for v, its index stored in v (the reader's own value,
 * made by this read, hence writable). */
static struct origin_slot *add(struct read_origin *o, const struct value *v)
{
    struct origin_slot *s = read_origin_take(o, 1);
    ((struct value *)v)->origin = (uint32_t)(s - o->slots);
    s->key = v;
    return s;
}

void read_origin_put(struct read_origin *o, const struct value *v, uint32_t start,
                     uint32_t end, uint32_t car_start, uint32_t car_end)
{
    if (!o) /* reading without an origin map (READ_NO_ORIGIN) */
        return;
    struct origin_slot *s = find(o, v);
    if (!s)
        s = add(o, v);
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
    const struct origin_slot *s = find(o, from);
    if (s) {
        struct origin_slot c = *s; /* add may move the slots */
        read_origin_put(o, v, c.span.start, c.span.end, c.car.start, c.car.end);
    }
}

static const struct origin_slot *lookup(const struct read_result *r, const struct value *v)
{
    if (!r || !r->origin || !v)
        return NULL;
    return find(r->origin, v);
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
