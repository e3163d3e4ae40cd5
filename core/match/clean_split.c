/* clean_split.c - the pass `split': a cond clause ((or A B...) K) whose
 * body K is a symbol or a small integer is the clauses (A K) (B K)...
 *
 * Each test runs as before (the or stopped at the first true one, the
 * clauses do too) and K, a constant, is the value either way.  The or is
 * one list deeper than its tests: Emacs's pcase writes the clauses, and
 * where the or is on a form's deepest path it nests more deeply than
 * Emacs's expansion.  The driver keeps the pass's work only for a form
 * that it makes nest less deeply (clean.c, only_shallower), so a form
 * where it gains nothing keeps its one test.
 */
#include "match/clean_int.h"

/* Is k a constant whose every occurrence is the same object (eq): a
 * symbol, quoted or not, or a small integer?  A string or a quoted list
 * written twice reads as two objects, where the one K was one. */
static bool same_object(const struct clean *c, const struct value *k)
{
    const struct value *v = clean_constant(c, k);
    if (!v)
        return false;
    if (v->kind == VK_INT)
        return v->u.i > -(1 << 29) && v->u.i < (1 << 29);
    return v->kind == VK_SYMBOL;
}

/* A copy of the constant k for another clause (a quoted form is a new
 * list: the printer's notes about code are per list). */
static struct value *again(struct clean *c, struct value *k)
{
    if (k->kind == VK_CONS)
        return clean_list2(c, clean_car(k), clean_car(clean_cdr(k)));
    return k;
}

/* The clause at *p split when it is ((or A B...) K); the slot after the
 * last clause made, or the one after *p. */
static struct value **split(struct clean *c, struct value **p)
{
    struct value *cl = clean_car(*p), *test, *body;
    if (cl->kind != VK_CONS || clean_cdr(cl)->kind != VK_CONS ||
        clean_cdr(clean_cdr(cl)) != c->L->nil)
        return &(*p)->u.cons.cdr;
    test = clean_car(cl);
    body = clean_car(clean_cdr(cl));
    if (test->kind != VK_CONS || clean_car(test) != c->sym[CS_OR] ||
        clean_kind(c, test) == CK_USER || clean_cdr(test)->kind != VK_CONS ||
        !same_object(c, body))
        return &(*p)->u.cons.cdr;
    struct value *rest = clean_cdr(*p), *l = clean_cdr(test);
    struct value **tail = p;
    clean_changing(c);
    for (bool first = true; l->kind == VK_CONS; l = clean_cdr(l), first = false) {
        struct value *k = first ? body : again(c, body);
        *tail = clean_cons(c, clean_list2(c, clean_car(l), k), c->L->nil);
        tail = &(*tail)->u.cons.cdr;
    }
    *tail = rest;
    return tail;
}

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot;
    if (clean_kind(c, v) != CK_COND)
        return;
    for (struct value **p = &v->u.cons.cdr; (*p)->kind == VK_CONS;)
        p = split(c, p);
}

void clean_split(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
