/* memo.h - the match layer's context, unique tables and computed cache.
 *
 * Base of the pattern compiler (match/).  Every IR object of the layer
 * (patterns, subjects, match trees, lists, decision nodes) is hash-consed
 * through a unique table: structurally equal objects are the same pointer,
 * so equality is `==` and memo keys are pointers.  The computed cache maps
 * a compiler state to the decision node built for it; it is a pure
 * optimisation (switchable, counted for --stats).
 *
 * Functions, in order: memo_slot_hash, memo_entry_at, memo_kind_hash,
 * memo_table_init, memo_ctx_init, memo_mix, memo_words_hash,
 * memo_key_hash, memo_obj_hash, memo_scan, memo_probe, memo_probe_obj,
 * memo_lookup, memo_find (inline, as are memo_slot_hash to memo_find),
 * memo_find_by, memo_free_slot (inline), memo_reserve, memo_table_grow
 * (the inserts' slow path), memo_add_ptr, memo_add_obj, memo_add,
 * memo_insert, memo_obj_room, memo_obj_quick, memo_obj_new and
 * memo_put_obj (inline),
 * memo_stamp (inline), memo_cons (and list helpers),
 * memo_cache_get, memo_cache_put, memo_epoch, memo_enter and memo_leave
 * (inline).
 */
#ifndef PCX_MEMO_H
#define PCX_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lisp/intern.h"

/* First member of every hash-consed object: a creation number (stable
 * order, independent of addresses) and the structural hash. */
struct memo_hdr {
    uint32_t id;   /* creation order within the run */
    uint32_t hash; /* structural hash (never derived from addresses) */
};

/* Head of every hash-consed object of the layer. */
struct memo_obj {
    struct memo_hdr h;
};

/* A hash-consed list of memo objects (patterns, match trees, branches,
 * variable bindings).  nil is NULL. */
struct memo_list {
    struct memo_obj o;
    struct memo_obj *car;   /* element */
    struct memo_list *cdr;  /* rest, NULL at the end */
    uint32_t len;           /* number of elements */
    void *aux;              /* per-list analysis cached by match/dtree */
    struct memo_list *sorted; /* match/dtree: a list of bindings in the
                                 canonical order of leaves, once made */
};

/* The identity of a hash-consed object: a tag plus up to four words. */
struct memo_key {
    uint32_t tag;    /* object kind (each module has its own tags) */
    uint32_t small;  /* a small integer field (kind details, counts) */
    const void *w[4]; /* child objects or canonical values */
};

/* What a keyed insert (memo_add) stores: the key and its object. */
struct memo_entry {
    struct memo_key key; /* identity */
    void *obj;
};

/* One hash table: open addressing over two parallel arrays, the hashes
 * of what the slots hold (4 bytes, 0 = empty: only they are zeroed, and
 * probing reads them alone until a hash matches) and the pointers to it.
 * A table holds two sorts of things: entries of a key and an object
 * (memo_add, memo_lookup: the key is kept in the entry, a block of its
 * own that never moves), and objects that are their own key (memo_add_obj,
 * memo_probe_obj: the caller compares the object's fields, so nothing is
 * copied).  The hash tells them apart: memo_key_hash leaves the top
 * MEMO_KIND_BITS clear, memo_kind_hash sets them to the object's kind.
 * A zeroed struct is an empty table (but for memo_probe_obj, which needs
 * memo_table_init's). */
struct memo_table {
    uint32_t *hashes;         /* cap hashes, 0 for an empty slot */
    void **ptrs;              /* cap pointers: what the slot holds */
    size_t cap;               /* power of two (0 before first insert) */
    size_t mask;              /* cap - 1 (once cap > 0) */
    size_t n;                 /* things stored */
    size_t first;             /* slots of the first allocation (a power of
                                 two >= 4; 0 = 64): tables that stay small
                                 and live as long as the run start smaller */
    size_t max;               /* n at which the slots are half full and
                                 must grow (memo_table_grow) */
};

/* The hash a keyed entry is stored under: its hash, but 0 (an empty
 * slot) becomes 1 (the entries' own comparison tells them apart). */
