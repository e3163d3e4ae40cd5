/* clean_safe.c - the pass `safe': car and cdr of a value known to be a cons.
 *
 * (car-safe E) is (car E) where E is a cons (clean_facts: a consp test
 * passed on every path to it, or an equality of E's car with a constant
 * that is not nil, and nothing could have changed E since): the same
 * value, and neither signals.
 */
#include "match/clean_int.h"

static struct value *at(struct facts *f, struct value *v)
{
    struct clean *c = clean_facts_clean(f);
    const struct value *h = clean_car(v), *r = clean_cdr(v);
    if ((h == c->sym[CS_CAR_SAFE] || h == c->sym[CS_CDR_SAFE]) && r->kind == VK_CONS &&
        clean_cdr(r) == c->L->nil && clean_facts_kinds(f, clean_car(r)) == CLEAN_KIND_CONS) {
        v->u.cons.car = h == c->sym[CS_CAR_SAFE] ? c->sym[CS_CAR] : c->sym[CS_CDR];
        clean_edited(c);
    }
    return NULL;
}

void clean_safe(struct clean *c, struct value **slot)
{
    clean_facts_walk(c, slot, at, false);
}
