/* pat.c - pattern IR constructors, hash-consing, value hashing (see pat.h).
 *
 * Order: value hashing, canonical values (pat_val), the constructors,
 * pat_mentions and its walk, pat_pure_pred.
 */
#include "match/pat.h"

#include <string.h>

/* ---- value hashing ---------------------------------------------------- */

#define HASH_BUDGET 64 /* nodes visited per hash: bounded work */

static uint32_t hash_bytes(uint32_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t k = 0; k < n && k < 256; k++)
        h = (h ^ b[k]) * 16777619u;
    return memo_mix(h, (uint32_t)n);
}

static uint32_t hash_atom(const struct value *v)
{
    uint32_t h = 2166136261u ^ v->kind;
    switch (v->kind) {
    case VK_INT: /* the commonest constant after symbols: no byte loop */
        return memo_mix(memo_mix(h, (uint32_t)v->u.i), (uint32_t)((uint64_t)v->u.i >> 32));
    case VK_FLOAT:
        return hash_bytes(h, &v->u.f, sizeof v->u.f);
    case VK_BIGNUM:
        return hash_bytes(h + v->u.big.neg, value_big_digits(v),
                          strlen(value_big_digits(v)));
    case VK_SYMBOL:
        return v->u.sym.interned ? v->u.sym.hash : memo_mix(h, v->u.sym.id);
    case VK_STRING:
        return hash_bytes(h, v->u.str.data, v->u.str.len);
    case VK_BOOLVEC:
        return hash_bytes(h, v->u.bv.bits, (v->u.bv.nbits + 7) / 8);
    default: /* hash tables compare by identity: any two equal ones are eq */
        return h;
    }
}

static bool vectorlike(const struct value *v)
{
    return v->kind == VK_VECTOR || v->kind == VK_RECORD ||
           v->kind == VK_BYTECODE || v->kind == VK_CHARTABLE ||
           v->kind == VK_SUBCHARTABLE;
}

/* Depth-first, car before cdr, at most HASH_BUDGET nodes: equal values are
 * visited identically, so they hash identically. */
uint32_t pat_value_hash(const struct value *v)
{
    if (v->kind != VK_CONS && !vectorlike(v)) /* the walk's one step */
        return memo_mix(0x2545f491u, hash_atom(v));
    const struct value *stack[HASH_BUDGET];
    size_t top = 0, seen = 0;
    uint32_t h = 0x2545f491u;
    stack[top++] = v;
    while (top && seen < HASH_BUDGET) {
        const struct value *x = stack[--top];
        seen++;
        if (x->kind == VK_CONS) {
            h = memo_mix(h, 0xc0u);
            if (top + 2 <= HASH_BUDGET) {
                stack[top++] = x->u.cons.cdr;
                stack[top++] = x->u.cons.car;
            }
        } else if (x->kind == VK_SYMBOL && x->u.sym.interned) {
            h = memo_mix(h, x->u.sym.hash); /* hash_atom's, without the call */
        } else if (vectorlike(x)) {
            h = memo_mix(memo_mix(h, x->kind), (uint32_t)x->u.vec.n);
            for (size_t k = x->u.vec.n; k-- > 0 && top < HASH_BUDGET;)
                stack[top++] = x->u.vec.items[k];
        } else {
            h = memo_mix(h, hash_atom(x));
        }
    }
    return h;
}

/* ---- canonical values ------------------------------------------------- */

/* The wrappers are their own key in m->vals (the table holds nothing
 * else): a probe compares their value, a new one is stored without a key
 * entry. */
static bool val_eq(const void *pv, const void *v)
{
    return value_equal(((const struct pat_val *)pv)->v, v);
}

/* pat_val's test for a symbol: `equal' is identity there. */
static bool same_symbol(const void *pv, const void *sym)
{
    return ((const struct pat_val *)pv)->v == sym;
}

/* pat_value_hash of a symbol, without the calls: most values of
 * patterns are symbols (variables, constants, functions). */