static inline uint32_t memo_slot_hash(uint32_t h)
{
    return h ? h : 1;
}

/* The entry in slot j (stored by memo_add). */
static inline const struct memo_entry *memo_entry_at(const struct memo_table *t,
                                                     size_t j)
{
    return t->ptrs[j];
}

/* Kinds of objects that are their own key: the top bits of their hash
 * (0 is a keyed entry's). */
enum memo_kind {
    MEMO_KIND_LIST = 1, /* struct memo_list */
    MEMO_KIND_SUBJ,     /* match/mtree's objects */
    MEMO_KIND_MTREE,
    MEMO_KIND_VBIND,
    MEMO_KIND_BRANCH,
    MEMO_KIND_TEST,     /* match/dtree's objects */
    MEMO_KIND_NODE,
    MEMO_KIND_STATE,
};
#define MEMO_KIND_BITS 4

/* The hash of an object of kind (1 .. 2^MEMO_KIND_BITS - 1) from h, a
 * 64-bit product whose high bits are well mixed: those bits, the kind
 * above them.  No keyed entry and no object of another kind has it. */
static inline uint32_t memo_kind_hash(uint32_t kind, uint64_t h)
{
    return (uint32_t)(h >> (32 + MEMO_KIND_BITS)) | kind << (32 - MEMO_KIND_BITS);
}

/* Callbacks into the expander (the match layer never sees expand/). */
struct memo_hooks {
    /* A fresh temporary with a base name ("x", "val", "pcase-"). */
    struct value *(*gensym)(void *ctx, const char *base);
    /* Expanded copy of user code (nested pcase-family forms expanded);
     * NULL after the callee recorded an error. */
    struct value *(*code)(void *ctx, struct value *form);
    void *ctx;
    /* Optional (NULL: not asked): `code` is where clause number `clause`
     * has its code in the emitted form - a list that is its leaf, or the
     * list cell whose car is a leaf that is an atom, or the lambda of its
     * shared body.  Called for every such place, in no particular order;
     * the printer finds the first one it prints (comments of the clause
     * go there). */
    void (*carries)(void *ctx, const struct value *code, uint32_t clause);
};

struct subj;
struct mtree;
struct dnode;

/* Everything the match layer needs for one compilation. */
struct memo_ctx {
    struct lisp *L;             /* values, symbols, arena */
    struct memo_hooks hooks;    /* gensym / user-code expansion */
    struct arena *a;            /* where the layer's own objects live (IR,
                                   tables, work arrays; L->a unless the
                                   caller sets a scratch arena that dies
                                   with the compilation); Lisp values it
                                   makes always go to L->a */
    struct memo_table unique;   /* hash-consed IR objects */
    struct memo_table cache;    /* computed cache under keys (memo_cache_get,
                                   memo_cache_put); match/dtree keeps its
                                   states, with their nodes, in unique */
    struct memo_table vals;     /* canonical Lisp values (pat_val) */
    bool use_cache;             /* computed cache on (output identical off) */
    bool ordered_leaves;        /* match/dtree: a leaf keeps its variables in
                                   the order they were bound (newest first),
                                   which pcase-setq's assignments follow;
                                   else in a canonical order, so that more
                                   leaves are one */
    size_t hits, misses;        /* computed-cache statistics */
    size_t states;              /* distinct states match/dtree built, over
                                   all its builds in this context (its
                                   budget counts them) */
    uint32_t next_id;           /* creation counter for memo_hdr.id */
    uint32_t next_epoch;        /* last pass number given (memo_epoch) */
    const struct subj **temps;  /* the temporaries by number (subj.tnum) */
    const struct mtree *succeed, *fail; /* match/mtree's constants, once made */
    const struct dnode *no_match; /* match/dtree's FAIL node, once made */
    uint32_t n_temps, cap_temps;
    int depth, max_depth;       /* recursion guard of every recursive pass */
    bool too_deep;              /* set once the guard tripped */
    bool failed;                /* a hook reported an error */
    const void *bad;            /* the PAT_BAD pattern the compiler reached */
};

/* An empty table whose probes need not test for slots (memo_probe_obj):
 * one empty slot that is never written (the first insert grows). */
void memo_table_init(struct memo_table *t);

