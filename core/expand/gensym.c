/* gensym.c - temporaries: made during expansion, named at print time.
 *
 * Stage "expand"/"print" (cli.md section 7).  In order: the table of
 * temporaries (a temporary's symbol keeps its index and sits just before
 * its entry, a copy of its base's first symbol), the per-form naming
 * state (counters per base), the run's names (one entry per distinct
 * name, found by string hash: lookups only, never iterated, so output
 * does not depend on addresses), name choice with collision skipping,
 * and the three printed forms.
 */
#include "expand/gensym.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "lisp/print.h"

/* Bytes of a symbol's value: the header and the symbol member, not the
 * whole union (a temporary's symbol lives just before its struct temp). */
#define SYMBOL_BYTES (offsetof(struct value, u) + sizeof(struct value_symbol))

/* A temporary: its symbol is the SYMBOL_BYTES just before it, in the same
 * block, so the symbol leads to its entry without a lookup. */
struct temp {
    uint32_t counter;   /* index of its base's counter */
    uint32_t epoch;     /* form in which text/label were assigned */
    const char *text;   /* printed name in that form */
    size_t len;
    unsigned label;     /* circle mode: K */
    bool shown;         /* circle mode: the labelled occurrence is out */
};

/* A name PREFIX BASE N: the same in every form, so it is made, looked up
 * among the input's symbols and printed once for the run.  One entry per
 * distinct string (bases "x1" and "x" both reach "x10"), so that which
 * temporary of the form took it is a stamp on the entry. */
struct name {
    const char *name;   /* PREFIX BASE N, or _ PREFIX BASE N (zero-padded to
                           16 bytes at least, as interned names are) */
    uint32_t hash;      /* intern_mix of the name: the symbol table's hash */
    uint32_t name_len;
    uint32_t taken;     /* the form (epoch) that gave it to a temporary */
    bool input;         /* a symbol of the input file has this name */
    const char *text;   /* rename mode's text (NULL until needed) */
    size_t len;
    const char *htext;  /* hash mode's #:BASE N (NULL until needed): the
                           same for every base reaching this name, since
                           only effect-only names start with _ PREFIX
                           (a base never starts with _), so equal names
                           have equal BASE N */
    size_t hlen;
};

/* Next N for one base in the current form. */
struct counter {
    const char *base;   /* without the leading '_' (its first symbol's name,
                           zero-padded to 16 bytes at least) */
    uint32_t base_len;
    bool base_plain;    /* every byte a letter, digit, - or _ (name_char) */
    const struct value *first; /* its first temporary's symbol: the others
                           are copies with their own id and index */
    bool effect_only;
    uint32_t epoch;
    unsigned next;
    struct name **names; /* names[N], made in order as N grows */
    size_t n_names, cap_names;
};

struct gensym {
    struct lisp *L;
    enum gensym_mode mode;
    const char *prefix;       /* zero-padded to 16 bytes at least */
    size_t prefix_len;
    bool prefix_plain;        /* every byte a letter, digit, - or _ */
    uint32_t input_limit;     /* symbol ids below this are the input's */
    const struct lisp *known; /* ... and the names of this table */
    uint32_t epoch;           /* current top-level form (1-based) */
    unsigned label_next;      /* next circle label in this form */
    struct temp **temps;      /* in creation order; a temporary's symbol
                                 keeps 1 + its index (value_symbol.temp) */
    size_t cap, n;
    struct counter *counters; /* one per (base, effect_only) */
    size_t n_counters, cap_counters;
    struct name **names;      /* the run's names (hash set on the string) */
    size_t names_cap, names_n;
    struct {                  /* counters of bases recently asked for, by */
        const char *base;     /* the address of the base given (front ends */
        uint32_t counter;     /* pass literals): the first one tried */
    } recent[8];
};

/* 2 for an ASCII letter or _, 1 for a digit or -, else 0 (no locale). */
static int name_char(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        return 2;
    return (c >= '0' && c <= '9') || c == '-';
}

/* Is every one of the n bytes at s a letter, digit, - or _? */
static bool all_name_chars(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!name_char(s[k]))
            return false;
    return true;
}

