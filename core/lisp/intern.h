/* intern.h - the symbol table of one run, and the well-known symbols.
 *
 * `struct lisp` bundles the run's arena with its obarray so constructors
 * that need symbols (nil!) have one handle.  Interned symbols are unique
 * per struct lisp, so `eq` is `==`.  Deterministic: nothing here depends on
 * pointer values; symbols carry a creation id for stable ordering.
 */
#ifndef PCX_INTERN_H
#define PCX_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "value.h"

struct intern_table;

/* Functions whose calls the match layer reads in the tests it generates
 * (match/witness), interned at creation: a pass over each compilation's
 * decision DAG asks for all of them. */
enum lisp_fn {
    LISP_FN_EQ, LISP_FN_EQL, LISP_FN_EQUAL, LISP_FN_MEMQ, LISP_FN_MEMQL, LISP_FN_MEMBER,
    LISP_FN_NOT, LISP_FN_NULL, LISP_FN_CAR, LISP_FN_CDR, LISP_FN_CAR_SAFE, LISP_FN_CDR_SAFE,
    LISP_FN_LENGTH, LISP_FN_AREF, LISP_FN_NTH, LISP_FN_NTHCDR, LISP_FN_ELT_SAFE,
    LISP_FN_COUNT
};

struct lisp {
    struct arena *a;            /* every value of the run */
    struct arena *sym_a;        /* interned symbols, their names and the table
                                   (the arena L was made in; a may change) */
    struct intern_table *tab;   /* the obarray */
    uint32_t next_id;           /* creation counter for symbols */
    bool heads_primed;          /* every head symbol of the expander is
                                   interned with its VALUE_ROW_EXPAND row
                                   (expand_prime_heads): the reader counts
                                   head tokens */
    /* Well-known symbols, interned at creation. */
    struct value *nil, *t, *quote, *function, *backquote, *comma, *comma_at;
    struct value *lambda;
    struct value *fns[LISP_FN_COUNT]; /* enum lisp_fn */
};

/* New symbol table in arena a (never NULL: OOM longjmps via the arena). */
struct lisp *intern_new(struct arena *a);

/* Make every value from now on (lists, strings, uninterned symbols) in a,
 * while interned symbols, their names and the table stay in the arena L
 * was made in: L outlives a, and the runs of a sequence (the parts of a
 * large input, api_split.c) share their symbols, each with an arena of
 * its own. */
void intern_set_arena(struct lisp *L, struct arena *a);

/* The interned symbol with this name (bytes in internal encoding). */
struct value *intern_symbol(struct lisp *L, const char *name, size_t len);
struct value *intern_cstr(struct lisp *L, const char *name);
/* intern_cstr of a string literal (INTERN_LIT makes sure it is one): its
 * text never changes, so the symbol cached for its address is taken
 * without comparing names.  The expander asks for "let", "if", "funcall"
 * at every form it builds. */
struct value *intern_static(struct lisp *L, const char *name);
#define INTERN_LIT(L, s) intern_lit((L), "" s "")

/* Make room for n more symbols, so that interning them does not grow the
 * table step by step (a reader that knows its text's size). */
void intern_reserve(struct lisp *L, size_t n);

/* Is there already an interned symbol with this name?  NULL if not. */
struct value *intern_find(struct lisp *L, const char *name, size_t len);

/* A fresh uninterned symbol (`make-symbol`). */
struct value *intern_uninterned(struct lisp *L, const char *name, size_t len);

/* ---- the table, and its lookup by key ----
 * Here rather than in intern.c so that the reader's lookup inlines.  A
 * name's key is its first 16 bytes as two little-endian words (byte k of
 * the name in bits 8k..8k+7 of its word), zero-padded.  An interned
 * symbol's name is stored zero-padded to 16 bytes at least, so its key is
 * two plain loads. */

struct intern_slot {
    uint64_t mixlen;   /* intern_mix of the name | its length << 32;
                          INTERN_FREE: a free slot */
    struct value *sym;
};

/* No name has this length (names are below 4 GiB). */
#define INTERN_FREE UINT64_MAX

/* intern_cstr's memory: the symbol last found for a name pointer. */
struct intern_cstr_entry {
    const char *key;
    struct value *sym;
};

#define INTERN_CSTR_CACHE 256

struct intern_table {
    struct intern_slot *slots;
    size_t cap; /* power of two */
    size_t n;   /* occupied */
    struct intern_cstr_entry cstr[INTERN_CSTR_CACHE];
};

/* The 8 bytes at p as a little-endian word (one load where the host is
 * little-endian). */
static inline uint64_t intern_load8(const void *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    const uint8_t *b = p;
    w = 0;
    for (int k = 7; k >= 0; k--)
        w = (w << 8) | b[k];
#endif
    return w;
}