/* Initialise ctx for one compilation; max_depth <= 0 means 10000.  The
 * layer's objects go to L->a (set m->a before first use to change it).
 * Its tables are set up by memo_table_init. */
void memo_ctx_init(struct memo_ctx *m, struct lisp *L,
                   const struct memo_hooks *hooks, bool use_cache,
                   int max_depth);

/* Combine a hash with one more 32-bit word (deterministic). */
static inline uint32_t memo_mix(uint32_t h, uint32_t w)
{
    h ^= w + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h * 0x85ebca6bu;
}

/* The hash of a word that is a hash-consed object (its memo_hdr's) or
 * NULL (none). */
static inline uint64_t memo_word_hash(const void *o, uint64_t none)
{
    return o ? ((const struct memo_hdr *)o)->hash : none;
}

/* The hash of the words tag, small and w0..w3 (objects or NULL): a 64-bit
 * product whose high bits are well mixed; deterministic because it only
 * reads the headers.  Two multiply rounds over the words packed in pairs;
 * inline, as it runs for every object the compiler makes. */
static inline uint64_t memo_words_hash(uint32_t tag, uint32_t small, const void *w0,
                                       const void *w1, const void *w2, const void *w3)
{
    const uint64_t m1 = 0x9e3779b97f4a7c15u, m2 = 0xc2b2ae3d27d4eb4fu;
    uint64_t h = (memo_word_hash(w0, 0x51) << 32 | memo_word_hash(w1, 0x52)) +
                 ((uint64_t)tag << 32 | small);
    h *= m1;
    h ^= memo_word_hash(w2, 0x53) << 32 | memo_word_hash(w3, 0x54);
    return h * m2;
}

/* Hash of a key (its words as memo_words_hash's): the top MEMO_KIND_BITS
 * are clear (see memo_table). */
static inline uint32_t memo_key_hash(const struct memo_key *k)
{
    return (uint32_t)(memo_words_hash(k->tag, k->small, k->w[0], k->w[1], k->w[2],
                                      k->w[3]) >> (32 + MEMO_KIND_BITS));
}

/* The hash of an object of kind (enum memo_kind) made of small and the
 * objects (or NULL) w0..w3: memo_words_hash with the kind's top bits. */
static inline uint32_t memo_obj_hash(uint32_t kind, uint32_t small, const void *w0,
                                     const void *w1, const void *w2, const void *w3)
{
    return memo_kind_hash(kind, memo_words_hash(kind, small, w0, w1, w2, w3));
}

static inline bool memo_key_eq(const struct memo_key *a, const struct memo_key *b)
{
    return a->tag == b->tag && a->small == b->small && a->w[0] == b->w[0] &&
           a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3];
}

/* The one scan of the tables: from slot *j on, the pointer of the first
 * slot with hash h (not 0), or NULL at the first empty slot (*j is then
 * that slot: the insert after a miss puts the thing there without
 * probing again).  t->cap > 0. */
static inline void *memo_scan(const struct memo_table *t, uint32_t h, size_t *j)
{
    for (;; *j = (*j + 1) & t->mask) {
        uint32_t x = t->hashes[*j];
        if (!x)
            return NULL;
        if (x == h)
            return t->ptrs[*j];
    }
}

/* The object of the first entry under hash h that match accepts (given
 * arg), or NULL; on a miss, *hole is the free slot where the probe ended.
 * Inline, as the probes below, with match a static function the compiler
 * folds into the loop at each caller. */
static inline void *memo_probe(const struct memo_table *t, uint32_t h,
                               bool (*match)(const struct memo_entry *e, const void *arg),
                               const void *arg, size_t *hole)
{
    *hole = 0;
    if (!t->cap)
        return NULL;
    h = memo_slot_hash(h);
    size_t j = h & t->mask;
    for (const struct memo_entry *e; (e = memo_scan(t, h, &j)); j = (j + 1) & t->mask)
        if (match(e, arg))
            return e->obj;
    *hole = j;
    return NULL;
}

/* The object of kind hash h (memo_kind_hash: never 0) that match
 * accepts, or NULL; *hole as memo_probe's.  t is a table memo_ctx_init
 * set up (m->unique, m->cache: their probe need not test for no slots)
 * or one memo_table_init did. */