/* A copy of prefix p (n bytes) zero-padded to 16 bytes at least, so that
 * names are joined with fixed-size moves (put_piece). */
static void set_prefix(struct gensym *g, const char *p, size_t n)
{
    char *copy = arena_zalloc(g->L->a, n + 17);
    memcpy(copy, p, n);
    g->prefix = copy;
    g->prefix_len = n;
    g->prefix_plain = all_name_chars(p, n);
}

struct gensym *gensym_new(struct lisp *L)
{
    struct gensym *g = arena_zalloc(L->a, sizeof *g);
    g->L = L;
    g->mode = GENSYM_RENAME;
    set_prefix(g, "pcx--", 5);
    g->input_limit = L->next_id;
    g->cap = 64;
    g->temps = ARENA_NEWN(L->a, struct temp *, g->cap);
    return g;
}

/* The names made so far depend on the prefix and on which symbols are
 * the input's: forget them when either changes. */
static void forget_names(struct gensym *g)
{
    for (size_t k = 0; k < g->n_counters; k++)
        g->counters[k].n_names = 0;
    g->names = NULL;
    g->names_cap = g->names_n = 0;
}

void gensym_configure(struct gensym *g, enum gensym_mode mode,
                      const char *prefix)
{
    g->mode = mode;
    if (prefix)
        set_prefix(g, prefix, strlen(prefix));
    forget_names(g);
}

void gensym_set_input_limit(struct gensym *g, uint32_t limit)
{
    g->input_limit = limit;
    forget_names(g);
}

uint32_t gensym_input_limit(const struct gensym *g) { return g->input_limit; }

void gensym_set_known(struct gensym *g, const struct lisp *known)
{
    g->known = known;
    forget_names(g);
}

size_t gensym_count(const struct gensym *g) { return g->n; }

/* sym's temporary, or NULL when sym is not one of g's. */
static struct temp *temp_of(const struct gensym *g, const struct value *sym)
{
    uint32_t k = sym->u.sym.temp - 1; /* 0 (no temporary) wraps round */
    struct temp *t = (struct temp *)((char *)sym + SYMBOL_BYTES);
    if (k >= g->n || g->temps[k] != t)
        return NULL;
    return t;
}

/* Is name (NUL-terminated) the counter's base?  Bases are a few bytes
 * long: a loop costs less than a call to strcmp. */
static bool same_base(const struct counter *c, const char *name)
{
    const char *b = c->base;
    while (*b && *b == *name)
        b++, name++;
    return *b == *name;
}

/* Index of the counter of (base, effect_only), made when new. */
static uint32_t counter_index(struct gensym *g, const char *base, bool effect_only)
{
    for (size_t k = 0; k < g->n_counters; k++) {
        struct counter *c = &g->counters[k];
        if (c->effect_only == effect_only && same_base(c, base))
            return (uint32_t)k;
    }
    if (g->n_counters == g->cap_counters) {
        size_t cap = g->cap_counters ? g->cap_counters * 2 : 16;
        g->counters = arena_grow(g->L->a, g->counters,
                                 g->cap_counters * sizeof *g->counters,
                                 cap * sizeof *g->counters);
        g->cap_counters = cap;
    }
    g->counters[g->n_counters] = (struct counter){.effect_only = effect_only};
    return (uint32_t)g->n_counters++;
}

/* The first temporary of counter c: its symbol comes from the symbol
 * table, and the others copy it (every field but the id and the index is
 * a function of the name), which spares copying and hashing the name
 * again for each of the run's thousands of temporaries. */
__attribute__((noinline)) static void first_symbol(struct gensym *g, struct counter *c,
                                                   struct value *sym, const char *base)
{
    const struct value *s = intern_uninterned(g->L, base, strlen(base));
    memcpy(sym, s, SYMBOL_BYTES);
    c->first = sym;
    c->base = sym->u.sym.name;
    c->base_len = sym->u.sym.len;
    c->base_plain = all_name_chars(c->base, c->base_len);
}

/* Index of the counter of base as gensym_make gets it (a leading '_' for
 * an effect-only temporary), remembered in g->recent. */