static inline uint32_t symbol_hash(const struct value *sym)
{
    uint32_t h = sym->u.sym.interned ? sym->u.sym.hash
                                     : memo_mix(2166136261u ^ VK_SYMBOL, sym->u.sym.id);
    return memo_mix(0x2545f491u, h);
}

/* A new wrapper of v (hash h, slot hash slot) at hole, the arena or the
 * table grown first if need be. */
__attribute__((noinline))
static const struct pat_val *new_val(struct memo_ctx *m, struct value *v, uint32_t h,
                                     uint32_t slot, size_t hole)
{
    struct pat_val *pv = memo_obj_new(m, &m->vals, slot, sizeof *pv, &hole);
    pv->v = v;
    memo_stamp(m, &pv->o.h, h);
    memo_put_obj(&m->vals, slot, pv, hole);
    return pv;
}

/* pat_val of a value that is not a symbol. */
__attribute__((noinline))
static const struct pat_val *val_of(struct memo_ctx *m, struct value *v)
{
    uint32_t h = pat_value_hash(v);
    uint32_t slot = memo_slot_hash(h); /* 0 marks an empty slot */
    size_t hole;
    struct pat_val *pv = memo_probe_obj(&m->vals, slot, val_eq, v, &hole);
    return pv ? pv : new_val(m, v, h, slot, hole);
}

/* Symbols (most values) take a path without calls but tail calls, so
 * that it saves no register. */
const struct pat_val *pat_val(struct memo_ctx *m, struct value *v)
{
    if (v->kind != VK_SYMBOL)
        return val_of(m, v);
    uint32_t h = symbol_hash(v);
    uint32_t slot = memo_slot_hash(h);
    size_t hole;
    struct pat_val *pv = memo_probe_obj(&m->vals, slot, same_symbol, v, &hole);
    if (pv)
        return pv;
    pv = memo_obj_quick(m, &m->vals, sizeof *pv);
    if (!pv)
        return new_val(m, v, h, slot, hole);
    pv->v = v;
    memo_stamp(m, &pv->o.h, h);
    memo_put_obj(&m->vals, slot, pv, hole);
    return pv;
}

/* ---- constructors ----------------------------------------------------- */

/* Patterns are their own key in m->unique: a probe compares their
 * fields, a new one is stored without a key entry.  Their hashes carry
 * the highest kind the top bits can hold, above the kinds memo.h
 * numbers from 1, so no other object of the table is compared as one. */
enum { PAT_HASH_KIND = (1u << MEMO_KIND_BITS) - 1 };

static bool same_pat(const void *obj, const void *arg)
{
    const struct pat *p = obj, *k = arg;
    return p->kind == k->kind && p->sub_kind == k->sub_kind && p->val == k->val &&
           p->sub == k->sub && p->items == k->items && p->memfn == k->memfn;
}

/* Inline into each constructor: its constant fields (kind, no memfn,
 * NULL words) fold into the key and its hash.  memfn (a symbol) is hashed
 * through its wrapper. */
static inline __attribute__((always_inline)) const struct pat *
make_sub(struct memo_ctx *m, enum pat_kind kind, const struct pat_val *val,
         struct value *memfn, const struct pat *sub, struct memo_list *items,
         int sub_kind)
{
    const struct pat_val *fnv = memfn ? pat_val(m, memfn) : NULL;
    struct pat k = {{{0, 0}}, kind, sub_kind, val, memfn, sub, items};
    uint32_t h = memo_obj_hash(PAT_HASH_KIND, (uint32_t)kind | (uint32_t)sub_kind << 8,
                               val, fnv, sub, items);
    size_t hole;
    struct pat *p = memo_probe_obj(&m->unique, h, same_pat, &k, &hole);
    if (p)
        return p;
    p = memo_obj_new(m, &m->unique, h, sizeof *p, &hole); /* every field set here */
    *p = k;
    memo_stamp(m, &p->o.h, h);
    memo_put_obj(&m->unique, h, p, hole);
    return p;
}

static inline __attribute__((always_inline)) const struct pat *
make(struct memo_ctx *m, enum pat_kind kind, const struct pat_val *val,
     struct value *memfn, const struct pat *sub, struct memo_list *items)
{
    return make_sub(m, kind, val, memfn, sub, items, 0);
}