static inline void *memo_probe_obj(const struct memo_table *t, uint32_t h,
                                   bool (*match)(const void *obj, const void *arg),
                                   const void *arg, size_t *hole)
{
    size_t j = h & t->mask;
    *hole = j; /* (set on a miss below; written here for the compiler) */
    for (const void *o; (o = memo_scan(t, h, &j)); j = (j + 1) & t->mask)
        if (match(o, arg))
            return (void *)o;
    *hole = j;
    return NULL;
}

static inline bool memo_entry_has_key(const struct memo_entry *e, const void *k)
{
    return memo_key_eq(&e->key, k);
}

/* The object stored under key k (with hash h) in t, or NULL; on a miss,
 * *hole as memo_probe's. */
static inline void *memo_lookup(const struct memo_table *t, const struct memo_key *k,
                                uint32_t h, size_t *hole)
{
    return memo_probe(t, h, memo_entry_has_key, k, hole);
}

/* The object stored under key k (with hash h) in t, or NULL. */
static inline void *memo_find(const struct memo_table *t, const struct memo_key *k,
                              uint32_t h)
{
    size_t hole;
    return memo_lookup(t, k, h, &hole);
}

/* The first object of t with hash h for which eq(obj, arg) holds, or
 * NULL (for tables whose identity is not a tuple of pointers); *hole as
 * memo_lookup's. */
void *memo_find_by(const struct memo_table *t, uint32_t h,
                   bool (*eq)(const void *obj, const void *arg), const void *arg,
                   size_t *hole);

/* The first free slot of the probe sequence of slot hash h in t
 * (t->cap > 0). */
static inline size_t memo_free_slot(const struct memo_table *t, uint32_t h)
{
    size_t j = h & t->mask;
    while (t->hashes[j])
        j = (j + 1) & t->mask;
    return j;
}

/* Room in t's slots for n entries in all, made at once: one rehash
 * instead of one per doubling on the way (never shrinks). */
void memo_reserve(struct memo_ctx *m, struct memo_table *t, size_t n);

/* Room in t for one more entry, its slots being half full: twice the
 * slots (the inserts' slow path). */
void memo_table_grow(struct memo_ctx *m, struct memo_table *t);

/* Store pointer p under slot hash h (not 0) in t, at the hole the probe
 * for it just found: nothing may have been added to t since.  Growing
 * allocates from m's arena; never fails (OOM longjmps).  Inline: the
 * lists, nodes and patterns of a compilation are a hundred thousand
 * inserts. */
static inline void memo_add_ptr(struct memo_ctx *m, struct memo_table *t,
                                uint32_t h, void *p, size_t hole)
{
    if (t->n == t->max) {
        memo_table_grow(m, t); /* the slots moved: probe anew */
        hole = memo_free_slot(t, h);
    }
    t->n++;
    t->hashes[hole] = h;
    t->ptrs[hole] = p;
}

/* Store obj, an object that is its own key, under its kind hash h (the
 * probe memo_probe_obj did not find it and gave hole). */
static inline void memo_add_obj(struct memo_ctx *m, struct memo_table *t,
                                uint32_t h, void *obj, size_t hole)
{
    memo_add_ptr(m, t, h, obj, hole);
}

/* Store obj under k in t (k must not be present), at the hole the
 * lookup of k (memo_lookup, memo_find_by) just found: nothing may have
 * been added to t since.  The entry is a block of its own (it never
 * moves). */
static inline void memo_add(struct memo_ctx *m, struct memo_table *t,
                            const struct memo_key *k, uint32_t h, void *obj,
                            size_t hole)
{
    struct memo_entry *e = arena_alloc(m->a, sizeof *e);
    *e = (struct memo_entry){*k, obj};
    memo_add_ptr(m, t, memo_slot_hash(h), e, hole);
}

/* Store obj under k in t (k must not be present). */
static inline void memo_insert(struct memo_ctx *m, struct memo_table *t,
                               const struct memo_key *k, uint32_t h, void *obj)
{
    memo_add(m, t, k, h, obj, t->cap ? memo_free_slot(t, memo_slot_hash(h)) : 0);
}

