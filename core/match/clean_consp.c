/* clean_consp.c - the pass `consp': a consp test that the next test of an
 * and implies goes into it.
 *
 * (and ... (consp E) (P (car E)) ...) is (and ... (P (car-safe E)) ...)
 * when P is false on nil: a type predicate that fails on nil, or an
 * equality with a constant that is not nil (a memq of a proper list
 * without nil); and P is pure (a byte-code instruction, or a membership
 * test of a quoted list: no call is made, so running it where it did not
 * run before is not seen; stringp, not vectorp).  Where E is a cons both read the same car; where it is
 * not, the and was nil at (consp E) and is nil at P, whose car-safe is
 * nil; so the and has the same value, and a test that holds still says
 * that E is a cons.  The same for cdr.  E is a variable or a chain of
 * car / cdr (-safe) of one, read once where it was read twice: no
 * effect, and it signals where it did before, in (consp E).  P's
 * accessor may read E's car or cdr with the other accessor of the pair
 * (car for car-safe): E is the same value there.  The byte code loses a
 * test and a jump: (consp E) and its goto, five bytes.
 */
#include "match/clean_int.h"

/* Is a (car-safe X) or (cdr-safe X), or its unsafe twin?  Which: *cdr. */
static bool access_of(const struct clean *c, const struct value *a, bool *cdr,
                      const struct value **x)
{
    if (a->kind != VK_CONS || clean_cdr(a)->kind != VK_CONS ||
        clean_cdr(clean_cdr(a)) != c->L->nil)
        return false;
    const struct value *h = clean_car(a);
    if (h != c->sym[CS_CAR] && h != c->sym[CS_CAR_SAFE] && h != c->sym[CS_CDR] &&
        h != c->sym[CS_CDR_SAFE])
        return false;
    *cdr = h == c->sym[CS_CDR] || h == c->sym[CS_CDR_SAFE];
    *x = clean_car(clean_cdr(a));
    return true;
}

/* Are a and b the same chain of accessors of one variable, car and
 * car-safe (cdr and cdr-safe) taken as one?  Iterative. */
static bool same_chain(const struct clean *c, const struct value *a, const struct value *b)
{
    for (;;) {
        if (a->kind == VK_SYMBOL || b->kind == VK_SYMBOL)
            return a == b && clean_variable(c, a);
        bool da, db;
        const struct value *xa, *xb;
        if (!access_of(c, a, &da, &xa) || !access_of(c, b, &db, &xb) || da != db)
            return false;
        a = xa;
        b = xb;
    }
}

/* Is P of test t false on nil, and t a call (P ARG [CONSTANT])?  Its
 * argument's slot in *arg. */
static bool false_on_nil(struct clean *c, struct value *t, struct value ***arg)
{
    if (t->kind != VK_CONS || clean_mark_of(c->marks, t) == CLEAN_USER ||
        clean_cdr(t)->kind != VK_CONS || clean_car(t)->kind != VK_SYMBOL ||
        clean_call_effect(c, t) != CE_NONE)
        return false;
    const struct value *h = clean_car(t), *more = clean_cdr(clean_cdr(t));
    uint8_t yes, no;
    if (more == c->L->nil) {
        if (!clean_facts_pred(h, &yes, &no))
            return false;
    } else {
        const struct value *k;
        if (more->kind != VK_CONS || clean_cdr(more) != c->L->nil ||
            !(k = clean_constant(c, clean_car(more))))
            return false;
        yes = clean_facts_equal_kinds(c, h, k);
    }
    if (!yes || (yes & CLEAN_KIND_NIL))
        return false;
    *arg = &clean_cdr(t)->u.cons.car;
    return true;
}

/* The conjunct after the cell l of an and, when l's is (consp E) that it
 * implies: rewritten to read E with a safe accessor. */
static bool absorb(struct clean *c, struct value *l)
{
    struct value *test = clean_car(l), *next = clean_car(clean_cdr(l)), **arg;
    if (test->kind != VK_CONS || clean_car(test) != c->sym[CS_CONSP] ||
        clean_mark_of(c->marks, test) == CLEAN_USER || clean_cdr(test)->kind != VK_CONS ||
        clean_cdr(clean_cdr(test)) != c->L->nil || !false_on_nil(c, next, &arg))
        return false;
    struct value *e = clean_car(clean_cdr(test)), *a = *arg;
    bool cdr;
    const struct value *x;
    if (!access_of(c, a, &cdr, &x) || !same_chain(c, x, e))
        return false;
    a->u.cons.car = cdr ? c->sym[CS_CDR_SAFE] : c->sym[CS_CAR_SAFE];
    clean_cdr(a)->u.cons.car = e;
    return true;
}

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot;
    if (v->kind != VK_CONS || clean_car(v) != c->sym[CS_AND])
        return;
    bool changed = false;
    for (struct value **l = &v->u.cons.cdr; (*l)->kind == VK_CONS;) {
        if (clean_cdr(*l)->kind == VK_CONS && absorb(c, *l)) {
            clean_moved(c, clean_car(*l), clean_car(clean_cdr(*l)));
            *l = clean_cdr(*l); /* the next conjunct may absorb again */
            changed = true;
            clean_edited(c);
        } else {
            l = &(*l)->u.cons.cdr;
        }
    }
    if (changed && clean_cdr(v)->kind == VK_CONS && clean_cdr(clean_cdr(v)) == c->L->nil) {
        *slot = clean_car(clean_cdr(v)); /* (and X): X */
        clean_moved(c, v, *slot);
    }
}

void clean_consp(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
