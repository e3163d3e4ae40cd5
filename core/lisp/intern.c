/* intern.c - the symbol table (open addressing on name keys, see intern.h).
 *
 * Layer `lisp`.  Every stage interns through here; the reader, which
 * meets most names, computes a name's key from the text and looks it up
 * with the inline intern_symbol_key.
 */
#include "intern.h"

#include <stdarg.h>

/* Inline in each of its two callers: one call less for each new symbol. */
#ifdef __GNUC__
#define INTERN_INLINE inline __attribute__((always_inline))
#else
#define INTERN_INLINE inline
#endif

/* Bytes of a symbol: the header and the symbol member, not the whole
 * union (nothing writes another member into a symbol). */
#define SYMBOL_SIZE INTERN_SYMBOL_SIZE

/* The 4 bytes at p as a little-endian number. */
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

/* The key of the n bytes at s (see intern.h), reading no byte outside
 * them: words that overlap, shifted. */
static inline void name_key(const char *s, size_t n, uint64_t *w0, uint64_t *w1)
{
    *w1 = 0;
    if (n >= 16) {
        *w0 = intern_load8(s);
        *w1 = intern_load8(s + 8);
    } else if (n > 8) {
        *w0 = intern_load8(s);
        *w1 = intern_load8(s + n - 8) >> (8 * (16 - n));
    } else if (n == 8) {
        *w0 = intern_load8(s);
    } else if (n >= 4) {
        *w0 = load4(s) | (load4(s + n - 4) >> (8 * (8 - n))) << 32;
    } else {
        *w0 = 0;
        for (size_t k = 0; k < n; k++)
            *w0 |= (uint64_t)(uint8_t)s[k] << (8 * k);
    }
}

/* Store w at p as 8 little-endian bytes (intern_load8's inverse). */
static inline void store8(char *p, uint64_t w)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    for (int k = 0; k < 8; k++, w >>= 8)
        p[k] = (char)(w & 0xFF);
#else
    memcpy(p, &w, sizeof w);
#endif
}

#define HIGHS UINT64_C(0x8080808080808080)

/* Copy the len >= 16 bytes of name to dst with a NUL after them, a word
 * at a time (the last word overlapping the one before it); returns the
 * OR of the words, whose high bits say whether the name has a non-ASCII
 * byte. */
static uint64_t copy_long_name(char *dst, const char *name, size_t len)
{
    uint64_t acc = 0, w;
    for (size_t k = 0; k + 8 < len; k += 8) {
        w = intern_load8(name + k);
        store8(dst + k, w);
        acc |= w;
    }
    w = intern_load8(name + len - 8);
    store8(dst + len - 8, w);
    dst[len] = 0;
    return acc | w;
}

/* A symbol and its name in one block, the name zero-padded to 16 bytes
 * at least (its key, intern.h), the key w0, w1 of a name of up to 16
 * bytes stored as two words (zero bytes after the name: its NUL).  Its
 * hash is mix, the name's intern_mix: a function of the name only, which
 * the table's lookup has computed already. */
static INTERN_INLINE struct value *new_symbol(struct lisp *L, const char *name, size_t len,
                                              uint64_t w0, uint64_t w1, uint32_t mix,
                                              bool interned)
{
    char *block = arena_alloc(interned ? L->sym_a : L->a,
                              SYMBOL_SIZE + (len < 16 ? 16 : len + 1));
    struct value *v = (struct value *)block;
    char *copy = block + SYMBOL_SIZE;
    uint64_t acc = w0 | w1;
    if (len < 16) {
        store8(copy, w0);
        store8(copy + 8, w1);
    } else {
        acc = copy_long_name(copy, name, len);
    }
    v->origin = 0;
    v->kind = VK_SYMBOL;
    v->u.sym.name = copy;
    v->u.sym.len = (uint32_t)len;
    v->u.sym.hash = mix;
    v->u.sym.interned = interned;
    v->u.sym.multibyte = (acc & HIGHS) != 0;
    memset(v->u.sym.row, 0, sizeof v->u.sym.row);
    v->u.sym.plain = 0;
    v->u.sym.id = L->next_id++;
    v->u.sym.temp = 0;
    return v;
}

static struct value *make_symbol(struct lisp *L, const char *name, size_t len,
                                 bool interned)
{
    uint64_t w0, w1;
    name_key(name, len, &w0, &w1);
    return new_symbol(L, name, len, w0, w1, intern_mix(name, len, w0, w1), interned);
}

/* cap free slots: only their mixlen words are written (a free slot's
 * symbol is never read), half the bytes of the table, four a turn (cap
 * is a power of two, 256 or more). */
