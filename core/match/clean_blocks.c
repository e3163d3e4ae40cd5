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

#include <string.h>

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
static size_t size_upto(struct clean *c, struct value *v, size_t max)
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
static bool place_ok(struct clean *c, struct value *v, struct value **p, struct value *b)
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

/* Each place of a block that two places or more reach: the block's code
 * there instead, when the tests on the way decide it down to little. */
static void decide(struct clean *c, struct value **slot, struct dispatch *d)
{
    for (struct value *l = *d->first; l->kind == VK_CONS; l = clean_cdr(l)) {
        const struct value *key;
        struct value **b = block_of(c, d, clean_car(l), &key);
        if (!b)
            continue;
        struct reach r = reach_of(c, slot, d, key, true);
        for (size_t i = 0; r.n >= 2 && i < r.n; i++) {
            if (!place_ok(c, *slot, r.all[i], *b))
                continue;
            struct value *go = *r.all[i], *code = clean_copy(c, *b);
            if (!code)
                return;
            *r.all[i] = arrive(c, go, code);
            size_t before = size_upto(c, *r.all[i], DECIDED_MAX);
            clean_known(c, slot);
            size_t after = size_upto(c, *r.all[i], DECIDED_MAX);
            if (after > DECIDED_MAX || after >= before)
                *r.all[i] = go; /* little decided: the place goes on to the block */
            else
                c->decided = true;
        }
    }
}

/* ---- a block cheaper written at each place ---- */

/* A dispatch costs byte code besides its block: GO and RES are bound and
 * GO tested (SPREAD_FIXED bytes), each place sets GO and leaves MAIN
 * (SPREAD_PLACE), and MAIN is out of tail position: each way out of it
 * jumps to the test of GO and drops its bindings where it would return
 * (SPREAD_TAIL).  The block's code written at each place instead costs
 * about three bytes for four conses at each place past the first.  Only
 * for a block of two places: with more, the estimate missed more often
 * than it won.  Measured on the corpus (the byte code of each form
 * compiled, bench-output.sh). */
#define SPREAD_FIXED 5
#define SPREAD_PLACE 6
#define SPREAD_TAIL 3
#define SPREAD_PLACES 2

/* The ways out of form f: tail positions of generated conds, ifs, lets
 * and progns, each other form one, counting stops past max. */
static size_t tails_upto(struct clean *c, struct value *f, size_t max)
{
    size_t n = 0;
    struct stack st = {ARENA_NEWN(c->L->a, struct value *, 16), 0, 16};
    push(c, &st, f);
    while (st.n && n <= max) {
        struct value *x = st.v[--st.n], *l;
        enum clean_kind k = x->kind == VK_CONS && clean_car(x)->kind == VK_SYMBOL
                                ? clean_kind(c, x)
                                : CK_CALL;
        if (k == CK_IF && clean_cdr(x)->kind == VK_CONS &&
            clean_cdr(clean_cdr(x))->kind == VK_CONS) {
            push(c, &st, clean_car(clean_cdr(clean_cdr(x))));
            l = clean_cdr(clean_cdr(clean_cdr(x)));
        } else if (k == CK_COND) {
            bool open = true; /* no clause is sure to be taken */
            for (l = clean_cdr(x); l->kind == VK_CONS; l = clean_cdr(l)) {
                struct value *cl = clean_car(l), *last = cl;
                if (cl->kind != VK_CONS)
                    continue;
                for (struct value *b = clean_cdr(cl); b->kind == VK_CONS; b = clean_cdr(b))
                    last = clean_car(b);
                if (last == cl)
                    n++;
                else
                    push(c, &st, last);
                if (clean_car(cl) == c->L->t)
                    open = false;
            }
            n += open;
            continue;
        } else if ((k == CK_LET || k == CK_LET_STAR) && clean_cdr(x)->kind == VK_CONS) {
            l = clean_cdr(clean_cdr(x));
        } else if (k == CK_PROGN && clean_car(x) == c->sym[CS_PROGN]) {
            l = clean_cdr(x);
        } else {
            n++;
            continue;
        }
        struct value *last = NULL;
        for (; l->kind == VK_CONS; l = clean_cdr(l))
            last = clean_car(l);
        if (last)
            push(c, &st, last);
        else
            n++; /* nil */
    }
    return n;
}

/* Temporaries a copy of a block binds, and the fresh ones that replace
 * them there. */
struct renames {
    struct value **old, **fresh;
    size_t n, cap;
};

/* Record the temporaries the let or let* x binds; false for a form that
 * binds otherwise (a lambda, a dolist, one of unknown scope). */
