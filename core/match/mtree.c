/* mtree.c - subjects, match trees, knowledge splitting (see mtree.h).
 *
 * Order: subjects, constructors (succeed/fail/leaf/and/or, mtree_make),
 * mtree_split, mtree_app_subst, mtree_mentions_subj, bindings, branches.
 * Every rewrite returns the very same tree when nothing below changes
 * (the subject Bloom sets make that check O(1) for untouched subtrees).
 */
#include "match/mtree.h"

#include "match/fold.h"

/* ---- subjects --------------------------------------------------------- */

/* The identity of a subject: a root's canonical expression, or the
 * parent, FUN and generation of an application. */
struct subj_key {
    const struct subj *parent;
    const struct pat_val *fun, *root;
    uint32_t gen;
};

static bool same_subj(const void *obj, const void *arg)
{
    const struct subj *s = obj;
    const struct subj_key *k = arg;
    return s->parent == k->parent && s->fun == k->fun && s->root == k->root &&
           s->gen == k->gen;
}

/* The hash-consed subject of these fields.  Inline at its two callers: a
 * call and its saved registers cost more than the lookup. */
static inline __attribute__((always_inline))
const struct subj *make_subj(struct memo_ctx *m, const struct subj *parent,
                             const struct pat_val *fun, uint32_t gen,
                             const struct pat_val *root)
{
    struct subj_key k = {parent, fun, root, gen};
    uint32_t h = memo_obj_hash(MEMO_KIND_SUBJ, gen, parent, fun, root, NULL);
    size_t hole;
    struct subj *s = memo_probe_obj(&m->unique, h, same_subj, &k, &hole);
    if (s)
        return s;
    s = memo_obj_new(m, &m->unique, h, sizeof *s, &hole);
    *s = (struct subj){.parent = parent, .fun = fun, .root = root, .gen = gen,
                       .bit = UINT64_C(1) << (h % 64)};
    memo_stamp(m, &s->o.h, h);
    memo_put_obj(&m->unique, h, s, hole);
    return s;
}

/* s becomes a temporary: the next number, in creation order (a subject
 * is made a temporary right after it is made).  Inline at its two
 * callers: the call cost more than the numbering. */
static inline void number_temp(struct memo_ctx *m, struct subj *s)
{
    if (m->n_temps == m->cap_temps) {
        uint32_t cap = m->cap_temps * 2 + 16;
        m->temps = arena_grow(m->a, m->temps, m->cap_temps * sizeof *m->temps,
                              cap * sizeof *m->temps);
        m->cap_temps = cap;
    }
    s->temp = true;
    s->tnum = m->n_temps;
    m->temps[m->n_temps++] = s;
}

const struct subj *mtree_root(struct memo_ctx *m, struct value *expr, bool temp)
{
    struct subj *s = (struct subj *)make_subj(m, NULL, NULL, 0, pat_val(m, expr));
    s->expr = expr;
    if (temp && !s->temp)
        number_temp(m, s);
    else if (!temp)
        s->temp = false;
    return s;
}

const struct subj *mtree_temp(struct memo_ctx *m, const struct subj *parent,
                              const struct pat_val *fun, uint32_t gen)
{
    struct subj *s = (struct subj *)make_subj(m, parent, fun, gen, NULL);
    if (!s->expr) {
        s->expr = m->hooks.gensym(m->hooks.ctx, "x");
        number_temp(m, s);
    }
    return s;
}

/* ---- match trees ------------------------------------------------------ */

/* The identity of a match tree. */
struct mt_key {
    enum mt_kind kind;
    const struct subj *s;
    const struct pat *p;
    const struct memo_list *items;
};

static bool same_mt(const void *obj, const void *arg)
{
    const struct mtree *t = obj;
    const struct mt_key *k = arg;
    return t->kind == k->kind && t->s == k->s && t->p == k->p && t->items == k->items;
}

/* A match tree's hash: a leaf's two words, else its kind, pattern and
 * items (the leaves are most of them). */
static uint32_t mt_hash(enum mt_kind kind, const struct subj *s, const struct pat *p,
                        const struct memo_list *items)
{
    if (kind == MT_LEAF) {
        uint64_t words = (uint64_t)s->o.h.hash << 32 | p->o.h.hash;
        return memo_kind_hash(MEMO_KIND_MTREE, words * 0x9e3779b97f4a7c15u);
    }
    return memo_obj_hash(MEMO_KIND_MTREE, kind, p, items, NULL, NULL);
}

