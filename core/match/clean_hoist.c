/* clean_hoist.c - the pass `hoist': the clauses of a cons's car in the
 * cond around them.
 *
 * A test of a list's head is emitted as a clause of the cond that tests
 * the value's other shapes, with a cond of its own inside:
 *   (cond C... ((consp X) (let ((V (car X))) (cond T... (t G...)))) R...)
 * ((if (consp X) L E...) as well, either cond an if).  When every test T
 * fails where V is nil (an equality with constants that are not nil, a
 * type predicate nil fails, an and that begins with one, an or of them),
 * the tests T are the car's clauses of the outer cond:
 *   (let ((V (car-safe X))) (cond C... T... ((consp X) G...) R...))
 * For X no cons V is nil, each T fails without being seen (it is pure
 * and reads V and constants only), and the clauses R run as before; for
 * a cons the tests and bodies are those of before, in the same order.
 * (car-safe X) is now computed before the tests C: they must do nothing
 * but compute their value (no user code, no unknown function: X and its
 * car are what they were), and the first of them must read X first
 * when X may be void (the same error at the same point).  V is a
 * temporary no clause C or R mentions.  The clause ((consp X) G...) goes
 * when the clauses R, for a cons, come to the same code G through tests
 * that a cons fails and that only read X ((eq X 'a), (symbolp X)): a
 * person writes the default once (and a block's goto is one place less).
 * The bodies T nest two lists less deeply, those of C and R one more: the
 * driver undoes the pass for a form it makes nest more deeply.
 */
#include "match/clean_int.h"

/* A cond's clauses, or an if's as clauses ((A B) (t E...)), fresh. */
static struct value *clauses_of(struct clean *c, struct value *v)
{
    if (clean_kind(c, v) == CK_COND)
        return clean_cdr(v);
    struct value *a = clean_cdr(v), *rest = clean_cdr(clean_cdr(a));
    struct value *first = clean_list2(c, clean_car(a), clean_car(clean_cdr(a)));
    if (rest == c->L->nil)
        return clean_cons(c, first, c->L->nil);
    return clean_list2(c, first, clean_cons(c, c->L->t, rest));
}

/* Is v a cond, or an if with a then part? */
static bool choice(struct clean *c, struct value *v)
{
    if (v->kind != VK_CONS)
        return false;
    enum clean_kind k = clean_kind(c, v);
    return k == CK_COND || (k == CK_IF && clean_cdr(v)->kind == VK_CONS &&
                            clean_cdr(clean_cdr(v))->kind == VK_CONS);
}

/* (H ARG) with H one of the car/cdr accessors: ARG, else NULL; *safe
 * gets the car-safe/cdr-safe head. */
static struct value *accessed(struct clean *c, struct value *form, struct value **safe)
{
    if (form->kind != VK_CONS || clean_cdr(form)->kind != VK_CONS ||
        clean_cdr(clean_cdr(form)) != c->L->nil)
        return NULL;
    struct value *h = clean_car(form);
    if (h == c->sym[CS_CAR] || h == c->sym[CS_CAR_SAFE])
        *safe = c->sym[CS_CAR_SAFE];
    else if (h == c->sym[CS_CDR] || h == c->sym[CS_CDR_SAFE])
        *safe = c->sym[CS_CDR_SAFE];
    else
        return NULL;
    return clean_car(clean_cdr(form));
}

/* The value a one-argument test or comparison with a constant tests, with
 * the kinds its truth allows; NULL for another test.  Pure only. */
static const struct value *tested(struct clean *c, const struct value *t, uint8_t *kinds)
{
    if (t->kind != VK_CONS || clean_kind(c, t) == CK_USER || clean_cdr(t)->kind != VK_CONS)
        return NULL;
    const struct value *h = clean_car(t), *r = clean_cdr(t);
    if (clean_cdr(r) == c->L->nil) {
        uint8_t no;
        return clean_head_kind(h) == CK_PURE && clean_facts_pred(h, kinds, &no) ? clean_car(r)
                                                                                : NULL;
    }
    if (clean_cdr(r)->kind != VK_CONS || clean_cdr(clean_cdr(r)) != c->L->nil)
        return NULL;
    const struct value *k = clean_constant(c, clean_car(clean_cdr(r)));
    *kinds = k ? clean_facts_equal_kinds(c, h, k) : 0;
    return *kinds && clean_call_effect(c, t) == CE_NONE ? clean_car(r) : NULL;
}