const struct pat *pat_any(struct memo_ctx *m)
{
    return make(m, PAT_ANY, NULL, NULL, NULL, NULL);
}

const struct pat *pat_var(struct memo_ctx *m, struct value *sym)
{
    return make(m, PAT_VAR, pat_val(m, sym), NULL, NULL, NULL);
}

const struct pat *pat_quote(struct memo_ctx *m, struct value *constant)
{
    return make(m, PAT_QUOTE, pat_val(m, constant), NULL, NULL, NULL);
}

const struct pat *pat_pred(struct memo_ctx *m, struct value *fun)
{
    return make(m, PAT_PRED, pat_val(m, fun), NULL, NULL, NULL);
}

const struct pat *pat_guard(struct memo_ctx *m, struct value *expr)
{
    return make(m, PAT_GUARD, pat_val(m, expr), NULL, NULL, NULL);
}

const struct pat *pat_app(struct memo_ctx *m, struct value *fun,
                          const struct pat *sub)
{
    return make(m, PAT_APP, pat_val(m, fun), NULL, sub, NULL);
}

const struct pat *pat_app_val(struct memo_ctx *m, const struct pat_val *fun,
                              const struct pat *sub)
{
    return make(m, PAT_APP, fun, NULL, sub, NULL);
}

/* The list of patterns items[0..n).  Each pointer is converted on its
 * own: reading the array as one of memo_obj pointers would break C's
 * aliasing rules (and does break, once inlined across files). */
static struct memo_list *pat_list(struct memo_ctx *m, const struct pat *const *items,
                                  size_t n)
{
    struct memo_list *l = NULL;
    while (n > 0) {
        n--;
        l = memo_cons(m, (struct memo_obj *)&items[n]->o, l);
    }
    return l;
}

const struct pat *pat_and(struct memo_ctx *m, const struct pat *const *items,
                          size_t n)
{
    return make(m, PAT_AND, NULL, NULL, NULL, pat_list(m, items, n));
}

const struct pat *pat_or(struct memo_ctx *m, const struct pat *const *items,
                         size_t n)
{
    return make(m, PAT_OR, NULL, NULL, NULL, pat_list(m, items, n));
}

const struct pat *pat_member(struct memo_ctx *m, struct value *memfn,
                             struct value *list)
{
    return make(m, PAT_MEMBER, pat_val(m, list), memfn, NULL, NULL);
}

const struct pat *pat_dontcare(struct memo_ctx *m)
{
    return make(m, PAT_DONTCARE, NULL, NULL, NULL, NULL);
}

const struct pat *pat_bad(struct memo_ctx *m, struct value *v, int why)
{
    return make_sub(m, PAT_BAD, pat_val(m, v), NULL, NULL, NULL, why);
}

/* ---- queries ---------------------------------------------------------- */

/* Note sym among the n symbols looked for; true when the walk can stop
 * (all found, or any when only whether is asked). */
static inline bool mention(const struct value *sym, struct value *const *syms, size_t n,
                           bool *found, size_t *count)
{
    for (size_t i = 0; i < n; i++) {
        if (syms[i] != sym)
            continue;
        if (!found) {
            *count = 1;
            return true;
        }
        if (!found[i]) {
            found[i] = true;
            ++*count;
        }
        return *count == n;
    }
    return false;
}

/* The forms still to visit: on the C stack, moved to the arena only for
 * forms nested deeper than it holds. */
enum { MENTIONS_STACK = 64 };

/* Conses a walk of pat_mentions follows at most: more means a constant
 * that contains itself, as '#1=(a . #1#) (Emacs's own walk would not
 * end), and every symbol counts as mentioned, the answer that binds
 * and warns as if each were read. */
#define MENTIONS_BUDGET ((size_t)1 << 22)

/* A copy of the cap forms of st with room for twice as many.  Takes cap
 * by value: the walk's state, whose address no call takes, stays in
 * registers. */
