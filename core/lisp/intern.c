/* intern.c - the symbol table (open addressing on name hashes). */
#include "intern.h"

#include <stdarg.h>
#include <string.h>

/* A slot keeps the symbol's hash and length next to it, so a probe
 * rejects other names without touching the symbol. */
struct intern_slot {
    uint32_t hash;
    uint32_t len;
    struct value *sym; /* NULL = empty */
};

/* intern_cstr's memory: the symbol last found for a name pointer. */
struct cstr_entry {
    const char *key;
    struct value *sym;
};

#define CSTR_CACHE 64

struct intern_table {
    struct intern_slot *slots;
    size_t cap; /* power of two */
    size_t n;   /* occupied */
    struct cstr_entry cstr[CSTR_CACHE];
};

/* The 8 (4) bytes at p as a little-endian number, so that hashes are the
 * same on every host (one load where the host is little-endian). */
static inline uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    w = 0;
    for (int k = 7; k >= 0; k--)
        w = (w << 8) | (uint8_t)p[k];
#endif
    return w;
}

static inline uint64_t load4(const char *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    w = 0;
    for (int k = 3; k >= 0; k--)
        w = (w << 8) | (uint8_t)p[k];
#endif
    return w;
}

static inline uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 32);
}

/* Eight bytes at a time (the last word overlapping the one before it);
 * short names in one step.  Deterministic across runs and hosts. */
static inline uint32_t hash_name(const char *s, size_t n)
{
    uint64_t h = (uint64_t)n * UINT64_C(0xC2B2AE3D27D4EB4F);
    if (n >= 8) {
        for (size_t k = 0; k + 8 < n; k += 8)
            h = mix(h, load8(s + k));
        h = mix(h, load8(s + n - 8));
    } else if (n >= 4) {
        h = mix(h, load4(s) | load4(s + n - 4) << 32);
    } else if (n > 0) {
        h = mix(h, (uint8_t)s[0] | (uint32_t)(uint8_t)s[n / 2] << 8 |
                       (uint32_t)(uint8_t)s[n - 1] << 16);
    }
    h = mix(h, 0);
    return (uint32_t)h;
}

/* memcmp for the short names that dominate, without a call. */
static inline bool same_name(const char *a, const char *b, size_t n)
{
    if (n >= 8 && n <= 16)
        return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
    if (n >= 4 && n < 8)
        return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
    return memcmp(a, b, n) == 0;
}

static bool is_multibyte(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if ((uint8_t)s[k] >= 0x80)
            return true;
    return false;
}

static struct value *make_symbol(struct lisp *L, const char *name, size_t len,
                                 uint32_t h, bool interned)
{
    struct value *v = arena_alloc(L->a, sizeof *v);
    v->origin = 0;
    v->kind = VK_SYMBOL;
    v->u.sym.name = arena_strndup(L->a, name, len);
    v->u.sym.len = (uint32_t)len;
    v->u.sym.hash = h;
    v->u.sym.interned = interned;
    v->u.sym.multibyte = is_multibyte(name, len);
    v->u.sym.row[0] = v->u.sym.row[1] = v->u.sym.row[2] = 0;
    v->u.sym.plain = 0;
    v->u.sym.id = L->next_id++;
    v->u.sym.temp = 0;
    return v;
}

static void grow(struct lisp *L)
{
    struct intern_table *t = L->tab;
    size_t cap = t->cap * 2;
    struct intern_slot *slots = arena_zalloc(L->a, cap * sizeof *slots);
    for (size_t k = 0; k < t->cap; k++) {
        if (!t->slots[k].sym)
            continue;
        size_t j = t->slots[k].hash & (cap - 1);
        while (slots[j].sym)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[k];
    }
    t->slots = slots;
    t->cap = cap;
}