static uint32_t counter_of(struct gensym *g, const char *base)
{
    size_t slot = ((uintptr_t)base / 8) % (sizeof g->recent / sizeof g->recent[0]);
    uint32_t k = g->recent[slot].counter;
    bool effect_only = base[0] == '_';
    if (g->recent[slot].base == base && g->counters[k].effect_only == effect_only &&
        same_base(&g->counters[k], base + effect_only))
        return k;
    k = counter_index(g, base + effect_only, effect_only);
    g->recent[slot].base = base;
    g->recent[slot].counter = k;
    return k;
}

struct value *gensym_make(struct gensym *g, const char *base)
{
    uint32_t k = counter_of(g, base);
    struct counter *c = &g->counters[k];
    char *block = arena_alloc(g->L->a, SYMBOL_BYTES + sizeof(struct temp));
    struct value *sym = (struct value *)block;
    if (c->first) {
        memcpy(sym, c->first, SYMBOL_BYTES);
        sym->u.sym.id = g->L->next_id++;
    } else {
        first_symbol(g, c, sym, base + (base[0] == '_'));
    }
    struct temp *t = (struct temp *)(block + SYMBOL_BYTES);
    memset(t, 0, sizeof *t);
    t->counter = k;
    if (g->n == g->cap) {
        g->temps = arena_grow(g->L->a, g->temps, g->cap * sizeof *g->temps,
                              2 * g->cap * sizeof *g->temps);
        g->cap *= 2;
    }
    g->temps[g->n++] = t;
    sym->u.sym.temp = (uint32_t)g->n;
    return sym;
}

bool gensym_is_temp(const struct gensym *g, const struct value *sym)
{
    return value_symbolp(sym) && !sym->u.sym.interned && temp_of(g, sym);
}

void gensym_begin_form(struct gensym *g, unsigned label_floor)
{
    g->epoch++;
    g->label_next = label_floor + 1;
}

void gensym_begin_form_cb(void *g, unsigned label_floor)
{
    gensym_begin_form(g, label_floor);
}

/* ---- the run's names ---- */

/* Is entry e the name of len bytes at name, whose hash is h? */
static bool same_name(const struct name *e, const char *name, size_t len, uint32_t h)
{
    return e->hash == h && e->name_len == len && memcmp(e->name, name, len) == 0;
}

/* The slot of the names table holding name (len bytes, hash h), or the
 * empty slot where it would go. */
static size_t name_slot(const struct gensym *g, const char *name, size_t len, uint32_t h)
{
    size_t j = h & (g->names_cap - 1);
    while (g->names[j] && !same_name(g->names[j], name, len, h))
        j = (j + 1) & (g->names_cap - 1);
    return j;
}

static void names_grow(struct gensym *g)
{
    struct name **old = g->names;
    size_t old_cap = g->names_cap;
    g->names_cap = old_cap ? old_cap * 2 : 64;
    g->names = arena_zalloc(g->L->a, g->names_cap * sizeof *g->names);
    for (size_t k = 0; k < old_cap; k++)
        if (old[k])
            g->names[name_slot(g, old[k]->name, old[k]->name_len, old[k]->hash)] = old[k];
}

/* ---- choosing N ---- */

/* The n bytes of s at d, which has room for n + 16: a piece of up to 16
 * bytes (s zero-padded to 16 bytes) is one fixed-size move, no call. */
static char *put_piece(char *d, const char *s, size_t n)
{
    if (n <= 16)
        memcpy(d, s, 16);
    else
        memcpy(d, s, n);
    return d + n;
}

/* [_] [PREFIX] BASE N of counter c as one string in the arena, zero-padded
 * to 16 bytes at least (the symbol table's key is then two loads); *len
 * gets its length.  Without printf or strlen: names are made for every N
 * of every base. */
static const char *join_name(struct gensym *g, const struct counter *c, bool prefixed,
                             unsigned n, size_t *len)
{
    char digits[32], *d = digits + 16; /* a 16-byte move from d stays inside */
    do
        *--d = (char)('0' + n % 10);
    while (n /= 10);
    size_t ld = (size_t)(digits + 16 - d), la = prefixed ? g->prefix_len : 0;
    size_t total = c->effect_only + la + c->base_len + ld;
    char *s = arena_alloc(g->L->a, total + 33), *p = s;
    if (c->effect_only)
        *p++ = '_';
    if (la)
        p = put_piece(p, g->prefix, la);
    p = put_piece(p, c->base, c->base_len);
    p = put_piece(p, d, ld);
    memset(p, 0, 16);
    *len = total;
    return s;
}