/* The summaries of a new tree t (its fields set).  Inline in make_mt:
 * called, its loop saves registers at every new tree. */
static inline __attribute__((always_inline)) void summarise(struct mtree *t)
{
    const struct memo_list *items = t->items;
    t->subjects = t->kind == MT_LEAF ? t->s->bit : 0;
    t->degenerate = (t->kind == MT_OR || t->kind == MT_AND) && (!items || !items->cdr);
    t->rebuilt_same = (t->kind == MT_AND || t->kind == MT_OR) && items && items->cdr;
    for (const struct memo_list *l = items; l; l = l->cdr) {
        const struct mtree *k = (const struct mtree *)l->car;
        t->subjects |= k->subjects;
        t->degenerate |= k->degenerate;
        t->rebuilt_same &= k->kind != MT_SUCCEED && k->kind != MT_FAIL;
    }
}

/* The new tree of these fields, stored at hole under h (t is its memory,
 * or NULL: memo_obj_new makes room). */
static inline __attribute__((always_inline))
const struct mtree *put_mt(struct memo_ctx *m, struct mtree *t, uint32_t h, size_t hole,
                           enum mt_kind kind, const struct subj *s, const struct pat *p,
                           struct memo_list *items)
{
    if (!t)
        t = memo_obj_new(m, &m->unique, h, sizeof *t, &hole);
    *t = (struct mtree){.kind = kind, .s = s, .p = p, .items = items};
    memo_stamp(m, &t->o.h, h);
    summarise(t);
    memo_put_obj(&m->unique, h, t, hole);
    return t;
}

/* put_mt when the arena's page or the table is full: out of line, so
 * that make_mt's own path makes no call. */
__attribute__((noinline))
static const struct mtree *put_mt_slow(struct memo_ctx *m, uint32_t h, size_t hole,
                                       enum mt_kind kind, const struct subj *s,
                                       const struct pat *p, struct memo_list *items)
{
    return put_mt(m, NULL, h, hole, kind, s, p, items);
}

static const struct mtree *make_mt(struct memo_ctx *m, enum mt_kind kind,
                                   const struct subj *s, const struct pat *p,
                                   struct memo_list *items)
{
    struct mt_key k = {kind, s, p, items};
    uint32_t h = mt_hash(kind, s, p, items);
    size_t hole;
    struct mtree *t = memo_probe_obj(&m->unique, h, same_mt, &k, &hole);
    if (t)
        return t;
    t = memo_obj_quick(m, &m->unique, sizeof *t);
    if (!t)
        return put_mt_slow(m, h, hole, kind, s, p, items);
    return put_mt(m, t, h, hole, kind, s, p, items);
}

static bool same_leaf(const void *obj, const void *arg)
{
    const struct mtree *t = obj, *k = arg;
    return t->kind == MT_LEAF && t->s == k->s && t->p == k->p;
}

/* The leaf (s . p): make_mt's most frequent case, on its own and inline
 * at its callers (a call and its saved registers cost more than the
 * lookup). */
static inline __attribute__((always_inline))
const struct mtree *make_leaf(struct memo_ctx *m, const struct subj *s, const struct pat *p)
{
    struct mtree k = {.s = s, .p = p};
    uint32_t h = mt_hash(MT_LEAF, s, p, NULL);
    size_t hole;
    struct mtree *t = memo_probe_obj(&m->unique, h, same_leaf, &k, &hole);
    if (t)
        return t;
    t = memo_obj_new(m, &m->unique, h, sizeof *t, &hole);
    *t = (struct mtree){.kind = MT_LEAF, .s = s, .p = p, .subjects = s->bit};
    memo_stamp(m, &t->o.h, h);
    memo_put_obj(&m->unique, h, t, hole);
    return t;
}

const struct mtree *mtree_make_known(struct memo_ctx *m, enum mt_kind kind)
{
    const struct mtree **at = kind == MT_SUCCEED ? &m->succeed : &m->fail;
    if (!*at)
        *at = make_mt(m, kind, NULL, NULL, NULL);
    return *at;
}

struct memo_list *mtree_alone(struct memo_ctx *m, const struct mtree *mt)
{
    struct mtree *t = (struct mtree *)mt; /* a cache, not its identity */
    if (!t->alone)
        t->alone = memo_cons(m, (struct memo_obj *)t, NULL);
    return t->alone;
}

