/* clean_blocks.c - the pass `blocks': shared code that one place reaches
 * goes to that place.
 *
 * match/emit makes code that several places reach a block after the
 * main code:
 *   (let* (PRE... (GO nil) (C0 nil)... (RES MAIN))
 *     (if (eq GO 0) (setq RES B0)) ... (if (eq GO N) BN RES))
 * ((if GO B RES) when there is one block), and a place that goes to
 * block K is (setq GO K C0 V0 ...) in tail position of MAIN or of an
 * earlier block.  The passes before may have found some of those places
 * dead (a test known to fail) and taken them out.  A block that no place
 * reaches then goes; a block that one place reaches replaces that place
 * as (let ((C0 V0)...) BK): its code runs there instead of after MAIN has
 * returned, with nothing observable in between (the way back out of
 * generated code, and pure tests of GO).  When no block is left the
 * let* keeps PRE and MAIN only.
 */
#include "match/clean_int.h"

/* The block dispatch of one let* (see above). */
struct dispatch {
    struct value *go, *res;
    struct value **first; /* the slot of its first form after the bindings */
};

/* The places that go to one block: how many, the slot of the last. */
struct reach {
    struct dispatch *d;
    const struct value *key; /* the block's number, or t */
    size_t n;
    struct value **slot;
};

static bool is_key(const struct value *a, const struct value *b)
{
    return a == b || (a->kind == VK_INT && b->kind == VK_INT && a->u.i == b->u.i);
}

/* The block number form f of the dispatch tests (GO, or (eq GO K)), or
 * NULL when f is no test of go. */
static const struct value *test_key(struct clean *c, const struct value *f,
                                    const struct value *go)
{
    if (f == go)
        return c->L->t;
    if (f->kind != VK_CONS || clean_car(f) != c->sym[CS_EQ] || clean_cdr(f)->kind != VK_CONS ||
        clean_car(clean_cdr(f)) != go || clean_cdr(clean_cdr(f))->kind != VK_CONS)
        return NULL;
    const struct value *k = clean_car(clean_cdr(clean_cdr(f)));
    return k->kind == VK_INT ? k : NULL;
}

/* The parts of (if TEST X [Y]): false for another form. */
static bool if_parts(struct clean *c, struct value *f, struct value **test,
                     struct value **then, struct value **rest)
{
    if (f->kind != VK_CONS || clean_kind(c, f) != CK_IF || clean_cdr(f)->kind != VK_CONS ||
        clean_cdr(clean_cdr(f))->kind != VK_CONS)
        return false;
    *test = clean_car(clean_cdr(f));
    *then = clean_car(clean_cdr(clean_cdr(f)));
    *rest = clean_cdr(clean_cdr(clean_cdr(f)));
    return true;
}

/* The block of dispatch form f and its number: (if T (setq RES B)) or,
 * last, (if T B RES); NULL for RES alone or anything else. */
static struct value **block_of(struct clean *c, const struct dispatch *d, struct value *f,
                               const struct value **key)
{
    struct value *test, *then, *rest;
    if (!if_parts(c, f, &test, &then, &rest) || !(*key = test_key(c, test, d->go)))
        return NULL;
    if (rest->kind == VK_CONS)
        return clean_car(rest) == d->res && clean_cdr(rest) == c->L->nil
                   ? &clean_cdr(clean_cdr(f))->u.cons.car
                   : NULL;
    if (then->kind != VK_CONS || clean_kind(c, then) != CK_SETQ ||
        clean_cdr(then)->kind != VK_CONS || clean_car(clean_cdr(then)) != d->res ||
        clean_cdr(clean_cdr(then))->kind != VK_CONS ||
        clean_cdr(clean_cdr(clean_cdr(then))) != c->L->nil)
        return NULL;
    return &clean_cdr(clean_cdr(then))->u.cons.car;
}

/* Is the let* v a block dispatch?  Fills d. */
static bool dispatch_of(struct clean *c, struct value *v, struct dispatch *d)
{
    struct value *args = clean_cdr(v);
    if (clean_kind(c, v) != CK_LET_STAR || args->kind != VK_CONS ||
        clean_cdr(args)->kind != VK_CONS)
        return false;
    struct value *last = NULL, *go = NULL;
    for (struct value *b = clean_car(args); b->kind == VK_CONS; b = clean_cdr(b))
        last = clean_car(b);
    if (!last || last->kind != VK_CONS || !clean_temp(clean_car(last)))
        return false;
    d->res = clean_car(last);
    /* GO from the first test of the body */
    struct value *test, *then, *rest, *f = clean_car(clean_cdr(args));
    if (!if_parts(c, f, &test, &then, &rest))
        return false;
    go = test->kind == VK_CONS && clean_cdr(test)->kind == VK_CONS ? clean_car(clean_cdr(test))
                                                                    : test;
    if (!clean_temp(go) || go == d->res)
        return false;
    d->go = go;
    d->first = &args->u.cons.cdr;
    struct value *l = clean_cdr(args);
    for (; l->kind == VK_CONS; l = clean_cdr(l)) {
        const struct value *key;
        bool last_form = clean_cdr(l) == c->L->nil;
        if (!block_of(c, d, clean_car(l), &key) && !(last_form && clean_car(l) == d->res))
            return false;
    }
    return l == c->L->nil;
}