/* The entry of the name of len bytes at name (zero-padded to 16 bytes),
 * made in the arena: shared by every base that reaches it.  Its hash is
 * the symbol table's, which tells whether the input has the name. */
static struct name *name_entry(struct gensym *g, const char *name, size_t len)
{
    if ((g->names_n + 1) * 2 > g->names_cap)
        names_grow(g);
    uint64_t w0 = intern_load8(name), w1 = intern_load8(name + 8);
    uint32_t h = intern_mix(name, len, w0, w1);
    size_t j = name_slot(g, name, len, h);
    if (!g->names[j]) {
        struct name *e = arena_zalloc(g->L->a, sizeof *e);
        struct intern_slot *slot = intern_probe(g->L->tab, name, len, w0, w1, h);
        struct value *s = slot->mixlen != INTERN_FREE ? slot->sym : NULL;
        e->name = name;
        e->hash = h;
        e->name_len = (uint32_t)len;
        e->input = s && s->u.sym.id < g->input_limit;
        if (!e->input && g->known)
            e->input = intern_probe(g->known->tab, name, len, w0, w1, h)->mixlen !=
                       INTERN_FREE;
        g->names[j] = e;
        g->names_n++;
    }
    return g->names[j];
}

/* Make c's name number n (n == c->n_names: names are made in order).
 * The name PREFIX BASE N (or _ PREFIX BASE N) is what rename mode prints
 * and what collisions are checked on in every mode, so that the numbers
 * are the same whichever mode prints them.  Out of line: once per name
 * of the run, while name_of runs for every temporary of every form. */
__attribute__((noinline)) static struct name *new_name(struct gensym *g, struct counter *c,
                                                      unsigned n)
{
    if (c->n_names == c->cap_names) {
        size_t cap = c->cap_names ? c->cap_names * 2 : 8;
        c->names = arena_grow(g->L->a, c->names, c->cap_names * sizeof *c->names,
                              cap * sizeof *c->names);
        c->cap_names = cap;
    }
    size_t len;
    const char *s = join_name(g, c, true, n, &len);
    return c->names[c->n_names++] = name_entry(g, s, len);
}

/* c's name number n (n is at most c->n_names). */
static struct name *name_of(struct gensym *g, struct counter *c, unsigned n)
{
    return n < c->n_names ? c->names[n] : new_name(g, c, n);
}

/* First N (counting per base in this form) whose renamed name is free:
 * not a symbol of the input (the program would change meaning) and not
 * given to another temporary of this form (bases like "x" and "x1" could
 * meet at "x10").  Epochs start at 1, so a new entry is taken by no form. */
static unsigned choose_n(struct gensym *g, struct counter *c, struct name **out)
{
    if (c->epoch != g->epoch)
        c->epoch = g->epoch, c->next = 0;
    for (;;) {
        unsigned n = c->next++;
        struct name *e = name_of(g, c, n);
        if (!e->input && e->taken != g->epoch) {
            e->taken = g->epoch;
            *out = e;
            return n;
        }
    }
}

/* ---- printed forms ---- */

/* prin1 text of a symbol named name (escapes as Emacs writes them): a
 * prefix from the configuration may contain characters that need them.
 * A throwaway uninterned symbol on the stack is printed, so nothing is
 * interned or allocated but the text. */
static const char *printed(struct gensym *g, const char *name, bool hash,
                           size_t *len)
{
    /* The usual name (a letter or _, then letters, digits, - and _) can
     * be neither a number nor need a backslash: it prints as it is. */
    size_t k = 0;
    bool plain = !hash && name_char(name[0]) > 1;
    for (; plain && name[k]; k++)
        plain = name_char(name[k]) > 0;
    if (plain) {
        *len = k;
        return name;
    }
    struct value s = {.kind = VK_SYMBOL};
    s.u.sym.name = name;
    s.u.sym.len = (uint32_t)strlen(name);
    s.u.sym.interned = false;
    struct buf b;
    buf_init(&b, g->L->a);
    print_symbol(&b, &s, hash);
    *len = b.len;
    return buf_cstr(&b);
}

