/* read_origin.c - the reader's side map from values to the text they came
 * from.
 *
 * Stage 1b of the pipeline.  The reader records here the span of every
 * cons, vector, string and number it builds and the span of each cons's
 * car.  Entries are appended in reading order; a value finds its entry
 * through the index in its `origin` field, checked against the entry's
 * key, so a lookup is two array accesses and recording is a sequential
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
    o->capchunks = 16;
    o->chunks = ARENA_NEWN(a, struct origin_slot *, o->capchunks);
    /* Source text has about one recorded value per five bytes: a short
     * text (read_one's) gets a first chunk of its size, which grows to a
     * whole one if need be. */
    size_t first = len / 4 + 64 < ORIGIN_CHUNK ? len / 4 + 64 : ORIGIN_CHUNK;
    o->last = o->chunks[0] = ARENA_NEWN(a, struct origin_slot, first);
    o->nchunks = 1;
    memset(&o->last[0], 0, sizeof o->last[0]); /* index 0: no value's */
    o->first = 0;
    o->lim = (uint32_t)first;
    o->n = 1;
    o->next = o->last + 1;
    o->end = o->last + first;
    return o;
}

/* v's entry, or NULL when v has none in this map. */
static struct origin_slot *find(const struct read_origin *o, const struct value *v)
{
    uint32_t i = v->origin;
    if (i >= o->n)
        return NULL;
    struct origin_slot *s = &o->chunks[i >> ORIGIN_CHUNK_BITS][i & (ORIGIN_CHUNK - 1)];
    return s->key == v ? s : NULL;
}

void read_origin_grow(struct read_origin *o)
{
    if (o->lim - o->first < ORIGIN_CHUNK) { /* the short first chunk becomes a whole one */
        size_t have = o->lim - o->first;
        o->last = arena_grow(o->a, o->last, have * sizeof *o->last,
                             ORIGIN_CHUNK * sizeof *o->last);
        o->chunks[o->nchunks - 1] = o->last;
        o->lim = o->first + (uint32_t)ORIGIN_CHUNK;
        o->next = o->last + (o->n - o->first);
        o->end = o->last + ORIGIN_CHUNK;
        return;
    }
    if (o->nchunks == o->capchunks) {
        o->chunks = arena_grow(o->a, o->chunks, o->capchunks * sizeof *o->chunks,
                               2 * o->capchunks * sizeof *o->chunks);
        o->capchunks *= 2;
    }
    o->last = ARENA_NEWN(o->a, struct origin_slot, ORIGIN_CHUNK);
    o->chunks[o->nchunks++] = o->last;
    o->first = o->lim;
    o->lim += (uint32_t)ORIGIN_CHUNK;
    o->next = o->last + (o->n - o->first);
    o->end = o->last + ORIGIN_CHUNK;
}

/* A fresh entry for v, its index stored in v (the reader's own value,
 * made by this read, hence writable). */
static struct origin_slot *add(struct read_origin *o, const struct value *v)
{
    uint32_t index;
    struct origin_slot *s = read_origin_take(o, 1, &index);
    ((struct value *)v)->origin = index;
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
        struct origin_slot c = *s; /* add may move the first chunk */
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

const uint8_t *read_origin_bytes(const struct read_result *r)
{
    return r && r->origin ? r->origin->text : NULL;
}