/* Is *slot a place that goes to r's block?  Counted. */
static void count_at(struct reach *r, struct value **slot)
{
    struct value *v = *slot, *a = clean_cdr(v);
    if (a->kind != VK_CONS || clean_car(a) != r->d->go || clean_cdr(a)->kind != VK_CONS ||
        !is_key(clean_car(clean_cdr(a)), r->key))
        return;
    r->n++;
    r->slot = slot;
}

/* (setq GO K C0 V0 ...) as the code of block b: (let ((C0 V0)...) B). */
static struct value *arrive(struct clean *c, struct value *go_form, struct value *b)
{
    struct value *binds = c->L->nil, **tail = &binds;
    struct value *l = clean_cdr(clean_cdr(clean_cdr(go_form)));
    for (; l->kind == VK_CONS && clean_cdr(l)->kind == VK_CONS; l = clean_cdr(clean_cdr(l))) {
        *tail = clean_cons(c, clean_list2(c, clean_car(l), clean_car(clean_cdr(l))), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    if (binds == c->L->nil)
        return b;
    return clean_list3(c, c->sym[CS_LET], binds, b);
}

/* How many places go to block `key` of dispatch d, the let* at *slot.
 * Every list of generated code is looked at, whatever its head (GO is a
 * temporary: no user code nor quoted data names it), so that no place
 * is missed: a block that one place reaches is moved there. */
static struct reach reach_of(struct clean *c, struct value **slot, struct dispatch *d,
                             const struct value *key)
{
    struct reach r = {d, key, 0, NULL};
    size_t cap = 64, n = 0;
    struct value ***st = ARENA_NEWN(c->L->a, struct value **, cap);
    st[n++] = slot;
    while (n) {
        struct value **s = st[--n], *v = *s;
        if (v->kind != VK_CONS || clean_car(v) == c->L->quote ||
            clean_mark_of(c->marks, v) == CLEAN_USER)
            continue;
        if (clean_car(v) == c->sym[CS_SETQ])
            count_at(&r, s);
        for (; v->kind == VK_CONS; v = clean_cdr(v)) {
            if (n == cap) {
                st = arena_grow(c->L->a, st, cap * sizeof *st, 2 * cap * sizeof *st);
                cap *= 2;
            }
            st[n++] = &v->u.cons.car;
        }
    }
    return r;
}

/* The last block that at most one place reaches put in that place (or
 * dropped); false when there is none. */
static bool move_one(struct clean *c, struct value **slot, struct dispatch *d)
{
    struct value **found = NULL;
    struct reach fr = {0};
    for (struct value **l = d->first; (*l)->kind == VK_CONS; l = &(*l)->u.cons.cdr) {
        const struct value *key;
        if (!block_of(c, d, clean_car(*l), &key))
            continue;
        struct reach r = reach_of(c, slot, d, key);
        if (r.n <= 1) {
            found = l;
            fr = r;
        }
    }
    if (!found)
        return false;
    const struct value *key;
    struct value **b = block_of(c, d, clean_car(*found), &key);
    if (fr.n == 1)
        *fr.slot = arrive(c, *fr.slot, *b);
    if (clean_cdr(*found) == c->L->nil)
        (*found)->u.cons.car = d->res; /* the last: RES is the value */
    else
        *found = clean_cdr(*found);
    return true;
}

/* No block left: (let* (PRE... GO C... (RES MAIN)) RES) is
 * (let* (PRE...) MAIN), or MAIN. */
static void unwrap(struct clean *c, struct value **slot, const struct dispatch *d)
{
    struct value *v = *slot, *args = clean_cdr(v);
    if (*d->first == c->L->nil || clean_car(*d->first) != d->res ||
        clean_cdr(*d->first) != c->L->nil)
        return;
    struct value **l = &args->u.cons.car, *main = NULL;
    for (; (*l)->kind == VK_CONS; l = &(*l)->u.cons.cdr) {
        struct value *var, *val;
        if (clean_binding(c, clean_car(*l), &var, &val) && var == d->go)
            break;
    }
    if ((*l)->kind != VK_CONS)
        return;
    for (struct value *b = *l; b->kind == VK_CONS; b = clean_cdr(b))
        main = clean_car(b);
    if (main->kind != VK_CONS || clean_car(main) != d->res || clean_cdr(main)->kind != VK_CONS)
        return;
    main = clean_car(clean_cdr(main));
    *l = c->L->nil;
    if (clean_car(args) == c->L->nil)
        *slot = main;
    else
        clean_cdr(args)->u.cons.car = main;
}

static void at(struct clean *c, struct value **slot)
{
    struct dispatch d;
    if (!dispatch_of(c, *slot, &d))
        return;
    bool moved = false;
    while (move_one(c, slot, &d))
        moved = true;
    if (moved)
        unwrap(c, slot, &d);
}

void clean_blocks(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