static const struct value **mentions_grow(struct memo_ctx *m, const struct value **st,
                                          size_t cap)
{
    const struct value **bigger = ARENA_NEWN(m->a, const struct value *, cap * 2);
    memcpy(bigger, st, cap * sizeof *st);
    return bigger;
}

/* The walk of pat_mentions. */
struct mwalk {
    struct memo_ctx *m;
    const struct value **st; /* forms still to visit */
    size_t top, cap;
    uint64_t bloom;          /* mention_bit of each symbol looked for */
};

/* A bit per symbol (from its creation number): most symbols of a body
 * are not looked for, and one test of the walk's bloom word says so. */
static inline uint64_t mention_bit(const struct value *sym)
{
    return (uint64_t)1 << (sym->u.sym.id & 63);
}

/* Visit one element: a symbol is noted at once (true to stop), a cons or
 * a non-empty vector-like waits on the stack, other atoms mention
 * nothing. */
static inline bool mention_elt(struct mwalk *w, const struct value *e,
                               struct value *const *syms, size_t n, bool *found,
                               size_t *count)
{
    if (e->kind == VK_SYMBOL)
        return (w->bloom & mention_bit(e)) && mention(e, syms, n, found, count);
    if (e->kind == VK_CONS || (vectorlike(e) && e->u.vec.n)) {
        if (w->top == w->cap) {
            w->st = mentions_grow(w->m, w->st, w->cap);
            w->cap *= 2;
        }
        w->st[w->top++] = e;
    }
    return false;
}

/* Every one of the n symbols mentioned (found: all true). */
static size_t all_mentioned(bool *found, size_t n)
{
    for (size_t i = 0; found && i < n; i++)
        found[i] = true;
    return n;
}

/* Lists are followed along their cdrs: only their elements that are
 * conses or vector-likes wait on the stack, symbols are noted at once. */
size_t pat_mentions(struct memo_ctx *m, const struct value *form,
                    struct value *const *syms, size_t n, bool *found)
{
    const struct value *local[MENTIONS_STACK];
    struct mwalk w = {m, local, 0, MENTIONS_STACK, 0};
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        w.bloom |= mention_bit(syms[i]);
    if (found && n)
        memset(found, 0, n * sizeof *found);
    if (!n || mention_elt(&w, form, syms, n, found, &count))
        return count;
    size_t budget = MENTIONS_BUDGET;
    while (w.top) {
        const struct value *x = w.st[--w.top];
        if (x->kind != VK_CONS) { /* a vector-like */
            for (size_t k = 0; k < x->u.vec.n; k++)
                if (mention_elt(&w, x->u.vec.items[k], syms, n, found, &count))
                    return count;
            continue;
        }
        for (; x->kind == VK_CONS; x = x->u.cons.cdr) {
            if (!budget--)
                return all_mentioned(found, n);
            if (mention_elt(&w, x->u.cons.car, syms, n, found, &count))
                return count;
        }
        if (mention_elt(&w, x, syms, n, found, &count))
            return count;
    }
    return count;
}

struct value *pat_sym_not(struct memo_ctx *m)
{
    return INTERN_LIT(m->L, "not");
}

/* Sorted: type predicates without side effects whose outcome can only
 * depend on the value (repeating them is unobservable). */
static const char *const pure_preds[] = {
    "arrayp", "atom", "bool-vector-p", "byte-code-function-p", "char-table-p",
    "consp", "floatp", "integerp", "keywordp", "listp", "natnump", "nlistp",
    "null", "numberp", "recordp", "stringp", "symbolp", "vectorp",
};

long pat_check_table(void)
{
    for (size_t i = 1; i < sizeof pure_preds / sizeof pure_preds[0]; i++)
        if (strcmp(pure_preds[i - 1], pure_preds[i]) >= 0)
            return (long)i;
    return -1;
}

bool pat_pure_pred(const struct value *fun)
{
    if (fun->kind != VK_SYMBOL || !fun->u.sym.interned)
        return false;
    size_t lo = 0, hi = sizeof pure_preds / sizeof pure_preds[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(fun->u.sym.name, pure_preds[mid]);
        if (c == 0)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}