const struct mtree *mtree_and(struct memo_ctx *m, struct memo_list *items)
{
    return make_mt(m, MT_AND, NULL, NULL, items);
}

const struct mtree *mtree_or(struct memo_ctx *m, struct memo_list *items)
{
    return make_mt(m, MT_OR, NULL, NULL, items);
}

const struct mtree *mtree_make(struct memo_ctx *m, const struct subj *s,
                               const struct pat *p)
{
    if (p->kind != PAT_AND && p->kind != PAT_OR)
        return make_leaf(m, s, p);
    if (!memo_enter(m))
        return NULL;
    size_t n = p->items ? p->items->len : 0, i = 0;
    struct memo_obj **kids = ARENA_NEWN(m->a, struct memo_obj *, n + 1);
    for (const struct memo_list *l = p->items; l; l = l->cdr) {
        const struct pat *q = (const struct pat *)l->car; /* most are leaves */
        const struct mtree *k = q->kind != PAT_AND && q->kind != PAT_OR
                              ? make_leaf(m, s, q) : mtree_make(m, s, q);
        if (!k)
            break;
        kids[i++] = (struct memo_obj *)k;
    }
    memo_leave(m);
    if (i < n)
        return NULL;
    struct memo_list *items = memo_list_of(m, kids, n);
    if (p->kind == PAT_OR && n < 2) /* keeps its pattern for the error */
        return make_mt(m, MT_OR, NULL, p, items);
    return p->kind == PAT_AND ? mtree_and(m, items) : mtree_or(m, items);
}

/* ---- splitting -------------------------------------------------------- */

/* Rebuild an and/or from the split copies of its items, as pcase.md 3.4
 * says: the zero element absorbs, neutral elements vanish, one survivor is
 * unwrapped. */
static inline const struct mtree *rebuild(struct memo_ctx *m, enum mt_kind kind,
                                          struct memo_obj **alts, size_t n)
{
    enum mt_kind zero = kind == MT_OR ? MT_SUCCEED : MT_FAIL;
    enum mt_kind neutral = kind == MT_OR ? MT_FAIL : MT_SUCCEED;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct mtree *a = (const struct mtree *)alts[i];
        if (a->kind == zero)
            return a;
        if (a->kind != neutral)
            alts[k++] = alts[i];
    }
    if (k == 0)
        return neutral == MT_FAIL ? mtree_fail(m) : mtree_succeed(m);
    if (k == 1)
        return (const struct mtree *)alts[0];
    struct memo_list *items = memo_list_of(m, alts, k);
    return kind == MT_OR ? mtree_or(m, items) : mtree_and(m, items);
}

/* Split the items of and/or mt into ta and ea; *then_same / *else_same
 * tell whether every item came back as it was.  The items that are not
 * and/or are split here (most are leaves), the others recursively. */
static bool split_items(struct memo_ctx *m, const struct mtree *mt, const struct subj *s,
                        const struct mt_splitter *sp,
                        struct memo_obj **ta, struct memo_obj **ea,
                        bool *then_same, bool *else_same)
{
    size_t i = 0;
    for (const struct memo_list *l = mt->items; l; l = l->cdr, i++) {
        const struct mtree *it = (const struct mtree *)l->car, *t = it, *e = it;
        if (!(it->subjects & s->bit))
            ;
        else if (it->kind != MT_AND && it->kind != MT_OR)
            mtree_split_leaf(m, it, s, sp, &t, &e);
        else if (!mtree_split_items(m, it, s, sp, &t, &e))
            return false;
        ta[i] = (struct memo_obj *)t;
        ea[i] = (struct memo_obj *)e;
        *then_same &= t == it;
        *else_same &= e == it;
    }
    return true;
}

bool mtree_split_items(struct memo_ctx *m, const struct mtree *mt, const struct subj *s,
                       const struct mt_splitter *sp,
                       const struct mtree **then_mt, const struct mtree **else_mt)
{
    if (!memo_enter(m))
        return false;
    size_t n = mt->items->len;
    struct memo_obj **ta = ARENA_NEWN(m->a, struct memo_obj *, 2 * n), **ea = ta + n;
    bool then_same = true, else_same = true;
    bool ok = split_items(m, mt, s, sp, ta, ea, &then_same, &else_same);
    memo_leave(m);
    if (!ok)
        return false;
    if (!then_same || !mt->rebuilt_same)
        *then_mt = rebuild(m, mt->kind, ta, n);
    if (!else_same || !mt->rebuilt_same)
        *else_mt = rebuild(m, mt->kind, ea, n);
    return true;
}

