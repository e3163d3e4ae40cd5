/* clean_and.c - the pass `and': two tests whose failures run the same
 * code are one test.
 *
 * (if A (if C X E) E) is (if (and A C) X E): when A fails, and when A
 * holds and C fails, E runs; C is tested only where A held, as before.
 * The two E must be the same code (copies of one body: clean_same).  A
 * let between, (if A (let ((V VAL)...) (if C X E)) E), goes around the
 * if when each VAL takes a part of a value with car-safe or cdr-safe
 * (it does nothing that can be seen, and may be computed where A has not
 * run yet): its temporaries V are new names that neither A nor E read,
 * A does nothing but compute its value (nothing VAL reads changes), and
 * the variable VAL reads is a temporary or was read before on every path
 * (it is not void).  Emacs's pcase writes the tests of one shape one
 * after the other in one if where it can; the emitter binds a part
 * between two tests when the second reads it.  The driver undoes the
 * pass for a form it makes nest more deeply (A goes two lists down).
 */
#include "match/clean_int.h"

/* The parts of (if TEST THEN ELSE) with one else form: false for another
 * form. */
static bool if3(struct clean *c, struct value *v, struct value **test, struct value **then,
                struct value **els)
{
    if (v->kind != VK_CONS || clean_kind(c, v) != CK_IF)
        return false;
    struct value *a = clean_cdr(v);
    if (a->kind != VK_CONS || clean_cdr(a)->kind != VK_CONS ||
        clean_cdr(clean_cdr(a))->kind != VK_CONS ||
        clean_cdr(clean_cdr(clean_cdr(a))) != c->L->nil)
        return false;
    *test = clean_car(a);
    *then = clean_car(clean_cdr(a));
    *els = clean_car(clean_cdr(clean_cdr(a)));
    return true;
}

/* Is x a temporary or a variable of dom[0..n)? */
static bool known_bound(const struct value *x, const struct value *const *dom, size_t n)
{
    if (clean_temp(x))
        return true;
    for (size_t i = 0; i < n; i++)
        if (dom[i] == x)
            return true;
    return false;
}

/* Is val car-safe and cdr-safe of a bound variable? */
static bool part(struct clean *c, const struct value *val, const struct value *const *dom,
                 size_t n)
{
    for (unsigned d = 0; d < 64; d++) {
        if (val->kind == VK_SYMBOL)
            return clean_variable(c, val) && known_bound(val, dom, n);
        if (val->kind != VK_CONS || clean_kind(c, val) == CK_USER ||
            (clean_car(val) != c->sym[CS_CAR_SAFE] && clean_car(val) != c->sym[CS_CDR_SAFE]) ||
            clean_cdr(val)->kind != VK_CONS || clean_cdr(clean_cdr(val)) != c->L->nil)
            return false;
        val = clean_car(clean_cdr(val));
    }
    return false;
}

/* May the let l, whose body is the inner if, go around the outer one? */
static bool let_ok(struct clean *c, struct value *l, struct value *a, struct value *e,
                   const struct value *const *dom, size_t n)
{
    if (clean_effect(c, a) == CE_ANY)
        return false;
    for (struct value *b = clean_car(clean_cdr(l)); b->kind == VK_CONS; b = clean_cdr(b)) {
        struct value *var, *val;
        if (!clean_binding(c, clean_car(b), &var, &val) || !clean_temp(var) ||
            !part(c, val, dom, n) || clean_mentions(c, a, var) || clean_mentions(c, e, var))
            return false;
    }
    return true;
}

/* The let around the inner if, when then is one (else NULL); *inner
 * gets the if. */
static struct value *let_of(struct clean *c, struct value *then, struct value **inner)
{
    *inner = then;
    if (then->kind != VK_CONS || clean_kind(c, then) != CK_LET ||
        clean_cdr(then)->kind != VK_CONS || clean_cdr(clean_cdr(then))->kind != VK_CONS ||
        clean_cdr(clean_cdr(clean_cdr(then))) != c->L->nil)
        return NULL;
    *inner = clean_car(clean_cdr(clean_cdr(then)));
    return then;
}

/* Append to *tail the conjuncts of test t (those of an and made here, or
 * t). */
static struct value **conjuncts(struct clean *c, struct value **tail, struct value *t)
{
    struct value *l = c->L->nil;
    if (t->kind == VK_CONS && clean_car(t) == c->sym[CS_AND] && clean_kind(c, t) != CK_USER)
        l = clean_cdr(t);
    else
        l = clean_cons(c, t, c->L->nil);
    for (; l->kind == VK_CONS; l = clean_cdr(l)) {
        *tail = clean_cons(c, clean_car(l), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    return tail;
}

/* The if at *slot joined with the one in its then part; false when it
 * is not such an if. */
static bool join(struct clean *c, struct value **slot, const struct value *const *dom,
                 size_t n)
{
    struct value *v = *slot, *a, *then, *e, *inner, *t2, *x, *e2;
    if (!if3(c, v, &a, &then, &e))
        return false;
    struct value *l = let_of(c, then, &inner);
    if (!if3(c, inner, &t2, &x, &e2) || !clean_same(c, e, e2) ||
        (l && !let_ok(c, l, a, e, dom, n)))
        return false;
    struct value *both = c->L->nil;
    conjuncts(c, conjuncts(c, &both, a), t2);
    struct value *test = clean_cons(c, c->sym[CS_AND], both);
    struct value *joined = clean_cons(c, c->sym[CS_IF], clean_list3(c, test, x, e2));
    clean_moved(c, v, joined);
    if (l) {
        clean_cdr(clean_cdr(l))->u.cons.car = joined;
        joined = l;
    }
    *slot = joined;
    return true;
}

/* The walk goes on into a let made here (its if is joined there, where
 * the let's parts are bound), not again into the if at the same place. */
static void at(struct clean *c, struct value **slot, const struct value *const *dom, size_t n)
{
    while (join(c, slot, dom, n) && clean_kind(c, *slot) == CK_IF)
        ;
}

void clean_and(struct clean *c, struct value **slot)
{
    clean_visit_dom(c, slot, at);
}