/* Does test t fail, doing nothing that can be seen, whenever each
 * variable of binds (a let's bindings) is nil? */
static bool fails_on_nil(struct clean *c, const struct value *t, const struct value *binds,
                         unsigned depth)
{
    if (t->kind != VK_CONS || clean_kind(c, t) == CK_USER || depth > 16)
        return false;
    const struct value *h = clean_car(t), *r = clean_cdr(t);
    if (h == c->sym[CS_AND] && r->kind == VK_CONS)
        return fails_on_nil(c, clean_car(r), binds, depth + 1);
    if (h == c->sym[CS_OR] && r->kind == VK_CONS) {
        for (; r->kind == VK_CONS; r = clean_cdr(r))
            if (!fails_on_nil(c, clean_car(r), binds, depth + 1))
                return false;
        return true;
    }
    uint8_t kinds;
    const struct value *x = tested(c, t, &kinds);
    if (!x || (kinds & CLEAN_KIND_NIL))
        return false;
    for (const struct value *b = binds; b->kind == VK_CONS; b = clean_cdr(b))
        if (clean_car(clean_car(b)) == x)
            return true;
    return false;
}

/* Is cl a clause of a test and one form? */
static bool one_form(struct clean *c, const struct value *cl)
{
    return cl->kind == VK_CONS && clean_cdr(cl)->kind == VK_CONS &&
           clean_cdr(clean_cdr(cl)) == c->L->nil;
}

/* The part of a hoist: the outer clause ((consp X) (let BINDS INNER)). */
struct hoist {
    struct value *x, *binds, *inner;
};

/* Is the clause of test t and one form let ((consp X) (let ((V (car X))...)
 * INNER)) with temporaries V bound to accessors of variable X and INNER a
 * cond or an if? */
static bool hoist_of(struct clean *c, struct value *t, struct value *let, struct hoist *h)
{
    if (t->kind != VK_CONS || clean_car(t) != c->sym[CS_CONSP] || clean_kind(c, t) == CK_USER ||
        clean_cdr(t)->kind != VK_CONS || clean_cdr(clean_cdr(t)) != c->L->nil)
        return false;
    h->x = clean_car(clean_cdr(t));
    if (!clean_variable(c, h->x) || let->kind != VK_CONS ||
        (clean_kind(c, let) != CK_LET && clean_kind(c, let) != CK_LET_STAR) ||
        clean_cdr(let)->kind != VK_CONS || clean_cdr(clean_cdr(let))->kind != VK_CONS ||
        clean_cdr(clean_cdr(clean_cdr(let))) != c->L->nil)
        return false;
    h->binds = clean_car(clean_cdr(let));
    h->inner = clean_car(clean_cdr(clean_cdr(let)));
    if (h->binds->kind != VK_CONS || !choice(c, h->inner))
        return false;
    for (struct value *b = h->binds; b->kind == VK_CONS; b = clean_cdr(b)) {
        struct value *var, *val, *safe;
        if (!clean_binding(c, clean_car(b), &var, &val) || clean_car(b)->kind != VK_CONS ||
            !clean_temp(var) || accessed(c, val, &safe) != h->x)
            return false;
    }
    return true;
}

/* Is test t one a cons fails, reading x only? */
static bool cons_fails(struct clean *c, const struct value *t, const struct value *x)
{
    uint8_t kinds;
    return tested(c, t, &kinds) == x && !(kinds & CLEAN_KIND_CONS);
}

/* Do the clauses rest, for a cons x, come to the body g? */
static bool comes_to(struct clean *c, const struct value *rest, const struct value *x,
                     const struct value *g)
{
    for (; rest->kind == VK_CONS; rest = clean_cdr(rest)) {
        const struct value *cl = clean_car(rest);
        if (cl->kind != VK_CONS)
            return false;
        if (clean_car(cl) == c->L->t)
            return clean_same_code(c, clean_cdr(cl), g, true);
        if (!cons_fails(c, clean_car(cl), x))
            return false;
    }
    return false;
}

/* May (car-safe X) be computed before the tests of clauses cls (up to
 * stop)?  Nothing they do can be seen, and the first reads X first when
 * X may be void. */