const struct mtree *mtree_simplify(struct memo_ctx *m, const struct mtree *mt)
{
    if (!mt->degenerate || (mt->kind != MT_AND && mt->kind != MT_OR))
        return mt;
    if (!memo_enter(m))
        return NULL;
    size_t n = mt->items ? mt->items->len : 0, i = 0;
    struct memo_obj **kids = ARENA_NEWN(m->a, struct memo_obj *, n + 1);
    for (const struct memo_list *l = mt->items; l; l = l->cdr) {
        const struct mtree *k = mtree_simplify(m, (const struct mtree *)l->car);
        if (!k) {
            memo_leave(m);
            return NULL;
        }
        kids[i++] = (struct memo_obj *)k;
    }
    memo_leave(m);
    return rebuild(m, mt->kind, kids, n);
}

/* ---- app substitution ------------------------------------------------- */

/* The leaf (s . 'C) once (app FUN ...) on s has been computed into n,
 * refined as Emacs 30.1 refines it (pcase.md 3.7): (and (n . '(FUN C))
 * LEAF) when the call (FUN C) is made while compiling (match/fold), with
 * LEAF tested through the other part, (s . (app OTHER '(OTHER C))), when
 * FUN takes one part of a cons C; the leaf itself when the call fails. */
static const struct mtree *refine(struct memo_ctx *m, const struct mtree *leaf,
                                  const struct pat_val *fun, const struct subj *n)
{
    struct value *c = leaf->p->val->v, *v;
    if (!fold_call(m->L, fun->v, c, &v))
        return leaf;
    const struct mtree *rest = leaf;
    struct value *other = c->kind == VK_CONS ? fold_other_part(m->L, fun->v) : NULL;
    if (other) {
        struct value *w;
        fold_call(m->L, other, c, &w); /* car-safe and cdr-safe never fail */
        rest = make_leaf(m, leaf->s, pat_app(m, other, pat_quote(m, w)));
    }
    struct memo_obj *two[2] = {(struct memo_obj *)make_leaf(m, n, pat_quote(m, v)),
                               (struct memo_obj *)rest};
    return mtree_and(m, memo_list_of(m, two, 2));
}

/* One item of an and/or for mtree_app_subst: leaves here, and/or
 * recursively. */
static inline const struct mtree *subst_item(struct memo_ctx *m, const struct mtree *it,
                                             const struct subj *s,
                                             const struct pat_val *fun,
                                             const struct subj *n)
{
    if (!(it->subjects & s->bit))
        return it;
    if (it->kind == MT_AND || it->kind == MT_OR)
        return mtree_app_subst(m, it, s, fun, n);
    if (it->kind != MT_LEAF || it->s != s)
        return it;
    if (it->p->kind == PAT_APP && it->p->val == fun)
        return mtree_make(m, n, it->p->sub);
    if (it->p->kind == PAT_QUOTE)
        return refine(m, it, fun, n);
    return it;
}

const struct mtree *mtree_app_subst(struct memo_ctx *m, const struct mtree *mt,
                                    const struct subj *s,
                                    const struct pat_val *fun,
                                    const struct subj *n)
{
    if (!(mt->subjects & s->bit) || (mt->kind != MT_AND && mt->kind != MT_OR))
        return subst_item(m, mt, s, fun, n);
    if (!memo_enter(m))
        return NULL;
    size_t len = mt->items->len, i = 0;
    struct memo_obj **kids = NULL; /* made at the first item that changes */
    for (const struct memo_list *l = mt->items; l; l = l->cdr, i++) {
        const struct mtree *k = subst_item(m, (const struct mtree *)l->car, s, fun, n);
        if (!k) {
            memo_leave(m);
            return NULL;
        }
        if (k != (const struct mtree *)l->car && !kids) {
            kids = ARENA_NEWN(m->a, struct memo_obj *, len);
            size_t j = 0;
            for (const struct memo_list *c = mt->items; j < i; c = c->cdr)
                kids[j++] = c->car;
        }
        if (kids)
            kids[i] = (struct memo_obj *)k;
    }
    memo_leave(m);
    if (!kids)
        return mt;
    struct memo_list *items = memo_list_of(m, kids, len);
    return mt->kind == MT_OR ? mtree_or(m, items) : mtree_and(m, items);
}

/* ---- queries ---------------------------------------------------------- */

