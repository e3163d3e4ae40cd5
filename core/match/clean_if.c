/* clean_if.c - the pass `if': (cond (A B...) (t E...)) is
 * (if A (progn B...) E...).
 *
 * The same tests and forms in the same order.  The else forms stand one
 * list higher than in their (t ...) clause, the forms B one the same
 * (in the progn instead of the clause): where the else forms are a
 * form's deepest part the if nests less deeply, as Emacs's pcase writes
 * a choice of two.  A cond of two clauses whose first body is one form
 * is an if already (clean_tidy_cond); the driver keeps this pass's work
 * only for a form it makes nest less deeply (clean.c, by_depth), so that
 * a flat cond stays where it costs nothing.
 */
#include "match/clean_int.h"

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot, *cls = clean_cdr(v);
    if (clean_kind(c, v) != CK_COND || cls->kind != VK_CONS || clean_cdr(cls)->kind != VK_CONS ||
        clean_cdr(clean_cdr(cls)) != c->L->nil)
        return;
    struct value *first = clean_car(cls), *second = clean_car(clean_cdr(cls));
    if (first->kind != VK_CONS || clean_car(first) == c->L->t ||
        clean_cdr(first)->kind != VK_CONS || second->kind != VK_CONS ||
        clean_car(second) != c->L->t || clean_cdr(second)->kind != VK_CONS)
        return;
    /* the body's own cells go into the progn: what the caller knows of
     * them (whose comments they carry) stays */
    clean_changing(c);
    struct value *then = clean_cdr(clean_cdr(first)) == c->L->nil
                             ? clean_car(clean_cdr(first))
                             : clean_cons(c, c->sym[CS_PROGN], clean_cdr(first));
    *slot = clean_cons(c, c->sym[CS_IF],
                       clean_cons(c, clean_car(first), clean_cons(c, then, clean_cdr(second))));
    clean_moved(c, v, *slot);
}

void clean_if(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