static bool before_ok(struct clean *c, struct value *cls, struct value *stop, struct value *x)
{
    if (cls == stop)
        return true;
    for (struct value *l = cls; l != stop; l = clean_cdr(l))
        if (clean_car(l)->kind != VK_CONS || clean_effect(c, clean_car(clean_car(l))) == CE_ANY)
            return false;
    struct value *first = clean_cons(c, clean_car(clean_car(cls)), c->L->nil);
    return clean_temp(x) || clean_reads_first(c, first, x);
}

/* Does any clause of cls but skip mention a variable bound by binds? */
static bool others_mention(struct clean *c, struct value *cls, struct value *skip,
                           struct value *binds)
{
    for (; cls->kind == VK_CONS; cls = clean_cdr(cls))
        for (struct value *b = binds; cls != skip && b->kind == VK_CONS; b = clean_cdr(b))
            if (clean_mentions(c, clean_car(cls), clean_car(clean_car(b))))
                return true;
    return false;
}

/* The inner clauses, every one but the last (t G...) failing when the
 * car is nil; *g gets G...; NULL when they are not so. */
static struct value *inner_clauses(struct clean *c, struct hoist *h, struct value **g)
{
    struct value *in = clauses_of(c, h->inner), *last = NULL;
    for (struct value *l = in; l->kind == VK_CONS; l = clean_cdr(l)) {
        last = clean_car(l);
        if (last->kind != VK_CONS)
            return NULL;
        if (clean_cdr(l) != c->L->nil && !fails_on_nil(c, clean_car(last), h->binds, 0))
            return NULL;
    }
    if (!last || clean_car(last) != c->L->t || clean_cdr(last)->kind != VK_CONS)
        return NULL;
    *g = clean_cdr(last);
    return in;
}

/* The bindings binds with car-safe and cdr-safe, fresh. */
static struct value *safe_binds(struct clean *c, struct value *binds)
{
    struct value *out = c->L->nil, **tail = &out;
    for (; binds->kind == VK_CONS; binds = clean_cdr(binds)) {
        struct value *var, *val, *safe = NULL; /* hoist_of checked it is set */
        clean_binding(c, clean_car(binds), &var, &val);
        struct value *x = accessed(c, val, &safe);
        *tail = clean_cons(c, clean_list2(c, var, clean_list2(c, safe, x)), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return out;
}

/* The cond or if at *slot with the clause at index of its clauses cls
 * hoisted (h): the let around one cond. */
static void hoist(struct clean *c, struct value **slot, struct value *cls, struct value *at,
                  struct hoist *h)
{
    struct value *g, *in = inner_clauses(c, h, &g);
    if (!in || !before_ok(c, cls, at, h->x) || others_mention(c, cls, at, h->binds))
        return;
    struct value *out = c->L->nil, **tail = &out;
    for (struct value *l = cls; l != at; l = clean_cdr(l)) {
        *tail = clean_cons(c, clean_car(l), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    for (struct value *l = in; clean_cdr(l) != c->L->nil; l = clean_cdr(l)) {
        *tail = clean_cons(c, clean_car(l), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    if (!comes_to(c, clean_cdr(at), h->x, g)) {
        struct value *test = clean_car(clean_car(at));
        *tail = clean_cons(c, clean_cons(c, test, g), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    *tail = clean_cdr(at);
    clean_changing(c);
    struct value *v = *slot;
    *slot = clean_list3(c, c->sym[CS_LET], safe_binds(c, h->binds),
                        clean_cons(c, c->sym[CS_COND], out));
    clean_moved(c, v, *slot);
    clean_tidy_cond(c, &clean_cdr(clean_cdr(*slot))->u.cons.car);
}

static void at(struct clean *c, struct value **slot)
{
    if (!choice(c, *slot))
        return;
    struct value *cls = clauses_of(c, *slot);
    for (struct value *l = cls; l->kind == VK_CONS; l = clean_cdr(l)) {
        struct hoist h;
        struct value *cl = clean_car(l);
        if (one_form(c, cl) && hoist_of(c, clean_car(cl), clean_car(clean_cdr(cl)), &h)) {
            hoist(c, slot, cls, l, &h);
            return;
        }
    }
}

void clean_hoist(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