/* Iterative over an explicit stack of subtrees whose Bloom set admits s. */
bool mtree_mentions_subj(const struct mtree *mt, const struct subj *s)
{
    const struct mtree *stack[64];
    size_t top = 0;
    stack[top++] = mt;
    while (top) {
        const struct mtree *t = stack[--top];
        if (!(t->subjects & s->bit))
            continue;
        if (t->kind == MT_LEAF) {
            if (t->s == s)
                return true;
            continue;
        }
        for (const struct memo_list *l = t->items; l; l = l->cdr) {
            if (top == 64)
                return true; /* too wide to look at: assume it does */
            stack[top++] = (const struct mtree *)l->car;
        }
    }
    return false;
}

/* ---- bindings and branches -------------------------------------------- */

static bool same_vbind(const void *obj, const void *arg)
{
    const struct vbind *b = obj, *k = arg;
    return b->name == k->name && b->s == k->s;
}

/* The new binding of these fields, stored at hole under h (b is its
 * memory, or NULL: memo_obj_new makes room). */
static inline __attribute__((always_inline))
const struct vbind *put_vbind(struct memo_ctx *m, struct vbind *b, uint32_t h,
                              size_t hole, const struct pat_val *name,
                              const struct subj *s)
{
    if (!b)
        b = memo_obj_new(m, &m->unique, h, sizeof *b, &hole);
    *b = (struct vbind){{{0, 0}}, name, s};
    memo_stamp(m, &b->o.h, h);
    memo_put_obj(&m->unique, h, b, hole);
    return b;
}

/* put_vbind when the arena's page or the table is full (out of line). */
__attribute__((noinline))
static const struct vbind *put_vbind_slow(struct memo_ctx *m, uint32_t h, size_t hole,
                                          const struct pat_val *name,
                                          const struct subj *s)
{
    return put_vbind(m, NULL, h, hole, name, s);
}

const struct vbind *mtree_vbind(struct memo_ctx *m, const struct pat_val *name,
                                const struct subj *s)
{
    struct vbind k = {{{0, 0}}, name, s};
    uint32_t h = memo_obj_hash(MEMO_KIND_VBIND, 0, name, s, NULL, NULL);
    size_t hole;
    struct vbind *b = memo_probe_obj(&m->unique, h, same_vbind, &k, &hole);
    if (b)
        return b;
    b = memo_obj_quick(m, &m->unique, sizeof *b);
    if (!b)
        return put_vbind_slow(m, h, hole, name, s);
    return put_vbind(m, b, h, hole, name, s);
}

static bool same_branch(const void *obj, const void *arg)
{
    const struct branch *b = obj, *k = arg;
    return b->match == k->match && b->clause == k->clause && b->vars == k->vars;
}

/* The new branch of these fields, stored at hole under h (b is its
 * memory, or NULL: memo_obj_new makes room). */
static inline __attribute__((always_inline))
const struct branch *put_branch(struct memo_ctx *m, struct branch *b, uint32_t h,
                                size_t hole, const struct mtree *match,
                                uint32_t clause, struct memo_list *vars)
{
    if (!b)
        b = memo_obj_new(m, &m->unique, h, sizeof *b, &hole);
    *b = (struct branch){{{0, 0}}, match, clause, vars};
    memo_stamp(m, &b->o.h, h);
    memo_put_obj(&m->unique, h, b, hole);
    return b;
}

/* put_branch when the arena's page or the table is full (out of line). */
__attribute__((noinline))
static const struct branch *put_branch_slow(struct memo_ctx *m, uint32_t h, size_t hole,
                                            const struct mtree *match, uint32_t clause,
                                            struct memo_list *vars)
{
    return put_branch(m, NULL, h, hole, match, clause, vars);
}

const struct branch *mtree_branch(struct memo_ctx *m, const struct mtree *match,
                                  uint32_t clause, struct memo_list *vars)
{
    struct branch k = {{{0, 0}}, match, clause, vars};
    uint32_t h = memo_obj_hash(MEMO_KIND_BRANCH, clause, match, vars, NULL, NULL);
    size_t hole;
    struct branch *b = memo_probe_obj(&m->unique, h, same_branch, &k, &hole);
    if (b)
        return b;
    b = memo_obj_quick(m, &m->unique, sizeof *b);
    if (!b)
        return put_branch_slow(m, h, hole, match, clause, vars);
    return put_branch(m, b, h, hole, match, clause, vars);
}
