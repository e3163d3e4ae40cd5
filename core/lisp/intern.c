/* intern.c - the symbol table (open addressing on name hashes). */
#include "intern.h"

#include <stdarg.h>
#include <string.h>

struct intern_table {
    struct value **slots; /* NULL = empty */
    size_t cap;           /* power of two */
    size_t n;             /* occupied */
};

/* FNV-1a: deterministic across runs and hosts. */
static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; k++)
        h = (h ^ (uint8_t)s[k]) * 16777619u;
    return h;
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
    v->kind = VK_SYMBOL;
    v->u.sym.name = arena_strndup(L->a, name, len);
    v->u.sym.len = (uint32_t)len;
    v->u.sym.hash = h;
    v->u.sym.interned = interned;
    v->u.sym.multibyte = is_multibyte(name, len);
    v->u.sym.id = L->next_id++;
    return v;
}

static void grow(struct lisp *L)
{
    struct intern_table *t = L->tab;
    size_t cap = t->cap * 2;
    struct value **slots = arena_zalloc(L->a, cap * sizeof *slots);
    for (size_t k = 0; k < t->cap; k++) {
        struct value *v = t->slots[k];
        if (!v)
            continue;
        size_t j = v->u.sym.hash & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = v;
    }
    t->slots = slots;
    t->cap = cap;
}

/* Slot holding name, or the empty slot where it would go. */
static struct value **lookup(struct intern_table *t, const char *name,
                             size_t len, uint32_t h)
{
    size_t j = h & (t->cap - 1);
    for (;;) {
        struct value *v = t->slots[j];
        if (!v || (v->u.sym.hash == h && v->u.sym.len == len &&
                   memcmp(v->u.sym.name, name, len) == 0))
            return &t->slots[j];
        j = (j + 1) & (t->cap - 1);
    }
}

struct value *intern_find(struct lisp *L, const char *name, size_t len)
{
    return *lookup(L->tab, name, len, hash_name(name, len));
}

struct value *intern_symbol(struct lisp *L, const char *name, size_t len)
{
    uint32_t h = hash_name(name, len);
    struct value **slot = lookup(L->tab, name, len, h);
    if (*slot)
        return *slot;
    if ((L->tab->n + 1) * 4 > L->tab->cap * 3) {
        grow(L);
        slot = lookup(L->tab, name, len, h);
    }
    *slot = make_symbol(L, name, len, h, true);
    L->tab->n++;
    return *slot;
}

struct value *intern_cstr(struct lisp *L, const char *name)
{
    return intern_symbol(L, name, strlen(name));
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
    L->tab->cap = 1024;
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