/* The slot hash of a name with key w0, w1 (it depends on the name only:
 * deterministic).  Names longer than 16 bytes mix in their last 8.  The
 * high half is folded into the low one before the last multiplication,
 * whose high half is the result: every byte of the key counts. */
static inline uint32_t intern_mix(const char *name, size_t len, uint64_t w0, uint64_t w1)
{
    uint64_t h = w0 ^ (w1 * UINT64_C(0xC2B2AE3D27D4EB4F));
    if (len > 16)
        h ^= (intern_load8(name + len - 8) + len) * UINT64_C(0x165667B19E3779F9);
    h ^= h >> 32;
    return (uint32_t)((h * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

/* A lookup's miss: make the symbol of this name, whose free slot the
 * lookup found (intern_probe), and put it there; the slot is checked
 * against the table's load. */
struct value *intern_add_at(struct lisp *L, struct intern_slot *free, const char *name,
                            size_t len, uint64_t w0, uint64_t w1, uint32_t mix);

/* Bytes of a symbol's header and member: an interned symbol's name
 * follows them in the same block (intern.c), so a probe finds the name
 * without loading its pointer. */
#define INTERN_SYMBOL_SIZE (offsetof(struct value, u) + sizeof(struct value_symbol))

static inline const char *intern_name_of(const struct value *sym)
{
    return (const char *)sym + INTERN_SYMBOL_SIZE;
}

/* Do the names a and b, both len > 16 bytes, agree after their first 16? */
static inline bool intern_same_tail(const char *a, const char *b, size_t len)
{
    size_t k = 16;
    for (; k + 8 < len; k += 8)
        if (intern_load8(a + k) != intern_load8(b + k))
            return false;
    return intern_load8(a + len - 8) == intern_load8(b + len - 8);
}

/* The slot of the interned symbol with this name, whose key is (w0, w1)
 * and mix intern_mix's, in the table's slots (mask: its capacity less
 * one), or else the free slot where it goes (its mixlen INTERN_FREE):
 * the slot's mix and length, then the key, compared in words (and the
 * rest of a name longer than 16 bytes), with no call.  One answer, so
 * that a caller that makes the symbol out of line (intern_add_at) keeps
 * only the slot across the call. */
static inline struct intern_slot *intern_probe_in(struct intern_slot *slots, size_t mask,
                                                  const char *name, size_t len,
                                                  uint64_t w0, uint64_t w1, uint32_t mix)
{
    uint64_t want = mix | (uint64_t)len << 32;
    for (size_t j = mix & mask;; j = (j + 1) & mask) {
        struct intern_slot *s = &slots[j];
        if (s->mixlen == want) {
            const char *sn = intern_name_of(s->sym);
            if (intern_load8(sn) == w0 && intern_load8(sn + 8) == w1 &&
                (len <= 16 || intern_same_tail(sn, name, len)))
                return s;
        }
        if (s->mixlen == INTERN_FREE)
            return s;
    }
}

/* intern_probe_in of the table t. */
static inline struct intern_slot *intern_probe(const struct intern_table *t, const char *name,
                                               size_t len, uint64_t w0, uint64_t w1,
                                               uint32_t mix)
{
    return intern_probe_in(t->slots, t->cap - 1, name, len, w0, w1, mix);
}

/* intern_symbol for a caller that has the name's key (w0, w1) already:
 * inline but for making a new symbol. */
static inline struct value *intern_symbol_key(struct lisp *L, const char *name, size_t len,
                                              uint64_t w0, uint64_t w1)
{
    uint32_t mix = intern_mix(name, len, w0, w1);
    struct intern_slot *s = intern_probe(L->tab, name, len, w0, w1, mix);
    return s->mixlen != INTERN_FREE ? s->sym : intern_add_at(L, s, name, len, w0, w1, mix);
}

/* intern_cstr's memory for the name at this address. */
static inline struct intern_cstr_entry *intern_cstr_slot(struct lisp *L, const char *name)
{
    return &L->tab->cstr[(uint32_t)((uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15) >> 32) % INTERN_CSTR_CACHE];
}

/* intern_static with its usual case, the literal's symbol remembered,
 * inline (INTERN_LIT). */
static inline struct value *intern_lit(struct lisp *L, const char *name)
{
    const struct intern_cstr_entry *e = intern_cstr_slot(L, name);
    return e->key == name ? e->sym : intern_static(L, name);
}

/* List helpers used everywhere. */
static inline bool lisp_nilp(const struct lisp *L, const struct value *v) { return v == L->nil; }
struct value *lisp_list(struct lisp *L, size_t n, struct value *const *items);
/* (a b ...) of NULL-terminated arguments. */
struct value *lisp_listv(struct lisp *L, ...);
/* Reverse a proper list in place-free fashion (fresh conses). */
struct value *lisp_reverse(struct lisp *L, struct value *list);

#endif