/* Rename mode's text of e, counter c's name: the name itself when its
 * pieces are letters, digits, - and _ and it starts with a letter or _
 * (what printed finds byte by byte), else printed's. */
static const char *rename_text(struct gensym *g, const struct counter *c,
                               const struct name *e, size_t *len)
{
    char first = c->effect_only ? '_' : g->prefix_len ? g->prefix[0] : c->base[0];
    if (g->prefix_plain && c->base_plain && name_char(first) > 1) {
        *len = e->name_len;
        return e->name;
    }
    return printed(g, e->name, false, len);
}

/* Give t its name for the current form (once per temporary and form:
 * part of text_slow, which is out of line). */
static inline void assign(struct gensym *g, struct temp *t)
{
    struct counter *c = &g->counters[t->counter];
    struct name *e;
    unsigned n = choose_n(g, c, &e);
    t->epoch = g->epoch;
    t->shown = false;
    if (g->mode == GENSYM_RENAME) {
        if (!e->text)
            e->text = rename_text(g, c, e, &e->len);
        t->text = e->text;
        t->len = e->len;
        return;
    }
    if (!e->htext) {
        size_t len;
        e->htext = printed(g, join_name(g, c, false, n, &len), true, &e->hlen);
    }
    t->text = e->htext;
    t->len = e->hlen;
    if (g->mode == GENSYM_CIRCLE)
        t->label = g->label_next++;
}

/* Circle mode's text of t: #K= and the name at its first occurrence in
 * the form, #K# after it (out of line, as text_slow is). */
__attribute__((noinline)) static const char *circle_text(struct gensym *g, struct temp *t, size_t *n)
{
    struct buf b;
    buf_init(&b, g->L->a);
    if (t->shown) {
        buf_printf(&b, "#%u#", t->label);
    } else {
        buf_printf(&b, "#%u=", t->label);
        buf_put(&b, t->text, t->len);
        t->shown = true;
    }
    *n = b.len;
    return buf_cstr(&b);
}

/* text_slow's general case: any mode, names made as needed. */
__attribute__((noinline)) static const char *text_assign(struct gensym *g, struct temp *t,
                                                         size_t *n)
{
    if (t->epoch != g->epoch)
        assign(g, t);
    if (g->mode == GENSYM_CIRCLE)
        return circle_text(g, t, n);
    *n = t->len;
    return t->text;
}

/* gensym_text for a temporary not yet named in this form, or in circle
 * mode.  Out of line, and reached by a tail call, so that the common case
 * (a name given already) saves no registers.  Its own usual case, rename
 * mode with the name chosen made and printed already (by an earlier form
 * of the run), is choose_n's loop without a call; anything else goes to
 * text_assign, before anything is changed. */
__attribute__((noinline)) static const char *text_slow(struct gensym *g, struct temp *t,
                                                       size_t *n)
{
    if (g->mode != GENSYM_RENAME)
        return text_assign(g, t, n);
    struct counter *c = &g->counters[t->counter];
    for (unsigned k = c->epoch == g->epoch ? c->next : 0; k < c->n_names; k++) {
        struct name *e = c->names[k];
        if (e->input || e->taken == g->epoch)
            continue;
        if (!e->text)
            break;
        c->epoch = g->epoch;
        c->next = k + 1;
        e->taken = g->epoch;
        t->epoch = g->epoch;
        t->shown = false;
        t->text = e->text;
        t->len = e->len;
        *n = e->len;
        return e->text;
    }
    return text_assign(g, t, n);
}

const char *gensym_text(void *ctx, const struct value *sym, size_t *n)
{
    struct gensym *g = ctx;
    if (!value_symbolp(sym) || sym->u.sym.interned)
        return NULL;
    struct temp *t = temp_of(g, sym);
    if (!t)
        return NULL;
    if (t->epoch != g->epoch || g->mode == GENSYM_CIRCLE)
        return text_slow(g, t, n);
    *n = t->len;
    return t->text;
}
