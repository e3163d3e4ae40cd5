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
 *
 * Before that, a place from which the tests on the way decide some of a
 * block's own tests gets the block's code folded (see decide): that
 * place no longer reaches the block, which may then move.
 */
#include "match/clean_int.h"

/* The places that go to one block: how many, the slot of the last. */
struct reach {
    struct clean_dispatch *d;
    const struct value *key; /* the block's number, or t */
    size_t n;
    struct value **slot;
    struct value ***all; /* every place's slot, when collected (n of them) */
    size_t cap;
    struct arena *arena;
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
struct value **clean_block_of(struct clean *c, const struct clean_dispatch *d, struct value *f,
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
bool clean_dispatch_of(struct clean *c, struct value *v, struct clean_dispatch *d)
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
        if (!clean_block_of(c, d, clean_car(l), &key) && !(last_form && clean_car(l) == d->res))
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
    if (r->all) {
        if (r->n == r->cap) {
            r->all = arena_grow(r->arena, r->all, r->cap * sizeof *r->all,
                                2 * r->cap * sizeof *r->all);
            r->cap *= 2;
        }
        r->all[r->n] = slot;
    }
    r->n++;
    r->slot = slot;
}

/* (setq GO K C0 V0 ...) as the code of block b: (let ((C0 V0)...) B). */
struct value *clean_block_arrive(struct clean *c, struct value *go_form, struct value *b)
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
static struct reach reach_of(struct clean *c, struct value **slot, struct clean_dispatch *d,
                             const struct value *key, bool collect)
{
    struct reach r = {d, key, 0, NULL, NULL, 8, c->L->a};
    if (collect)
        r.all = ARENA_NEWN(c->L->a, struct value **, r.cap);
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

/* ---- places where a block's tests are decided ---- */

/* A place where the tests on the way decide some of the block's own
 * (after (consp x) succeeded, the block's (eq x 'p) is nil) gets the
 * block's code, folded by the pass known, when what is left is smaller
 * than the block and no larger than a body the emitter copies rather
 * than share (SHARE_BODY in emit.c).  The block may then be left with
 * one place, and move there. */
#define DECIDED_MAX 20

/* A stack of forms still to look at. */
struct stack {
    struct value **v;
    size_t n, cap;
};

static void push(struct clean *c, struct stack *st, struct value *x)
{
    if (st->n == st->cap) {
        st->v = arena_grow(c->L->a, st->v, st->cap * sizeof *st->v, 2 * st->cap * sizeof *st->v);
        st->cap *= 2;
    }
    st->v[st->n++] = x;
}

/* Conses of v, user code included, quoted data as one, counting stops
 * past max. */
size_t clean_size_upto(struct clean *c, struct value *v, size_t max)
{
    size_t n = 0;
    struct stack st = {ARENA_NEWN(c->L->a, struct value *, 16), 0, 16};
    push(c, &st, v);
    while (st.n && n <= max) {
        struct value *x = st.v[--st.n];
        if (x->kind != VK_CONS)
            continue;
        if (clean_car(x) == c->L->quote) {
            n++;
            continue;
        }
        for (; x->kind == VK_CONS && n <= max; x = clean_cdr(x)) {
            n++;
            push(c, &st, clean_car(x));
        }
    }
    return n;
}

/* May the code of block b stand at place p, under dispatch v?  Each list
 * around p below v must be code that runs p once, in the scope b sees:
 * a let or let* around it binds temporaries only, none that b reads (a
 * user's variable may be special: the block's code, calling a function,
 * would see it), and nothing binds otherwise (a lambda, a dolist, a form
 * of unknown scope). */
bool clean_block_place_ok(struct clean *c, struct value *v, struct value **p, struct value *b)
{
    struct item {
        struct value *x;
        size_t depth;
    };
    size_t cap = 64, n = 0, pcap = 64, found = 0;
    struct item *st = ARENA_NEWN(c->L->a, struct item, cap);
    struct value **path = ARENA_NEWN(c->L->a, struct value *, pcap); /* the lists above */
    st[n++] = (struct item){v, 0};
    while (n && !found) {
        struct item it = st[--n];
        struct value *x = it.x;
        if (x->kind != VK_CONS || clean_car(x) == c->L->quote ||
            clean_mark_of(c->marks, x) == CLEAN_USER)
            continue;
        if (it.depth >= pcap) {
            path = arena_grow(c->L->a, path, pcap * sizeof *path, 2 * pcap * sizeof *path);
            pcap *= 2;
        }
        path[it.depth] = x;
        for (; x->kind == VK_CONS && !found; x = clean_cdr(x)) {
            if (&x->u.cons.car == p)
                found = it.depth + 1;
            if (n == cap) {
                st = arena_grow(c->L->a, st, cap * sizeof *st, 2 * cap * sizeof *st);
                cap *= 2;
            }
            st[n++] = (struct item){clean_car(x), it.depth + 1};
        }
    }
    for (size_t i = 1; i < found; i++) {
        struct value *x = path[i];
        enum clean_kind k = clean_car(x)->kind == VK_SYMBOL ? clean_kind(c, x) : CK_CALL;
        if (k == CK_LAMBDA || k == CK_FUNCTION || k == CK_DOLIST || k == CK_FORM)
            return false;
        if (k != CK_LET && k != CK_LET_STAR)
            continue;
        for (struct value *l = clean_car(clean_cdr(x)); l->kind == VK_CONS; l = clean_cdr(l)) {
            struct value *var, *val;
            if (!clean_binding(c, clean_car(l), &var, &val) || !clean_temp(var) ||
                clean_mentions(c, b, var))
                return false;
        }
    }
    return found > 0;
}

/* The block's code at *place (the go form there before), walked by
 * known; *before: its size then, counted up to DECIDED_MAX + 1.  *dry:
 * the facts at each place of the dispatch at *slot as it is without
 * that code, from a walk that found nothing to change (NULL: none yet;
 * *failed: such a walk found something, and none is tried again for
 * this dispatch: a walk with the code in a place leaves it so where the
 * code hides facts the go form does not).  Where facts were kept for
 * the place, known walks the code only (clean_facts_walk_at: the rest
 * would not change); else the whole dispatch, as when *dry is NULL. */
static void known_at(struct clean *c, struct value **slot, struct value **place,
                     struct value *code, const struct value *go_var, size_t *before,
                     struct clean_facts_dry **dry, bool *failed)
{
    struct value *go = *place;
    if (!*dry && !*failed)
        *failed = !(*dry = clean_known_dry(c, slot, go_var));
    const struct clean_facts_at *kept = *dry ? clean_facts_kept(*dry, place) : NULL;
    /* the go form's values copied for a walk of the code alone: it
     * changes the code's own cells only, and the dispatch is as it was
     * once go is back (the copy's heads were seen: c->seen stays) */
    uint32_t seen = c->seen;
    struct value *own = kept ? clean_copy(c, go) : NULL;
    c->seen = seen;
    *place = clean_block_arrive(c, own ? own : go, code);
    *before = clean_size_upto(c, *place, DECIDED_MAX);
    if (own) {
        clean_known_at(c, kept, place);
        return;
    }
    clean_ran(c, CLEAN_PASS_KNOWN);
    clean_known(c, slot);
    *dry = NULL;
}

/* Each place of a block that two places or more reach: the block's code
 * there instead, when the tests on the way decide it down to little. */
static void decide(struct clean *c, struct value **slot, struct clean_dispatch *d)
{
    struct clean_facts_dry *dry = NULL;
    bool failed = false;
    for (struct value *l = *d->first; l->kind == VK_CONS; l = clean_cdr(l)) {
        const struct value *key;
        struct value **b = clean_block_of(c, d, clean_car(l), &key);
        if (!b)
            continue;
        struct reach r = reach_of(c, slot, d, key, true);
        for (size_t i = 0; r.n >= 2 && i < r.n; i++) {
            if (!clean_block_place_ok(c, *slot, r.all[i], *b))
                continue;
            struct value *go = *r.all[i], *code = clean_copy(c, *b);
            if (!code)
                return;
            clean_edited(c);
            size_t before;
            known_at(c, slot, r.all[i], code, d->go, &before, &dry, &failed);
            size_t after = clean_size_upto(c, *r.all[i], DECIDED_MAX);
            if (after > DECIDED_MAX || after >= before) {
                *r.all[i] = go; /* little decided: the place goes on to the block */
            } else {
                c->decided = true;
                dry = NULL; /* the dispatch changed */
            }
        }
    }
}

/* The last block that at most one place reaches put in that place (or
 * dropped); false when there is none. */
static bool move_one(struct clean *c, struct value **slot, struct clean_dispatch *d)
{
    struct value **found = NULL;
    struct reach fr = {0};
    for (struct value **l = d->first; (*l)->kind == VK_CONS; l = &(*l)->u.cons.cdr) {
        const struct value *key;
        if (!clean_block_of(c, d, clean_car(*l), &key))
            continue;
        struct reach r = reach_of(c, slot, d, key, false);
        if (r.n <= 1) {
            found = l;
            fr = r;
        }
    }
    if (!found)
        return false;
    const struct value *key;
    struct value **b = clean_block_of(c, d, clean_car(*found), &key);
    clean_edited(c);
    if (fr.n == 1)
        *fr.slot = clean_block_arrive(c, *fr.slot, *b);
    clean_block_remove(c, d, found);
    return true;
}

void clean_block_remove(struct clean *c, const struct clean_dispatch *d, struct value **l)
{
    if (clean_cdr(*l) == c->L->nil)
        (*l)->u.cons.car = d->res; /* the last: RES is the value */
    else
        *l = clean_cdr(*l);
}

struct value ***clean_block_places(struct clean *c, struct value **slot,
                                   struct clean_dispatch *d, const struct value *key,
                                   size_t *n)
{
    struct reach r = reach_of(c, slot, d, key, true);
    *n = r.n;
    return r.all;
}

/* No block left: (let* (PRE... GO C... (RES MAIN)) RES) is
 * (let* (PRE...) MAIN), or MAIN. */
void clean_block_unwrap(struct clean *c, struct value **slot, const struct clean_dispatch *d)
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
    clean_edited(c);
    *l = c->L->nil;
    if (clean_car(args) == c->L->nil)
        *slot = main;
    else
        clean_cdr(args)->u.cons.car = main;
}

static void at(struct clean *c, struct value **slot)
{
    struct clean_dispatch d;
    if (!clean_dispatch_of(c, *slot, &d))
        return;
    decide(c, slot, &d);
    bool moved = false;
    while (move_one(c, slot, &d))
        moved = true;
    if (moved)
        clean_block_unwrap(c, slot, &d);
}

void clean_blocks(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