/* Slot holding name, or the empty slot where it would go. */
static inline struct intern_slot *lookup(struct intern_table *t, const char *name,
                                         size_t len, uint32_t h)
{
    size_t mask = t->cap - 1, j = h & mask;
    for (;;) {
        struct intern_slot *s = &t->slots[j];
        if (!s->sym || (s->hash == h && s->len == len &&
                        same_name(s->sym->u.sym.name, name, len)))
            return s;
        j = (j + 1) & mask;
    }
}

struct value *intern_find(struct lisp *L, const char *name, size_t len)
{
    return lookup(L->tab, name, len, hash_name(name, len))->sym;
}

struct value *intern_symbol(struct lisp *L, const char *name, size_t len)
{
    uint32_t h = hash_name(name, len);
    struct intern_slot *slot = lookup(L->tab, name, len, h);
    if (slot->sym)
        return slot->sym;
    if ((L->tab->n + 1) * 4 > L->tab->cap * 3) {
        grow(L);
        slot = lookup(L->tab, name, len, h);
    }
    slot->sym = make_symbol(L, name, len, h, true);
    slot->hash = h;
    slot->len = (uint32_t)len;
    L->tab->n++;
    return slot->sym;
}

/* intern_cstr's memory: the entry for name's address. */
static struct cstr_entry *cstr_entry(struct lisp *L, const char *name)
{
    return &L->tab->cstr[((uintptr_t)name >> 3) % CSTR_CACHE];
}

/* Intern name and remember the symbol in e, its address's entry. */
static struct value *remember(struct lisp *L, struct cstr_entry *e, const char *name)
{
    e->key = name;
    e->sym = intern_symbol(L, name, strlen(name));
    return e->sym;
}

struct value *intern_cstr(struct lisp *L, const char *name)
{
    /* Callers pass literals ("pcase", "let") and ask again at every form
     * they visit: the symbol found for each recent pointer is kept.  The
     * name is compared as well, so a buffer reused for another name never
     * gets a stale symbol. */
    struct cstr_entry *e = cstr_entry(L, name);
    if (e->key == name && strcmp(e->sym->u.sym.name, name) == 0)
        return e->sym;
    return remember(L, e, name);
}

struct value *intern_static(struct lisp *L, const char *name)
{
    struct cstr_entry *e = cstr_entry(L, name); /* a literal never changes */
    return e->key == name ? e->sym : remember(L, e, name);
}

struct value *intern_uninterned(struct lisp *L, const char *name, size_t len)
{
    return make_symbol(L, name, len, hash_name(name, len), false);
}

struct lisp *intern_new(struct arena *a)
{
    struct lisp *L = arena_zalloc(a, sizeof *L);
    L->a = a;
    L->tab = arena_zalloc(a, sizeof *L->tab);
    L->tab->cap = 256;
    L->tab->slots = arena_zalloc(a, L->tab->cap * sizeof *L->tab->slots);
    L->nil = intern_cstr(L, "nil");
    L->t = intern_cstr(L, "t");
    L->quote = intern_cstr(L, "quote");
    L->function = intern_cstr(L, "function");
    L->backquote = intern_cstr(L, "`");
    L->comma = intern_cstr(L, ",");
    L->comma_at = intern_cstr(L, ",@");
    L->lambda = intern_cstr(L, "lambda");
    return L;
}

struct value *lisp_list(struct lisp *L, size_t n, struct value *const *items)
{
    struct value *r = L->nil;
    while (n--)
        r = value_cons(L->a, items[n], r);
    return r;
}

struct value *lisp_listv(struct lisp *L, ...)
{
    struct value *items[64];
    size_t n = 0;
    va_list ap;
    va_start(ap, L);
    for (struct value *v; (v = va_arg(ap, struct value *)) && n < 64;)
        items[n++] = v;
    va_end(ap);
    return lisp_list(L, n, items);
}

struct value *lisp_reverse(struct lisp *L, struct value *list)
{
    struct value *r = L->nil;
    for (; value_consp(list); list = value_cdr(list))
        r = value_cons(L->a, value_car(list), r);
    return r;
}