static struct intern_slot *new_slots(struct arena *a, size_t cap)
{
    struct intern_slot *slots = arena_alloc(a, cap * sizeof *slots);
    for (size_t k = 0; k < cap; k += 4) {
        slots[k].mixlen = INTERN_FREE;
        slots[k + 1].mixlen = INTERN_FREE;
        slots[k + 2].mixlen = INTERN_FREE;
        slots[k + 3].mixlen = INTERN_FREE;
    }
    return slots;
}

/* The free slot where a name with this mix goes (the name is not in the
 * table). */
static struct intern_slot *free_slot(struct intern_table *t, uint32_t mix)
{
    size_t mask = t->cap - 1, j = mix & mask;
    while (t->slots[j].mixlen != INTERN_FREE)
        j = (j + 1) & mask;
    return &t->slots[j];
}

/* Move the symbols to a table of cap slots (allocated first: out of
 * memory leaves the table as it was). */
static void rehash(struct lisp *L, size_t cap)
{
    struct intern_table *t = L->tab;
    struct intern_slot *old = t->slots, *slots = new_slots(L->sym_a, cap);
    size_t oldcap = t->cap;
    t->cap = cap;
    t->slots = slots;
    for (size_t k = 0; k < oldcap; k++)
        if (old[k].mixlen != INTERN_FREE)
            *free_slot(t, (uint32_t)old[k].mixlen) = old[k];
}

struct value *intern_add_at(struct lisp *L, struct intern_slot *free, const char *name,
                            size_t len, uint64_t w0, uint64_t w1, uint32_t mix)
{
    struct intern_table *t = L->tab;
    if ((t->n + 1) * 4 > t->cap * 3) { /* the slot moves with the others */
        rehash(L, t->cap * 2);
        free = free_slot(t, mix);
    }
    struct value *sym = new_symbol(L, name, len, w0, w1, mix, true);
    free->mixlen = mix | (uint64_t)len << 32;
    free->sym = sym;
    t->n++;
    return sym;
}

void intern_reserve(struct lisp *L, size_t n)
{
    size_t cap = L->tab->cap;
    while ((L->tab->n + n) * 4 > cap * 3)
        cap *= 2;
    if (cap != L->tab->cap)
        rehash(L, cap);
}

struct value *intern_find(struct lisp *L, const char *name, size_t len)
{
    uint64_t w0, w1;
    name_key(name, len, &w0, &w1);
    struct intern_slot *s = intern_probe(L->tab, name, len, w0, w1, intern_mix(name, len, w0, w1));
    return s->mixlen != INTERN_FREE ? s->sym : NULL;
}

struct value *intern_symbol(struct lisp *L, const char *name, size_t len)
{
    uint64_t w0, w1;
    name_key(name, len, &w0, &w1);
    return intern_symbol_key(L, name, len, w0, w1);
}

/* Intern name and remember the symbol in e, its address's entry. */
static struct value *remember(struct lisp *L, struct intern_cstr_entry *e, const char *name)
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
    struct intern_cstr_entry *e = intern_cstr_slot(L, name);
    if (e->key == name && strcmp(e->sym->u.sym.name, name) == 0)
        return e->sym;
    return remember(L, e, name);
}

struct value *intern_static(struct lisp *L, const char *name)
{
    struct intern_cstr_entry *e = intern_cstr_slot(L, name); /* a literal never changes */
    return e->key == name ? e->sym : remember(L, e, name);
}

struct value *intern_uninterned(struct lisp *L, const char *name, size_t len)
{
    return make_symbol(L, name, len, false);
}

void intern_set_arena(struct lisp *L, struct arena *a)
{
    L->a = a;
}

/* The names of enum lisp_fn, in its order. */
static const char *const fn_names[LISP_FN_COUNT] = {
    "eq", "eql", "equal", "memq", "memql", "member", "not", "null", "car", "cdr",
    "car-safe", "cdr-safe", "length", "aref", "nth", "nthcdr", "seq--elt-safe",
};

struct lisp *intern_new(struct arena *a)
{
    struct lisp *L = arena_zalloc(a, sizeof *L);
    L->a = L->sym_a = a;
    L->tab = arena_zalloc(a, sizeof *L->tab);
    L->tab->cap = 256;
    L->tab->slots = new_slots(a, L->tab->cap);
    L->nil = intern_cstr(L, "nil");
    L->t = intern_cstr(L, "t");
    L->quote = intern_cstr(L, "quote");
    L->function = intern_cstr(L, "function");
    L->backquote = intern_cstr(L, "`");
    L->comma = intern_cstr(L, ",");
    L->comma_at = intern_cstr(L, ",@");
    L->lambda = intern_cstr(L, "lambda");
    for (size_t i = 0; i < LISP_FN_COUNT; i++)
        L->fns[i] = intern_cstr(L, fn_names[i]);
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