/* Memory for a new object of size bytes that is its own key, about to be
 * stored in t under kind hash h at *hole (memo_probe_obj's miss): the
 * arena's page and t have room (the usual case) and no call is made, or
 * memo_obj_room makes room (*hole then moves).  The caller stores it with
 * memo_put_obj.  Inline, so that the constructors of the layer's objects
 * save no register on their common paths. */
void *memo_obj_room(struct memo_ctx *m, struct memo_table *t, uint32_t h, size_t size,
                    size_t *hole);

/* memo_obj_new's common path alone: the memory, or NULL (nothing done)
 * when the arena's page or t has no room, for callers whose slow path is
 * a tail call. */
static inline __attribute__((always_inline))
void *memo_obj_quick(struct memo_ctx *m, const struct memo_table *t, size_t size)
{
    struct arena *a = m->a;
    size_t r = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (__builtin_expect(r <= (size_t)(a->end - a->cur) && t->n < t->max, 1)) {
        void *p = a->cur;
        a->cur += r;
        return p;
    }
    return NULL;
}

static inline __attribute__((always_inline))
void *memo_obj_new(struct memo_ctx *m, struct memo_table *t, uint32_t h, size_t size,
                   size_t *hole)
{
    struct arena *a = m->a;
    size_t r = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (__builtin_expect(r <= (size_t)(a->end - a->cur) && t->n < t->max, 1)) {
        void *p = a->cur;
        a->cur += r;
        return p;
    }
    return memo_obj_room(m, t, h, size, hole);
}

/* Store obj (from memo_obj_new, which gave hole) under kind hash h. */
static inline void memo_put_obj(struct memo_table *t, uint32_t h, void *obj, size_t hole)
{
    t->n++;
    t->hashes[hole] = h;
    t->ptrs[hole] = obj;
}

/* Stamp a fresh object's header with the next id and hash h. */
static inline void memo_stamp(struct memo_ctx *m, struct memo_hdr *hdr, uint32_t h)
{
    uint32_t id = m->next_id++;
    hdr->hash = h;
    /* Two plain stores: the empty asm keeps the compiler from merging them
     * through a vector register, two more instructions per object. */
    __asm__("" : "+r"(id));
    hdr->id = id;
}

/* The hash-consed list (car . cdr); car must not be NULL. */
struct memo_list *memo_cons(struct memo_ctx *m, struct memo_obj *car,
                            struct memo_list *cdr);

/* List of n elements (n may be 0: NULL). */
struct memo_list *memo_list_of(struct memo_ctx *m, struct memo_obj *const *items,
                               size_t n);

/* Element i (0-based; i < len). */
struct memo_obj *memo_nth(const struct memo_list *l, size_t i);

/* Reverse of l, and l followed by tail. */
struct memo_list *memo_reverse(struct memo_ctx *m, const struct memo_list *l);
struct memo_list *memo_append(struct memo_ctx *m, const struct memo_list *l,
                              struct memo_list *tail);

/* Computed cache under a key: the node built for state key k, or NULL
 * (counts a hit or a miss).  Always NULL when the cache is off;
 * memo_cache_put records the state either way (m->cache.n counts distinct
 * states).  match/dtree keeps its states in m->unique as own-key objects
 * instead, so that one probe both asks and records. */
void *memo_cache_get(struct memo_ctx *m, const struct memo_key *k, uint32_t h);
void memo_cache_put(struct memo_ctx *m, const struct memo_key *k, uint32_t h,
                    void *node);

/* A new pass number (never 0) for caches kept on objects. */
static inline uint32_t memo_epoch(struct memo_ctx *m)
{
    return ++m->next_epoch;
}

/* Depth guard around recursive steps: memo_enter returns false (and sets
 * too_deep) at the limit; every successful enter needs one leave. */
static inline bool memo_enter(struct memo_ctx *m)
{
    if (m->depth >= m->max_depth) {
        m->too_deep = true;
        return false;
    }
    m->depth++;
    return true;
}

static inline void memo_leave(struct memo_ctx *m)
{
    m->depth--;
}

#endif
