/* clean_not.c - the pass `not': (if (not X) A B) is (if X B A).
 *
 * Only for an if with one else form (several would need a progn) and a
 * generated (not X): a guard the user wrote as (not ...) stays as it is.
 */
#include "match/clean_int.h"

static void at(struct clean *c, struct value **slot)
{
    struct value *v = *slot, *args = clean_cdr(v);
    if (clean_kind(c, v) != CK_IF || args->kind != VK_CONS)
        return;
    struct value *test = clean_car(args), *then = clean_cdr(args);
    if (test->kind != VK_CONS || clean_car(test) != c->sym[CS_NOT] ||
        clean_kind(c, test) == CK_USER || clean_cdr(test)->kind != VK_CONS ||
        clean_cdr(clean_cdr(test)) != c->L->nil || then->kind != VK_CONS ||
        clean_cdr(then)->kind != VK_CONS || clean_cdr(clean_cdr(then)) != c->L->nil)
        return;
    struct value *a = clean_car(then), *b = clean_car(clean_cdr(then));
    clean_edited(c);
    args->u.cons.car = clean_car(clean_cdr(test));
    then->u.cons.car = b;
    clean_cdr(then)->u.cons.car = a;
}

void clean_not(struct clean *c, struct value **slot)
{
    clean_visit(c, slot, at, 0);
}