static bool note_bound(struct clean *c, struct renames *r, struct value *x)
{
    enum clean_kind k = clean_car(x)->kind == VK_SYMBOL ? clean_kind(c, x) : CK_CALL;
    if (k == CK_LAMBDA || k == CK_FUNCTION || k == CK_DOLIST || k == CK_FORM)
        return false;
    if ((k != CK_LET && k != CK_LET_STAR) || clean_cdr(x)->kind != VK_CONS)
        return true;
    for (struct value *l = clean_car(clean_cdr(x)); l->kind == VK_CONS; l = clean_cdr(l)) {
        struct value *var, *val;
        if (!clean_binding(c, clean_car(l), &var, &val) || !clean_temp(var))
            continue;
        size_t i = 0;
        while (i < r->n && r->old[i] != var)
            i++;
        if (i < r->n)
            continue;
        if (r->n == r->cap) {
            r->old = arena_grow(c->L->a, r->old, r->cap * sizeof *r->old,
                                2 * r->cap * sizeof *r->old);
            r->fresh = arena_grow(c->L->a, r->fresh, r->cap * sizeof *r->fresh,
                                  2 * r->cap * sizeof *r->fresh);
            r->cap *= 2;
        }
        char base[64];
        size_t len = var->u.sym.len < sizeof base ? var->u.sym.len : sizeof base - 1;
        memcpy(base, var->u.sym.name, len);
        base[len] = '\0';
        r->old[r->n] = var;
        r->fresh[r->n++] = c->hooks->gensym(c->hooks->ctx, base);
    }
    return true;
}

/* Each temporary the generated code of copy binds renamed to a fresh one
 * (the passes count on a temporary being bound at one place; no user
 * code names one).  False, nothing renamed, when copy binds some other
 * way. */
static bool rename_bound(struct clean *c, struct value *copy)
{
    struct renames r = {ARENA_NEWN(c->L->a, struct value *, 8),
                        ARENA_NEWN(c->L->a, struct value *, 8), 0, 8};
    struct stack st = {ARENA_NEWN(c->L->a, struct value *, 16), 0, 16};
    for (int pass = 0; pass < 2; pass++) {
        push(c, &st, copy);
        while (st.n) {
            struct value *x = st.v[--st.n];
            if (x->kind != VK_CONS || clean_car(x) == c->L->quote ||
                clean_mark_of(c->marks, x) == CLEAN_USER)
                continue;
            if (pass == 0 && !note_bound(c, &r, x))
                return false;
            for (; x->kind == VK_CONS; x = clean_cdr(x)) {
                for (size_t i = 0; pass == 1 && i < r.n; i++)
                    if (clean_car(x) == r.old[i])
                        x->u.cons.car = r.fresh[i];
                push(c, &st, clean_car(x));
            }
        }
    }
    return true;
}

/* The block of a dispatch of one block, (if GO B RES), written at each
 * place that reaches it when that is smaller byte code (see above) and
 * the block may stand at each; move_one then drops the block. */
static void spread(struct clean *c, struct value **slot, struct dispatch *d)
{
    const struct value *key;
    struct value **b = block_of(c, d, clean_car(*d->first), &key);
    if (!b || clean_cdr(*d->first) != c->L->nil || key != c->L->t)
        return;
    struct reach r = reach_of(c, slot, d, key, true);
    if (r.n < 2 || r.n > SPREAD_PLACES)
        return;
    struct value *main = NULL, *last = NULL;
    for (struct value *l = clean_car(clean_cdr(*slot)); l->kind == VK_CONS; l = clean_cdr(l))
        last = clean_car(l);
    if (!last || last->kind != VK_CONS || clean_cdr(last)->kind != VK_CONS)
        return;
    main = clean_car(clean_cdr(last));
    size_t budget = SPREAD_FIXED + SPREAD_PLACE * r.n;
    size_t limit = budget + SPREAD_TAIL * 64;
    budget += SPREAD_TAIL * tails_upto(c, main, 64);
    size_t bytes = size_upto(c, *b, limit * 4) * 3 / 4;
    if (bytes * (r.n - 1) >= budget)
        return;
    if (!c->hooks || !c->hooks->gensym)
        return;
    struct value **code = ARENA_NEWN(c->L->a, struct value *, r.n);
    for (size_t i = 0; i < r.n; i++) {
        if (!place_ok(c, *slot, r.all[i], *b) || !(code[i] = clean_copy(c, *b)))
            return;
        code[i] = arrive(c, *r.all[i], code[i]);
        if (i > 0 && !rename_bound(c, code[i]))
            return;
    }
    for (size_t i = 0; i < r.n; i++)
        *r.all[i] = code[i];
    c->decided = true;
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
        struct reach r = reach_of(c, slot, d, key, false);
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
    decide(c, slot, &d);
    spread(c, slot, &d);
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
